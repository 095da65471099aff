"""Order text: one order per line, keywords in any case, names by unique prefix or alias.

`parse_line` turns one line into an Order (syntax and names only); `fmt` is its inverse and
gives the canonical spelling echoed in receipts.
"""

from __future__ import annotations

import re
from typing import Any

from referee.contract import InvalidOrder, Order, OrderError
from referee.orderlines import fold, parse_int
from referee.orderlines import match_name as _match_name

_FOLDED: dict[int, tuple[dict[str, str], dict[str, str]]] = {}


def match_name(word: str, names: dict[str, str], what: str) -> str:
    """Exact spellings are looked up in a pre-folded table; the rest go to the shared matcher."""
    entry = _FOLDED.get(id(names))
    if entry is None or entry[0] is not names:
        if len(_FOLDED) > 64:
            _FOLDED.clear()
        entry = (names, {fold(k): v for k, v in names.items()})
        _FOLDED[id(names)] = entry
    table = entry[1]
    hit = table.get(fold(word))
    return hit if hit is not None else _match_name(word, names, what)

from .components import GOODS, OFFICES, SIZES, WALL_ABILITIES

KEYWORDS = {
    "stay": "stay", "take": "take", "bid": "bid", "raise": "raise", "pass": "pass", "defend": "defend",
    "good": "good", "build": "build", "construct": "build", "buy": "buy", "sell": "sell", "use": "use",
    "exchange": "exchange", "swap": "exchange", "trade": "trade", "done": "done", "end": "done", "finish": "done",
    "preempt": "preempt", "pre-empt": "preempt", "allow": "allow", "redraw": "redraw", "load": "load",
    "unload": "unload", "post": "post", "save": "save", "free": "free", "ship": "ship", "offer": "offer",
    "accept": "accept", "reject": "reject", "decline": "reject", "donate": "donate", "keep": "keep", "store": "keep",
    "discard": "discard", "drop": "discard",
}

GOOD_NAMES = {g: g for g in GOODS}
GOOD_NAMES.update({"alimentary": "green", "food": "green", "consumer": "blue", "industrial": "red",
                   "military": "black", "luxury": "yellow"})

OFFICE_NAMES = {o: o for o in OFFICES}
OFFICE_NAMES.update({"magister officiorum": "magister", "praefectus pretorio": "pretorio", "pretorio": "pretorio",
                     "comes thesaurorum": "comes", "treasurer": "comes", "praefectus urbi": "urbi",
                     "city prefect": "urbi", "overseer": "magister", "logistics": "pretorio"})

SIZE_NAMES = {s: s for s in SIZES}
SIZE_NAMES.update({"parvus": "small", "parvus dromo": "small", "medius": "medium", "medius dromo": "medium",
                   "magnus": "large", "magnus dromo": "large"})

WALL_NAMES = {w: w for w in WALL_ABILITIES}

GLOSSES = {"Pistrinum": ["mill"], "Venatoris Domus": ["hunter's lodge", "hunters lodge"], "Textrinum": ["weaver"],
           "Lignarii Officina": ["carpenter"], "Cura": ["animal breeder", "breeder"], "Figulina": ["potter"],
           "Metallum": ["mine"], "Armorum Faber": ["weaponsmith"], "Fabri Officina": ["forge"],
           "Conflatorium": ["foundry"], "Sculptoris Domus": ["sculptor"], "Vinaria": ["vinarium", "cantina"],
           "Caupona": ["tavern"], "Vestificina": ["tailor"], "Emporium": [], "Armamentarium": ["armory", "armoury"],
           "Antiquarius": ["antiquarian"], "Hospitium": ["inn"], "Mensae": ["sales booth"],
           "Redemptor": ["property developer"], "Taberna": ["reseller"], "Horreum": ["warehouse"]}


_BUILDING_NAMES: dict[str, dict[str, str]] = {}


