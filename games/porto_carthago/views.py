"""What each player may see: money is secret (A33) until the game is over, the deck order is hidden, peeks are
private (reference §5.11); the moderator (None) sees everything.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Order
from referee.memo import Memo
from referee.wording import order_text, term

from .board import DOCKS, PALACE_SEAT, PRIVILEGE_TEXT, goods_price, ship_card, storage_spaces
from .flow import DECISION_TITLES, current_decision, task
from .grammar import format_order
from .palace import purchase_problem
from .plans import standing_lines
from .scoring import seats_bought
from .state import State


# The parts of the view (its top-level keys) each decision reads, shown whole in the mail
# that asks for it even when they did not change: every dock where a dock is chosen or a
# ship docks, the action slots and the market for an action, the palace wherever a seat
# can be bought (on an action turn: with the seat privilege, or through the side action of
# slots 4 and 6 when the player has a servant and the trade points the cheapest field needs).
DECISION_READS: dict[str, tuple[str, ...]] = {
    "setup.optional_dock": ("docks", "market"),
    "setup.compulsory_dock": ("docks", "market"),
    "arrival.lighthouse": ("docks", "row1"),
    "action.main": ("slots", "market"),  # and the palace where a seat can be bought on this turn
    "action.after": ("slots", "palace"),
    "intrigue.reward": ("intrigue_path",),
    "privilege.immediate": ("privileges",),
    "privilege.arrange": (),
    "market.refill_buy": ("market",),
    "end.final_seat": ("palace",),
}


def reads(state: State, player: str) -> list[str]:
    """The view's parts the decision open for `player` reads; none when they are not asked."""
    decision = current_decision(state)
    if decision is None or state["players"][decision.seat] != player:
        return []
    parts = list(DECISION_READS.get(decision.name, ()))
    if decision.name == "action.main" and (
            any(ship_card(state, card)["privilege"] == PALACE_SEAT for card in state["held"][decision.seat])
            or purchase_problem(state, decision.seat, public=True) is None):
        parts.append("palace")  # the privilege, or a slot's side action, buys a seat on this turn
    return parts


def view(state: State, player: str | None) -> dict[str, Any]:
    """The position as `player` may see it; None is the moderator, who sees everything."""
    seat = state["players"].index(player) if player in state["players"] else None
    moderator = player is None
    decision = current_decision(state)
    components = state["comp"]
    players = state["players"]
    out: dict[str, Any] = {
        "game": "porto-carthago",
        "components": dict(state["components"]),
        "decade": state["decade"],
        "stage": state["stage"],
        "start_player": players[state["start"]],
        "players": _players(state, seat, moderator),
        "docks": {name: {"owner": None if owner is None else players[owner], "good": good, "ship": ship}
                  for name, owner, good, ship in zip(components["dock_names"][:DOCKS], state["dock_o"],
                                                     state["dock_g"], state["dock_s"])},
        "market": list(state["market"]),
        "next_goods_price": goods_price(state),
        "bag_count": len(state["bag"]),
        "row1": list(state["row1"]),
        "row2": list(state["row2"]),
        "deck_count": len(state["deck"]),
        "slots": [{"slot": i + 1, "card": card, "cost": components["action_slots"][i]["cost"],
                   "side": components["action_slots"][i]["side"],
                   "servants": {players[s]: k for s, k in enumerate(state["on_card"][i]) if k}}
                  for i, card in enumerate(state["slots"])],
        "palace": [None if s is None else players[s] for s in state["palace"]],
        "palace_big_field": {players[s]: k for s, k in enumerate(state["big"]) if k},
        "intrigue_path": [players[s] for s in state["path"]],
        "action": dict(state["act"]) if state["act"] else None,
        "arrival": None if state["arr"] is None else {**state["arr"], "ch": [players[s] for s in state["arr"]["ch"]]},
        "final": state["final"],
        "charters": [None if s is None else players[s] for s in state["charter"]],
        "options": dict(state["opts"]),
        "waiting_for": None if decision is None else {"player": players[decision.seat], "decision": decision.name,
                                                      "text": task(state, decision),
                                                      "title": term(DECISION_TITLES[decision.name])},
    }
    pending = []
    for item in state["pending"]:
        shown = {"type": item["t"], "player": players[item["p"]]}
        shown.update({k: item[k] for k in ("n", "why", "card") if k in item})  # what everyone sees: points, a card
        if item["t"] == "arrange" and (moderator or item["p"] == seat):
            shown["cards"] = list(item["cards"])
        pending.append(shown)
    out["pending"] = pending
    if moderator:
        out["deck"] = list(state["deck"])
        out["bag"] = sorted(state["bag"])
        out["queues"] = {p: list(q) for p, q in state["queue"].items()}
        out["plans"] = {p: dict(parts) for p, parts in (state.get("plans") or {}).items()}
    elif seat is not None:
        out["my_queue"] = list(state["queue"].get(player, []))
        out["my_queue_text"] = [order_text(format_order(Order.from_json(o))) for o in out["my_queue"]]
        plan = standing_lines(state, player)
        if plan:
            out["my_plan"] = plan
    printed = _printed(state)
    out["ship_cards"] = _face_up(printed, out)
    out["privileges"] = dict(PRIVILEGE_TEXT)
    ships = printed.first_last
    out["codes"] = {"goods": list(components["goods"]), "civilizations": list(components["civilizations"]),
                    "ships": list(ships)}  # what the codes of the mail stand for
    out["prices"] = {"palace_fields": [list(f) for f in components["palace_fields"]],
                     "palace_big_field": dict(components["palace_big_field"]),
                     "expand_storage": components["storage"]["expand_cost"]}
    return out


