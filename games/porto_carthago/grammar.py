"""Order text: one order per line, keywords in any case, names by unique prefix.

Canonical forms (see docs/orders-porto-carthago.md):
  TALENTS | REFILL | BUY G3 | PASS | DONE | EXPAND | PALACE | ACCEPT | DECLINE
  CAPTAIN 2 | ARISTOCRAT 1 LIGHTHOUSE +2 TEMPLE -1 | MERCHANT 4 G3 | SIDE 6
  LOADMASTER 3 OCCUPY C2-I | LOADMASTER 3 SWITCH C2-I TO C4-II | LOADMASTER 3 DISSOLVE C2-I
  PORTER 5 STORAGE G1 TO C1-I | PORTER 5 C1-I TO CHARTER | PORTER 5 C1-I TO STORAGE
  USE S05 | USE S19 C1-I | USE S16 S30 | USE S07 Ann LIGHTHOUSE 2 Bob TEMPLE 1
  ARRANGE S12 S03 S20 | INTRIGUE 1 | DOCK S05 | DOCK S05 II | REJECT S05
  OCCUPY C1-I | OCCUPY C1-I TAKE G3
"""

from __future__ import annotations

from typing import Any, Callable

from referee.contract import AmbiguousOrder, IllegalOrder, InvalidOrder, Order, OrderError, OrderErrors, OrderShape
from referee.memo import Memo
from referee.orderlines import fold, join_alternatives, order_lines, parse_int, sections, split_alternatives, \
    split_optional
from referee.orderlines import match_name as _match_name
from referee.wording import Phrase, either, listed, menu_order, order_text, phrase, term

from .board import ANY_GOOD, MOVE_SERVANTS, SHIP_ENTERS
from .plan_parts import CANCELLABLE, PART_NAMES, PARTS, TURNS
from .state import State

KEYWORDS: dict[str, str] = {k: k for k in (
    "talents", "refill", "buy", "pass", "done", "expand", "palace", "accept", "decline", "captain",
    "aristocrat", "merchant", "side", "loadmaster", "porter", "use", "arrange", "intrigue", "dock",
    "reject", "occupy", "cancel")}
KEYWORDS.update({
    "kapitän": "captain", "kapitaen": "captain", "aristokrat": "aristocrat", "lademeister": "loadmaster",
    "händler": "merchant", "haendler": "merchant", "träger": "porter", "traeger": "porter",
    "money": "talents", "finish": "done", "end": "done",
})
SLOTTED = ("captain", "aristocrat", "loadmaster", "merchant", "porter", "side")
NO_ARGS = ("talents", "refill", "pass", "done", "expand", "palace", "accept", "decline")


def match_name(word: str, names: dict[str, str], what: str) -> str:
    """The shared matcher, plus a list of the valid names when nothing is close."""
    try:
        return _match_name(word, names, what)
    except InvalidOrder as exc:
        if not exc.suggestion:
            known = sorted(set(names.values()))
            shown = listed(order_text(n) for n in known[:12])
            exc.suggestion = phrase("one of {names} ...", names=shown) if len(known) > 12 else \
                phrase("one of {names}", names=shown)
        raise


def _goods(state: State) -> dict[str, str]:
    return {g: g for g in state["comp"]["goods"]}


def _cards(state: State) -> dict[str, str]:
    return {c: c for c in state["comp"]["card_order"]}


def _dock(state: State, word: str) -> str:
    civilization, dash, numeral = word.rpartition("-")
    if not dash or numeral.upper() not in ("I", "II", "1", "2"):
        example = state["comp"]["civilizations"][0] + "-I"
        raise InvalidOrder(phrase("{word!r} is not a dock name", word=word),
                           suggestion=phrase("write a civilization and I or II, e.g. {example}", example=example))
    civilization = match_name(civilization, {c: c for c in state["comp"]["civilizations"]}, "civilization")
    return f"{civilization}-{'I' if numeral.upper() in ('I', '1') else 'II'}"


def _place(word: str) -> str:
    return match_name(word, {"lighthouse": "lighthouse", "leuchtturm": "lighthouse", "temple": "temple",
                             "tempel": "temple", "baal": "temple"}, "place")


def _need(words: list[str], count: int, form: str) -> None:
    if len(words) != count:
        raise InvalidOrder(phrase("expected {form}", form=menu_order(form)),
                           suggestion=phrase("write {form}", form=menu_order(form)))


def _example(text: str) -> Phrase:
    """`e.g. MERCHANT 4 G3`: an example order, in the reader's order words."""
    return phrase("e.g. {example}", example=order_text(text))


