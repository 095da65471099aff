"""Plan lines among prose: a plan line is an order line (kept, and refused with its error
when it is wrong), never prose set aside, in both games."""

import pytest

from mailer.daemon.prose_lines import set_aside_prose
from referee import registry

PLANS = {
    "constantinopolis": ("construction: build Textrinum or Figulina if available",
                         "auction: bid consl up to 5 or stay"),
    "porto-carthago": ("INTRIGUE: INTRIGUE 2 or 1", "Lighthouse: DOCK nowhere"),
}


def position(name):
    game = registry.get(name)
    state = game.setup(["ann", "bob", "cid"], "prose-plans", {o.name: o.default for o in game.options},
                       game.load_components(None))
    return game, state, game.prompts(state)[0].player


@pytest.mark.parametrize("name", sorted(PLANS))
def test_a_plan_line_among_prose_is_kept(name):
    game, state, player = position(name)
    good, _ = PLANS[name]
    kept, aside = set_aside_prose(game, state, player, ["Hi all,", good, "Thanks, Ann"])
    assert aside == ["Hi all,", "Thanks, Ann"] and good in kept
    assert game.parse(state, player, "\n".join(kept))


@pytest.mark.parametrize("name", sorted(PLANS))
def test_a_wrong_plan_line_is_not_taken_for_prose(name):
    game, state, player = position(name)
    _, wrong = PLANS[name]
    kept, aside = set_aside_prose(game, state, player, ["Hi all,", wrong, "Thanks, Ann"])
    assert wrong in kept and wrong not in aside