def _players(state: State, seat: int | None, moderator: bool) -> dict[str, Any]:
    """Each player's pieces; money only to its owner and the moderator, and to everyone once
    the game is over (the final ranking breaks ties by it in the open)."""
    out = {}
    over = state["stage"] == "over"
    seats = seats_bought(state)
    charter, path = state["charter"], state["path"]
    for other, player in enumerate(state["players"]):
        out[player] = {
            "money": state["money"][other] if moderator or other == seat or over else None,
            "trade_points": state["tp"][other],
            "supply": state["supply"][other],
            "storage": list(state["store"][other]),
            "storage_spaces": storage_spaces(state, other),
            "lighthouse": state["light"][other],
            "temple": state["temple"][other],
            "charter_ships": charter.count(other),
            "held_cards": list(state["held"][other]),
            "palace_seats": seats[other],
            "path_servants": path.count(other),
        }
    return out


class _Printed(dict):
    """What is printed on each ship card, its id left out (the view's `ship_cards` entries),
    and the first and last card code; made once per component set, as it never changes."""

    first_last: tuple[str, ...] = ()


_PRINTED = Memo(16)  # by component-set hash


def _printed(state: State) -> _Printed:
    """The printed cards of the state's component set, remembered by the set's hash (the same
    hash is the same data); a state without one has them worked out each time."""
    digest = (state.get("components") or {}).get("sha256")
    found = _PRINTED.get(digest) if digest is not None else None
    if found is None:
        cards = state["comp"]["ship_cards"]
        found = _Printed({c: {k: v for k, v in card.items() if k != "id"} for c, card in cards.items()})
        ships = sorted(cards)
        found.first_last = (ships[0], ships[-1]) if ships else ()
        if digest is not None:
            _PRINTED.keep(digest, found)
    return found


def _face_up(printed: _Printed, out: dict[str, Any]) -> dict[str, Any]:
    """What is printed on every ship card this view already names (rows, docks, held cards, a
    peek shown to its owner), so a report can say which good a ship wants; the deck stays shut.
    Each entry is a fresh copy: a view belongs to its reader."""
    ids = {*out["row1"], *out["row2"], *(d["ship"] for d in out["docks"].values())}
    for shown in out["players"].values():
        ids.update(shown["held_cards"])
    for item in out["pending"]:
        ids.update(item.get("cards", ()))
    ids.discard(None)
    return {c: printed[c].copy() for c in sorted(ids)}
