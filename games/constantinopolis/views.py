"""What each player may see (the FAQ on hidden information, and the rulebook's Accept
Contracts phase, page 18). Hidden: others' gold (unless the public-gold option is on or the
game is over), contracts loaded on others' ships at sea (unless the ships_public option is
on, which the FAQ allows a table to agree on), the deck order, others' advance limits, the
future market pile once it lies face down (Italian option), and, while the accept phase runs,
which contracts the others are accepting: players decide in secret and reveal together when
the ships sail, so until then another player's hand, goods and ships show as if they had loaded
nothing (public acts in that phase, such as market deals or a ship bought, do show)."""

from __future__ import annotations

from typing import Any

from .components import per_set
from .draft import clone
from . import plan_book
from .production import production_level
from .state import GameState, PlayerSheet, Ship, components_of, contract_card


def _shown_ship(cards: list[dict[str, Any]], ship: Ship) -> dict[str, Any]:
    """A ship with its cargo shown: the contract cards on it (card n is cards[n - 1])."""
    return {"id": ship["id"], "size": ship["size"], "at": ship["at"],
            "cargo": [cards[c - 1].copy() for c in ship["cargo"]]}


def _hidden_ship(ship: Ship) -> dict[str, Any]:
    """A ship whose cargo another player does not see: only whether it carries any."""
    return {"id": ship["id"], "size": ship["size"], "at": ship["at"], "cargo": "hidden" if ship["cargo"] else []}


def before_loading(components: dict[str, Any], sheet: PlayerSheet) -> PlayerSheet:
    """A player sheet as the others see it during the accept phase: every contract on a ship
    in harbour back in hand (by number, so the order tells nothing either), its goods back in
    stock, the ships empty. A ship in harbour carries nothing when the phase opens (arriving
    ships are unloaded), so this undoes exactly the secret loads of this phase."""
    harbour = [c for s in sheet["ships"] if s["at"] == 0 for c in s["cargo"]]
    goods = dict(sheet["goods"])
    for number in harbour:
        card = contract_card(components, number)
        if card["cargo"] != "passenger":
            goods[card["cargo"]] += card["amount"]
    return {**sheet, "hand": sorted(sheet["hand"] + harbour), "goods": goods,
            "ships": [dict(s, cargo=[]) if s["at"] == 0 else s for s in sheet["ships"]]}


# what a player did this round that everyone sees; a contract loaded in secret is not among them
_OPEN_FLAGS = ("built", "redemptor", "walls_used", "ship", "ship_paid", "post", "donated", "redrawn")


_UNSHOWN_FLAGS = frozenset(("ledger", "used"))  # shown apart, as the sheet's "ledger" and "used"


def _round_flags(sheet: PlayerSheet, mine: bool) -> dict[str, Any]:
    """This round's flags of a sheet (its "r"): all of them for its owner, the open ones
    (buildings bought, a ship or post bought, a donation...) for the others. Lists and dicts
    are copies (one level deep: the flags hold scalars below that), so the view shares
    nothing that changes with the state."""
    flags = sheet["r"]
    return {k: flags[k].copy() if type(flags[k]) in (list, dict) else flags[k]
            for k in (flags if mine else _OPEN_FLAGS) if k not in _UNSHOWN_FLAGS}


def catalogue(components: dict[str, Any]) -> dict[str, Any]:
    """Printed facts a report shows next to what is for sale: costs, kinds, licences, outputs,
    the public buildings' names and fame, office names. Open to all; no position in it."""
    return {
        "buildings": {n: {k: v for k, v in b.items() if k != "tiles"} for n, b in components["buildings"].items()},
        "public": {x["id"]: {"name": x["name"], "cost": x["cost"], "fame": x["fame"]} for x in components["public"]},
        "walls": {w["id"]: w["cost"] for w in components["walls"]},
        "ships": {size: {k: v for k, v in s.items() if k != "count"} for size, s in components["ships"].items()},
        "offices": dict(components["office_names"]),
    }


# made once per component set and shared by every view (it is a third of the cost of a view,
# and positions are viewed by every player after every order)
shared_catalogue = per_set(catalogue)


# The parts of the view (its top-level keys, or items of them) each decision reads, shown whole in the mail
# that asks for it even when they did not change: the office board for the auction, what is
# for sale and at what price for construction, the market for trade and donations.
# The market is its card (prices, limits, donations); the cards still to come are shown
# when they change.
_CARD = ("market/current", "market/current_card")
DECISION_READS: dict[str, tuple[str, ...]] = {
    "auction.choose": ("offices",),
    "auction.duel": ("offices",),
    "auction.good": _CARD,
    "construct.turn": ("supply", *_CARD, "walls", "public_buildings"),
    "construct.preempt": ("supply",),
    "accept.contracts": (*_CARD, "ships"),
    "donate": _CARD,
    "store": (),
}