def building_names(data: dict[str, Any]) -> dict[str, str]:
    cached = _BUILDING_NAMES.get(data["sha256"])
    if cached is not None:
        return cached
    out: dict[str, str] = {}
    for name in data["buildings"]:
        out[name] = name
        for alias in GLOSSES.get(name, []):
            out[alias] = name
    _BUILDING_NAMES[data["sha256"]] = out
    return out


def good(word: str) -> str:
    return match_name(word, GOOD_NAMES, "goods type")


def _goods_list(words: list[str]) -> list[str]:
    """'2 green, blue' -> ['green', 'green', 'blue'] (in value order)."""
    out: list[str] = []
    tokens = [t for w in words for t in w.replace(",", " ").split()]
    if len(tokens) == 1 and fold(tokens[0]) in ("nothing", "none"):
        return []
    i = 0
    while i < len(tokens):
        n = 1
        if tokens[i].isdigit():
            n = parse_int(tokens[i], "a goods count", minimum=0)
            i += 1
            if i >= len(tokens):
                raise InvalidOrder("a goods count needs a goods type after it")
        out += [good(tokens[i])] * n
        i += 1
    return sorted(out, key=GOODS.index)


def _items(text: str, data: dict[str, Any]) -> list[str]:
    """Trade items: '3 gold, 1 green, contract 17' -> canonical strings."""
    text = text.strip()
    if fold(text) in ("nothing", "none", ""):
        return []
    out = []
    for part in text.split(","):
        words = part.split()
        if len(words) != 2:
            raise InvalidOrder(f"a trade item is 'N gold', 'N <good>' or 'contract N', not {part.strip()!r}")
        if fold(words[0]) == "contract":
            out.append(f"contract {parse_int(words[1], 'a contract number', minimum=1)}")
            continue
        n = parse_int(words[0], "an amount", minimum=1)
        what = "gold" if fold(words[1]) == "gold" else good(words[1])
        out.append(f"{n} {what}")
    return out


_BID = re.compile(r"^(.*?)\s+(\S+)(?:\s+up\s*to\s+(\S+))?$", re.I)


def _building(rest: str, data: dict[str, Any]) -> dict[str, Any]:
    words = rest.split()
    g: dict[str, Any] = {}
    if len(words) >= 2 and fold(words[-1]) == "redemptor" and fold(words[-2]) in ("with", "using"):
        g_red = True
        words = words[:-2]
    else:
        g_red = False
    if not words:
        raise InvalidOrder("which building?", suggestion="build <name>, build public <fame>, build wall <ability>")
    head = fold(words[0])
    if head == "public":
        if len(words) != 2:
            raise InvalidOrder("build public <fame 3-6>")
        g["public"] = parse_int(words[1], "the fame value", minimum=1)
    elif head in ("wall", "moenia"):
        if len(words) != 2:
            raise InvalidOrder("build wall <ability>", suggestion=f"abilities: {', '.join(WALL_ABILITIES)}")
        g["wall"] = match_name(words[1], WALL_NAMES, "wall segment")
    else:
        g["building"] = match_name(" ".join(words), building_names(data), "building")
    if g_red:
        g["redemptor"] = True
    return g


def _preempt_entry(text: str, data: dict[str, Any]) -> str:
    words = text.split()
    if words and fold(words[0]) == "public":
        if len(words) != 2:
            raise InvalidOrder("name public buildings as 'public <fame>'")
        return f"public {parse_int(words[1], 'the fame value', minimum=1)}"
    return match_name(text, building_names(data), "building")


def _int(word: str, what: str) -> int:
    return parse_int(word.lstrip("#").lstrip("cC") if word[:1] in "#cC" and word[1:].isdigit() else word, what, minimum=1)


