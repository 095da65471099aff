"""Order text between a player's language and the canonical English the games read.

A game may ship `glossary.toml` beside its code (games/<name>/glossary.toml): for each
language its order keywords, the other words of its orders, and aliases accepted but never
shown. Orders are read here before the game parses them: each word or phrase of the
player's language becomes its English form, so a game's grammar, its errors and the game log
only ever see English, and replay never depends on a translation. The other way round,
`localise` writes the canonical text of an order (a receipt's echo, a menu line) in the
player's language.
"""

from __future__ import annotations

import difflib
import re
import sys
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from typing import Any, Callable

from ..contract import InvalidOrder, OrderErrors, phase_code
from ..orderlines import fold
from . import DEFAULT_LANGUAGE, translations

_WORD = re.compile(r"[^\W\d_](?:[\w'-]*\w)?|\d+")  # words of letters (and the - of pre-empt); numbers apart
MAX_PHRASE = 3


@dataclass(frozen=True)
class Terms:
    """One game's words in one language."""

    lang: str
    orders: dict[str, str] = field(default_factory=dict)  # folded local keyword -> English
    words: dict[str, str] = field(default_factory=dict)  # folded local word or alias -> English
    shown: dict[str, str] = field(default_factory=dict)  # English (folded) -> the local word shown
    nouns: dict[str, str] = field(default_factory=dict)  # a kind of name in errors ("building") -> local
    phases: dict[str, str] = field(default_factory=dict)  # a phase's English name -> local
    names: dict[str, str] = field(default_factory=dict)  # English (folded) -> the word in prose, if cased apart
    placeholders: dict[str, str] = field(default_factory=dict)  # `<count>` of a menu's syntax -> local
    plurals: dict[str, str] = field(default_factory=dict)  # a shown word -> its form after a plural count
    walls: dict[str, str] = field(default_factory=dict)  # a wall segment (`exchange`) -> its name in lists

    def english(self, phrase: str) -> str | None:
        key = fold(phrase)
        return self.orders.get(key) or self.words.get(key)


def _package(game: Any) -> str | None:
    """The package a game's class lives in, where its glossary.toml is."""
    return getattr(sys.modules.get(type(game).__module__), "__package__", None) or None


def glossary_data(game: Any) -> dict[str, Any]:
    """The parsed glossary.toml of a game's package; empty for a game without one."""
    package = _package(game)
    return _load(package) if package else {}


