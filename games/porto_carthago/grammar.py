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

from typing import Any

from referee.contract import AmbiguousOrder, IllegalOrder, InvalidOrder, Order, OrderError, OrderErrors
from referee.orderlines import match_name as _match_name, order_lines, parse_int

from .board import State

KEYWORDS: dict[str, str] = {k: k for k in (
    "talents", "refill", "buy", "pass", "done", "expand", "palace", "accept", "decline", "captain",
    "aristocrat", "merchant", "side", "loadmaster", "porter", "use", "arrange", "intrigue", "dock",
    "reject", "occupy")}
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
            listed = sorted(set(names.values()))
            exc.suggestion = f"one of {', '.join(listed[:12])}" + (" ..." if len(listed) > 12 else "")
        raise


def _goods(state: State) -> dict[str, str]:
    return {g: g for g in state["comp"]["goods"]}


def _cards(state: State) -> dict[str, str]:
    return {c: c for c in state["comp"]["card_order"]}


def _dock(state: State, word: str) -> str:
    civ, sep, numeral = word.rpartition("-")
    if not sep or numeral.upper() not in ("I", "II", "1", "2"):
        raise InvalidOrder(f"{word!r} is not a dock name", suggestion="write a civilization and I or II, e.g. "
                           f"{state['comp']['civilizations'][0]}-I")
    civ = match_name(civ, {c: c for c in state["comp"]["civilizations"]}, "civilization")
    return f"{civ}-{'I' if numeral.upper() in ('I', '1') else 'II'}"


def _place(word: str) -> str:
    return match_name(word, {"lighthouse": "lighthouse", "leuchtturm": "lighthouse", "temple": "temple",
                             "tempel": "temple", "baal": "temple"}, "place")


def _need(words: list[str], count: int, form: str) -> None:
    if len(words) != count:
        raise InvalidOrder(f"expected {form}", suggestion=f"write {form}")


def parse_line(state: State, line: str) -> Order:
    words = line.replace("->", " TO ").split()
    kind = match_name(words[0], KEYWORDS, "order")
    rest = words[1:]
    if kind in NO_ARGS:
        if rest:
            raise InvalidOrder(f"{kind.upper()} takes nothing after it", suggestion=f"write just {kind.upper()}")
        return Order(kind)
    args: dict[str, Any] = {}
    if kind in SLOTTED:
        if rest and rest[0].isdigit():
            args["slot"] = parse_int(rest.pop(0), "the slot", minimum=1)
            if args["slot"] > 6:
                raise InvalidOrder("slots are numbered 1 to 6")
        elif kind == "side":
            raise InvalidOrder("SIDE needs the slot number", suggestion="e.g. SIDE 4")
        else:
            where = [i + 1 for i, c in enumerate(state.get("slots") or []) if c == kind]
            if len(where) == 1:
                args["slot"] = where[0]
            elif where:
                raise AmbiguousOrder(f"the {kind} lies on slots {where[0]} and {where[1]}",
                                     suggestion=f"write {kind.upper()} {where[0]} ... or {kind.upper()} {where[1]} ...")
            else:
                raise IllegalOrder(f"no {kind} card lies on the slots now",
                                   suggestion=f"give the slot number, e.g. {kind.upper()} 1")
    if kind in ("captain", "side"):
        _need(rest, 0, f"{kind.upper()} <slot>")
    elif kind == "aristocrat":
        if not rest or len(rest) % 2:
            raise InvalidOrder("the aristocrat needs place and number pairs",
                               suggestion="e.g. ARISTOCRAT 1 LIGHTHOUSE +2 TEMPLE -1")
        delta = {"lighthouse": 0, "temple": 0}
        for i in range(0, len(rest), 2):
            delta[_place(rest[i])] += parse_int(rest[i + 1], "the number of servants")
        args.update({k: v for k, v in delta.items() if v})
    elif kind == "merchant":
        _need(rest, 1, "MERCHANT <slot> <good>")
        args["good"] = match_name(rest[0], _goods(state), "good")
    elif kind == "loadmaster":
        if not rest:
            raise InvalidOrder("say OCCUPY, SWITCH or DISSOLVE", suggestion="e.g. LOADMASTER 3 OCCUPY C2-I")
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
    elif kind == "porter":
        if "TO" not in [w.upper() for w in rest]:
            raise InvalidOrder("a porter order needs TO", suggestion="e.g. PORTER 5 STORAGE G1 TO C1-I")
        cut = [w.upper() for w in rest].index("TO")
        src, dst = rest[:cut], rest[cut + 1:]
        places = {"storage": "storage", "lager": "storage", "charter": "charter"}
        if len(src) == 2 and match_name(src[0], places, "place") == "storage":
            args["from"] = "storage"
            args["good"] = match_name(src[1], _goods(state), "good")
        elif len(src) == 1 and "-" in src[0]:
            args["from"] = _dock(state, src[0])
        else:
            raise InvalidOrder("the source is STORAGE <good> or a dock", suggestion="e.g. PORTER 5 STORAGE G1 TO C1-I")
        if len(dst) != 1:
            raise InvalidOrder("the target is STORAGE, CHARTER or a dock", suggestion="e.g. ... TO CHARTER")
        args["to"] = _dock(state, dst[0]) if "-" in dst[0] else match_name(dst[0], places, "place")
    elif kind == "use":
        if not rest:
            raise InvalidOrder("USE needs a ship card", suggestion="e.g. USE S05")
        cid = match_name(rest[0], _cards(state), "ship card")
        args["card"] = cid
        p = state["comp"]["ship_cards"][cid]["privilege"]
        more = rest[1:]
        if p == "P3":
            _need(more, 1, f"USE {cid} <dock>")
            args["dock"] = _dock(state, more[0])
        elif p == "P8":
            _need(more, 1, f"USE {cid} <ship in row 1>")
            args["ship"] = match_name(more[0], _cards(state), "ship card")
        elif p == "P4":
            if not more or len(more) % 3:
                raise InvalidOrder("name player, place and number for each move",
                                   suggestion=f"e.g. USE {cid} {state['players'][0]} LIGHTHOUSE 1")
            net: dict[str, int] = {}
            for i in range(0, len(more), 3):
                who = match_name(more[i], {p: p for p in state["players"]}, "player")
                n = parse_int(more[i + 2], "the number of servants", minimum=1)
                net[who] = net.get(who, 0) + (n if _place(more[i + 1]) == "lighthouse" else -n)
            args["moves"] = [[p, net[p]] for p in state["players"] if net.get(p)]
        else:
            _need(more, 0, f"USE {cid}")
    elif kind == "arrange":
        if not rest:
            raise InvalidOrder("ARRANGE needs the ship cards, top first", suggestion="e.g. ARRANGE S12 S03 S20")
        args["cards"] = [match_name(w, _cards(state), "ship card") for w in rest]
    elif kind == "intrigue":
        _need(rest, 1, "INTRIGUE <number>")
        args["count"] = parse_int(rest[0], "the number of servants", minimum=0)
    elif kind in ("dock", "reject"):
        if kind == "reject" or len(rest) != 2:
            _need(rest, 1, f"{kind.upper()} <ship>" + (" [I|II]" if kind == "dock" else ""))
        args["ship"] = match_name(rest[0], _cards(state), "ship card")
        if kind == "dock":
            args["at"] = None
            if len(rest) == 2:
                at = rest[1].upper()
                if at not in ("I", "II", "1", "2"):
                    raise InvalidOrder(f"{rest[1]!r} is not I or II")
                args["at"] = "I" if at in ("I", "1") else "II"
    elif kind == "occupy":
        if len(rest) == 3 and rest[1].upper() == "TAKE":
            args["dock"] = _dock(state, rest[0])
            args["good"] = match_name(rest[2], _goods(state), "good")
        else:
            _need(rest, 1, "OCCUPY <dock> [TAKE <good>]")
            args["dock"] = _dock(state, rest[0])
    elif kind == "buy":
        _need(rest, 1, "BUY <good>")
        args["good"] = match_name(rest[0], _goods(state), "good")
    return Order(kind, args)


