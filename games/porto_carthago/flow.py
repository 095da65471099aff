"""The decade machine (Spielverlauf): who decides what now, and every automatic step between
decisions, until somebody has to decide something.

Reference: §5.2, the sequence of a decade: 1 ships enter the harbour (`arrival`), 2 the
action cards are shuffled onto the slots, 3 the start player is determined, 4 income, 5 the
market is filled, 6 five action rounds, 7 the next decade; and §5.9 (the game end) with A29
(the early end), A30 (the last arrival) and A31 (start-player ties).
"""

from __future__ import annotations

from typing import NamedTuple

from referee.contract import Event
from referee.wording import Phrase, listed, order_text, phrase, plural_phrase, term

from .actions import side_problem
from .arrival import begin, current_chooser, finish
from .board import draw_ships, refill_market, shuffle_into
from .components import SIDE_ACTIONS
from .intrigue import reward_reason
from .palace import final_problem
from .privileges import usable_now
from .setup import dock_round_seat
from .state import PendingDecision, State

# Each decision's name as subjects, the moderator and the other players read it: a noun phrase,
# never the second person the deciding player's own prompt (`describe`) speaks in.
DECISION_TITLES = {
    "setup.optional_dock": "setup: optional dock",
    "setup.compulsory_dock": "setup: compulsory dock",
    "arrival.lighthouse": "ship arrival (lighthouse order)",
    "action.main": "action turn",
    "action.after": "action turn: extras",
    "intrigue.reward": "intrigue reward",
    "privilege.immediate": "privilege card",
    "privilege.arrange": "privilege cards: arrange",
    "market.refill_buy": "market refill: buy",
    "end.final_seat": "final palace seat",
}


class Decision(NamedTuple):
    """What is asked now: of which seat, the decision's name, the order keywords that answer
    it, and the pending item when it is one of the small decisions."""

    seat: int
    name: str
    kinds: tuple[str, ...]
    item: PendingDecision | None = None


MAIN_KINDS = ("talents", "refill", "captain", "aristocrat", "loadmaster", "merchant", "porter", "side", "use")
AFTER_KINDS = ("expand", "palace", "use", "done")
_PENDING = {
    "reward": ("intrigue.reward", ("intrigue",)),
    "priv": ("privilege.immediate", ("accept", "decline")),
    "arrange": ("privilege.arrange", ("arrange",)),
    "refill_buy": ("market.refill_buy", ("buy", "pass")),
}


def turn_seat(state: State) -> int:
    """Whose action turn it is: clockwise from the start player."""
    return (state["start"] + state["act"]["i"]) % len(state["players"])


def current_decision(state: State) -> Decision | None:
    """Who decides what now, or None when the game is over (called on every order, so cheap).
    Pending small decisions always come first."""
    if state["pending"]:
        item = state["pending"][0]
        name, kinds = _PENDING[item["t"]]
        return Decision(item["p"], name, kinds, item)
    stage = state["stage"]
    if stage == "actions":
        if not state["act"]["main"]:
            return Decision(turn_seat(state), "action.main", MAIN_KINDS)
        return Decision(turn_seat(state), "action.after", AFTER_KINDS)
    if stage == "lighthouse":
        return Decision(current_chooser(state), "arrival.lighthouse", ("dock", "reject"))
    if stage == "dock1":
        return Decision(dock_round_seat(state), "setup.optional_dock", ("occupy", "pass"))
    if stage == "dock2":
        return Decision(dock_round_seat(state), "setup.compulsory_dock", ("occupy",))
    if stage == "final_buy":
        return Decision((state["start"] + state["sq"]) % len(state["players"]), "end.final_seat", ("palace", "pass"))
    return None