@lru_cache(maxsize=None)
def _load(package: str) -> dict[str, Any]:
    try:
        text = resources.files(package).joinpath("glossary.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return {}
    return tomllib.loads(text)


@lru_cache(maxsize=None)
def _terms(package: str, lang: str) -> Terms:
    data = _load(package).get(lang, {})
    terms = Terms(lang)
    for section, table in (("orders", terms.orders), ("words", terms.words), ("aliases", terms.words)):
        for english, local in data.get(section, {}).items():
            for word in local:
                table[fold(word)] = english
            if section != "aliases" and local:
                terms.shown.setdefault(fold(english), local[0])
    terms.nouns.update(data.get("nouns", {}))
    terms.phases.update(data.get("phases", {}))
    terms.names.update({fold(k): v for k, v in data.get("names", {}).items()})
    terms.placeholders.update(data.get("placeholders", {}))
    terms.plurals.update({fold(one): many for one, many in data.get("plurals", {}).items()})
    terms.walls.update(data.get("walls", {}))
    return terms


def phase_name(game: Any, lang: str, name: str) -> str:
    """A phase's name (`PhaseInfo.name`) in `lang`, as the game's glossary has it; else as is."""
    table = terms(game, lang)
    return table.phases.get(name, name) if table else name


def round_text(game: Any, lang: str, number: int) -> str:
    """`round 2`, or `decade 2` in a game whose rounds are decades (`rounds_are`), in `lang`:
    one word for the game's count in subjects and headers as in its own text."""
    t = translations(lang)
    if getattr(game, "rounds_are", "round") == "decade":
        return t.gettext("decade {n}").format(n=number)
    return t.gettext("round {n}").format(n=number)


def localised_phase(game: Any, lang: str, phase: dict[str, Any]) -> dict[str, Any]:
    """A phase dict (`key`, `round`, `name`, ...) as a player reads it: its name in `lang`,
    its key as the short code players write (`referee.contract.phase_code`), its round as
    the game counts it (`when`, `round_text`)."""
    shown = dict(phase, name=phase_name(game, lang, phase["name"])) if "name" in phase else dict(phase)
    if "key" in shown:
        shown["key"] = phase_code(game, shown["key"])
    if "round" in shown:
        shown["when"] = round_text(game, lang, shown["round"])
    return shown


def shown_phase(game: Any, lang: str, info: Any) -> dict[str, Any]:
    """A `PhaseInfo` as the phase dict a player's mail shows (`localised_phase`)."""
    return localised_phase(game, lang, {"key": info.key, "round": info.round, "name": info.name})


def english_keywords(game: Any) -> set[str]:
    """Every first word the game's English grammar takes (folded): the keywords the glossary
    translates to, and its `[en.orders]` aliases."""
    data = glossary_data(game)
    words = {fold(k) for lang in data.values() for k in lang.get("orders", {})}
    words |= {fold(w) for local in data.get("en", {}).get("orders", {}).values() for w in local}
    return words


def terms(game: Any, lang: str) -> Terms | None:
    """A game's words in `lang`; None for English or a game without a glossary."""
    package = _package(game)
    if lang == DEFAULT_LANGUAGE or not package or lang not in _load(package):
        return None
    return _terms(package, lang)


def _spans(line: str) -> list[tuple[int, int]]:
    return [m.span() for m in _WORD.finditer(line)]


def _phrases(line: str, lookup: Callable[[str], str | None]) -> list[tuple[int, int, str]]:
    """Longest-first matches of known phrases (up to MAX_PHRASE words) in `line`: (start, end,
    replacement). `lookup(phrase)` gives the replacement or None."""
    spans = _spans(line)
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(spans):
        for n in range(min(MAX_PHRASE, len(spans) - i), 0, -1):
            start, end = spans[i][0], spans[i + n - 1][1]
            text = line[start:end]
            if n > 1 and not re.fullmatch(r"[\w'-]+(?: [\w'-]+)*", text):
                continue  # a phrase is words apart by single spaces
            found = lookup(text)
            if found is not None:
                out.append((start, end, found))
                i += n
                break
        else:
            i += 1
    return out


def _replace(line: str, matches: list[tuple[int, int, str]]) -> str:
    for start, end, text in reversed(matches):
        line = line[:start] + text + line[end:]
    return line


def to_english(game: Any, lang: str, text: str) -> str:
    """A submission in `lang` (or English, or a mix) as the English the game reads, line for
    line so that errors keep their line numbers; comments are left as they are. Words of the
    player's language are taken whole (letter case and accents aside): a beginning of one
    would turn a signature such as "Ann" into `annehmen`. A first word that is neither an
    English order word (`english_keywords`), a prefix of one, nor an order word of the
    player's language is refused with the closest words of their language."""
    table = terms(game, lang)
    if table is None:
        return text
    keywords = english_keywords(game)
    out, errors = [], []
    for number, raw in enumerate(text.splitlines(), start=1):
        body, hash_, comment = raw.partition("#")
        if body.strip():
            try:
                body = _line_to_english(table, body, keywords, number)
            except InvalidOrder as exc:
                errors.append(exc)
        out.append(body + hash_ + comment)
    if errors:
        raise errors[0] if len(errors) == 1 else OrderErrors(errors)
    return "\n".join(out)


def _line_to_english(table: Terms, line: str, english_keywords: set[str], number: int) -> str:
    matches = _phrases(line, lookup=table.english)
    first = _spans(line)[:1]
    # a plan's part (`construction: ...`) is named in English; the game reads it
    if first and (not matches or matches[0][0] != first[0][0]) and line[first[0][1]:first[0][1] + 1] != ":":
        start, end = first[0]
        word = line[start:end]
        key = fold(word)
        if not any(k.startswith(key) for k in english_keywords):
            raise _unknown_keyword(table, word, line.strip(), number)
    return _replace(line, matches)


def _unknown_keyword(table: Terms, word: str, line: str, number: int) -> InvalidOrder:
    """`word` is no order in either language: the closest words of the player's language."""
    t = translations(table.lang)
    close = difflib.get_close_matches(fold(word), list(table.orders), n=3, cutoff=0.6)
    names = list(dict.fromkeys(table.shown.get(fold(table.orders[c]), c) for c in close))
    suggestion = (t.gettext("did you mean {words}?").format(words=t.gettext(" or ").join(repr(n) for n in names))
                  if names else t.gettext("send HELP for the orders you may give now"))
    return InvalidOrder(t.gettext("no order called {word!r}").format(word=word), line=number, text=line,
                        suggestion=suggestion)


def localise_error(game: Any, lang: str, template: tuple[str, dict[str, Any]]) -> str:
    """An order error kept as an English template and its values (`referee.orderlines`), in
    `lang`: the template from the catalogue, the kind of name (`what`) and the names
    (`names`, `listed`, `name`) in the game's words for that language."""
    text, values = template
    t = translations(lang)
    table = terms(game, lang)
    shown: dict[str, Any] = dict(values)
    if "what" in values:
        shown["what"] = table.nouns.get(values["what"], values["what"]) if table else values["what"]
    if "names" in values:
        shown["names"] = t.gettext(" or ").join(repr(localise(game, lang, n)) for n in values["names"])
    if "listed" in values:
        shown["listed"] = ", ".join(localise(game, lang, n) for n in values["listed"])
    if "name" in values:
        shown["name"] = localise(game, lang, values["name"])
    return t.gettext(text).format(**shown)


def term(game_name: str, lang: str, word: object) -> str:
    """One game term (`green`, `small`, `lighthouse`, or a decision's name such as `action
    turn`) in `lang`, for the views' layouts, which know the game by name only; a word the
    glossary does not know stays as it is."""
    from .. import registry

    text = str(word)
    try:
        game = registry.get(game_name)
    except Exception:  # an unknown game: nothing to translate with
        return text
    table = terms(game, lang)
    if table is None:
        return text
    return table.names.get(fold(text)) or table.shown.get(fold(text)) or table.phases.get(text, text)


def wall_name(game_name: str, lang: str, wall: str) -> str:
    """A wall segment (`exchange`) named in a list of walls: the glossary's `[<lang>.walls]`
    noun where the order word is a verb (`scambio`, not `scambia`); else the term."""
    from .. import registry

    try:
        table = terms(registry.get(game_name), lang)
    except Exception:  # an unknown game: nothing to translate with
        return wall
    return table.walls.get(wall) if table is not None and wall in table.walls else term(game_name, lang, wall)


def localise_menu(game: Any, lang: str, line: str) -> str:
    """A menu line (`LOADMASTER <slot> OCCUPY <dock>: C1-II, ...`) in the player's words: the
    order before the first `: ` is localised, but not the `<placeholders>` in it, nor the
    game's explanation after it, which is prose the glossary's words would only garble."""
    head, sep, tail = line.partition(": ")
    parts = re.split(r"(<[^>]*>)", head)
    table = terms(game, lang)
    return "".join(_placeholder(table, p) if p.startswith("<") else localise(game, lang, p)
                   for p in parts) + sep + tail


def _placeholder(table: Terms | None, part: str) -> str:
    """`<count>` in the reader's words (`<Anzahl>`, `<numero>`): the glossary's
    `[<lang>.placeholders]`; one it lacks stays as written (a test holds every placeholder
    of the games' menus to a word of each language)."""
    if table is None:
        return part
    inner = part[1:-1]
    return "<" + table.placeholders.get(inner, inner) + ">"


COUNTED = re.compile(r"(?<![\w.,])(\d+)(?:[-–](\d+))?\s+([^\W\d_]+)")


def agree(game: Any, lang: str, text: str) -> str:
    """Words after a count in the form the count asks for (`4 verde` -> `4 verdi`, `1-2
    rosso` -> `1-2 rossi`): the glossary's `[<lang>.plurals]` hold the forms, Babel's
    plural rules of the language say which form a number takes."""
    table = terms(game, lang)
    if table is None or not table.plurals:
        return text
    return agree_with(table.plurals, lang, text)


def agree_with(plurals: dict[str, str], lang: str, text: str) -> str:
    """`agree` with a table of forms (folded singular -> plural) already chosen."""
    from babel import Locale

    rule = Locale.parse(lang).plural_form

    def form(match: re.Match[str]) -> str:
        word = match.group(3)
        many = plurals.get(fold(word))
        number = int(match.group(2) or match.group(1))
        if many is None or (rule(number) == "one" and not match.group(2)):
            return match.group(0)
        if word.isupper():
            many = many.upper()
        elif word[:1].isupper():
            many = many[:1].upper() + many[1:]
        return match.group(0)[: match.start(3) - match.start(0)] + many

    return COUNTED.sub(form, text)


@lru_cache(maxsize=None)
def mail_plurals(lang: str) -> dict[str, str]:
    """The plural forms of every game's glossary in `lang`, for a whole mail (its tables and
    prose both)."""
    from .. import registry

    table: dict[str, str] = {}
    for game in registry.games().values():
        found = terms(game, lang)
        if found is not None:
            table.update(found.plurals)
    return table


# What a language writes otherwise by the sound or the amount that follows, over a whole mail
# as the counts are (the sentences are shared by every count and every name): Italian writes
# `ad` before a word starting with `a` (`tocca ad alice`), and a price of nothing `gratis`
# (`prende la carica vacante Comes Thesaurorum gratis`).
SMOOTHING: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "it": [(re.compile(r"(?<![\w'’<])a(\s+)(?=[Aa][^\W\d_])"), r"ad\1"),
           (re.compile(r"\bper\s+0\s+(?:oro|talenti)\b"), "gratis")],
}


