"""The deciding phases: which module takes the orders of the open phase, and the questions
every phase module answers (`prompts`, `question`, `check_order`, `apply_order`,
`legal_orders`, `default_orders`). The phase driver (flow.py) and the plans (plans.py) both
ask through here, so neither needs the other.
"""

from __future__ import annotations

from types import ModuleType

from referee.contract import Event, IllegalOrder, Order, Prompt
from referee.wording import Phrase, phrase

from . import accept, auction, construction, donations, end_of_round
from .state import GameState

PHASE_NAMES = {"auction": ("Auction of public offices", "auction"),
               "pretorio": ("Auction of public offices", "auction"),
               "construct": ("Construct buildings", "construct"), "accept": ("Accept contracts", "accept"),
               "donate": ("Donate goods", "donate"), "store": ("End of round: store goods", "store"),
               "over": ("Game over", "over")}

# the module that takes the orders of each deciding phase: each has `prompts`, `question`,
# `check_order`, `apply_order`, `legal_orders` and `default_orders`
PHASES: dict[str, ModuleType] = {"auction": auction, "pretorio": auction, "construct": construction,
                                 "accept": accept, "donate": donations, "store": end_of_round}


def prompts(state: GameState) -> list[Prompt]:
    phase = PHASES.get(state["phase"])
    return phase.prompts(state) if phase is not None else []


def question(state: GameState, player: str) -> Phrase:
    """What the open phase asks `player`, as the start of a sentence (HELP, theirs alone)."""
    phase = PHASES[state["phase"]]
    if phase in OWN_QUESTIONS:
        return phase.question(state, player, sentence=True, own=True)
    return phase.question(state, player, sentence=True)


OWN_QUESTIONS = (auction, construction)  # phases whose question to a player may name their secrets


def own_question(state: GameState, player: str) -> Phrase | None:
    """The prompt to `player` as they alone read it (their own mail), where it differs from
    the public prompt: it may say what only they know (that their gold is too little)."""
    phase = PHASES.get(state["phase"])
    if phase not in OWN_QUESTIONS or not any(p.player == player for p in prompts(state)):
        return None
    return phase.question(state, player, own=True)


def allowed_kinds(state: GameState, player: str, asked: list[Prompt] | None = None) -> set[str]:
    """The order keywords `player` may give now: those of their prompt, plus the standing
    orders that come ahead of time (a defend limit, the Consul's pre-emption list). `asked`:
    the position's prompts, when the caller has them already."""
    kinds: set[str] = set()
    for prompt in (prompts(state) if asked is None else asked):
        if prompt.player == player:
            kinds.update(prompt.orders)
    kinds.update(("defend", "plan", "cancel"))  # standing orders and plans, for the next auction and on
    if state["phase"] == "construct" and state["offices"]["consul"] == player:
        kinds.update(("preempt-list", "preempt-ask"))
    return kinds


def legal_orders(state: GameState, player: str) -> list[Order]:
    phase = PHASES.get(state["phase"])
    return phase.legal_orders(state, player) if phase is not None else []


def default_orders(state: GameState, player: str) -> list[Order]:
    phase = PHASES.get(state["phase"])
    return phase.default_orders(state, player) if phase is not None else []


def check_order(state: GameState, player: str, order: Order) -> None:
    """IllegalOrder unless the order fits the open phase now; never changes the state."""
    if order.kind == "defend":
        return
    phase = PHASES.get(state["phase"])
    if phase is None:
        raise IllegalOrder(phrase("no orders are taken now"))
    phase.check_order(state, player, order)


def apply_order(state: GameState, player: str, order: Order, events: list[Event]) -> None:
    if order.kind == "defend":  # a standing order, whatever the phase
        auction.set_defend(state, player, order.args["gold"], events)
        return
    phase = PHASES.get(state["phase"])
    if phase is None:
        raise IllegalOrder(phrase("no orders are taken now"))
    phase.apply_order(state, player, order, events)
