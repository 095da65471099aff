"""Buying buildings: the kinds, licences, the dearer public tile, wall segments, the Redemptor,
and the purchase itself (by its buyer, or by the Consul when he pre-empts it).

Rulebook: "Buying Buildings", "Types of Buildings", "Production Level Advancement", "Public
Buildings", "City Walls" and "Consul Preemption" in the Construct Buildings phase; the
building list (Buildings, pages 26-28).

A purchase is named by the arguments of its `build` order: {"building": name},
{"public": fame} or {"wall": ability}, with "redemptor": true when the discount is used.
"""

from __future__ import annotations

from typing import Any

from referee.contract import Event
from referee.wording import OrderText, Phrase, order_text, phrase, term

from .components import LICENCES, tables
from .draft import writable, writable_sheet
from .production import able_to_produce
from .state import GameState, PlayerSheet, components_of, illegal, lose_goods, sheet_of

REDEMPTOR_DISCOUNT = 5


def building_kind(components: dict[str, Any], args: dict[str, Any]) -> str:
    """production, commercial, utility, public or wall: a player buys one of each a round."""
    if "public" in args:
        return "public"
    if "wall" in args:
        return "wall"
    info = components["buildings"].get(args.get("building", ""))
    return info["kind"] if info else "?"


def purchase_name(args: dict[str, Any]) -> str:
    """How a purchase is named in events and in the Consul's standing list."""
    if "public" in args:
        return f"public {args['public']}"
    if "wall" in args:
        return f"wall {args['wall']}"
    return args["building"]


def purchase_words(args: dict[str, Any]) -> OrderText:
    """A purchase named in a sentence (`public 4`, `wall guard`, `Cura`), in the reader's words."""
    return order_text(purchase_name(args))


def buyer_price(state: GameState, args: dict[str, Any]) -> int:
    """What the buyer pays: the printed price, less the Redemptor's discount on his line."""
    cost = purchase_cost(state, args)
    return max(0, cost - REDEMPTOR_DISCOUNT) if args.get("redemptor") else cost


def purchase_named(state: GameState, args: dict[str, Any]) -> object:
    """A purchase named in prose by its building, not by the order's words: `the public
    building Domus Regia (4 fame)`, `Cura`; a wall by the glossary's name."""
    if "public" in args:
        tile = public_tile(state, args["public"])
        if tile is not None:
            return phrase("the public building {building} ({fame} fame)", building=tile["name"], fame=tile["fame"])
    if "wall" in args:
        return term(f"{args['wall']} wall")
    if "building" in args:
        return args["building"]
    return purchase_words(args)


# "you already bought a ... building this round", for each kind of building
_KIND_BOUGHT: dict[str, Phrase] = {
    "production": phrase("you already bought a production building this round"),
    "commercial": phrase("you already bought a commercial building this round"),
    "utility": phrase("you already bought a utility building this round"),
    "public": phrase("you already bought a public building this round"),
    "wall": phrase("you already bought a wall building this round"),
}


def public_tile(state: GameState, fame: int) -> dict[str, Any] | None:
    """The public building bought for this fame: the dearer tile of the pair while it is
    there, else the cheaper one."""
    left = state["publics"]
    return next((t for t in tables(components_of(state)).public_by_fame.get(fame, ()) if t["id"] in left), None)


def has_licence(state: GameState, sheet: PlayerSheet, name: str) -> bool:
    """A production building of licence B, C or D needs one of the licence before, unless
    every tile of that licence is gone from the supply."""
    components = components_of(state)
    i = LICENCES.index(components["buildings"][name]["licence"])
    if i == 0:
        return True
    lookups = tables(components)
    owned = {"A"} | {lookups.licence_of[b] for b in sheet["buildings"] if b in lookups.licence_of}
    supply = state["supply"]
    while i > 0:
        before = LICENCES[i - 1]
        if before in owned:
            return True
        if sum(supply[b] for b in lookups.by_licence[before]) > 0:
            return False
        i -= 1
    return True


def purchase_cost(state: GameState, args: dict[str, Any]) -> int:
    """The printed price, before the Redemptor's discount."""
    components = components_of(state)
    if "public" in args:
        tile = public_tile(state, args["public"])
        return tile["cost"] if tile else 0
    if "wall" in args:
        return tables(components).wall_cost[args["wall"]]
    return components["buildings"][args["building"]]["cost"]


def check_purchase(state: GameState, player: str, args: dict[str, Any], *, preempt: bool = False,
                   public: bool = False) -> None:
    """IllegalOrder unless `player` may buy this now (`preempt`: as the Consul, in another
    player's place). With `public`, the buyer's gold is left out unless the public-gold option
    makes it open: what decides whether the Consul is asked must be what every player can see."""
    components = components_of(state)
    sheet = sheet_of(state, player)
    kind = building_kind(components, args)
    if not preempt and kind in sheet["r"]["built"]:
        raise illegal(_KIND_BOUGHT[kind])
    if kind == "wall":
        _check_wall(state, player, args["wall"], preempt)
    elif kind == "public":
        if public_tile(state, args["public"]) is None:
            raise illegal(phrase("no public building worth {fame} fame is left", fame=args["public"]))
    else:
        name = args["building"]
        if state["supply"].get(name, 0) <= 0:
            raise illegal(phrase("no {building} is left in the supply", building=name),
                          reason=phrase("none of that building is left in the supply"))
        if name in sheet["buildings"]:
            raise illegal(phrase("you already own a {building}", building=name))
        if kind == "production" and not has_licence(state, sheet, name):
            licence = components["buildings"][name]["licence"]
            needed = LICENCES[LICENCES.index(licence) - 1]
            raise illegal(phrase("{building} needs a building of licence {licence} first", building=name,
                                 licence=needed),
                          reason=phrase("that needs a building of licence {licence} first", licence=needed))
    if args.get("redemptor"):
        _check_redemptor(state, sheet, preempt)
    cost = buyer_price(state, args)
    if public and not state["options"]["public_gold"]:
        return
    if cost > sheet["gold"]:
        raise illegal(phrase("that costs {cost} gold; you have {gold}", cost=cost, gold=sheet["gold"]) if sheet["gold"]
                      else phrase("that costs {cost} gold; you have none", cost=cost),
                      reason=phrase("that costs more than the {gold} gold you have", gold=sheet["gold"]))