def describe(state: State, decision: Decision, sentence: bool = False) -> Phrase:
    """One line for a human: what the decision asks; with `sentence`, as the start of a
    sentence (HELP), its first letter a capital."""
    item = decision.item
    name = decision.name
    if name == "intrigue.reward":
        values = {"reason": reward_reason(item["why"]), "order": order_text("INTRIGUE 0")}
        if item["n"] == 1:  # asked only when the point may go onto the path: both answers are open
            one = {"reason": values["reason"], "yes": order_text("INTRIGUE 1"), "no": values["order"]}
            return phrase("You gain 1 trade point ({reason}): put it on the intrigue path instead with {yes}, or "
                          "keep it with {no}", **one) if sentence else \
                phrase("you gain 1 trade point ({reason}): put it on the intrigue path instead with {yes}, or keep it "
                       "with {no}", **one)
        if sentence:
            return plural_phrase(item["n"], "You gain {n} trade point ({reason}): how many go onto the intrigue path "
                                 "instead? ({order} keeps them all)", "You gain {n} trade points ({reason}): how many "
                                 "go onto the intrigue path instead? ({order} keeps them all)", **values)
        return plural_phrase(item["n"], "you gain {n} trade point ({reason}): how many go onto the intrigue path "
                             "instead? ({order} keeps them all)", "you gain {n} trade points ({reason}): how many go "
                             "onto the intrigue path instead? ({order} keeps them all)", **values)
    if name == "privilege.immediate":
        return phrase("Take or decline the immediate privilege of ship card {card}", card=item["card"]) if sentence \
            else phrase("take or decline the immediate privilege of ship card {card}", card=item["card"])
    if name == "privilege.arrange":
        return phrase("Put the looked-at ship cards back in an order of your choice (top first)") if sentence \
            else phrase("put the looked-at ship cards back in an order of your choice (top first)")
    if name == "market.refill_buy":
        price = state["comp"]["refill_buy_price"]
        return phrase("Buy one good from the fresh market for {price} talents, or pass", price=price) if sentence \
            else phrase("buy one good from the fresh market for {price} talents, or pass", price=price)
    if name == "setup.optional_dock":
        return phrase("You may occupy a dock warehouse with 2 servants, or pass") if sentence \
            else phrase("you may occupy a dock warehouse with 2 servants, or pass")
    if name == "setup.compulsory_dock":
        return phrase("Occupy a dock warehouse and take one good from the market into your storage") if sentence \
            else phrase("occupy a dock warehouse and take one good from the market into your storage")
    if name == "arrival.lighthouse":
        arrival = state["arr"]
        left = arrival["left"]
        if arrival["i"] == 0 and arrival["fresh"]:
            return phrase("Choose a ship of row 1 to dock ({left} more) or send one ship away", left=left) \
                if sentence else phrase("choose a ship of row 1 to dock ({left} more) or send one ship away", left=left)
        return phrase("Choose a ship of row 1 to dock ({left} more)", left=left) if sentence \
            else phrase("choose a ship of row 1 to dock ({left} more)", left=left)
    if name == "action.main":
        values = {"decade": state["decade"], "round": state["act"]["r"]}
        return phrase("Decade {decade}, action round {round}: choose your action", **values) if sentence \
            else phrase("decade {decade}, action round {round}: choose your action", **values)
    if name == "action.after":
        done = order_text("DONE")
        return phrase("Take the side action, use a privilege, or say {order}", order=done) if sentence \
            else phrase("take the side action, use a privilege, or say {order}", order=done)
    price = state["comp"]["final_seat"]["price"]
    return phrase("Buy one final palace seat for {price} talents, or pass", price=price) if sentence \
        else phrase("buy one final palace seat for {price} talents, or pass", price=price)