def agreed(lang: str, text: str) -> str:
    """A whole mail's text with every count and the word after it agreeing (`agree`), by the
    forms of every game's glossary in `lang`, and written as `SMOOTHING` says."""
    plurals = mail_plurals(lang)
    text = agree_with(plurals, lang, text) if plurals else text
    for pattern, replacement in SMOOTHING.get(lang, ()):
        text = pattern.sub(replacement, text)
    return text


def localise(game: Any, lang: str, line: str) -> str:
    """Canonical English order text (an echo, a menu line) in the player's language: each
    English word the glossary knows as its first word in `lang`, in the same letter case
    (`CAPTAIN 2` -> `KAPITÄN 2`, `take consul` -> `nimm consul`)."""
    table = terms(game, lang)
    if table is None:
        return line

    def shown(phrase: str) -> str | None:
        local = table.shown.get(fold(phrase))
        if local is None:
            return None
        if phrase.isupper():
            return local.upper()
        if phrase[:1].isupper():
            return local[:1].upper() + local[1:]
        return local

    return _replace(line, _phrases(line, lookup=shown))


class InLanguage:
    """A game as a player of one language writes to it: `parse` reads the player's words first
    (`to_english`), and `keywords` holds the order words of both languages. What reads a mail
    before the service parses it (telling orders from prose around them) sees the player's
    orders as orders. Everything else is the game's own."""

    def __init__(self, game: Any, lang: str, table: Terms) -> None:
        self._game, self._lang, self._table = game, lang, table

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    @property
    def keywords(self) -> dict[str, str] | None:
        """The game's words that begin an order line, in both languages: its order keywords,
        and the other words of the player's language that read as such a word (a plan part's
        name, `Privileg:`), so that a line starting with one is read as orders, never set
        aside as prose, and a mistake in it is answered."""
        own = getattr(self._game, "keywords", None)
        if own is None:
            return None
        words = {local: own[english] for local, english in self._table.words.items() if english in own}
        return {**own, **words, **self._table.orders}

    def parse(self, state: Any, player: str, text: str) -> Any:
        return self._game.parse(state, player, to_english(self._game, self._lang, text))

    def order_shapes(self, state: Any) -> dict[str, Any] | None:
        """The game's order shapes (`referee.contract.OrderShape`), each also taking the
        player's words for its names and small words (`bis` for `up to`)."""
        hook = getattr(self._game, "order_shapes", None)
        if hook is None:
            return None
        local: dict[str, set[str]] = {}
        for word, english in self._table.words.items():
            for part in english.split():
                local.setdefault(fold(part), set()).update(word.split())
        shapes = {}
        for keyword, shape in hook(state).items():
            extra = {word for name in shape.names for part in name.split() for word in local.get(fold(part), ())}
            shapes[keyword] = replace(shape, names=shape.names | extra) if extra else shape
        return shapes


def in_language(game: Any, lang: str) -> Any:
    """The game as a player of `lang` writes to it (`InLanguage`); the game itself for English
    or a game without a glossary."""
    table = terms(game, lang)
    return game if table is None else InLanguage(game, lang, table)
