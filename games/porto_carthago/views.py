"""What each player may see: money is secret, the deck order is hidden, peeks are private."""

from __future__ import annotations

from typing import Any

from referee.contract import Order

from .board import PRIVILEGE_TEXT, State, dock_name
from .flow import decision, describe
from .grammar import format_order
from .scoring import seats_bought


def view(state: State, player: str | None) -> dict[str, Any]:
    seat = state["players"].index(player) if player in state["players"] else None
    moderator = player is None
    d = decision(state)
    players = {}
    for s, p in enumerate(state["players"]):
        players[p] = {
            "money": state["money"][s] if moderator or s == seat else None,
            "trade_points": state["tp"][s],
            "supply": state["supply"][s],
            "storage": list(state["store"][s]),
            "storage_spaces": state["comp"]["storage"]["spaces"] - state["blocked"][s],
            "lighthouse": state["light"][s],
            "temple": state["temple"][s],
            "charter_ships": state["charter"].count(s),
            "held_cards": list(state["held"][s]),
            "palace_seats": seats_bought(state)[s],
            "path_servants": state["path"].count(s),
        }
    docks = {}
    for i in range(12):
        docks[dock_name(state, i)] = {
            "owner": None if state["dock_o"][i] is None else state["players"][state["dock_o"][i]],
            "good": state["dock_g"][i], "ship": state["dock_s"][i]}
    out: dict[str, Any] = {
        "game": "porto-carthago",
        "components": dict(state["components"]),
        "decade": state["decade"],
        "stage": state["stage"],
        "start_player": state["players"][state["start"]],
        "players": players,
        "docks": docks,
        "market": list(state["market"]),
        "next_goods_price": state["comp"]["goods_prices"][min(state["bought"], len(state["comp"]["goods_prices"]) - 1)],
        "bag_count": len(state["bag"]),
        "row1": list(state["row1"]),
        "row2": list(state["row2"]),
        "deck_count": len(state["deck"]),
        "slots": [{"slot": i + 1, "card": c, "cost": state["comp"]["action_slots"][i]["cost"],
                   "side": state["comp"]["action_slots"][i]["side"],
                   "servants": {state["players"][s]: k for s, k in enumerate(state["on_card"][i]) if k}}
                  for i, c in enumerate(state["slots"])],
        "palace": [None if o is None else state["players"][o] for o in state["palace"]],
        "palace_big_field": {state["players"][s]: k for s, k in enumerate(state["big"]) if k},
        "intrigue_path": [state["players"][s] for s in state["path"]],
        "action": dict(state["act"]) if state["act"] else None,
        "waiting_for": None if d is None else {"player": state["players"][d.seat], "decision": d.name, "text": describe(state, d)},
    }
    pending = []
    for item in state["pending"]:
        shown = {"type": item["t"], "player": state["players"][item["p"]]}
        if item["t"] == "arrange" and (moderator or item["p"] == seat):
            shown["cards"] = list(item["cards"])
        pending.append(shown)
    out["pending"] = pending
    if moderator:
        out["deck"] = list(state["deck"])
        out["bag"] = sorted(state["bag"])
        out["queues"] = {p: list(q) for p, q in state["queue"].items()}
        out["options"] = dict(state["opts"])
    elif seat is not None:
        out["my_queue"] = list(state["queue"].get(player, []))
        out["my_queue_text"] = [format_order(Order.from_json(o)) for o in out["my_queue"]]
    out["ship_cards"] = _face_up(state, out)
    out["privileges"] = dict(PRIVILEGE_TEXT)
    out["prices"] = {"palace_fields": [list(f) for f in state["comp"]["palace_fields"]],
                     "palace_big_field": dict(state["comp"]["palace_big_field"]),
                     "expand_storage": state["comp"]["storage"]["expand_cost"]}
    return out


def _face_up(state: State, out: dict[str, Any]) -> dict[str, Any]:
    """What is printed on every ship card this view already names (rows, docks, held cards, a
    peek shown to its owner), so a report can say which good a ship wants; the deck stays shut."""
    ids = [*out["row1"], *out["row2"], *(d["ship"] for d in out["docks"].values())]
    for p in out["players"].values():
        ids += p["held_cards"]
    for item in out["pending"]:
        ids += item.get("cards", [])
    cards = state["comp"]["ship_cards"]
    return {c: {k: v for k, v in cards[c].items() if k != "id"} for c in sorted(set(ids) - {None})}