def _check_wall(state: GameState, player: str, wall: str, preempt: bool) -> None:
    """Only the Praefectus Urbi builds a wall segment, once a round; the Consul never pre-empts one."""
    if preempt:
        raise illegal(phrase("the Consul never pre-empts a wall segment"))
    if state["offices"]["urbi"] != player:
        raise illegal(phrase("only the Praefectus Urbi builds wall segments"))
    if state["ability"]["urbi"] is not None:
        raise illegal(phrase("the Praefectus Urbi's ability was already used this round"))
    if wall not in state["walls"]:
        raise illegal(phrase("the {wall} segment is already built", wall=term(f"{wall} wall")),
                      phrase("choose another segment"))


def redemptor_ready(sheet: PlayerSheet) -> bool:
    """The Redemptor owned and unused this round: the first two tests of `_check_redemptor`,
    which the menu asks before trying each purchase with it."""
    return "Redemptor" in sheet["buildings"] and not sheet["r"]["redemptor"]


def wall_builder(state: GameState, player: str) -> bool:
    """The player is the Praefectus Urbi with his ability unused: what `_check_wall` asks
    first of a purchase that is not a pre-emption (the menu asks it before each segment)."""
    return state["offices"]["urbi"] == player and state["ability"]["urbi"] is None


def _check_redemptor(state: GameState, sheet: PlayerSheet, preempt: bool) -> None:
    """The Redemptor: once a round, one red good for 5 gold off, if its owner produces red."""
    if preempt:
        raise illegal(phrase("a pre-emption pays the full price"))
    if "Redemptor" not in sheet["buildings"]:
        raise illegal(phrase("you do not own the Redemptor"))
    if sheet["r"]["redemptor"]:
        raise illegal(phrase("the Redemptor was already used this round"))
    if "red" not in able_to_produce(state, sheet):
        raise illegal(phrase("the Redemptor needs you to produce industrial (red) goods"))
    if sheet["goods"]["red"] < 1:
        raise illegal(phrase("the Redemptor needs one red good to discard"))


def buy_building(state: GameState, player: str, args: dict[str, Any], events: list[Event], *,
                 preempt: bool = False) -> None:
    """Pay and place the tile on the buyer's sheet; a public building gives its fame at once,
    and the last one ends the game after this round."""
    components = components_of(state)
    sheet = writable_sheet(state, player)
    kind = building_kind(components, args)
    cost = purchase_cost(state, args)
    if args.get("redemptor") and not preempt:
        lose_goods(state, sheet, "red", 1)
        sheet["r"]["redemptor"] = True
        cost = max(0, cost - REDEMPTOR_DISCOUNT)
    sheet["gold"] -= cost
    if kind == "public":
        tile = public_tile(state, args["public"])
        writable(state, "publics").remove(tile["id"])
        sheet["public"].append(tile["id"])
        sheet["fame"] += tile["fame"]
        values = {"player": player, "building": tile["name"], "cost": tile["cost"], "gold": cost, "fame": tile["fame"]}
        if preempt:
            text = phrase("{player} pre-empts as Consul and buys the public building {building} for {gold} gold and "
                          "gains {fame} fame.", **values)
        elif cost == tile["cost"]:
            text = phrase("{player} buys the public building {building} for {gold} gold and gains {fame} fame.",
                          **values)
        else:  # the Redemptor's discount: the list price said, so the two numbers explain each other
            text = phrase("{player} buys the public building {building} (list price {cost} gold) for {gold} gold with "
                          "the Redemptor and gains {fame} fame.", **values)
        if not state["publics"]:
            state["last_public"] = True
            text = phrase("{bought} It was the last public building: the game ends after this round.", bought=text)
    elif kind == "wall":
        writable(state, "walls").remove(args["wall"])
        sheet["walls"].append(args["wall"])
        writable(state, "ability")["urbi"] = "wall"
        # `exchange wall`: a wall's name in prose, which the glossaries give apart from its order word
        text = phrase("{player} builds the {wall} segment for {gold} gold.", player=player,
                      wall=term(f"{args['wall']} wall"), gold=cost)
    else:
        writable(state, "supply")[args["building"]] -= 1
        sheet["buildings"].append(args["building"])
        sheet["new"].append(args["building"])
        if not cost:  # a discount can bring the price to nothing, said as such
            text = phrase("{player} pre-empts as Consul and buys {building} free of charge.", player=player,
                          building=args["building"]) if preempt else \
                phrase("{player} buys {building} free of charge.", player=player, building=args["building"])
        else:
            text = phrase("{player} pre-empts as Consul and buys {building} for {gold} gold.", player=player,
                          building=args["building"], gold=cost) if preempt else \
                phrase("{player} buys {building} for {gold} gold.", player=player, building=args["building"],
                       gold=cost)
    if preempt:
        writable(state, "ability")["consul"] = "preempt"
    else:
        sheet["r"]["built"].append(kind)
    events.append(Event("build", text, {"player": player, "building": purchase_name(args), "gold": cost,
                                        "preempt": preempt}))