def task(state: State, decision: Decision) -> Phrase:
    """What the decision asks, as the other players read it (`now deciding: bruno (...)`):
    named as a task, never addressed to the reader as `describe` does for the one asked."""
    item = decision.item
    name = decision.name
    if name == "intrigue.reward":
        return plural_phrase(item["n"], "{n} trade point gained ({reason}): onto the intrigue path or kept",
                             "{n} trade points gained ({reason}): how many go onto the intrigue path",
                             reason=reward_reason(item["why"]))
    if name == "privilege.immediate":
        return phrase("taking or declining the immediate privilege of ship card {card}", card=item["card"])
    if name == "privilege.arrange":
        return phrase("putting the looked-at ship cards back in any order")
    if name == "market.refill_buy":
        return phrase("buying one good from the fresh market for {price} talents, or passing",
                      price=state["comp"]["refill_buy_price"])
    if name == "setup.optional_dock":
        return phrase("occupying a dock warehouse with 2 servants, or passing")
    if name == "setup.compulsory_dock":
        return phrase("occupying a dock warehouse and taking one good from the market")
    if name == "arrival.lighthouse":
        arrival = state["arr"]
        if arrival["i"] == 0 and arrival["fresh"]:
            return phrase("choosing a ship of row 1 to dock ({left} more) or sending one ship away",
                          left=arrival["left"])
        return phrase("choosing a ship of row 1 to dock ({left} more)", left=arrival["left"])
    if name == "action.main":
        return phrase("choosing an action")
    if name == "action.after":
        return phrase("taking the side action, using a privilege, or finishing the turn")
    return phrase("buying one final palace seat for {price} talents, or passing",
                  price=state["comp"]["final_seat"]["price"])


def after_open(state: State, seat: int) -> bool:
    """Whether the active player might still do something optional this turn, judged on what
    every player can see: the player's money is secret (A33), so a turn is not closed because
    they cannot pay; they answer DONE instead."""
    if side_problem(state, seat, "expand", public=True) is None \
            or side_problem(state, seat, "palace", public=True) is None:
        return True
    return any(usable_now(state, seat, card_id, public=True) for card_id in state["held"][seat])


def advance(state: State, events: list[Event]) -> None:
    """Run automatic steps until a decision is due (pending decisions always come first)."""
    count = len(state["players"])
    while not state["pending"]:
        stage = state["stage"]
        if stage in ("dock1", "dock2"):
            if state["sq"] < count:
                return
            if stage == "dock1":
                state["stage"], state["sq"] = "dock2", 0
            else:
                state["stage"] = "arrival"
        elif stage == "arrival":
            begins = phrase("Decade {decade} begins: the ships of row 1 ({ships}) enter the harbour.",
                            decade=state["decade"], ships=listed(state["row1"])) if state["row1"] else \
                phrase("Decade {decade} begins: the ships of row 1 (none) enter the harbour.", decade=state["decade"])
            events.append(Event("decade", begins, {"decade": state["decade"], "row1": list(state["row1"])}))
            begin(state, automatic=False)
            state["stage"] = "lighthouse"
        elif stage == "final_arrival":
            events.append(Event("final", phrase("Goods still lie in the docks: the ships of row 1 enter one last "
                                                "time."), {"row1": list(state["row1"])}))
            # A30: the rule's words send every ship of row 1 in; the lighthouse reading is an option
            begin(state, automatic=state["opts"].get("final_arrival", "automatic") == "automatic")
            state["stage"] = "lighthouse"
        elif stage == "lighthouse":
            if current_chooser(state) is not None:
                return
            finish(state, events)
            if state["final"]:
                state["stage"], state["sq"] = "final_buy", 0
            else:
                state["stage"] = "refresh"
        elif stage == "refresh":
            refresh(state, events)
        elif stage == "actions":
            if not _next_turn(state, events):
                return
        elif stage == "final_buy":
            # asked on open facts only (servant in supply, 6 trade points); money is secret
            while state["sq"] < count and final_problem(state, (state["start"] + state["sq"]) % count,
                                                        public=True) is not None:
                state["sq"] += 1
            if state["sq"] < count:
                return
            state["stage"] = "over"
        else:
            return


def _next_turn(state: State, events: list[Event]) -> bool:
    """Close the action turn that is over and move to the next (or end the decade after the
    fifth action round); False while the player whose turn it is still has to act."""
    turn = state["act"]
    if turn["r"] > state["comp"]["actions_per_decade"]:
        end_of_decade(state, events)
        return True
    seat = turn_seat(state)
    if turn["main"] and (turn["end"] or not after_open(state, seat)):
        turn.update({"i": turn["i"] + 1, "main": False, "slot": None, "side": False, "end": False})
        if turn["i"] >= len(state["players"]):
            turn["i"] = 0
            turn["r"] += 1
        return True
    return False


