"""Order text: one order per line, keywords in any case, names by unique prefix or alias.

`parse_line` turns one line into an Order (syntax and names only; whether it is allowed now
is the phase's business); `format_order` is its inverse and gives the canonical spelling
echoed in receipts. The orders are described in docs/orders-constantinopolis.md.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from referee.contract import InvalidOrder, Order, OrderError, OrderShape
from referee.memo import Memo
from referee.orderlines import OPTIONAL, fold, join_alternatives, parse_int, split_alternatives, split_optional
from referee.orderlines import match_name as _match_name
from referee.wording import listed, order_phrase, order_text, phrase, term
from referee.wording import menu_order as order_syntax

from .components import GOODS, OFFICES, SIZES, WALL_ABILITIES
from .plan_parts import CANCELLABLE

_FOLDED = Memo(64)  # by the id of a table of names, each entry holding its table


def match_name(word: str, names: dict[str, str], what: str) -> str:
    """Exact spellings are looked up in a pre-folded table; the rest go to the shared matcher."""
    entry = _FOLDED.get(id(names))
    if entry is None or entry[0] is not names:
        entry = _FOLDED.keep(id(names), (names, {fold(k): v for k, v in names.items()}))
    table = entry[1]
    hit = table.get(fold(word))
    return hit if hit is not None else _match_name(word, names, what)


KEYWORDS = {"cancel": "cancel", 
    "stay": "stay", "take": "take", "bid": "bid", "raise": "raise", "pass": "pass", "defend": "defend",
    "good": "good", "build": "build", "construct": "build", "buy": "buy", "sell": "sell", "use": "use",
    "exchange": "exchange", "swap": "exchange", "trade": "trade", "done": "done", "end": "done", "finish": "done",
    "preempt": "preempt", "pre-empt": "preempt", "allow": "allow", "redraw": "redraw", "load": "load",
    "unload": "unload", "post": "post", "save": "save", "free": "free", "ship": "ship", "offer": "offer",
    "accept": "accept", "reject": "reject", "decline": "reject", "withdraw": "withdraw", "donate": "donate",
    "keep": "keep", "store": "keep", "discard": "discard", "drop": "discard",
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

FREE_OFFICE = "free"  # `take free`: the office its loser may take without paying

GLOSSES = {"Pistrinum": ["mill"], "Venatoris Domus": ["hunter's lodge", "hunters lodge"], "Textrinum": ["weaver"],
           "Lignarii Officina": ["carpenter"], "Cura": ["animal breeder", "breeder"], "Figulina": ["potter"],
           "Metallum": ["mine"], "Armorum Faber": ["weaponsmith"], "Fabri Officina": ["forge"],
           "Conflatorium": ["foundry"], "Sculptoris Domus": ["sculptor"], "Vinaria": ["vinarium", "cantina"],
           "Caupona": ["tavern"], "Vestificina": ["tailor"], "Emporium": [], "Armamentarium": ["armory", "armoury"],
           "Antiquarius": ["antiquarian"], "Hospitium": ["inn"], "Mensae": ["sales booth"],
           "Redemptor": ["property developer"], "Taberna": ["reseller"], "Horreum": ["warehouse"]}


_BUILDING_NAMES: dict[str, dict[str, str]] = {}


def building_names(components: dict[str, Any]) -> dict[str, str]:
    """Every building's Latin name and English glosses, to the Latin name."""
    cached = _BUILDING_NAMES.get(components["sha256"])
    if cached is not None:
        return cached
    out: dict[str, str] = {}
    for name in components["buildings"]:
        out[name] = name
        for alias in GLOSSES.get(name, []):
            out[alias] = name
    _BUILDING_NAMES[components["sha256"]] = out
    return out


def good(word: str) -> str:
    return match_name(word, GOOD_NAMES, "goods type")


