"""The phase driver: which phase module answers for the open phase, and the automatic steps
run between decisions until somebody has to decide something.

Rulebook: "The Game Round": 1 Auction Public Office, 2 Move Ships, 3 Produce Goods,
4 Construct Buildings, 5 Draw Contracts, 6 Accept Contracts, 7 Donate Goods, 8 End of Round.
Phases 2, 3 and 5 need no decision and run here between the others; the state's "phase" is
one of the deciding phases ("pretorio" is the Praefectus Pretorio's good at the end of
phase 1), or "over".
"""

from __future__ import annotations

from referee.contract import Event

from . import accept, auction, construction, donations, end_of_round, plans, production, ships
from .phases import (PHASE_NAMES, PHASES, allowed_kinds, apply_order, check_order, default_orders,  # noqa: F401
                     legal_orders, prompts)
from .state import GameState

def advance(state: GameState, events: list[Event]) -> None:
    """Run automatic steps until a player must decide (or the game is over)."""
    for _ in range(10_000):
        phase = state["phase"]
        if phase == "auction":
            if auction.settle(state, events):
                continue
        elif phase == "pretorio":
            if state["pretorio"] is None:
                if state["round"] > 1:
                    ships.move_ships(state, events)  # phase 2, skipped in the first round
                production.produce(state, events)  # phase 3
                construction.start(state, events)
                continue
        elif phase == "construct":
            if construction.settle(state, events):
                production.draw_phase(state, events)  # phase 5
                accept.start(state)
                continue
        elif phase == "accept":
            if accept.settle(state, events):
                donations.start(state, events)
                continue
        elif phase == "donate":
            if not state["donate"]:
                state["donate"] = None
                end_of_round.end_of_round(state, events)
                continue
        elif phase == "store":
            if not state["store"]:
                end_of_round.new_round(state, events)
                continue
        if phase == "over":
            return
        if _answer_for_leavers(state, events):
            continue
        if plans.run(state, events):
            continue
        return
    raise RuntimeError("the phase driver did not settle")


def _answer_for_leavers(state: GameState, events: list[Event]) -> bool:
    """A player who has left answers with the default orders (players leave only under the
    drop-out option, see `drop`); True when one did."""
    sheets = state["p"]
    if not state["options"]["dropout"] or not any(sheets[n]["dropped"] for n in state["players"]):
        return False
    gone = [p for p in prompts(state) if sheets[p.player]["dropped"]]
    if not gone:
        return False
    for order in default_orders(state, gone[0].player):
        apply_order(state, gone[0].player, order, events)
    return True
