"""The standing plan in reports: its owner's report shows it with how to cancel it, nobody
else's shows it or hints at it, and the ORDERS block offers a plan template where one fits."""

from __future__ import annotations

from pathlib import Path

from mailer.outbound.reports import render_report, report_context
from referee import registry
from referee.cases import load_case, start_position
from referee.progress import DEFAULT, ORDER

CASES = Path(__file__).parent.parent / "cases"


def reports(game, state, player):
    text, html = render_report(report_context(game, state, game_id="g1", player=player, events=[]))
    return text, html


def test_constantinopolis_plan_in_its_owners_report_alone():
    game = registry.get("constantinopolis")
    case = load_case((CASES / "constantinopolis_plans_not_shown_to_others.toml").read_text())
    state = start_position(game, case).state
    state, _ = game.apply(state, "jen", game.parse(state, "jen", "stay"))
    state, _ = game.apply(state, "greg", game.parse(
        state, "greg", "stay\nconstruction: build Textrinum or Figulina\nconstruction: done"))
    text, html = reports(game, state, "greg")
    assert "Your plan (only you see it" in text and "cancel plan" in text
    assert "construction: build Textrinum or Figulina" in text and "Textrinum or Figulina" in html
    for other in ("jen", "kay"):
        text, html = reports(game, state, other)
        assert "Your plan" not in text and "Textrinum or Figulina" not in text + html
    text, _ = reports(game, state, "kay")  # asked in the auction: the template for what follows
    assert "# Plan ahead (optional, only you see it)" in text and "#   construction: build <building>" in text


def test_porto_carthago_plan_in_its_owners_report_alone():
    game = registry.get("porto-carthago")
    case = load_case((CASES / "porto_carthago_plan_hidden_and_cancelled.toml").read_text())
    case["step"] = [s for s in case["step"] if "orders" not in s or s["player"] != "bob"]  # the setup only
    pos = start_position(game, case)
    for step in case["step"]:
        orders = game.default_orders(pos.state, step["player"]) if step.get("default") else \
            pos.take(step["player"], step["orders"])
        pos.submit(step["player"], orders, DEFAULT if step.get("default") else ORDER)
        if pos.waiting_for() == ["ann"] and pos.state["stage"] == "actions":
            break
    state, _ = game.apply(pos.state, "bob", game.parse(pos.state, "bob", "CAPTAIN or TALENTS\nINTRIGUE: INTRIGUE 2 or 1"))
    text, _ = reports(game, state, "bob")
    assert "Your plan" in text and "INTRIGUE: INTRIGUE 2 or 1" in text and "CAPTAIN or TALENTS" in text
    for other in ("ann", "cid"):
        text, html = reports(game, state, other)
        assert "Your plan" not in text and "INTRIGUE 2 or 1" not in text + html
        assert "CAPTAIN or TALENTS" not in text + html
    text, _ = reports(game, state, "ann")
    assert "# Plan ahead (optional, only you see it)" in text and "LIGHTHOUSE: DOCK" in text
