"""Standing and plan orders are offered under "Plan ahead", never among the orders that answer
the decision open now, unless they belong to that decision (a defend limit during the
auction it is for, the Consul's standing list when he is asked to pre-empt)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.reports import help_text, orders_block
from referee.contract import menu_lines
from referee.orderlines import order_lines
from referee.rendering import menu_text

from .util import positions, service_at

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
PLAN_AHEAD = "# Plan ahead (optional, only you see it): fill in, remove the #"


def split_block(block: list[str]) -> tuple[str, str]:
    """The ORDERS block's orders of now and its Plan ahead part, each as one line of text."""
    cut = block.index(PLAN_AHEAD) if PLAN_AHEAD in block else len(block)
    now, ahead = block[:cut], block[cut:]
    return " ".join(" ".join(now).split()), " ".join(" ".join(ahead).split())


def standing_outside_their_decision(game, state, player) -> list[str]:
    """The menu lines of standing or plan orders that the engine puts among the orders of now
    although the decision open now is not theirs."""
    lines = menu_lines(game, state, player)[0]
    prompt = next(p for p in game.prompts(state) if p.player == player)
    out = []
    for line in lines:
        kinds = {o.kind for o in line.orders}
        if line.ahead:
            continue
        if "defend" in kinds and state.get("phase") != "auction":
            out.append(str(line.text))
        if kinds & {"preempt-list", "preempt-ask"} and prompt.decision != "construct.preempt":
            out.append(str(line.text))
        if game is PORTO and "next turn" in str(line.text):
            out.append(str(line.text))
    return out


@pytest.mark.parametrize("game, players, seed", [(CONSTANTINOPOLIS, 4, "ahead-c"), (PORTO, 4, "ahead-p")])
def test_no_standing_order_among_the_orders_of_another_decision(game, players, seed):
    """Over a whole random game: every asked player's menu keeps its standing orders under
    Plan ahead; the ORDERS block shows them after that heading."""
    checked = 0
    for state in positions(game, players, seed, every=3):
        for prompt in game.prompts(state):
            wrong = standing_outside_their_decision(game, state, prompt.player)
            assert not wrong, (game.phase(state), prompt.decision, wrong)
            menu = menu_text(game, state, prompt.player)
            if menu.ahead:
                block = orders_block(game, state, "g-1", prompt.player, plan=False)
                heading = block.index(PLAN_AHEAD)
                assert all(block.index(f"#   {line}") > heading for line in menu.ahead)
                assert all(block.index(f"# {line}") < heading for line in menu.now)
                checked += 1
    assert checked > 5  # standing orders were met outside their decision


def construction_position():
    from ..constantinopolis.util import at_construct, new, seat
    return at_construct(seat(new(("greg", "jen", "kay")), {"magister": "greg", "pretorio": "jen", "urbi": "kay"}))


def test_defend_is_a_plan_ahead_line_in_construction_and_an_order_of_the_auction():
    st = construction_position()
    now, ahead = split_block(orders_block(CONSTANTINOPOLIS, st, "c1", "greg", plan=False))
    assert "build <building>" in now and "defend" not in now
    # written as a line of the plan's auction part, as the plan lines around it
    assert "# auction: defend <gold> # in the next auction, the most you pay to keep" in ahead
    # filled in with the first `#` removed, the line is an order (what it does stays a comment)
    line = next(x for x in orders_block(CONSTANTINOPOLIS, st, "c1", "greg", plan=False) if "defend <gold>" in x)
    filled = line.removeprefix("#").replace("<gold>", "5")
    assert list(order_lines(filled)) == [(1, "auction: defend 5")]
    helped = help_text(CONSTANTINOPOLIS, st, game_id="c1", player="greg", deadline="none", zone=None)
    assert helped.index("defend <gold>") > helped.index("Plan ahead")
    auction = positions(CONSTANTINOPOLIS, 3, "ahead-auction", every=1)[0]
    asked = CONSTANTINOPOLIS.prompts(auction)[0].player
    assert auction["phase"] == "auction"
    now, _ = split_block(orders_block(CONSTANTINOPOLIS, auction, "c1", asked, plan=False))
    assert "defend <gold>" in now


@pytest.mark.parametrize("lang, line", [("it", "#   asta: difendi <oro>   # nella prossima asta"),
                                        ("de", "#   Versteigerung: verteidigen <Gold>   # so viel zahlst du")])
def test_the_defend_line_under_plan_ahead_is_a_line_of_the_auction_part_in_every_language(lang, line):
    block = orders_block(CONSTANTINOPOLIS, construction_position(), "c1", "greg", lang=lang, plan=False)
    assert [x for x in block if x.startswith(line)], [x for x in block if "<" in x][-4:]


def test_the_plan_ahead_defend_line_filled_in_sets_the_defend_limit(tmp_path):
    svc = service_at(tmp_path, construction_position(), lambda: NOW)
    receipt = svc.referee.submit("c1", "greg", "auction: defend 5")
    assert receipt.status == "accepted", receipt.render()
    with svc.store.transaction("c1") as tx:
        assert tx.state["defend"] == {"greg": 5}


def test_a_rejected_set_lists_the_standing_orders_under_plan_ahead(tmp_path):
    svc = service_at(tmp_path, construction_position(), lambda: NOW)
    receipt = svc.referee.submit("c1", "greg", "build Nowhere")
    assert receipt.status == "rejected"
    text = " ".join(receipt.render().split())
    assert text.index("Orders you may give now:") < text.index("build <building>") < text.index("Plan ahead")
    assert text.index("Plan ahead") < text.index("defend <gold>")
