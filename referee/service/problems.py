"""Every problem of a submission in one answer: the lines that are no orders at all, and the
orders among the rest that the position refuses, each on the line the player wrote it.

A game's parser stops a submission at its invalid lines, so its orders never reach `apply`,
and an illegal order among them would show only once the invalid ones were mended (a second
CHECK, a second rejection). So the lines that parse are read again without the invalid ones
and tried on a copy of the position, and what `apply` refuses is added.

`apply` numbers its errors by the order's place in the submission; a receipt shows the line
of the text, so each is moved to the line its order came from.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..contract import Order, OrderError, OrderErrors
from ..orderlines import order_lines

Read = Callable[[str], Sequence[Order]]


def errors_of(exc: OrderError) -> list[OrderError]:
    return list(exc.errors) if isinstance(exc, OrderErrors) else [exc]


def together(errors: Sequence[OrderError]) -> OrderError:
    """One error, or several travelling together, in the order of their lines."""
    ordered = sorted(errors, key=lambda e: (e.line is None, e.line or 0))
    return ordered[0] if len(ordered) == 1 else OrderErrors(ordered)


def without_lines(text: str, lines: set[int]) -> str:
    """The text with these lines left blank, so that every other line keeps its number."""
    return "\n".join("" if n in lines else line for n, line in enumerate(text.splitlines(), start=1))


def on_text_lines(exc: OrderError, text: str, read: Read, count: int) -> OrderError:
    """`exc` from `apply` of the `count` orders `read(text)` gave, each error moved from its
    order's place to the line of `text` it came from (left as it is when that cannot be told;
    an error without a place, of a single order, goes on that order's line)."""
    lines = [n for n, _ in order_lines(text)]
    for error in errors_of(exc):
        if error.line is None and count == len(lines) == 1:  # a set of one order: the error is its line's
            error.line = lines[0]
        if error.line is None or not 1 <= error.line <= count:
            continue
        if count == len(lines):  # one order a line: the common case, no parsing again
            error.line = lines[error.line - 1]
        else:
            found = _line_of_order(text, read, error.line)
            if found is not None:
                error.line = found
    return exc


def _line_of_order(text: str, read: Read, place: int) -> int | None:
    """The first line whose text up to it gives at least `place` orders (the count only grows
    with more lines): found by halving, a few readings of a short text."""
    rows = text.splitlines()
    low, high = 1, len(rows)
    if _count(rows, high, read) < place:
        return None
    while low < high:
        middle = (low + high) // 2
        if _count(rows, middle, read) >= place:
            high = middle
        else:
            low = middle + 1
    return low


def _count(rows: list[str], upto: int, read: Read) -> int:
    try:
        return len(read("\n".join(rows[:upto])))
    except OrderError:
        return 0
