"""Lines of prose around the orders of a mail, told apart with the game's own grammar.

Outside an ORDERS block a player writes as in any letter: "Hi all,", "here are my orders:",
"Thanks, Ann", a name, a signature with a job title. Such a line is set aside, and the orders on
the other lines are taken, when the game cannot read it and it does not try to be an order. What
tries to be an order comes from the game's grammar through the engine contract: its keywords
(`referee.contract.order_keywords`) and the shape of each order's arguments
(`referee.contract.order_shapes`, held against a line in line_shapes.py):

* a line the game reads (in the context of the whole text) is an order, always;
* a line whose first word is near an order word (a misspelling, a prefix, an alias) is a misspelt
  order only when the words after it fit that order's shape: "bidd consul 5" and "OCUPY C1-I"
  refuse the mail with the game's suggestion, "Med venlig hilsen" and "and under this" are prose;
* a line that starts with an order word itself is a malformed order (the mail is refused) unless
  it reads as a sentence whose words are no arguments of that order ("Take care of your ships,
  Bob is coming");
* a greeting, thanks or farewell ("Hello", "Thank you!", "Med venlig hilsen") is prose, whatever
  the keywords: "Thank you" is a near spelling of ``take``;
* a signature is prose: the lines under a letter's closing ("Best regards,") after the last
  order; a name on its own lines at the end of the text ("Peter", or "Bob Miller" above his job
  title); and a block that opens the mail with a name or a closing above the orders ("Thank
  you, / Sonya Johnson / Sales Director"). There a line is an order only if the game reads it,
  or if it is no name and fits an order's shape with its arguments;
* a bulleted line ("- how about bullets", "* take consul") is judged without its bullet, and read
  without it when the game reads it so;
* a line longer than any line of orders (`MAX_ORDER_CHARS`, alternatives and all) is a paragraph
  of prose.

Everything else is prose. No line the game reads is ever set aside, and every line set aside is
listed in the receipt. A game without keywords (an optional part of the contract) has every line
read as an order; one without shapes has every line near an order word taken for a misspelt one.
The caller bounds the number of lines (reading.py): each line costs one parse of the text and at
most a few look-ups among the game's names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from mailer.inbound.prose import is_closing, is_salutation, looks_like_name
from referee.contract import (AmbiguousOrder, Game, IllegalOrder, OrderError, OrderErrors, State, order_keywords,
                              order_shapes)
from referee.orderlines import close_keywords, folded_names, keyword_match, section_of

from .line_shapes import LineShapes

__all__ = ["MAX_ORDER_CHARS", "set_aside_prose"]

MAX_ORDER_CHARS = 1_000  # a line of alternatives runs to a few hundred characters; a paragraph is longer
_PUNCTUATION = ",.;:!?\"'()[]{}«»“”„‘’*_"
_SIGNATURE_TAIL = 8  # a closing is looked for among the last lines with text
_SIGNATURE_LINES = 6  # lines of a signature block above or below the orders
_SHORT = 4
_SENTENCE = 5
_ROUNDS = 3  # the player's words read into English, then the game's own reading
_BULLET = re.compile(r"^(\s*)(?:[-*•·▪‣◦–—+]|\d{1,2}[.)]|[a-z]\))\s+(?=\S)")


@dataclass(frozen=True)
class _Grammar:
    game: Game
    state: State
    player: str
    keywords: Mapping[str, str]  # folded spelling -> keyword
    shapes: LineShapes | None
    matched: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    slips: dict[str, list[str]] = field(default_factory=dict)

    def match(self, word: str) -> tuple[str, list[str]]:
        """`keyword_match` of a word, once per mail: a "did you mean" is a search of the keywords."""
        found = self.matched.get(word)
        if found is None:
            found = self.matched[word] = keyword_match(word, self.keywords)
        return found

    def near(self, word: str) -> list[str]:
        """The keywords a word is a slip of, beside those it begins; once per mail, like `match`."""
        found = self.slips.get(word)
        if found is None:
            found = self.slips[word] = close_keywords(word, self.keywords)
        return found


def _content(line: str) -> str:
    return line.split("#", 1)[0].strip()


def _first_word(content: str) -> str:
    return content.split()[0].strip(_PUNCTUATION)


def _unbulleted(line: str) -> str:
    """The line without a list's bullet or number in front ("- take consul": "take consul")."""
    return _BULLET.sub(r"\1", line, count=1)


