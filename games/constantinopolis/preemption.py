"""Consul Preemption: the Consul pre-empts a purchase, buying the building another player has
chosen in that player's place at full price; the buyer may then choose another of that kind.

Rulebook: "Consul Preemption" (Construct Buildings phase) and the Consul (Public Offices,
page 25): once a round, never a wall segment, no discounts, and instead of his redraw.

The Consul is asked live about each purchase he could pre-empt (`construction` holds the
question and his answer), unless he has given a standing list (`preempt list ...`,
`preempt never`): then the engine answers for him. Whom the game asks never depends on his
gold, which is secret (FAQ): were he asked only when he could pay, every player would learn
whether he can.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event, OrderError
from referee.wording import phrase

from .buildings import buy_building, check_purchase, purchase_name, purchase_words
from .state import GameState


def consul_to_ask(state: GameState, buyer: str, args: dict[str, Any]) -> str | None:
    """The Consul, when the open facts leave him a pre-emption of this purchase: his ability
    unused, not his own purchase, not a wall, a building he could own. His gold is not looked
    at; whether he can pay is answered to him alone."""
    consul = state["offices"]["consul"]
    if consul is None or consul == buyer or state["p"][consul]["dropped"] or state["ability"]["consul"] is not None:
        return None
    if "wall" in args:
        return None
    try:
        check_purchase(state, consul, without_redemptor(args), preempt=True, public=True)
    except OrderError:
        return None
    return consul


def without_redemptor(args: dict[str, Any]) -> dict[str, Any]:
    """A purchase as the Consul would make it: without the buyer's Redemptor."""
    return {k: v for k, v in args.items() if k != "redemptor"}


def standing_list_preempts(state: GameState, consul: str, args: dict[str, Any], events: list[Event]) -> bool:
    """Whether the Consul's standing list pre-empts this purchase. A listed building he cannot
    pay for is let go, as if he had answered ALLOW, and he alone is told why."""
    name = purchase_name(args)
    if state["preempt"] is None or name not in state["preempt"]:
        return False
    try:
        check_purchase(state, consul, without_redemptor(args), preempt=True)
    except OrderError as e:
        events.append(Event("preempt.unpaid", phrase("Your standing list names {building}, but you could not pre-empt "
                                                     "it ({reason}); it went to the buyer.",
                                                     building=purchase_words(args), reason=e.message),
                            {"building": name}, to=(consul,)))
        return False
    return True


def consul_preempts(state: GameState, buyer: str, args: dict[str, Any], events: list[Event]) -> None:
    """The Consul buys the building at full price; the buyer may buy another of that kind."""
    plain = without_redemptor(args)
    buy_building(state, state["offices"]["consul"], plain, events, preempt=True)
    events.append(Event("preempt", phrase("{player} did not get {building} and may buy another building of that "
                                          "kind.", player=buyer, building=purchase_words(plain)), {"player": buyer}))