def parse_line(line: str, data: dict[str, Any], players: list[str]) -> Order:
    words = line.split()
    kw = match_name(words[0], KEYWORDS, "order")
    rest_words = words[1:]
    rest = " ".join(rest_words)

    def need(n: int, form: str) -> None:
        if len(rest_words) != n:
            raise InvalidOrder(f"'{kw}' is written '{form}'", suggestion=form)

    if kw in ("stay", "pass", "done", "allow", "post"):
        need(0, kw)
        return Order(kw)
    if kw == "take":
        if not rest:
            raise InvalidOrder("take which office?", suggestion="take <office>")
        return Order("take", {"office": match_name(rest, OFFICE_NAMES, "office")})
    if kw == "bid":
        m = _BID.match(rest)
        if not m or not m.group(1):
            raise InvalidOrder("a bid is written 'bid <office> <gold>' or 'bid <office> <gold> up to <gold>'",
                               suggestion="bid consul 3")
        args: dict[str, Any] = {"office": match_name(m.group(1), OFFICE_NAMES, "office"),
                                "gold": parse_int(m.group(2), "the bid", minimum=1)}
        if m.group(3):
            args["limit"] = parse_int(m.group(3), "the limit", minimum=1)
        return Order("bid", args)
    if kw in ("raise", "defend"):
        words2 = rest_words
        if len(words2) == 3 and fold(words2[0]) == "up" and fold(words2[1]) == "to":
            words2 = words2[2:]
        if len(words2) != 1:
            raise InvalidOrder(f"'{kw}' is written '{kw} <gold>'", suggestion=f"{kw} 3")
        return Order(kw, {"gold": parse_int(words2[0], "the amount", minimum=0 if kw == "defend" else 1)})
    if kw in ("good", "donate"):
        need(1, f"{kw} <good>")
        return Order(kw, {"good": good(rest)})
    if kw == "discard":
        if len(rest_words) == 1:
            return Order(kw, {"good": good(rest_words[0]), "count": 1})
        need(2, "discard <count> <good>")
        return Order(kw, {"good": good(rest_words[1]), "count": parse_int(rest_words[0], "the count", minimum=1)})
    if kw in ("buy", "sell"):
        if kw == "buy" and rest_words and not rest_words[0].isdigit():
            try:
                return Order("build", _building(rest, data))
            except OrderError:
                if len(rest_words) != 1:
                    raise
        if len(rest_words) == 1:
            return Order(kw, {"good": good(rest_words[0]), "count": 1})
        need(2, f"{kw} <count> <good>")
        return Order(kw, {"good": good(rest_words[1]), "count": parse_int(rest_words[0], "the count", minimum=1)})
    if kw == "build":
        return Order("build", _building(rest, data))
    if kw == "use":
        if not rest:
            raise InvalidOrder("use which building?", suggestion="use <commercial building>")
        return Order("use", {"building": match_name(rest, building_names(data), "building")})
    if kw == "exchange":
        if len(rest_words) != 3 or fold(rest_words[1]) != "for":
            raise InvalidOrder("'exchange' is written 'exchange <good> for <good>'", suggestion="exchange green for red")
        return Order("exchange", {"give": good(rest_words[0]), "get": good(rest_words[2])})
    if kw == "trade":
        goods = _goods_list(rest_words)
        if len(goods) != 3:
            raise InvalidOrder("the trade wall takes exactly three goods", suggestion="trade green green blue")
        return Order("trade", {"goods": goods})
    if kw == "preempt":
        if not rest_words:
            return Order("preempt")
        head = fold(rest_words[0])
        if head in ("never", "none", "nothing") and len(rest_words) == 1:
            return Order("preempt-list", {"buildings": []})
        if head == "ask" and len(rest_words) == 1:
            return Order("preempt-ask")
        if head == "list" and len(rest_words) > 1:
            text = " ".join(rest_words[1:])
            return Order("preempt-list", {"buildings": [_preempt_entry(x.strip(), data) for x in text.split(",") if x.strip()]})
        raise InvalidOrder("write 'preempt', 'preempt list <buildings>', 'preempt never' or 'preempt ask'",
                           suggestion="preempt list Metallum, public 4")
    if kw == "redraw":
        if not 1 <= len(rest_words) <= 2:
            raise InvalidOrder("redraw one or two contracts: 'redraw <n> [<n>]'", suggestion="redraw 12 40")
        return Order("redraw", {"contracts": [_int(w, "a contract number") for w in rest_words]})
    if kw == "load":
        ws = [w for w in rest_words if fold(w) not in ("on", "ship", "onto")]
        if len(ws) != 2:
            raise InvalidOrder("'load' is written 'load <contract> on ship <n>'", suggestion="load 17 on ship 1")
        return Order("load", {"contract": _int(ws[0], "the contract number"), "ship": _int(ws[1], "the ship number")})
    if kw in ("unload", "save", "free"):
        need(1, f"{kw} <contract>")
        return Order(kw, {"contract": _int(rest_words[0], "the contract number")})
    if kw == "ship":
        if not rest:
            raise InvalidOrder("which size?", suggestion="ship small, ship medium or ship large")
        return Order("ship", {"size": match_name(rest, SIZE_NAMES, "ship size")})
    if kw in ("accept", "reject"):
        need(1, f"{kw} <offer number>")
        return Order(kw, {"offer": _int(rest_words[0], "the offer number")})
    if kw == "offer":
        m = re.match(r"^(\S+)\s+give\s+(.*?)\s+for\s+(.*)$", rest, re.I)
        if not m:
            raise InvalidOrder("an offer is written 'offer <player> give <items> for <items>'",
                               suggestion="offer anna give 2 gold for 1 green")
        who = match_name(m.group(1), {n: n for n in players}, "player")
        return Order("offer", {"to": who, "give": _items(m.group(2), data), "get": _items(m.group(3), data)})
    if kw == "keep":
        if not rest_words:
            raise InvalidOrder("keep which goods?", suggestion="keep green, or keep nothing")
        return Order("keep", {"goods": _goods_list(rest_words)})
    raise InvalidOrder(f"unknown order {words[0]!r}")


