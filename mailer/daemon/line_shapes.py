"""Whether the words of a line could be an order's arguments: the test that tells a misspelt
order from prose that only begins like one.

"bidd consul 5" begins near `bid` and goes on with an office and a number, as a bid does: it is
a bid gone wrong, and the mail is refused with the game's suggestion. "Med venlig hilsen" begins
near `end` too, but `end` takes nothing after it; "and under this" neither. The games describe
each order's arguments through the engine contract (`referee.contract.OrderShape`); here a line
is held against them:

* alternatives (`take consul or stay`, `build Cura or Figulina if available`) are taken apart as
  the grammars take them, each part counted against its own order;
* a part has the right number of words, and at least half of all the words are argument-like:
  a number (or a name holding a digit: a dock, a card), one of the order's names or small
  words, the beginning of one (three letters or more) or one slip away from one (a letter
  left out, added, changed, or two swapped: "consl", "gren", "cosnul");
* a plan part's name (`constrution: build Cura`) is followed by an order of that shape, or by
  nothing.

The test is loose on purpose, on the safe side: a line it passes is answered as an order gone
wrong; only a line of ordinary words is set aside. A word costs a few look-ups in tables made
once per set of names (its beginnings and its spellings with a letter left out), never a scan
of the names, and a line longer than `MAX_WORDS` words is never an order.
"""

from __future__ import annotations

import functools
from typing import Mapping, Sequence

from referee.contract import OrderShape
from referee.orderlines import fold, keyword_match

__all__ = ["MAX_WORDS", "LineShapes"]

MAX_WORDS = 150  # thirty alternatives of an order with its arguments; a longer line is a paragraph
_PUNCTUATION = ",.;:!?\"'()[]{}«»“”„‘’*_"
_SHORTEST = 3  # a beginning or a near spelling of a name counts from three letters
_CONNECTORS = frozenset({"or"})
_OPTIONAL = (("if", "available"), ("if", "possible"))
_ARROW = "->"  # Porto Carthago reads `C1-I -> C2-I` as `C1-I TO C2-I`


class LineShapes:
    """The shapes of one game's orders, folded once per mail, asked line by line."""

    def __init__(self, shapes: Mapping[str, OrderShape], keywords: Mapping[str, str]) -> None:
        self.keywords = keywords  # folded spelling -> keyword (`referee.orderlines.folded_names`)
        self.shapes = dict(shapes)
        self._names = {keyword: frozenset(fold(word) for name in shape.names for word in name.split())
                       for keyword, shape in self.shapes.items()}

    def is_part(self, keyword: str) -> bool:
        shape = self.shapes.get(keyword)
        return shape is not None and shape.part

    def fits(self, keyword: str, words: Sequence[str]) -> bool:
        """Whether *words* (what follows the keyword on its line) could be *keyword*'s
        arguments, alternatives and all. A keyword without a shape fits anything."""
        if len(words) > MAX_WORDS:
            return False
        shape = self.shapes.get(keyword)
        if shape is None:
            return True
        if shape.part:  # a part's name without its colon: an order must follow it
            return bool(words) and self.fits_order(words)
        liked = total = 0
        for index, (part_keyword, part) in enumerate(self._alternatives(keyword, list(words))):
            part_shape = self.shapes.get(part_keyword)
            if part_shape is None:
                return True
            if part_shape.part or not _counts(part_shape, len(part)):
                return False
            if index:
                liked += 1  # the `or` before it
                total += 1
            liked += sum(1 for word in part if self._argument(part_keyword, part_shape, word))
            total += len(part)
        return liked * 2 >= total

    def fits_any(self, keywords: Sequence[str], words: Sequence[str]) -> bool:
        return any(self.fits(keyword, words) for keyword in keywords)

    def fits_order(self, words: Sequence[str]) -> bool:
        """What may follow a plan part's name (`auction: stay`): nothing, or an order whose
        keyword is written out or begun (a line with the part's name misspelt too is prose)."""
        if not words:
            return True
        first = words[0].strip(_PUNCTUATION)
        how, candidates = keyword_match(first, self.keywords)
        if how not in ("exact", "prefix") or len(first) < 2:
            return False
        return any(not self.is_part(k) and self.fits(k, words[1:]) for k in candidates)

    def _alternatives(self, keyword: str, words: list[str]) -> list[tuple[str, list[str]]]:
        """`consul or stay` after `take`: [(take, [consul]), (stay, [])], as the grammars split
        alternatives: a part that begins with a keyword brings its own, another takes the one
        before it."""
        for tail in _OPTIONAL:
            if len(words) >= 2 and tuple(fold(w) for w in words[-2:]) == tail:
                words = words[:-2]
                if words:  # `A or B, if available`
                    words[-1] = words[-1].rstrip(",")
                break
        groups: list[list[str]] = [[]]
        for word in words:
            if fold(word) in _CONNECTORS:
                groups.append([])
            else:
                groups[-1].append(word)
        out: list[tuple[str, list[str]]] = []
        current = keyword
        for index, group in enumerate(groups):
            if index and group:
                exact = self.keywords.get(fold(group[0].strip(_PUNCTUATION)))
                if exact is not None and not self.is_part(exact):
                    current, group = exact, group[1:]
            out.append((current, group))
        return out

    def _argument(self, keyword: str, shape: OrderShape, word: str) -> bool:
        if word == _ARROW:
            return "to" in self._names[keyword]
        bare = word.strip(_PUNCTUATION)
        if not bare:
            return False
        if shape.numbers and any(ch.isdigit() for ch in bare):
            return True
        key = fold(bare)
        names = self._names[keyword]
        if key in names or key in _CONNECTORS:
            return True
        if len(key) < _SHORTEST:
            return False
        beginnings, slips = _tables(names)
        return key in beginnings or not slips.isdisjoint(_deletions(key))


@functools.lru_cache(maxsize=256)
def _tables(names: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """For a set of names: every beginning of three letters or more, and every spelling with
    at most one letter left out. A word one slip from a name shares a spelling with it once
    each has lost at most one letter (the symmetric deletion test)."""
    beginnings = {name[:n] for name in names for n in range(_SHORTEST, len(name) + 1)}
    slips = {variant for name in names if len(name) >= _SHORTEST for variant in _deletions(name)}
    return frozenset(beginnings), frozenset(slips)


def _deletions(word: str) -> set[str]:
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


def _counts(shape: OrderShape, n: int) -> bool:
    return shape.least <= n and (shape.most is None or n <= shape.most)
