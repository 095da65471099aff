"""The two ways a game ends, each reached from the opening position through the engine's own
menus and orders: the second exhaustion of the market pile (every random playthrough ends
so), and the purchase of the last public building, after which the round is played out and
the game ends without a store step or a market change."""

from __future__ import annotations

import copy

import pytest

from games.constantinopolis import GAME
from games.constantinopolis.components import BUILTIN_RAW
from referee.contract import canonical_json
from referee.rng import Rng

NAMES = ["ann", "bob", "cid", "dee", "eve"]


def rich_components(gold: int) -> dict:
    """The built-in set with a moderator's larger starting purse, so public buildings are
    within reach in the first rounds."""
    raw = copy.deepcopy(BUILTIN_RAW)
    raw["name"] = "rich start"
    raw["start"]["gold"]["value"] = gold
    return GAME.load_components(raw)


def play_to_the_end(players: int, seed: str, comps: dict) -> tuple[dict, list, list]:
    """Bots that buy a public building whenever the menu offers one, otherwise pick at random."""
    st = GAME.setup(NAMES[:players], seed, {}, comps)
    bots = Rng.from_seed(seed, "bots")
    log: list[tuple[str, str]] = []
    events: list[tuple[int, str, str, str]] = []  # (round, phase before the order, event kind, building)
    while True:
        prompts = GAME.prompts(st)
        if not prompts:
            return st, log, events
        player = prompts[bots.randbelow(len(prompts))].player if prompts[0].simultaneous else prompts[0].player
        menu = GAME.legal_orders(st, player)
        publics = [o for o in menu if o.kind == "build" and "public" in o.args and "redemptor" not in o.args]
        order = publics[0] if publics else menu[bots.randbelow(len(menu))]
        rnd, phase = st["round"], st["phase"]
        st, ev = GAME.apply(st, player, [order])
        assert GAME.check(st) == []
        log.append((player, GAME.format(order)))
        events += [(rnd, phase, e.kind, str(e.data.get("building", ""))) for e in ev]
        assert len(log) < 5000


@pytest.mark.parametrize("players,gold", [(2, 300), (3, 300), (4, 300), (5, 250)])
def test_buying_the_last_public_building_ends_the_game_after_that_round(players, gold):
    comps = rich_components(gold)
    st, log, events = play_to_the_end(players, f"last-public-{players}", comps)
    assert st["phase"] == "over" and st["last_public"] and st["publics"] == []
    assert sum(len(p["public"]) for p in st["p"].values()) == len(comps["public"])
    last = max(i for i, (_, _, kind, what) in enumerate(events) if kind == "build" and what.startswith("public"))
    end_round = events[last][0]
    # the game ended in the round of the last purchase, well before the market runs out
    assert st["round"] == end_round < 9 and st["market"]["empties"] == 0
    after = events[last + 1:]
    kinds = [kind for _, _, kind, _ in after]
    # the rest of that round is played: construction turns end, contracts are accepted
    assert "construct.done" in kinds and "accept.done" in kinds
    # then final scoring, with no market change, store step or new round
    assert kinds.count("score") == players
    assert not {"market", "store", "round"} & set(kinds)
    result = GAME.result(st)
    assert result is not None and result.winners
    # the text log replays to the same final position
    replayed = GAME.setup(NAMES[:players], f"last-public-{players}", {}, comps)
    for player, text in log:
        replayed, _ = GAME.apply(replayed, player, GAME.parse(replayed, player, text))
    assert canonical_json(replayed) == canonical_json(st)


def test_a_random_game_ends_when_the_market_pile_runs_out_twice():
    st, _, events = play_to_the_end(4, "market-end", GAME.load_components(None))
    assert st["phase"] == "over" and not st["last_public"] and st["publics"]
    assert st["market"]["empties"] == 2 and st["market"]["future"] == []
    assert [kind for _, _, kind, _ in events].count("market.last") == 1



def test_final_fame_is_told_with_the_player_as_subject_and_only_what_gave_some():
    """The history's final lines read as every other (`ann scores ...`, never `ann: 0 fame
    ...`, which a digest would set among `bob buys ...` lines in another pattern), and a source
    that gave nothing is said once as none, not as `0 fame`."""
    from games.constantinopolis.scoring import final_scoring
    from referee.i18n.messages import say

    from .util import new

    st = new(("ann", "bob", "cid"))
    st["p"]["ann"]["walls"], st["p"]["ann"]["gold"] = ["exchange", "trade"], 2
    st["p"]["bob"]["walls"], st["p"]["bob"]["gold"] = [], 30
    st["p"]["cid"]["walls"], st["p"]["cid"]["gold"] = [], 0
    for ship in (s for p in st["p"].values() for s in p["ships"]):
        ship["cargo"], ship["at"] = [], None
    events: list = []
    final_scoring(st, events)
    said = {e.data["player"]: str(e.text) for e in events if e.kind == "score"}
    assert said["ann"].startswith("ann scores ") and "fame for walls (none for gold)" in said["ann"]
    assert said["bob"].startswith("bob scores ") and "fame for gold (none for walls)" in said["bob"]
    assert said["cid"].startswith("cid scores no fame for walls or gold")
    assert not [text for text in said.values() if " 0 fame for" in text or text.split()[0].endswith(":")]
    texts = {lang: [say(e.text, lang, GAME) for e in events if e.kind == "score"] for lang in ("de", "it")}
    assert all(t.startswith(("ann erhält", "bob erhält", "cid erhält")) for t in texts["de"]), texts["de"]
    assert all(t.startswith(("ann ", "bob ", "cid ")) and ":" not in t.split()[0] for t in texts["it"]), texts["it"]