def fmt(o: Order) -> str:
    k, g = o.kind, o.args
    if k in ("stay", "pass", "done", "allow", "post", "preempt"):
        return k
    if k == "take":
        return f"take {g['office']}"
    if k == "bid":
        return f"bid {g['office']} {g['gold']}" + (f" up to {g['limit']}" if g.get("limit") is not None else "")
    if k in ("raise", "defend"):
        return f"{k} {g['gold']}"
    if k in ("good", "donate"):
        return f"{k} {g['good']}"
    if k in ("buy", "sell", "discard"):
        return f"{k} {g['count']} {g['good']}"
    if k == "build":
        if "public" in g:
            text = f"build public {g['public']}"
        elif "wall" in g:
            text = f"build wall {g['wall']}"
        else:
            text = f"build {g['building']}"
        return text + (" with redemptor" if g.get("redemptor") else "")
    if k == "use":
        return f"use {g['building']}"
    if k == "exchange":
        return f"exchange {g['give']} for {g['get']}"
    if k == "trade":
        return "trade " + " ".join(g["goods"])
    if k == "preempt-list":
        return "preempt list " + ", ".join(g["buildings"]) if g["buildings"] else "preempt never"
    if k == "preempt-ask":
        return "preempt ask"
    if k == "redraw":
        return "redraw " + " ".join(map(str, g["contracts"]))
    if k == "load":
        return f"load {g['contract']} on ship {g['ship']}"
    if k in ("unload", "save", "free"):
        return f"{k} {g['contract']}"
    if k == "ship":
        return f"ship {g['size']}"
    if k in ("accept", "reject"):
        return f"{k} {g['offer']}"
    if k == "offer":
        return f"offer {g['to']} give {', '.join(g['give']) or 'nothing'} for {', '.join(g['get']) or 'nothing'}"
    if k == "keep":
        return "keep " + (" ".join(g["goods"]) if g["goods"] else "nothing")
    raise ValueError(f"no text form for {k}")
