"""The hashes of a view's parts (mailer/outbound/folding.py `sections`): taken over from the
reader's last mail where a part is unchanged, they equal the hashes computed afresh."""

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.folding import sections
from referee.playthrough import play


@pytest.mark.parametrize("game", [CONSTANTINOPOLIS, PORTO], ids=lambda g: g.name)
def test_hashes_taken_from_the_last_mail_equal_fresh_ones(game):
    views = []
    play(game, ["ann", "bob", "cid"], "sections", on_step=lambda p: views.append(game.view(p.state, "ann"))
         if p.steps % 3 == 0 else None)
    reused = 0
    for before, now in zip(views, views[1:]):
        known = sections(before)
        fresh = sections(now)
        assert sections(now, known) == fresh
        reused += sum(1 for key in now if known.get(key) == fresh[key])
    assert reused > len(views)  # parts were in fact taken over


def test_a_changed_part_is_hashed_again_and_unknown_parts_are_hashed():
    before = {"docks": {"A": {"owner": None}, "B": {"owner": "ann"}}, "round": 1}
    now = {"docks": {"A": {"owner": "bob"}, "B": {"owner": "ann"}}, "round": 1, "market": [{"good": "wine"}]}
    known = sections(before)
    assert sections(now, known) == sections(now)
    assert sections(now, known)["docks/A"] != known["docks/A"]
    assert sections(now, {"docks": "stale", "docks/A": "stale"}) == sections(now)
    assert sections(now, {"docks/A": "no top-level hash beside it"}) == sections(now)
