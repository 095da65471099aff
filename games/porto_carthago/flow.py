"""The decade machine: runs every automatic step until somebody has to decide something."""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.contract import Event

from .actions import side_problem
from .arrival import begin, current_chooser, finish
from .board import State, counted, draw_ships, refill_market, shuffle_into
from .palace import final_problem
from .privileges import usable_now
from .setup import dock_round_seat


class Decision(NamedTuple):
    seat: int
    name: str
    kinds: tuple[str, ...]
    item: dict[str, Any] | None = None


MAIN_KINDS = ("talents", "refill", "captain", "aristocrat", "loadmaster", "merchant", "porter", "side", "use")
AFTER_KINDS = ("expand", "palace", "use", "done")
_PENDING = {
    "reward": ("intrigue.reward", ("intrigue",)),
    "priv": ("privilege.immediate", ("accept", "decline")),
    "arrange": ("privilege.arrange", ("arrange",)),
    "refill_buy": ("market.refill_buy", ("buy", "pass")),
}


def turn_seat(state: State) -> int:
    return (state["start"] + state["act"]["i"]) % len(state["players"])


def decision(state: State) -> Decision | None:
    """Who decides what now, or None when the game is over (called on every order, so cheap)."""
    if state["pending"]:
        item = state["pending"][0]
        name, kinds = _PENDING[item["t"]]
        return Decision(item["p"], name, kinds, item)
    st = state["stage"]
    if st == "actions":
        if not state["act"]["main"]:
            return Decision(turn_seat(state), "action.main", MAIN_KINDS)
        return Decision(turn_seat(state), "action.after", AFTER_KINDS)
    if st == "lighthouse":
        return Decision(current_chooser(state), "arrival.lighthouse", ("dock", "reject"))
    if st == "dock1":
        return Decision(dock_round_seat(state), "setup.optional_dock", ("occupy", "pass"))
    if st == "dock2":
        return Decision(dock_round_seat(state), "setup.compulsory_dock", ("occupy",))
    if st == "final_buy":
        return Decision((state["start"] + state["sq"]) % len(state["players"]), "end.final_seat", ("palace", "pass"))
    return None


def describe(state: State, d: Decision) -> str:
    """One line for a human: what the decision asks."""
    item = d.item
    if d.name == "intrigue.reward":
        return (f"you gain {counted(item['n'], 'trade point')} ({item['why']}): how many go onto the intrigue path "
                "instead? (INTRIGUE 0 keeps them all)")
    if d.name == "privilege.immediate":
        return f"take or decline the immediate privilege of ship card {item['card']}"
    if d.name == "privilege.arrange":
        return "put the looked-at ship cards back in an order of your choice (top first)"
    if d.name == "market.refill_buy":
        return f"buy one good from the fresh market for {state['comp']['refill_buy_price']} talents, or pass"
    if d.name == "setup.optional_dock":
        return "you may occupy a dock warehouse with 2 servants, or pass"
    if d.name == "setup.compulsory_dock":
        return "occupy a dock warehouse and take one good from the market into your storage"
    if d.name == "arrival.lighthouse":
        arr = state["arr"]
        extra = " or send one ship away" if arr["i"] == 0 and arr["fresh"] else ""
        return f"choose a ship of row 1 to dock ({arr['left']} more){extra}"
    if d.name == "action.main":
        return f"decade {state['decade']}, action round {state['act']['r']}: choose your action"
    if d.name == "action.after":
        return "take the side action, use a privilege, or say DONE"
    return f"buy one final palace seat for {state['comp']['final_seat']['price']} talents, or pass"


def after_open(state: State, seat: int) -> bool:
    """Whether the active player might still do something optional this turn, judged on what
    every player can see: the player's money is secret (A33), so a turn is not closed because
    they cannot pay; they answer DONE instead."""
    if side_problem(state, seat, "expand", public=True) is None or side_problem(state, seat, "palace", public=True) is None:
        return True
    return any(usable_now(state, seat, c, public=True) for c in state["held"][seat])


