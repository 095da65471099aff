"""Shared pieces of every game's order grammar: lines, words and names.

Each game owns its grammar, but all of them read a submission the same way: one order per
line, keywords in any letter case, `#` starts a comment, blank lines don't count, and a name
may be given by a unique prefix or an alias. Keeping that here means a player learns it once.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .contract import AmbiguousOrder, InvalidOrder, OrderError
from .i18n import N_
from .wording import order_text, phrase


def _error(kind: type[OrderError], message: str, values: dict[str, Any], suggestion: str | None = None,
           hints: dict[str, Any] | None = None) -> OrderError:
    """An order error from English templates, keeping them so a receipt can write the error
    in the player's language (`referee.receipts.error_list`). In `values`, `what` is a kind of
    name (`building`), `names` canonical names; both are shown in the player's words."""
    hints = hints or {}
    exc = kind(message.format(**_plain(values)), suggestion=suggestion.format(**_plain(hints)) if suggestion else None)
    exc.templates["message"] = (message, values)
    if suggestion:
        exc.templates["suggestion"] = (suggestion, hints)
    return exc


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    return {k: " or ".join(repr(n) for n in v) if k == "names" else (", ".join(v) if k == "listed" else v)
            for k, v in values.items()}


def order_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number from 1, line without comment and outer blanks) for each non-empty line."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield number, line


