"""Wrong or out-of-place orders never crash the engine: they raise an OrderError and leave
the state as it was."""

import pytest

from games.constantinopolis import GAME
from referee.contract import OrderError
from referee.playthrough import play
from referee.storage import fingerprint

TEXTS = ["stay", "take consul", "bid magister 2", "bid comes 1 up to 5", "raise 3", "pass", "defend 4",
         "good yellow", "build Metallum", "build public 6", "build wall guard", "build cura with redemptor",
         "buy 1 green", "sell 2 red", "use Caupona", "exchange red for green", "trade green green green",
         "done", "preempt", "allow", "preempt list Cura", "preempt never", "redraw 1 2", "load 5 on ship 1",
         "load 999 on ship 7", "unload 3", "post", "save 4", "free 4", "ship large", "accept 1", "reject 1",
         "offer bob give 1 gold for nothing", "donate green", "keep nothing", "discard 1 black",
         "bid nowhere 3", "fly", "take", "keep 9 green"]


@pytest.mark.parametrize("seed", range(3))
def test_every_text_in_every_position_is_handled(seed):
    seen = []

    def probe(pt):
        if pt.steps % 7:
            return
        st = pt.state
        before = fingerprint(st)
        for player in pt.players:
            for text in TEXTS:
                try:
                    GAME.apply(st, player, GAME.parse(st, player, text))
                except OrderError as e:
                    assert e.message
                    seen.append(e.category)
        assert fingerprint(st) == before

    play(GAME, ["ann", "bob", "cid"], f"fuzz{seed}", {"free_trade": True}, on_step=probe)
    assert seen
