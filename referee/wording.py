"""What the games say to players, kept so that each reader gets it in their own language.

The rules engines are pure and know nothing of languages, but what they write (events, the
question of a prompt, help, errors, the explanation of a menu line, plan notes) reaches
players of several. So an engine writes a `Phrase`: a `str` that is the English text (what the
log, the tests and the moderator read, exactly as before) and that also remembers its English
template and values. The mail side writes it again in each reader's language
(`referee.i18n.messages.say`): the template looked up in the catalogue, each value in the
reader's words: a game term (`term("green")`) through the game's glossary, a list with the
language's "or" and "and", an order in the player's order words, a count with the language's
plural.

Everything here is plain data and pure functions, so a game may use it: no catalogue, no
clock, no I/O. The templates are extracted for the catalogues under the keywords `phrase` and
`plural_phrase` (babel.cfg, `make catalogues`).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence


class Term(str):
    """A word of the game (a good, a ship size, an office, a place on the board) that a reader
    sees in their language's word for it, from the game's glossary."""

    def to_json(self) -> dict[str, str]:
        return {"term": str(self)}


class OrderText(str):
    """The canonical text of one or more orders, shown in the reader's order words."""

    def to_json(self) -> dict[str, str]:
        return {"orders": str(self)}


class MenuOrder(str):
    """The order part of a menu line (`sell <count> <good>`): its words in the reader's order
    words, its `<placeholders>` as they are."""

    def to_json(self) -> dict[str, str]:
        return {"menu_order": str(self)}


class Listing(str):
    """Several values in a row: `a, b and c` (`both`), `a, b or c` (`either`) or `a, b, c`."""

    items: tuple[Any, ...]
    last: str  # "and", "or" or "" (commas only)

    def __new__(cls, items: Iterable[Any], last: str = "") -> "Listing":
        kept = tuple(items)
        texts = [str(item) for item in kept]
        if last and len(texts) > 1:
            english = f"{', '.join(texts[:-1])} {last} {texts[-1]}"
        else:
            english = ", ".join(texts)
        made = str.__new__(cls, english)
        made.items, made.last = kept, last
        return made

    def to_json(self) -> dict[str, Any]:
        return {"list": [value_json(item) for item in self.items], "last": self.last}


class Phrase(str):
    """English text made from a template and values, which a reader may get in another language.
    `plural` holds the template for more than one and `count` the number that chooses, for a
    phrase made by `plural_phrase`."""

    template: str
    values: dict[str, Any]
    plural: str | None
    count: int | None
    _kept: dict[str, Any] | None = None  # what a phrase read back from a game file was said as

    def __new__(cls, template: str, values: Mapping[str, Any], plural: str | None = None,
                count: int | None = None) -> "Phrase":
        chosen = template if plural is None or count == 1 else plural
        # engines make phrases by the thousand a step (every refused order, prompt and menu
        # line has one): the values formatted as they are given and the attributes set at once
        text = chosen.format_map(values) if count is None else chosen.format(n=count, **values)
        made = str.__new__(cls, text)
        made.__dict__ = {"template": template, "values": dict(values), "plural": plural, "count": count}
        return made

    def to_json(self) -> dict[str, Any]:
        if self._kept is not None:
            return self._kept
        out: dict[str, Any] = {"msg": self.template, "args": {k: value_json(v) for k, v in self.values.items()}}
        if self.plural is not None:
            out["plural"], out["n"] = self.plural, self.count
        return out


def phrase(template: str, **values: Any) -> Phrase:
    """A sentence or part of one: `phrase("{player} produces {goods}.", player=..., goods=...)`.
    The template is English with `{fields}`, written as a whole thought so that a translator
    can reorder it; values may be numbers, names, terms, lists, orders or other phrases."""
    return Phrase(template, values)


def plural_phrase(count: int, one: str, many: str, **values: Any) -> Phrase:
    """A phrase whose words depend on a number, `{n}` in both templates: `plural_phrase(k,
    "{n} contract", "{n} contracts")`. Each language chooses its own form for the number."""
    return Phrase(one, values, many, count)


def term(word: str) -> Term:
    return Term(word)


def order_text(text: str) -> OrderText:
    return OrderText(text)


def menu_order(text: str) -> MenuOrder:
    return MenuOrder(text)


def order_phrase(text: str) -> Phrase:
    """An order, or its syntax (`take <office>`), as a phrase of its own (a menu line, an
    error's suggestion): in the reader's order words, `<placeholders>` as they are."""
    return phrase("{order}", order=menu_order(text) if "<" in text else order_text(text))


def either(items: Iterable[Any]) -> Listing:
    """`a, b or c`."""
    return Listing(items, "or")


def both(items: Iterable[Any]) -> Listing:
    """`a, b and c`."""
    return Listing(items, "and")


def listed(items: Iterable[Any]) -> Listing:
    """`a, b, c`: a list whose items each read in the reader's words."""
    return Listing(items)


def in_a_row(items: Sequence[Any]) -> Any:
    """`a; b; c`: reasons or orders in a row, each said in the reader's words."""
    if not items:
        return listed(())
    said = items[-1]
    for item in reversed(items[:-1]):
        said = phrase("{first}; {rest}", first=item, rest=said)
    return said


def value_json(value: Any) -> Any:
    """A value of a phrase as plain JSON: what it is (a term, a list, an order, a phrase) kept,
    so that it can be written in any language after a trip through the game file."""
    to_json = getattr(value, "to_json", None)
    if to_json is not None and isinstance(value, str):
        return to_json()
    return value if isinstance(value, (int, float, bool)) or value is None else str(value)


def from_json(data: Any) -> Any:
    """The inverse of `value_json`: a phrase (or term, list, order) back from plain JSON; a
    plain value as it is."""
    if not isinstance(data, Mapping):
        return data
    if "term" in data:
        return Term(str(data["term"]))
    if "orders" in data:
        return OrderText(str(data["orders"]))
    if "menu_order" in data:
        return MenuOrder(str(data["menu_order"]))
    if "list" in data:
        return Listing((from_json(item) for item in data["list"]), str(data.get("last") or ""))
    if "msg" in data:
        values = {k: from_json(v) for k, v in (data.get("args") or {}).items()}
        return Phrase(str(data["msg"]), values, data.get("plural"), data.get("n"))
    return data


def restore(text: str, said: Any) -> str:
    """A text kept with what it was said as (`Phrase.to_json`): a phrase again, reading as the
    text it was written with (an English wording changed since does not rewrite the past), that
    says itself in another language from what was kept (its values are not made again: events
    read back from a game file are many, and most are only shown in English or not at all); the
    text itself when it was not kept as a phrase."""
    if not isinstance(said, dict) or "msg" not in said:
        return text
    kept = str.__new__(Phrase, text)
    kept._kept = said
    kept.template, kept.plural, kept.count = str(said["msg"]), said.get("plural"), said.get("n")
    kept.values = {}  # what it was said with is in the kept form; `from_json(kept.to_json())` makes them
    return kept