def parse_line(state: State, line: str, later: bool = False) -> Order:
    """One line of orders text to an Order (syntax and names; whether it is allowed now is
    the decision's business). `later`: the order waits for a turn to come, so an action
    without a slot number keeps none (it takes the card where it lies then)."""
    words = line.replace("->", " TO ").split()
    kind = match_name(words[0], KEYWORDS, "order")
    rest = words[1:]
    if kind == "cancel":
        if len(rest) != 1:
            forms = [order_text("CANCEL PLAN"), order_text("CANCEL TURNS"), menu_order("CANCEL <part>")]
            raise InvalidOrder(phrase("write {form}", form=either(forms)),
                               suggestion=_example("CANCEL INTRIGUE"))
        return Order("cancel", {"part": match_name(rest[0], CANCELLABLE, "plan part")})
    if kind in NO_ARGS:
        if rest:
            raise InvalidOrder(phrase("{order} takes nothing after it", order=order_text(kind.upper())),
                               suggestion=phrase("write just {order}", order=order_text(kind.upper())))
        return Order(kind)
    args: dict[str, Any] = {}
    if kind in SLOTTED:
        args["slot"] = _slot(state, kind, rest, later)
    _ARGUMENTS[kind](state, kind, rest, args)
    return Order(kind, args)


_KEYWORD_SPELLINGS = frozenset(fold(k) for k in KEYWORDS)


def is_keyword(word: str) -> bool:
    """Whether a word is an order keyword as written (what decides whether an alternative
    after OR brings its own keyword)."""
    return fold(word) in _KEYWORD_SPELLINGS


def parse_alternatives(state: State, text: str, later: bool = True) -> list[Order]:
    """`MERCHANT G3 or PORTER STORAGE G3 TO C2-I or TALENTS` -> the orders, in order."""
    body, optional = split_optional(text)
    if optional:
        raise InvalidOrder(phrase("'if available' is not used here: end the line with an alternative that always "
                                  "works"), suggestion=_example("MERCHANT G3 or TALENTS"))
    return [parse_line(state, part, later) for part in split_alternatives(body, is_keyword)]


def format_alternatives(orders: list[Order]) -> str:
    return join_alternatives([format_order(o) for o in orders], is_keyword)


def _slot(state: State, kind: str, rest: list[str], later: bool = False) -> int | None:
    """The slot number written after an action (taken off `rest`), or the only slot where
    that action card lies; for an order that waits (`later`), None when not written."""
    if rest and rest[0].isdigit():
        slot = parse_int(rest.pop(0), "the slot", minimum=1)
        if slot > 6:
            raise InvalidOrder(phrase("slots are numbered 1 to 6"))
        return slot
    if kind == "side":
        raise InvalidOrder(phrase("{order} needs the slot number", order=order_text("SIDE")),
                           suggestion=_example("SIDE 4"))
    if later:
        return None
    where = [i + 1 for i, card in enumerate(state.get("slots") or []) if card == kind]
    if len(where) == 1:
        return where[0]
    if where:
        raise AmbiguousOrder(phrase("the {card} lies on slots {first} and {second}", card=term(kind), first=where[0],
                                    second=where[1]),
                             suggestion=phrase("write {form}", form=order_text(
                                 f"{kind.upper()} {where[0]} ... or {kind.upper()} {where[1]} ...")))
    raise IllegalOrder(phrase("no {card} card lies on the slots now", card=term(kind)),
                       suggestion=phrase("give the slot number, e.g. {example}",
                                         example=order_text(f"{kind.upper()} 1")))


# --------------------------------------------------------------------------- the arguments of each order
# Each reads the words after the keyword (and the slot) into `args`.