def parse(state: State, text: str) -> list[Order]:
    orders: list[Order] = []
    errors: list[OrderError] = []
    for number, line in order_lines(text):
        try:
            orders.append(parse_line(state, line))
        except OrderError as exc:
            errors.append(exc.at(number, line))
    if errors:
        raise errors[0] if len(errors) == 1 else OrderErrors(errors)
    if not orders:
        raise InvalidOrder("no orders found", line=1, suggestion="write one order per line, e.g. TALENTS")
    return orders


def format_order(o: Order) -> str:
    k, a = o.kind, o.args
    head = k.upper()
    if k in NO_ARGS:
        return head
    if k in ("captain", "side"):
        return f"{head} {a['slot']}"
    if k == "aristocrat":
        parts = [f"{head} {a['slot']}"]
        for place in ("lighthouse", "temple"):
            if a.get(place):
                parts.append(f"{place.upper()} {a[place]:+d}")
        return " ".join(parts)
    if k == "merchant":
        return f"{head} {a['slot']} {a['good']}"
    if k == "loadmaster":
        text = f"{head} {a['slot']} {a['mode'].upper()} {a['dock']}"
        return text + (f" TO {a['to']}" if a["mode"] == "switch" else "")
    if k == "porter":
        src = f"STORAGE {a['good']}" if a["from"] == "storage" else a["from"]
        dst = a["to"].upper() if a["to"] in ("storage", "charter") else a["to"]
        return f"{head} {a['slot']} {src} TO {dst}"
    if k == "use":
        text = f"USE {a['card']}"
        if "dock" in a:
            text += f" {a['dock']}"
        if "ship" in a:
            text += f" {a['ship']}"
        for player, n in a.get("moves", []):
            text += f" {player} {'LIGHTHOUSE' if n > 0 else 'TEMPLE'} {abs(n)}"
        return text
    if k == "arrange":
        return "ARRANGE " + " ".join(a["cards"])
    if k == "intrigue":
        return f"INTRIGUE {a['count']}"
    if k == "dock":
        return f"DOCK {a['ship']}" + (f" {a['at']}" if a.get("at") else "")
    if k == "reject":
        return f"REJECT {a['ship']}"
    if k == "occupy":
        return f"OCCUPY {a['dock']}" + (f" TAKE {a['good']}" if "good" in a else "")
    if k == "buy":
        return f"BUY {a['good']}"
    raise ValueError(f"unknown order kind {k!r}")