def advance(state: State, events: list[Event]) -> None:
    """Run automatic steps until a decision is due (pending decisions always come first)."""
    n = len(state["players"])
    comp = state["comp"]
    while not state["pending"]:
        st = state["stage"]
        if st in ("dock1", "dock2"):
            if state["sq"] < n:
                return
            if st == "dock1":
                state["stage"], state["sq"] = "dock2", 0
            else:
                state["stage"] = "arrival"
        elif st == "arrival":
            events.append(Event("decade", f"Decade {state['decade']} begins: the ships of row 1 "
                                f"({', '.join(state['row1']) or 'none'}) enter the harbour.",
                                {"decade": state["decade"], "row1": list(state["row1"])}))
            begin(state, automatic=False)
            state["stage"] = "lighthouse"
        elif st == "final_arrival":
            events.append(Event("final", "Goods still lie in the docks: the ships of row 1 enter one last time.",
                                {"row1": list(state["row1"])}))
            # A30: the rule's words send every ship of row 1 in; the lighthouse reading is an option
            begin(state, automatic=state["opts"].get("final_arrival", "automatic") == "automatic")
            state["stage"] = "lighthouse"
        elif st == "lighthouse":
            if current_chooser(state) is not None:
                return
            finish(state, events)
            if state["final"]:
                state["stage"], state["sq"] = "final_buy", 0
            else:
                state["stage"] = "refresh"
        elif st == "refresh":
            refresh(state, events)
        elif st == "actions":
            act = state["act"]
            if act["r"] > comp["actions_per_decade"]:
                end_of_decade(state, events)
                continue
            seat = turn_seat(state)
            if act["main"] and (act["end"] or not after_open(state, seat)):
                act.update({"i": act["i"] + 1, "main": False, "slot": None, "side": False, "end": False})
                if act["i"] >= n:
                    act["i"] = 0
                    act["r"] += 1
                continue
            return
        elif st == "final_buy":
            # asked on open facts only (servant in supply, 6 trade points); money is secret
            while state["sq"] < n and final_problem(state, (state["start"] + state["sq"]) % n, public=True) is not None:
                state["sq"] += 1
            if state["sq"] < n:
                return
            state["stage"] = "over"
        else:
            return


def refresh(state: State, events: list[Event]) -> None:
    """Phases 1b to 5: rows move up, cards re-laid, start player, income, market."""
    n = len(state["players"])
    comp = state["comp"]
    state["row1"] = state["row2"]
    state["row2"] = draw_ships(state, n + comp["ship_rows_extra"])
    state["slots"] = shuffle_into(state, "cards", list(state["action_cards"]))
    for slot in state["on_card"]:
        for s in range(n):
            state["supply"][s] += slot[s]
            slot[s] = 0
    events.append(Event("cards", "Action cards laid out: " + ", ".join(
        f"{i + 1}:{c} (cost {comp['action_slots'][i]['cost']}"
        + (f", {comp['action_slots'][i]['side']}" if comp["action_slots"][i]["side"] != "none" else "") + ")"
        for i, c in enumerate(state["slots"])) + ".", {"slots": list(state["slots"])}))
    if state["decade"] > 1:
        best = max(state["supply"])
        old = state["start"]
        for k in range(1, n + 1):
            s = (old + k) % n
            if state["supply"][s] == best:
                state["start"] = s
                break
        events.append(Event("start_player", f"{state['players'][state['start']]} has the most servants in supply and "
                            "becomes start player.", {"player": state["players"][state["start"]]}))
    for s in range(n):
        state["money"][s] += state["supply"][s]
    events.append(Event("income", "Income: " + ", ".join(
        f"{p} {state['supply'][s]}" for s, p in enumerate(state["players"])) + " talents.",
        {"income": list(state["supply"])}))
    refill_market(state, False)
    events.append(Event("market", f"The market now holds {' '.join(state['market']) or 'nothing'}.",
                        {"market": list(state["market"])}))
    state["stage"] = "actions"
    state["act"] = {"r": 1, "i": 0, "main": False, "slot": None, "side": False, "end": False}


def end_of_decade(state: State, events: list[Event]) -> None:
    comp = state["comp"]
    dec = state["decade"]
    early = comp["early_end"]
    state["act"] = None
    ended = dec >= comp["decades"] or (dec == early["decade"] and max(state["tp"]) >= early["trade_points"])
    if not ended:
        state["decade"] = dec + 1
        state["stage"] = "arrival"
        return
    events.append(Event("end", f"The game ends after decade {dec}.", {"decade": dec}))
    if any(g is not None for g in state["dock_g"]) and state["row1"]:
        state["final"] = True
        state["stage"] = "final_arrival"
    elif any(g is not None for g in state["dock_g"]):
        state["final"] = True
        state["stage"], state["sq"] = "final_buy", 0
    else:
        state["stage"] = "over"
