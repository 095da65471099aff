"""From a decoded body to the lines that hold orders, and the ``PLAYER name token`` line.

An ``ORDERS`` ... ``END`` block in the new text is the safe path: every report carries one
pre-filled, so a reply never depends on guessing where the quote starts. Without a block the
new text found by :mod:`mailer.inbound.quotes` is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .quotes import visible_lines

__all__ = [
    "OrdersSection",
    "clean_text",
    "extract_player_line",
    "find_orders",
    "split_player_line",
]

_INVISIBLE = re.compile(r"[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]")
_SPACE_LIKE = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_LINE_BREAKS = re.compile(r"\r\n|[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_ORDERS_START = re.compile(r"^orders\b:?(?:\s+(?P<tag>.*?))?\s*$", re.IGNORECASE)
_ORDERS_END = re.compile(r"^end\.?$", re.IGNORECASE)
_PLAYER = re.compile(
    r"^player:?\s+(?P<name>[a-z0-9][a-z0-9._-]{0,63})\s+(?P<token>[A-Za-z0-9_=-]{1,128})\s*$",
    re.IGNORECASE,
)
_PLAYER_KEYWORD = re.compile(r"^player\b", re.IGNORECASE)


def clean_text(text: str) -> str:
    """Normalise what mail clients sprinkle into text so keyword matching works.

    Line breaks become ``\\n``; BOMs, zero-width characters and soft hyphens go; non-breaking and
    other odd spaces become plain spaces; control characters other than tab go.
    """
    text = _LINE_BREAKS.sub("\n", text)
    text = _INVISIBLE.sub("", text)
    text = _SPACE_LIKE.sub(" ", text)
    return _CONTROLS.sub("", text)


@dataclass(frozen=True)
class OrdersSection:
    """Where the orders of a mail were found; ``tag`` is the text after ``ORDERS``, if any."""

    lines: tuple[str, ...]
    from_block: bool
    tag: str | None = None
    problems: tuple[str, ...] = field(default_factory=tuple)


def find_orders(text: str) -> tuple[OrdersSection, list[str]]:
    """The orders section of *text* and the visible (unquoted) lines it was taken from."""
    lines = [line.rstrip() for line in clean_text(text).split("\n")]
    visible = visible_lines(lines)
    start = None
    tag = None
    for index, line in enumerate(visible):
        found = _ORDERS_START.match(line.strip())
        if found:
            start, tag = index, (found.group("tag") or None)
            break
    if start is None:
        return OrdersSection(tuple(_trim(visible)), from_block=False), visible
    problems: list[str] = []
    end = None
    for index in range(start + 1, len(visible)):
        if _ORDERS_END.match(visible[index].strip()):
            end = index
            break
    if end is None:
        problems.append("orders: ORDERS block has no END line; read to the end of the new text")
        end = len(visible)
    block = tuple(_trim(visible[start + 1 : end]))
    return OrdersSection(block, from_block=True, tag=tag, problems=tuple(problems)), visible


def _trim(lines: list[str]) -> list[str]:
    first = 0
    last = len(lines)
    while first < last and not lines[first].strip():
        first += 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    return lines[first:last]


def split_player_line(text: str) -> tuple[tuple[str, str] | None, str]:
    """The first ``PLAYER name token`` of *text* and the text without any PLAYER line.

    The name is lowercased (names are case-insensitive); the token is returned as written.
    Every line that starts with the keyword is removed, even a malformed one, because it is
    never an order and may hold a secret that should not be echoed back.
    """
    found: tuple[str, str] | None = None
    kept: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if _PLAYER_KEYWORD.match(stripped):
            match = _PLAYER.match(stripped)
            if match and found is None:
                found = (match.group("name").lower(), match.group("token"))
            continue
        kept.append(line)
    return found, "\n".join(kept)


def extract_player_line(text: str) -> tuple[str, str] | None:
    """``(name, token)`` from the first well-formed ``PLAYER name token`` line, or None."""
    return split_player_line(text)[0]