def _slot_only(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    """CAPTAIN <slot>, SIDE <slot>."""
    _need(rest, 0, f"{kind.upper()} <slot>")


def _aristocrat(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    """ARISTOCRAT <slot> LIGHTHOUSE +2 TEMPLE -1: net changes of each place."""
    if not rest or len(rest) % 2:
        raise InvalidOrder(phrase("the aristocrat needs place and number pairs"),
                           suggestion=_example("ARISTOCRAT 1 LIGHTHOUSE +2 TEMPLE -1"))
    delta = {"lighthouse": 0, "temple": 0}
    for i in range(0, len(rest), 2):
        delta[_place(rest[i])] += parse_int(rest[i + 1], "the number of servants")
    args.update({k: v for k, v in delta.items() if v})


def _merchant(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    _need(rest, 1, "MERCHANT <slot> <good>")
    args["good"] = match_name(rest[0], _goods(state), "good")


def _loadmaster(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    """LOADMASTER <slot> OCCUPY|DISSOLVE <dock>, LOADMASTER <slot> SWITCH <dock> TO <dock>."""
    if not rest:
        raise InvalidOrder(phrase("say {words}", words=either(order_text(w) for w in ("OCCUPY", "SWITCH", "DISSOLVE"))),
                           suggestion=_example("LOADMASTER 3 OCCUPY C2-I"))
    mode = match_name(rest[0], {"occupy": "occupy", "switch": "switch", "dissolve": "dissolve"}, "loadmaster mode")
    args["mode"] = mode
    if mode == "switch":
        if len(rest) == 4 and rest[2].upper() == "TO":
            rest = [rest[0], rest[1], rest[3]]
        _need(rest, 3, "LOADMASTER <slot> SWITCH <dock> TO <dock>")
        args["dock"], args["to"] = _dock(state, rest[1]), _dock(state, rest[2])
    else:
        _need(rest, 2, f"LOADMASTER <slot> {mode.upper()} <dock>")
        args["dock"] = _dock(state, rest[1])


def _porter(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    """PORTER <slot> STORAGE <good>|<dock> TO STORAGE|CHARTER|<dock>."""
    if "TO" not in [w.upper() for w in rest]:
        raise InvalidOrder(phrase("a porter order needs {word}", word=order_text("TO")),
                           suggestion=_example("PORTER 5 STORAGE G1 TO C1-I"))
    cut = [w.upper() for w in rest].index("TO")
    source, target = rest[:cut], rest[cut + 1:]
    places = {"storage": "storage", "lager": "storage", "charter": "charter"}
    if len(source) == 2 and match_name(source[0], places, "place") == "storage":
        args["from"] = "storage"
        args["good"] = match_name(source[1], _goods(state), "good")
    elif len(source) == 1 and "-" in source[0]:
        args["from"] = _dock(state, source[0])
    else:
        raise InvalidOrder(phrase("the source is {storage} or a dock", storage=menu_order("STORAGE <good>")),
                           suggestion=_example("PORTER 5 STORAGE G1 TO C1-I"))
    if len(target) != 1:
        raise InvalidOrder(phrase("the target is {storage}, {charter} or a dock", storage=order_text("STORAGE"),
                                  charter=order_text("CHARTER")), suggestion=_example("... TO CHARTER"))
    args["to"] = _dock(state, target[0]) if "-" in target[0] else match_name(target[0], places, "place")


def _use(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    """USE <card>, with what its privilege needs: a dock (P3), a ship of row 1 (P8), or
    servant moves (P4: <player> LIGHTHOUSE|TEMPLE <n> ...)."""
    if not rest:
        raise InvalidOrder(phrase("{order} needs a ship card", order=order_text("USE")), suggestion=_example("USE S05"))
    card_id = match_name(rest[0], _cards(state), "ship card")
    args["card"] = card_id
    privilege = state["comp"]["ship_cards"][card_id]["privilege"]
    more = rest[1:]
    if privilege == ANY_GOOD:
        _need(more, 1, f"USE {card_id} <dock>")
        args["dock"] = _dock(state, more[0])
    elif privilege == SHIP_ENTERS:
        _need(more, 1, f"USE {card_id} <ship in row 1>")
        args["ship"] = match_name(more[0], _cards(state), "ship card")
    elif privilege == MOVE_SERVANTS:
        if not more or len(more) % 3:
            raise InvalidOrder(phrase("name player, place and number for each move"),
                               suggestion=_example(f"USE {card_id} {state['players'][0]} LIGHTHOUSE 1"))
        net: dict[str, int] = {}
        for i in range(0, len(more), 3):
            who = match_name(more[i], {p: p for p in state["players"]}, "player")
            n = parse_int(more[i + 2], "the number of servants", minimum=1)
            net[who] = net.get(who, 0) + (n if _place(more[i + 1]) == "lighthouse" else -n)
        args["moves"] = [[p, net[p]] for p in state["players"] if net.get(p)]
    else:
        _need(more, 0, f"USE {card_id}")


def _arrange(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    if not rest:
        raise InvalidOrder(phrase("{order} needs the ship cards, top first", order=order_text("ARRANGE")),
                           suggestion=_example("ARRANGE S12 S03 S20"))
    args["cards"] = [match_name(w, _cards(state), "ship card") for w in rest]


def _intrigue(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    _need(rest, 1, "INTRIGUE <number>")
    args["count"] = parse_int(rest[0], "the number of servants", minimum=0)


def _ship_choice(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    """DOCK <ship> [I|II], REJECT <ship>."""
    if kind == "reject" or len(rest) != 2:
        _need(rest, 1, f"{kind.upper()} <ship>" + (" [I|II]" if kind == "dock" else ""))
    args["ship"] = match_name(rest[0], _cards(state), "ship card")
    if kind == "dock":
        args["at"] = None
        if len(rest) == 2:
            at = rest[1].upper()
            if at not in ("I", "II", "1", "2"):
                raise InvalidOrder(phrase("{word!r} is not I or II", word=rest[1]))
            args["at"] = "I" if at in ("I", "1") else "II"


def _occupy(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    """OCCUPY <dock> [TAKE <good>] in the setup's dock rounds."""
    if len(rest) == 3 and rest[1].upper() == "TAKE":
        args["dock"] = _dock(state, rest[0])
        args["good"] = match_name(rest[2], _goods(state), "good")
    else:
        _need(rest, 1, "OCCUPY <dock> [TAKE <good>]")
        args["dock"] = _dock(state, rest[0])


def _buy(state: State, kind: str, rest: list[str], args: dict[str, Any]) -> None:
    _need(rest, 1, "BUY <good>")
    args["good"] = match_name(rest[0], _goods(state), "good")


_ARGUMENTS: dict[str, Callable[[State, str, list[str], dict[str, Any]], None]] = {
    "captain": _slot_only, "side": _slot_only, "aristocrat": _aristocrat, "merchant": _merchant,
    "loadmaster": _loadmaster, "porter": _porter, "use": _use, "arrange": _arrange, "intrigue": _intrigue,
    "dock": _ship_choice, "reject": _ship_choice, "occupy": _occupy, "buy": _buy}


_PARSED = Memo(50_000)


def parse(state: State, text: str, answering: bool = False) -> list[Order]:
    """A whole mail's orders, one a line; every wrong line is reported with its number.
    Lines under a part name (`INTRIGUE: INTRIGUE 1 or 0`) are a plan for that part; the
    others are the answer to the decision open now (the first, when `answering`) and the
    turns to come. A line may give alternatives with OR.

    Reading depends on nothing of the position but its component set (named by its hash)
    and the players, unless an answer leaves out its slot number (then the slots say
    where its card lies), so a text read before is answered from memory: menus and tests
    read the same order texts at position after position. Only orders of plain values
    are kept (no lists another holder might change); errors are made afresh, as callers
    place them on their lines."""
    comp_hash = (state.get("components") or {}).get("sha256")
    key = None
    if comp_hash is not None:
        key = (comp_hash, tuple(state["players"]), text, answering)
        known = _PARSED.get(key)
        if known is not None:
            return list(known)
    orders, read_slots = _parse(state, text, answering)
    if key is not None and not read_slots and all(o.plain() for o in orders):
        _PARSED.keep(key, tuple(orders))
    return orders


def _parse(state: State, text: str, answering: bool) -> tuple[list[Order], bool]:
    """`parse`'s work, and whether it read the slots (an answer without its slot number)."""
    orders: list[Order] = []
    errors: list[OrderError] = []
    read_slots = False
    for number, line, part in sections(order_lines(text), PART_NAMES):
        try:
            if isinstance(part, OrderError):
                raise part  # a part name that is none of the plan's parts
            if part is not None and part != TURNS:
                orders.append(_plan_line(state, part, line))
                continue
            alts = parse_alternatives(state, line)
            if len(alts) > 1:
                orders.append(Order("either", {"alts": [o.to_json() for o in alts]}))
            elif answering and alts[0].kind in SLOTTED and alts[0].args.get("slot") is None:
                read_slots = True
                orders.append(parse_line(state, line))
            else:
                orders.append(alts[0])
            if alts[0].kind != "cancel":
                answering = False
        except OrderError as exc:
            errors.append(exc.at(number, line))
    if errors:
        raise errors[0] if len(errors) == 1 else OrderErrors(errors)
    if not orders:
        raise InvalidOrder(phrase("no orders found"), line=1,
                           suggestion=phrase("write one order per line, e.g. {example}", example=order_text("TALENTS")))
    return orders, read_slots


def format_order(order: Order) -> str:
    """The canonical text of an order: `parse_line(state, format_order(o)) == o`."""
    kind, args = order.kind, order.args
    head = kind.upper()
    if kind in NO_ARGS:
        return head
    if kind in SLOTTED and args.get("slot") is not None:
        head = f"{head} {args['slot']}"  # an order for later may leave the slot to its turn
    if kind in ("captain", "side"):
        return head
    if kind == "aristocrat":
        parts = [head]
        for place in ("lighthouse", "temple"):
            if args.get(place):
                parts.append(f"{place.upper()} {args[place]:+d}")
        return " ".join(parts)
    if kind == "merchant":
        return f"{head} {args['good']}"
    if kind == "loadmaster":
        text = f"{head} {args['mode'].upper()} {args['dock']}"
        return text + (f" TO {args['to']}" if args["mode"] == "switch" else "")
    if kind == "porter":
        source = f"STORAGE {args['good']}" if args["from"] == "storage" else args["from"]
        target = args["to"].upper() if args["to"] in ("storage", "charter") else args["to"]
        return f"{head} {source} TO {target}"
    if kind == "use":
        text = f"USE {args['card']}"
        if "dock" in args:
            text += f" {args['dock']}"
        if "ship" in args:
            text += f" {args['ship']}"
        for player, n in args.get("moves", []):
            text += f" {player} {'LIGHTHOUSE' if n > 0 else 'TEMPLE'} {abs(n)}"
        return text
    if kind == "arrange":
        return "ARRANGE " + " ".join(args["cards"])
    if kind == "intrigue":
        return f"INTRIGUE {args['count']}"
    if kind == "dock":
        return f"DOCK {args['ship']}" + (f" {args['at']}" if args.get("at") else "")
    if kind == "reject":
        return f"REJECT {args['ship']}"
    if kind == "occupy":
        return f"OCCUPY {args['dock']}" + (f" TAKE {args['good']}" if "good" in args else "")
    if kind == "buy":
        return f"BUY {args['good']}"
    if kind == "either":
        return format_alternatives([Order.from_json(a) for a in args["alts"]])
    if kind == "plan":
        return f"{args['part'].upper()}: " + format_alternatives([Order.from_json(a) for a in args["alts"]])
    if kind == "cancel":
        return f"CANCEL {args['part'].upper()}"
    raise ValueError(f"unknown order kind {kind!r}")


def _plan_line(state: State, part: str, text: str) -> Order:
    """A line of a standing part: the answers it may give, in order of preference."""
    words = text.split()
    if words and fold(words[0]) == "cancel" and len(words) == 1:
        return Order("cancel", {"part": part})
    alts = parse_alternatives(state, text)
    for alt in alts:
        if alt.kind not in PARTS[part]:
            raise InvalidOrder(phrase("{order} does not answer {part}", order=order_text(format_order(alt)),
                                      part=order_text(part.upper())),
                               suggestion=phrase("{part}: takes {orders}", part=order_text(part.upper()),
                                                 orders=listed(order_text(k.upper()) for k in PARTS[part])))
    return Order("plan", {"part": part, "alts": [a.to_json() for a in alts]})


_PLACES = ("lighthouse", "leuchtturm", "temple", "tempel", "baal")


def order_shapes(state: State) -> dict[str, OrderShape]:
    """What may follow each keyword (`referee.contract.OrderShape`), and after a plan part's
    name an order: mail reading tells a misspelt order from prose by them. Goods, docks and
    ship cards are the position's components."""
    comp = state["comp"]
    goods, cards, docks = set(comp["goods"]), set(comp["card_order"]), set(comp["civilizations"])
    bare, slot = OrderShape(), OrderShape(0, 1, numbers=True)
    shapes: dict[str, OrderShape] = {part: OrderShape(part=True) for part in PART_NAMES.values()}
    shapes.update({kind: bare for kind in NO_ARGS})
    shapes.update({
        "captain": slot, "side": slot,
        "aristocrat": OrderShape(2, 5, frozenset(_PLACES), numbers=True),
        "merchant": OrderShape(1, 2, frozenset(goods), numbers=True),
        "loadmaster": OrderShape(2, 5, frozenset(docks | {"occupy", "switch", "dissolve", "to"}), numbers=True),
        "porter": OrderShape(3, 5, frozenset(goods | docks | {"storage", "lager", "charter", "to"}), numbers=True),
        "use": OrderShape(1, None, frozenset(cards | docks | set(state["players"]) | set(_PLACES)), numbers=True),
        "arrange": OrderShape(1, None, frozenset(cards), numbers=True),
        "intrigue": OrderShape(1, 1, numbers=True),
        "dock": OrderShape(1, 2, frozenset(cards | {"i", "ii"}), numbers=True),
        "reject": OrderShape(1, 1, frozenset(cards), numbers=True),
        "occupy": OrderShape(1, 3, frozenset(goods | docks | {"take"}), numbers=True),
        "buy": OrderShape(1, 1, frozenset(goods), numbers=True),
        "cancel": OrderShape(1, 1, frozenset(CANCELLABLE)),
    })
    return shapes