def _offices_held(state: GameState) -> dict[str, str]:
    """Each office holder's office (`office_of` for every player at once: the first office
    held, as it finds it)."""
    held: dict[str, str] = {}
    for office, holder in state["offices"].items():
        if holder is not None and holder not in held:
            held[holder] = office
    return held


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """The position as `player` may see it; None is the moderator, who sees everything."""
    if player is None:
        full = clone(state)
        full.pop("component_data", None)
        # the future market by name, next first: the moderator reads it whether or not it lies face down
        full["future_market"] = [components_of(state)["markets"][i]["name"] for i in reversed(state["market"]["future"])]
        return full
    components = components_of(state)
    public_gold = state["options"]["public_gold"]
    # a game made before the option existed has no key for it: off, as it was played
    public_ships = state["options"].get("ships_public", False)
    market = state["market"]
    out: dict[str, Any] = {
        "you": player, "round": state["round"], "phase": state["phase"], "options": dict(state["options"]),
        "components": dict(state["components"]), "offices": dict(state["offices"]), "order": list(state["order"]),
        "market": {"current": components["markets"][market["current"][-1]]["name"],
                   "current_card": components["markets"][market["current"][-1]],
                   "future": (["hidden"] * len(market["future"]) if market["hidden"]
                              else [components["markets"][i]["name"] for i in reversed(market["future"])]),
                   "empties": market["empties"]},
        "supply": dict(state["supply"]), "public_buildings": list(state["publics"]), "walls": list(state["walls"]),
        "ships": dict(state["ships"]), "deck": len(state["deck"]), "discard": len(state["discard"]),
        "ability": dict(state["ability"]), "last_public": state["last_public"],
        "catalogue": shared_catalogue(components),
    }
    auction = state["auction"]
    if auction is not None:
        duel = auction["duel"]
        out["auction"] = {"active": auction["active"], "coins": dict(auction["coins"]),
                          "been_active": list(auction["been"]), "start": list(auction["start"]),
                          "free": auction["free"], "paid": auction["paid"],
                          "duel": None if duel is None else {k: v for k, v in duel.items() if k != "limit"}}
        if duel is not None and duel["challenger"] == player:
            out["auction"]["duel"]["limit"] = duel["limit"]
    if player in state["defend"]:
        out["your_defend_limit"] = state["defend"][player]
    plan = plan_book.standing_lines(state, player)
    if plan:
        out["your_plan"] = plan
    if state["construct"] is not None:
        construct = state["construct"]
        turn = construct["turn"]
        out["construct"] = {"turn": state["order"][turn] if turn < len(state["order"]) else None,
                            "pending": construct["pending"]}
        if state["offices"]["consul"] == player:
            out["construct"]["your_preempt_list"] = state["preempt"]
    for phase in ("donate", "store"):  # who still decides in a phase everyone plays at once
        if state[phase] is not None:
            out[f"{phase}_waiting"] = list(state[phase])
    if state["accept"] is not None:
        acceptance = state["accept"]
        out["accept"] = {"done": list(acceptance["done"]),
                         "offers": [x for x in acceptance["offers"] if player in (x["from"], x["to"])],
                         "others_before_loading": True}
    players = {}
    over = state["phase"] == "over"  # the final scoring counts everyone's gold in the open
    # a leaver whose pieces are gone has no production level marker left (nor an Ager)
    cards = components["contracts"]  # card n is cards[n - 1] (`contract_card`)
    offices = _offices_held(state)
    for name in state["players"]:
        sheet = state["p"][name]
        mine = name == player
        if not mine and state["accept"] is not None:
            sheet = before_loading(components, sheet)
        flags = sheet["r"]
        players[name] = {
            "fame": sheet["fame"], "gold": sheet["gold"] if (mine or public_gold or over) else "hidden",
            "goods": sheet["goods"].copy(), "buildings": sheet["buildings"].copy(), "public": sheet["public"].copy(),
            "walls": sheet["walls"].copy(), "level": 0 if sheet["removed"] else production_level(sheet, components),
            "office": offices.get(name),
            # another's ships in harbour show empty in the accept phase (`before_loading`) and
            # carry nothing at other times: what `ships_public` shows is the cargo at sea
            "ships": [_shown_ship(cards, s) if mine or public_ships else _hidden_ship(s) for s in sheet["ships"]],
            "hand": [cards[c - 1].copy() for c in sheet["hand"]],
            "saved": [cards[c - 1].copy() for c in sheet["saved"]],
            "posts": sheet["posts"], "dropped": sheet["dropped"], "ledger": flags["ledger"].copy(),
            "used": flags["used"].copy(), "new": sheet["new"].copy(), "removed": sheet["removed"],
            "round": _round_flags(sheet, mine),
        }
    out["players"] = players
    return out
