"""Every decision a game asks for has a title in the moderator's words (`referee status`)."""

import pytest

from referee import registry
from referee.contract import decision_title
from referee.playthrough import play


@pytest.mark.parametrize("name", ["constantinopolis", "porto-carthago"])
def test_every_decision_met_in_a_game_has_a_title(name):
    game = registry.get(name)
    seen: set[str] = set()
    play(game, ["ann", "bob", "cat", "dan"], f"titles-{name}",
         on_step=lambda pt: seen.update(p.decision for p in game.prompts(pt.state)))
    assert len(seen) >= 5
    assert not seen - set(game.decision_titles), "decisions without a title"


def test_a_game_without_titles_shows_the_decision_readably():
    assert decision_title(object(), "auction.bid") == "auction: bid"  # type: ignore[arg-type]
    assert decision_title(registry.get("constantinopolis"), "construct.turn") == "construction turn"