MAX_GOODS_COUNT = 99  # no player comes near so many of one good in a game: a slip, not an order


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
            n = parse_int(tokens[i], "a goods count", minimum=0, maximum=MAX_GOODS_COUNT)
            i += 1
            if i >= len(tokens):
                raise InvalidOrder(phrase("a goods count needs a goods type after it"))
        out += [good(tokens[i])] * n
        i += 1
    return sorted(out, key=GOODS.index)


def _items(text: str) -> list[str]:
    """Trade items: '3 gold, 1 green, contract 17' -> canonical strings."""
    text = text.strip()
    if fold(text) in ("nothing", "none", ""):
        return []
    out = []
    for part in text.split(","):
        words = part.split()
        if len(words) != 2:
            raise InvalidOrder(phrase("a trade item is {forms}, not {item!r}", item=part.strip(),
                                      forms=order_syntax("'N gold', 'N <good>' or 'contract N'")))
        if fold(words[0]) == "contract":
            out.append(f"contract {parse_int(words[1], 'a contract number', minimum=1)}")
            continue
        n = parse_int(words[0], "an amount", minimum=1)
        what = "gold" if fold(words[1]) == "gold" else good(words[1])
        out.append(f"{n} {what}")
    return out


_BID = re.compile(r"^(.*?)\s+(\S+)(?:\s+up\s*to\s+(\S+))?$", re.I)
_OFFER = re.compile(r"^(\S+)\s+give\s+(.*?)\s+for\s+(.*)$", re.I)


def _purchase(rest: str, components: dict[str, Any]) -> dict[str, Any]:
    """The arguments of a `build` order: a building, `public <fame>` or `wall <ability>`,
    with `with redemptor` at the end for the discount."""
    words = rest.split()
    args: dict[str, Any] = {}
    redemptor = len(words) >= 2 and fold(words[-1]) == "redemptor" and fold(words[-2]) in ("with", "using")
    if redemptor:
        words = words[:-2]
    if not words:
        raise InvalidOrder(phrase("which building?"),
                           suggestion=order_phrase("build <name>, build public <fame>, build wall <ability>"))
    head = fold(words[0])
    if head == "public":
        if len(words) != 2:
            raise InvalidOrder(order_phrase("build public <fame 3-6>"))
        args["public"] = parse_int(words[1], "the fame value", minimum=1)
    elif head in ("wall", "moenia"):
        if len(words) != 2:
            raise InvalidOrder(order_phrase("build wall <ability>"),
                               suggestion=phrase("abilities: {walls}", walls=listed(term(w) for w in WALL_ABILITIES)))
        args["wall"] = match_name(words[1], WALL_NAMES, "wall segment")
    else:
        try:
            args["building"] = match_name(" ".join(words), building_names(components), "building")
        except InvalidOrder as exc:
            if exc.suggestion is None and words[0].isdigit():  # `build 1 blue`: a count and a good
                exc.suggestion = phrase("goods are bought with {order}", order=order_text("buy " + " ".join(words)))
            raise
    if redemptor:
        args["redemptor"] = True
    return args


def _preempt_entry(text: str, components: dict[str, Any]) -> str:
    words = text.split()
    if words and fold(words[0]) == "public":
        if len(words) != 2:
            raise InvalidOrder(phrase("name public buildings as '{form}'", form=order_syntax("public <fame>")))
        return f"public {parse_int(words[1], 'the fame value', minimum=1)}"
    return match_name(text, building_names(components), "building")


def _number(word: str, what: str) -> int:
    """A contract, ship or offer number, also written #17 or c17."""
    return parse_int(word.lstrip("#").lstrip("cC") if word[:1] in "#cC" and word[1:].isdigit() else word, what,
                     minimum=1)


def _need(keyword: str, words: list[str], n: int, form: str) -> None:
    if len(words) != n:
        raise _written(keyword, form, form)