@functools.lru_cache(maxsize=4096)  # the same few hundred names are folded for every order
def fold(word: str) -> str:
    """Case- and accent-insensitive key: 'Ädificium' and 'aedificium' differ, 'Forum' and
    'FORUM' or 'Fórum' do not."""
    decomposed = unicodedata.normalize("NFKD", word.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@functools.lru_cache(maxsize=512)  # the same few tables (goods, buildings, docks) for every order read
def _folded(names: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Every spelling folded -> canonical name; read only."""
    return {fold(alias): canonical for alias, canonical in names}


def match_name(word: str, names: Mapping[str, str], what: str) -> str:
    """Resolve `word` against `names` (every accepted spelling or alias -> canonical name).

    An exact spelling wins; otherwise a unique prefix of any spelling. Several canonical
    names behind one prefix is ambiguous; nothing at all is invalid, with the closest
    spellings as the suggestion.
    """
    key = fold(word)
    if not key:
        raise _error(InvalidOrder, N_("a {what} name is missing"), {"what": what})
    table = _folded(tuple(names.items()))
    if key in table:
        return table[key]
    hits = sorted({canonical for alias, canonical in table.items() if alias.startswith(key)})
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise _error(AmbiguousOrder, N_("{word!r} could be more than one {what}: {listed}"),
                     {"word": word, "what": what, "listed": hits[:6]},
                     N_("write more of the name, e.g. {name!r}"), {"name": hits[0]})
    close = difflib.get_close_matches(key, list(table), n=3, cutoff=0.6)
    canonical_close = list(dict.fromkeys(table[c] for c in close))
    raise _error(InvalidOrder, N_("no {what} called {word!r}"), {"what": what, "word": word},
                 N_("did you mean {names}?") if canonical_close else None, {"names": canonical_close})


def parse_int(word: str, what: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """A whole number from an order, with an error that names what it was for (`maximum`
    where a number is used as a count of things to list, so a slip of the keyboard cannot
    ask for a billion of them)."""
    try:
        value = int(word)
    except ValueError:
        raise _error(InvalidOrder, N_("{what} must be a whole number, not {word!r}"),
                     {"what": what, "word": word}) from None
    if minimum is not None and value < minimum:
        raise _error(InvalidOrder, N_("{what} must be at least {minimum}, not {value}"),
                     {"what": what, "minimum": minimum, "value": value})
    if maximum is not None and value > maximum:
        raise _error(InvalidOrder, N_("{what} must be at most {maximum}, not {value}"),
                     {"what": what, "maximum": maximum, "value": value})
    return value


def spans(numbers: Iterable[int]) -> str:
    """`1-3, 5`: numbers as ranges, for the compact menu lines of both games."""
    ordered = sorted(set(numbers))
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(parts)


def alternatives(words: Sequence[str], last: str = "or") -> str:
    """`a, b or c`."""
    words = [str(w) for w in words]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


# --------------------------------------------------------------------------- plans
# A plan line names a part of the game it is for (`construction: build Cura or Figulina`),
# gives alternatives separated by `or` (the first that is legal when the moment comes is
# used) and may end with `if available` (skip the line when none is). Both games read plans
# with these helpers, so a player writes them the same way everywhere.

_SECTION = re.compile(r"^([^\W\d][\w'\- ]{0,30}?)\s*:\s*(.*)$")
_OR = re.compile(r"\s+or\s+", re.IGNORECASE)
_OPTIONAL = re.compile(r"\s*,?\s+if\s+(?:available|possible)\s*$", re.IGNORECASE)  # `A or B, if available`
OPTIONAL = "if available"


def section_of(line: str) -> tuple[str | None, str]:
    """`construction: build Cura` -> ("construction", "build Cura"); a line without a part
    name -> (None, line). `construction:` alone gives an empty rest: the lines below belong
    to that part until the next part name."""
    found = _SECTION.match(line)
    if not found:
        return None, line
    return found.group(1).strip(), found.group(2).strip()


def sections(lines: Iterable[tuple[int, str]], names: Mapping[str, str],
             what: str = "plan part") -> Iterator[tuple[int, str, str | OrderError | None]]:
    """(line number, text, part) for each line: the part named at its start or by the last
    `part:` line above it (None before the first). A line that names a part alone gives
    nothing. A line that starts like a part name that is not one of `names` gives its error
    (InvalidOrder or AmbiguousOrder, with its line) as the part, for the caller to report with
    the other wrong lines; the lines after it belong to no part (it may be prose a mail reader
    sets aside: "My orders for this round:")."""
    part: str | None = None
    for number, line in lines:
        head, rest = section_of(line)
        if head is not None:
            try:
                part = match_name(head, names, what)
            except (InvalidOrder, AmbiguousOrder) as exc:
                part = None
                yield number, line, exc.at(number, line)
                continue
            if not rest:
                continue
            line = rest
        yield number, line, part


def split_optional(text: str) -> tuple[str, bool]:
    """`sell 2 blue if available` -> ("sell 2 blue", True)."""
    found = _OPTIONAL.search(text)
    if not found:
        return text, False
    return text[:found.start()].strip(), True


def split_alternatives(text: str, is_keyword: Callable[[str], bool]) -> list[str]:
    """`build Cura or Figulina or sell 1 blue` -> ["build Cura", "build Figulina", "sell 1 blue"]:
    an alternative that does not begin with an order keyword takes the keyword of the one
    before it."""
    parts = [p.strip() for p in _OR.split(text.strip())]
    if any(not p for p in parts):
        raise InvalidOrder(phrase("an alternative is missing around 'or'"), suggestion=phrase(
            "write 'A or B', e.g. '{example}'", example=order_text("build Cura or Figulina")))
    out = [parts[0]]
    for part in parts[1:]:
        first = part.split()[0]
        if is_keyword(first):
            out.append(part)
        else:
            out.append(f"{out[-1].split()[0]} {part}")
    return out


def join_alternatives(texts: Sequence[str], is_keyword: Callable[[str], bool]) -> str:
    """The canonical line of alternatives: `build Cura or Figulina`, the keyword left out
    where it repeats and what follows it cannot be read as a keyword of its own (so that
    `split_alternatives` gives the same texts back)."""
    out: list[str] = []
    for i, text in enumerate(texts):
        if i:
            before, words = texts[i - 1].split(), text.split()
            if len(words) > 1 and words[0] == before[0] and not is_keyword(words[1]) \
                    and not _OR.search(" " + words[1] + " "):
                text = " ".join(words[1:])
        out.append(text)
    return " or ".join(out)



def folded_names(names: Mapping[str, str]) -> dict[str, str]:
    """A table of names (spelling or alias to the canonical name) with its spellings folded."""
    return {fold(alias): canonical for alias, canonical in names.items()}


def keyword_match(word: str, table: Mapping[str, str], *, close: bool = True) -> tuple[str, list[str]]:
    """How a line's first word reads against a grammar's keywords (`folded_names` of every
    spelling and alias to its keyword), the way `match_name` reads it: ("exact", [keyword]),
    ("prefix", the keywords it begins), ("close", the keywords a "did you mean" would offer,
    all of them) or ("none", []). Without `close` a word that is neither exact nor a prefix
    reads as "none" at once: the close matches cost a comparison with every spelling, for a
    caller that asks only whether the word is a keyword or begins one.

    Mail reading asks this to tell a line of prose from a line that tries to be an order."""
    key = fold(word)
    if not key:
        return "none", []
    if key in table:
        return "exact", [table[key]]
    hits = sorted({canonical for alias, canonical in table.items() if alias.startswith(key)})
    if hits:
        return "prefix", hits
    if not close:
        return "none", []
    near = close_keywords(word, table)
    return ("close", near) if near else ("none", [])


def close_keywords(word: str, table: Mapping[str, str]) -> list[str]:
    """The keywords a "did you mean" would offer for *word*, nearest first: also asked of a
    word that begins a keyword, since "dona" may be "done" misspelt as well as "donate" cut short."""
    close = difflib.get_close_matches(fold(word), list(table), n=len(table), cutoff=0.6)
    return list(dict.fromkeys(table[c] for c in close))