def _parse_errors(g: _Grammar, text: str) -> dict[int, OrderError] | None:
    try:
        g.game.parse(g.state, g.player, text)
    except OrderErrors as exc:
        errors = list(exc.errors)
    except OrderError as exc:
        errors = [exc]
    except Exception:
        return None
    else:
        return {}
    if any(error.line is None for error in errors):
        return None
    return {error.line: error for error in errors if error.line is not None}


def _errors(g: _Grammar, lines: list[str]) -> dict[int, OrderError] | None:
    """The game's error on each line it cannot read (numbered from 1); None when an error names
    no line, so nothing can be set aside safely. A reading that stops at the first kind of
    error (the player's words read into English before the game's own parse) is asked again
    without the lines it named, so that every line gets its answer."""
    found: dict[int, OrderError] = {}
    text = list(lines)
    for round in range(_ROUNDS):
        errors = _parse_errors(g, "\n".join(text))
        if errors is None:  # later: nothing left to read ("no orders found"), which is no line's
            return None if not round else found
        errors = {n: e for n, e in errors.items() if n not in found}
        if not errors:
            break
        found.update(errors)
        for n in errors:
            text[n - 1] = ""
    return found


def _understood(error: OrderError | None) -> bool:
    """A line the game read as an order, allowed now or not (an ambiguous word may be its first:
    "don" for `done` or `donate`, so such a line is judged like one the game cannot read)."""
    return error is None or isinstance(error, IllegalOrder)


def _reads(g: _Grammar, text: str) -> bool:
    errors = _parse_errors(g, text)
    return errors is not None and all(isinstance(error, (IllegalOrder, AmbiguousOrder)) for error in errors.values())


def _sentence(content: str) -> bool:
    return len(content.split()) >= _SENTENCE and ("," in content or content.endswith((".", "!", "?")))


def _order_word(g: _Grammar, word: str) -> bool:
    how, _ = g.match(word)
    return how == "exact" or (how == "prefix" and len(word) >= 2)


def _fits(g: _Grammar, candidates: list[str], words: list[str], how: str, first: str) -> bool:
    """Whether what follows a near order word could be that order's arguments; without the
    game's shapes, the rule of thumb the shapes replace (the corrected line reads, or it is short
    or holds a number)."""
    if g.shapes is not None:
        return g.shapes.fits_any(candidates, words)
    if how != "exact" and any(_reads(g, " ".join([keyword] + words)) for keyword in candidates):
        return True
    if how == "prefix":
        return len(first) >= 2 and not _sentence(" ".join([first] + words))
    return len(words) < _SHORT or any(ch.isdigit() for ch in " ".join(words))


def _attempt(g: _Grammar, content: str, *, with_arguments: bool = False) -> bool:
    """Whether a line the game cannot read tries to be an order: a malformed or misspelt one,
    to be answered with the game's error rather than set aside. *with_arguments*: only when
    something after the order word fits the order (a signature's "Trade Manager" does not)."""
    head, rest = section_of(content)
    if head is not None:
        how, _ = g.match(head)
        if how == "exact":
            return True  # a plan part named right, with a wrong order after it
        if how == "close" or (how == "prefix" and len(head) >= 2):
            words = rest.split()
            return (bool(words) or not with_arguments) and \
                (g.shapes.fits_order(words) if g.shapes is not None else True)
    words = content.split()
    first = _first_word(content)
    how, candidates = g.match(first)
    if how == "none" or (how == "prefix" and len(first) < 2):
        return False
    if with_arguments and len(words) < 2:
        return False
    fits = _fits(g, candidates, words[1:], how, first)
    if how == "exact":
        return fits or (not _sentence(content) and not with_arguments)
    if not fits and how == "prefix":  # "dona" does not fit "donate <good>", but may be "done" misspelt
        near = [keyword for keyword in g.near(first) if keyword not in candidates]
        fits = bool(near) and _fits(g, near, words[1:], "close", first)
    return fits