def _written(keyword: str, form: str, example: str) -> InvalidOrder:
    """`'load' is written 'load <contract> on ship <n>'`, with an example as the suggestion."""
    return InvalidOrder(phrase("'{keyword}' is written '{form}'", keyword=order_text(keyword), form=order_syntax(form)),
                        suggestion=order_phrase(example))


# --------------------------------------------------------------------------- one parser a keyword
# Each takes the keyword, the words after it, the component set and the players' names.

Parser = Callable[[str, list[str], dict[str, Any], list[str]], Order]


def _bare(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    _need(keyword, words, 0, keyword)
    return Order(keyword)


def _take(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`take <office>`; `take free`: the office a player pushed out of his own may take
    without paying (the one his challenger left), whichever it turns out to be."""
    if not words:
        raise InvalidOrder(phrase("take which office?"), suggestion=order_phrase("take <office>"))
    if len(words) == 1 and fold(words[0]) == FREE_OFFICE:
        return Order("take", {"office": FREE_OFFICE})
    return Order("take", {"office": match_name(" ".join(words), OFFICE_NAMES, "office")})


_BID_UP_TO = re.compile(r"^(.*?)\s+up\s*to\s+(\S+)$", re.I)


def _bid(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`bid comes 3`, `bid comes 3 up to 8`, and `bid comes up to 8`: the least bid the
    office takes when the order is carried out, raised for the bidder up to 8."""
    text = " ".join(words)
    found = _BID.match(text)
    bare = _BID_UP_TO.match(text)
    if bare and bare.group(1) and not bare.group(1).split()[-1].isdigit():
        return Order("bid", {"office": match_name(bare.group(1), OFFICE_NAMES, "office"),
                             "limit": parse_int(bare.group(2), "the limit", minimum=1)})
    if not found or not found.group(1):
        raise InvalidOrder(phrase("a bid is written {forms}", forms=order_syntax(
            "'bid <office> <gold>', 'bid <office> <gold> up to <gold>' or 'bid <office> up to <gold>'")),
            suggestion=order_phrase("bid consul 3"))
    args: dict[str, Any] = {"office": match_name(found.group(1), OFFICE_NAMES, "office"),
                            "gold": parse_int(found.group(2), "the bid", minimum=1)}
    if found.group(3):
        args["limit"] = parse_int(found.group(3), "the limit", minimum=1)
    return Order("bid", args)


def _gold(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`raise 5`, `defend 6` (also `defend up to 6`)."""
    if len(words) == 3 and fold(words[0]) == "up" and fold(words[1]) == "to":
        words = words[2:]
    if len(words) != 1:
        raise _written(keyword, f"{keyword} <gold>", f"{keyword} 3")
    return Order(keyword, {"gold": parse_int(words[0], "the amount", minimum=0 if keyword == "defend" else 1)})


def _one_good(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    _need(keyword, words, 1, f"{keyword} <good>")
    return Order(keyword, {"good": good(" ".join(words))})


def _goods_count(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`buy 2 green`, `sell yellow`, `discard 1 green`; `buy <building>` is a purchase."""
    if keyword == "buy" and words and not words[0].isdigit():
        try:
            return Order("build", _purchase(" ".join(words), components))
        except OrderError:
            if len(words) != 1:
                raise
    if len(words) == 1:
        return Order(keyword, {"good": good(words[0]), "count": 1})
    _need(keyword, words, 2, f"{keyword} <count> <good>")
    return Order(keyword, {"good": good(words[1]), "count": parse_int(words[0], "the count", minimum=1)})


def _build(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    return Order("build", _purchase(" ".join(words), components))


def _use(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    if not words:
        raise InvalidOrder(phrase("use which building?"), suggestion=order_phrase("use <commercial building>"))
    return Order("use", {"building": match_name(" ".join(words), building_names(components), "building")})


def _exchange(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    if len(words) != 3 or fold(words[1]) != "for":
        raise _written("exchange", "exchange <good> for <good>", "exchange green for red")
    return Order("exchange", {"give": good(words[0]), "get": good(words[2])})


def _trade(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    goods = _goods_list(words)
    if len(goods) != 3:
        raise InvalidOrder(phrase("the trade wall takes exactly three goods"),
                           suggestion=order_phrase("trade green green blue"))
    return Order("trade", {"goods": goods})


def _preempt(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`preempt` (the answer), `preempt list ...`, `preempt never`, `preempt ask`."""
    if not words:
        return Order("preempt")
    head = fold(words[0])
    if head in ("never", "none", "nothing") and len(words) == 1:
        return Order("preempt-list", {"buildings": []})
    if head == "ask" and len(words) == 1:
        return Order("preempt-ask")
    if head == "list" and len(words) > 1:
        text = " ".join(words[1:])
        return Order("preempt-list", {"buildings": [_preempt_entry(x.strip(), components)
                                                    for x in text.split(",") if x.strip()]})
    raise InvalidOrder(phrase("write {forms}", forms=order_syntax(
        "'preempt', 'preempt list <buildings>', 'preempt never' or 'preempt ask'")),
        suggestion=order_phrase("preempt list Metallum, public 4"))


def _redraw(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    if not 1 <= len(words) <= 2:
        raise InvalidOrder(phrase("redraw one or two contracts: '{form}'", form=order_syntax("redraw <n> [<n>]")),
                           suggestion=order_phrase("redraw 12 40"))
    return Order("redraw", {"contracts": [_number(w, "a contract number") for w in words]})


def _load(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    numbers = [w for w in words if fold(w) not in ("on", "ship", "onto")]
    if len(numbers) != 2:
        raise _written("load", "load <contract> on ship <n>", "load 17 on ship 1")
    return Order("load", {"contract": _number(numbers[0], "the contract number"),
                          "ship": _number(numbers[1], "the ship number")})


def _contract(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`unload 17`, `save 17`, `free 17`."""
    _need(keyword, words, 1, f"{keyword} <contract>")
    return Order(keyword, {"contract": _number(words[0], "the contract number")})


def _ship(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    if not words:
        raise InvalidOrder(phrase("which size?"), suggestion=order_phrase("ship small, ship medium or ship large"))
    return Order("ship", {"size": match_name(" ".join(words), SIZE_NAMES, "ship size")})


def _answer(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`accept 3`, `reject 3`: an answer to a free-trade offer; `withdraw 3`: one's own offer
    taken back before it is answered."""
    _need(keyword, words, 1, f"{keyword} <offer number>")
    return Order(keyword, {"offer": _number(words[0], "the offer number")})


def _offer(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    found = _OFFER.match(" ".join(words))
    if not found:
        raise InvalidOrder(phrase("an offer is written '{form}'", form=order_syntax(
            "offer <player> give <items> for <items>")), suggestion=order_phrase("offer anna give 2 gold for 1 green"))
    who = match_name(found.group(1), {n: n for n in players}, "player")
    return Order("offer", {"to": who, "give": _items(found.group(2)), "get": _items(found.group(3))})


def _keep(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    if not words:
        raise InvalidOrder(phrase("keep which goods?"), suggestion=order_phrase("keep green, or keep nothing"))
    return Order("keep", {"goods": _goods_list(words)})


_PARSERS: dict[str, Parser] = {
    "stay": _bare, "pass": _bare, "done": _bare, "allow": _bare, "post": _bare,
    "take": _take, "bid": _bid, "raise": _gold, "defend": _gold, "good": _one_good, "donate": _one_good,
    "discard": _goods_count, "buy": _goods_count, "sell": _goods_count, "build": _build, "use": _use,
    "exchange": _exchange, "trade": _trade, "preempt": _preempt, "redraw": _redraw, "load": _load,
    "unload": _contract, "save": _contract, "free": _contract, "ship": _ship, "accept": _answer, "reject": _answer,
    "withdraw": _answer, "offer": _offer, "keep": _keep,
}


def _cancel(keyword: str, words: list[str], components: dict[str, Any], players: list[str]) -> Order:
    """`cancel plan` (every part, and the defend limit), `cancel construction`, ..."""
    if len(words) != 1:
        raise InvalidOrder(phrase("write {forms}", forms=order_syntax("'cancel plan' or 'cancel <part>'")),
                           suggestion=order_phrase("cancel construction"))
    return Order("cancel", {"part": match_name(words[0], CANCELLABLE, "plan part")})


_PARSERS["cancel"] = _cancel
_KEYWORD_SPELLINGS = frozenset(fold(k) for k in KEYWORDS)


def is_keyword(word: str) -> bool:
    """Whether a word is an order keyword as written (not a prefix of one): what decides
    whether an alternative after `or` brings its own keyword."""
    return fold(word) in _KEYWORD_SPELLINGS


_READ = Memo(50_000)  # lines read, by component set, players and text


def parse_alternatives(text: str, components: dict[str, Any], players: list[str]) -> tuple[list[Order], bool]:
    """`build Textrinum or Figulina if available` -> the orders, and whether the line may be
    skipped when none of them is possible.

    A line reads the same wherever it is read: only the component set (named by its hash)
    and the players go into it, so a line read before is answered from memory (menus, the
    bots and the tests read the same lines at position after position). Only orders of plain
    values are kept, which nobody can change; errors are made afresh, as callers place them
    on their lines."""
    digest = components.get("sha256")
    key = (digest, tuple(players), text)
    known = _READ.get(key) if digest is not None else None
    if known is not None:
        return list(known[0]), known[1]
    body, optional = split_optional(text)
    orders = [parse_line(part, components, players) for part in split_alternatives(body, is_keyword)]
    if digest is not None and all(o.plain() for o in orders):
        _READ.keep(key, (tuple(orders), optional))
    return orders, optional


def format_alternatives(orders: list[Order], optional: bool) -> str:
    text = join_alternatives([format_order(o) for o in orders], is_keyword)
    return text + (f", {OPTIONAL}" if optional else "")


def parse_line(line: str, components: dict[str, Any], players: list[str]) -> Order:
    """One line of orders text to an Order; InvalidOrder (or AmbiguousOrder) when it is not one."""
    words = line.split()
    keyword = match_name(words[0], KEYWORDS, "order")
    parser = _PARSERS.get(keyword)
    if parser is None:
        raise InvalidOrder(phrase("unknown order {word!r}", word=words[0]))
    return parser(keyword, words[1:], components, players)


def format_order(order: Order) -> str:
    """The canonical text of an order: `parse_line(format_order(o)) == o`."""
    kind, args = order.kind, order.args
    if kind in ("stay", "pass", "done", "allow", "post", "preempt"):
        return kind
    if kind == "take":
        return f"take {args['office']}"
    if kind == "bid":
        limit = args.get("limit")
        opening = f" {args['gold']}" if args.get("gold") is not None else ""
        return f"bid {args['office']}{opening}" + (f" up to {limit}" if limit is not None else "")
    if kind in ("raise", "defend"):
        return f"{kind} {args['gold']}"
    if kind in ("good", "donate"):
        return f"{kind} {args['good']}"
    if kind in ("buy", "sell", "discard"):
        return f"{kind} {args['count']} {args['good']}"
    if kind == "build":
        if "public" in args:
            text = f"build public {args['public']}"
        elif "wall" in args:
            text = f"build wall {args['wall']}"
        else:
            text = f"build {args['building']}"
        return text + (" with redemptor" if args.get("redemptor") else "")
    if kind == "use":
        return f"use {args['building']}"
    if kind == "exchange":
        return f"exchange {args['give']} for {args['get']}"
    if kind == "trade":
        return "trade " + " ".join(args["goods"])
    if kind == "preempt-list":
        return "preempt list " + ", ".join(args["buildings"]) if args["buildings"] else "preempt never"
    if kind == "preempt-ask":
        return "preempt ask"
    if kind == "redraw":
        return "redraw " + " ".join(map(str, args["contracts"]))
    if kind == "load":
        return f"load {args['contract']} on ship {args['ship']}"
    if kind in ("unload", "save", "free"):
        return f"{kind} {args['contract']}"
    if kind == "ship":
        return f"ship {args['size']}"
    if kind in ("accept", "reject", "withdraw"):
        return f"{kind} {args['offer']}"
    if kind == "offer":
        return (f"offer {args['to']} give {', '.join(args['give']) or 'nothing'} "
                f"for {', '.join(args['get']) or 'nothing'}")
    if kind == "keep":
        return "keep " + (" ".join(args["goods"]) if args["goods"] else "nothing")
    if kind == "either":
        return format_alternatives([Order.from_json(a) for a in args["alts"]], args.get("optional", False))
    if kind == "plan":
        return f"{args['part']}: " + format_alternatives([Order.from_json(a) for a in args["alts"]],
                                                         args.get("optional", False))
    if kind == "cancel":
        return f"cancel {args['part']}"
    raise ValueError(f"no text form for {kind}")


def order_shapes(components: dict[str, Any], players: list[str]) -> dict[str, OrderShape]:
    """What may follow each keyword (`referee.contract.OrderShape`), for mail reading to tell a
    misspelt order from prose: the words of the names each order takes, and how many."""
    offices, goods, sizes = set(OFFICE_NAMES), set(GOOD_NAMES), set(SIZE_NAMES)
    buildings = set(building_names(components))
    purchase = buildings | {"public", "wall", "moenia", "with", "using", "redemptor"} | set(WALL_NAMES)
    bare = OrderShape()
    contract = OrderShape(1, 1, numbers=True)
    shapes = {
        "stay": bare, "pass": bare, "done": bare, "allow": bare, "post": bare,
        "preempt": OrderShape(0, None, frozenset(buildings | {"list", "never", "none", "nothing", "ask", "public"}),
                              numbers=True),
        "take": OrderShape(1, 2, frozenset(offices | {FREE_OFFICE})),
        "bid": OrderShape(2, 6, frozenset(offices | {"up", "to", "upto"}), numbers=True),
        "raise": OrderShape(1, 3, frozenset({"up", "to"}), numbers=True),
        "defend": OrderShape(1, 3, frozenset({"up", "to"}), numbers=True),
        "good": OrderShape(1, 1, frozenset(goods)), "donate": OrderShape(1, 1, frozenset(goods)),
        "buy": OrderShape(1, 5, frozenset(goods | purchase), numbers=True),
        "sell": OrderShape(1, 2, frozenset(goods), numbers=True),
        "discard": OrderShape(1, 2, frozenset(goods), numbers=True),
        "build": OrderShape(1, 5, frozenset(purchase), numbers=True),
        "use": OrderShape(1, 3, frozenset(buildings)),
        "exchange": OrderShape(3, 3, frozenset(goods | {"for"})),
        "trade": OrderShape(1, 6, frozenset(goods), numbers=True),
        "redraw": OrderShape(1, 2, numbers=True),
        "load": OrderShape(2, 4, frozenset({"on", "ship", "onto"}), numbers=True),
        "unload": contract, "save": contract, "free": contract, "accept": contract, "reject": contract,
        "withdraw": contract,
        "ship": OrderShape(1, 2, frozenset(sizes)),
        "offer": OrderShape(4, None, frozenset(set(players) | goods | {"give", "for", "gold", "contract", "nothing",
                                                                        "none"}), numbers=True),
        "keep": OrderShape(1, None, frozenset(goods | {"nothing", "none"}), numbers=True),
        "cancel": OrderShape(1, 1, frozenset(CANCELLABLE)),
    }
    return shapes