def refresh(state: State, events: list[Event]) -> None:
    """Steps 2 to 5 of a decade, with row 2 moving up to row 1 first (A6); then the action
    rounds begin."""
    count = len(state["players"])
    state["row1"] = state["row2"]
    state["row2"] = draw_ships(state, count + state["comp"]["ship_rows_extra"])
    _lay_out_action_cards(state, events)
    if state["decade"] > 1:
        _choose_start_player(state, events)
    for seat in range(count):
        state["money"][seat] += state["supply"][seat]
    incomes = listed(f"{p} {state['supply'][s]}" for s, p in enumerate(state["players"]))
    events.append(Event("income", phrase("Income: {incomes} talents.", incomes=incomes),
                        {"income": list(state["supply"])}))
    refill_market(state, False)
    market = phrase("The market now holds {goods}.", goods=" ".join(state["market"])) if state["market"] \
        else phrase("The market now holds nothing.")
    events.append(Event("market", market, {"market": list(state["market"])}))
    state["stage"] = "actions"
    state["act"] = {"r": 1, "i": 0, "main": False, "slot": None, "side": False, "end": False}


def _lay_out_action_cards(state: State, events: list[Event]) -> None:
    """Step 2: the six action cards are shuffled onto the slots; servants on them go home."""
    slots = state["comp"]["action_slots"]
    state["slots"] = shuffle_into(state, "cards", list(state["action_cards"]))
    for on_card in state["on_card"]:
        for seat in range(len(state["players"])):
            state["supply"][seat] += on_card[seat]
            on_card[seat] = 0
    laid = listed(phrase("{slot} {card} (cost {cost}, side action {side})", slot=i + 1, card=term(card),
                         cost=slots[i]["cost"], side=SIDE_ACTIONS[slots[i]["side"]]) if slots[i]["side"] != "none"
                  else phrase("{slot} {card} (cost {cost})", slot=i + 1, card=term(card), cost=slots[i]["cost"])
                  for i, card in enumerate(state["slots"]))
    events.append(Event("cards", phrase("Action cards laid out: {cards}.", cards=laid),
                        {"slots": list(state["slots"])}))


def _choose_start_player(state: State, events: list[Event]) -> None:
    """Step 3 (not in decade 1): the most servants in supply; a tie goes to the first tied
    player clockwise after the current start player (A31)."""
    count = len(state["players"])
    most = max(state["supply"])
    old = state["start"]
    for k in range(1, count + 1):
        seat = (old + k) % count
        if state["supply"][seat] == most:
            state["start"] = seat
            break
    events.append(Event("start_player", phrase("{player} has the most servants in supply and becomes start player.",
                                               player=state["players"][state["start"]]),
                        {"player": state["players"][state["start"]]}))


def end_of_decade(state: State, events: list[Event]) -> None:
    """After decade 5, or after decade 4 when a trade-point track shows 8 (A29), the game
    ends; with goods left in a dock a last arrival and the final seat purchase follow (A30)."""
    components = state["comp"]
    decade = state["decade"]
    early = components["early_end"]
    state["act"] = None
    ended = decade >= components["decades"] or (decade == early["decade"] and max(state["tp"]) >= early["trade_points"])
    if not ended:
        state["decade"] = decade + 1
        state["stage"] = "arrival"
        return
    events.append(Event("end", phrase("The game ends after decade {decade}.", decade=decade), {"decade": decade}))
    if any(g is not None for g in state["dock_g"]) and state["row1"]:
        state["final"] = True
        state["stage"] = "final_arrival"
    elif any(g is not None for g in state["dock_g"]):
        state["final"] = True
        state["stage"], state["sq"] = "final_buy", 0
    else:
        state["stage"] = "over"
