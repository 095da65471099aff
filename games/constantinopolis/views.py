"""What each player may see. Hidden: others' gold (unless the public-gold option is on),
contracts loaded on others' ships, the deck order, others' advance limits, the future market
pile once it lies face down (Italian option), and, while the accept phase runs, which
contracts the others are accepting: players decide in secret and reveal together when the
ships sail, so until then another player's hand, goods and ships show as if they had loaded
nothing (public acts in that phase, such as market deals or a ship bought, do show)."""

from __future__ import annotations

from typing import Any

from .state import clone, comp, contract, level, office_of


def _ship(data: dict[str, Any], ship: dict[str, Any], mine: bool) -> dict[str, Any]:
    out = {"id": ship["id"], "size": ship["size"], "at": ship["at"]}
    if mine:
        out["cargo"] = [dict(contract(data, c)) for c in ship["cargo"]]
    else:
        out["cargo"] = "hidden" if ship["cargo"] else []
    return out


def before_loading(data: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
    """Player `p` as the others see them during the accept phase: every contract on a ship
    in harbour back in hand (by number, so the order tells nothing either), its goods back in
    stock, the ships empty. A ship in harbour carries nothing when the phase opens (arriving
    ships are unloaded), so this undoes exactly the secret loads of this phase."""
    harbour = [c for s in p["ships"] if s["at"] == 0 for c in s["cargo"]]
    goods = dict(p["goods"])
    for c in harbour:
        card = contract(data, c)
        if card["cargo"] != "passenger":
            goods[card["cargo"]] += card["amount"]
    return {**p, "hand": sorted(p["hand"] + harbour), "goods": goods,
            "ships": [dict(s, cargo=[]) if s["at"] == 0 else s for s in p["ships"]]}


def catalogue(data: dict[str, Any]) -> dict[str, Any]:
    """Printed facts a report shows next to what is for sale: costs, kinds, licences, outputs,
    the public buildings' names and fame, office names. Open to all; no position in it."""
    return {
        "buildings": {n: {k: v for k, v in b.items() if k != "tiles"} for n, b in data["buildings"].items()},
        "public": {x["id"]: {"name": x["name"], "cost": x["cost"], "fame": x["fame"]} for x in data["public"]},
        "walls": {w["id"]: w["cost"] for w in data["walls"]},
        "ships": {size: {k: v for k, v in s.items() if k != "count"} for size, s in data["ships"].items()},
        "offices": dict(data["office_names"]),
    }


def view(state: dict[str, Any], player: str | None) -> dict[str, Any]:
    if player is None:
        full = clone(state)
        full.pop("component_data", None)
        return full
    data = comp(state)
    public_gold = state["options"]["public_gold"]
    m = state["market"]
    out: dict[str, Any] = {
        "you": player, "round": state["round"], "phase": state["phase"], "options": dict(state["options"]),
        "components": dict(state["components"]), "offices": dict(state["offices"]), "order": list(state["order"]),
        "market": {"current": data["markets"][m["current"][-1]]["name"],
                   "current_card": data["markets"][m["current"][-1]],
                   "future": (["hidden"] * len(m["future"]) if m["hidden"]
                              else [data["markets"][i]["name"] for i in reversed(m["future"])]),
                   "empties": m["empties"]},
        "supply": dict(state["supply"]), "public_buildings": list(state["publics"]), "walls": list(state["walls"]),
        "ships": dict(state["ships"]), "deck": len(state["deck"]), "discard": len(state["discard"]),
        "ability": dict(state["ability"]), "last_public": state["last_public"], "catalogue": catalogue(data),
    }
    a = state["auction"]
    if a is not None:
        out["auction"] = {"active": a["active"], "coins": dict(a["coins"]), "been_active": list(a["been"]),
                          "duel": None if a["duel"] is None else {k: v for k, v in a["duel"].items() if k != "limit"}}
        if a["duel"] is not None and a["duel"]["challenger"] == player:
            out["auction"]["duel"]["limit"] = a["duel"]["limit"]
    if player in state["defend"]:
        out["your_defend_limit"] = state["defend"][player]
    if state["construct"] is not None:
        c = state["construct"]
        out["construct"] = {"turn": state["order"][c["turn"]] if c["turn"] < len(state["order"]) else None,
                            "pending": c["pending"]}
        if state["offices"]["consul"] == player:
            out["construct"]["your_preempt_list"] = state["preempt"]
    if state["accept"] is not None:
        acc = state["accept"]
        out["accept"] = {"done": list(acc["done"]),
                         "offers": [x for x in acc["offers"] if player in (x["from"], x["to"])],
                         "others_before_loading": True}
    players = {}
    for n in state["players"]:
        p = state["p"][n]
        mine = n == player
        if not mine and state["accept"] is not None:
            p = before_loading(data, p)
        entry = {
            "fame": p["fame"], "gold": p["gold"] if (mine or public_gold) else "hidden",
            "goods": dict(p["goods"]), "buildings": list(p["buildings"]), "public": list(p["public"]),
            "walls": list(p["walls"]), "level": level(p, data), "office": office_of(state, n),
            "ships": [_ship(data, s, mine) for s in p["ships"]],
            "hand": [dict(contract(data, c)) for c in p["hand"]],
            "saved": [dict(contract(data, c)) for c in p["saved"]],
            "posts": p["posts"], "dropped": p["dropped"], "ledger": dict(p["r"]["ledger"]),
            "used": list(p["r"]["used"]),
        }
        players[n] = entry
    out["players"] = players
    return out
