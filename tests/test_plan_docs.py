"""The plan examples in docs/orders-*.md are mails a player can copy: each is accepted as it
stands and comes back in the sender's standing plan."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import registry
from referee.contract import standing_plan
from tests.porto_carthago.helpers import at_actions, who

DOCS = Path(__file__).resolve().parents[1] / "docs"


def examples(name: str) -> list[str]:
    """The fenced blocks of the doc's Plans section."""
    text = (DOCS / f"orders-{name}.md").read_text()
    section = text[text.index("## Plans"):]
    section = section[:section.index("\n## ", 4)]
    return re.findall(r"```\n(.*?)```", section, re.S)


def test_constantinopolis_plan_example_is_accepted_from_a_player_not_asked():
    game = registry.get("constantinopolis")
    names = ["ann", "bob", "cid", "dee"]
    state = game.setup(names, "docs", {}, game.load_components(None))
    asked = {p.player for p in game.prompts(state)}
    player = next(p for p in names if p not in asked)
    [block] = examples("constantinopolis")
    plan = [line for line in block.splitlines() if ":" in line or line.startswith("defend")]
    assert len(plan) >= 8
    state, _ = game.apply(state, player, game.parse(state, player, "\n".join(plan)))
    shown = standing_plan(game, state, player)
    assert "defend 4" in shown and "construction: done" in shown
    assert any(line.startswith("auction: bid consul up to 6") for line in shown)
    for other in names:
        if other != player:
            assert standing_plan(game, state, other) == []


@pytest.mark.parametrize("block", [0, 1])
def test_porto_carthago_plan_examples_are_accepted_while_another_player_moves(block):
    game = registry.get("porto-carthago")
    state = at_actions()
    player = next(p for p in state["players"] if p != who(state))
    text = examples("porto-carthago")[block]
    state, _ = game.apply(state, player, game.parse(state, player, text))
    shown = standing_plan(game, state, player)
    assert len(shown) == len(text.strip().splitlines())