def _closing_at(contents: list[str], read: set[int]) -> int | None:
    """Where a letter's closing stands, among the last lines with text and below every order."""
    last_order = max(read, default=-1)
    tail = [i for i, content in enumerate(contents) if content][-_SIGNATURE_TAIL:]
    for i in tail:
        if i > last_order and is_closing(contents[i]):
            return i
    return None


def _top_block(contents: list[str], read: set[int]) -> set[int]:
    """The lines of a signature that opens the mail above the orders: the first paragraph, when
    it begins with a name or a closing, holds no order, and orders follow it."""
    lines = [i for i, content in enumerate(contents) if content]
    if not lines or not read:
        return set()
    start = lines[0]
    end = start
    while end + 1 < len(contents) and contents[end + 1]:
        end += 1
    block = set(range(start, end + 1))
    first = contents[start]
    if block & read or not any(i > end for i in read) or len(block) > _SIGNATURE_LINES \
            or not (looks_like_name(first) or is_closing(first)):
        return set()
    return block


def _bottom_block(contents: list[str], read: set[int]) -> set[int]:
    """A signature below the orders: the lines after the last order, when the first of them is
    a name ("Peter", or "Bob Miller" above a job title)."""
    last_order = max(read, default=len(contents))
    block = [i for i in range(last_order + 1, len(contents)) if contents[i]]
    if not block or len(block) > _SIGNATURE_LINES or not looks_like_name(contents[block[0]]):
        return set()
    return set(block)


def _grammar(game: Game, state: State, player: str) -> _Grammar | None:
    names = order_keywords(game)
    if not names:
        return None
    keywords = folded_names(names)
    shapes = order_shapes(game, state)
    return _Grammar(game, state, player, keywords, LineShapes(shapes, keywords) if shapes is not None else None)


def set_aside_prose(game: Game, state: State, player: str, lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines with prose blanked (so the game's line numbers still count the player's lines)
    and bullets taken off, and the prose lines set aside, as the player wrote them."""
    g = _grammar(game, state, player)
    if g is None:
        return lines, []
    kept = [_unbulleted(line) for line in lines]
    contents = [_content(line) for line in kept]
    long = {i for i, content in enumerate(contents) if len(content) > MAX_ORDER_CHARS}
    for i in long:
        kept[i] = ""
    if not any(content and (i in long or kept[i] != lines[i] or is_salutation(content) or _sentence(content)
                            or looks_like_name(content) or not _order_word(g, _first_word(content)))
               for i, content in enumerate(contents)):
        return kept, []  # every line begins with an order word: the game alone answers for them
    errors = _errors(g, kept)
    if errors is None:
        return lines, []
    read = {i for i, content in enumerate(contents) if content and i not in long and _understood(errors.get(i + 1))}
    closing = _closing_at(contents, read)
    signature = set(range(closing + 1, len(lines))) if closing is not None else set()
    names = _bottom_block(contents, read) | _top_block(contents, read)
    aside: list[int] = []
    for i, content in enumerate(contents):
        if not content or i in read:
            continue
        if i in long or is_salutation(content) or i in signature:
            aside.append(i)
        elif i in names:
            if looks_like_name(content) or not _attempt(g, content, with_arguments=True):
                aside.append(i)
        elif not _attempt(g, content):
            aside.append(i)
    for i in aside:
        kept[i] = ""
    return kept, [lines[i].strip() for i in aside]
