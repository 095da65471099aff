"""From a decoded body to the lines that hold orders, and the ``PLAYER name token`` line.

An ``ORDERS`` ... ``END`` block in the new text is the safe path: every report carries one
pre-filled, so a reply never depends on guessing where the quote starts. Without a block the
new text found by :mod:`mailer.inbound.quotes` is used. The ORDERS blocks of the quoted part
are handed on apart (`OrdersSection.quoted`): a player may have typed their orders into the
report's block, which only a comparison with the block as sent can tell (that needs the
game's records, so it is done in mailer/daemon/reading.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .quotes import Reply, split_quote, split_reply

__all__ = [
    "Block",
    "OrdersSection",
    "clean_text",
    "extract_player_line",
    "find_orders",
    "split_player_line",
    "starts_block",
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
PLAYER_KEYWORD = re.compile(r"^player\b", re.IGNORECASE)
# The first line of a block the referee wrote: "ORDERS <game> <phase>", as it writes it. A quoted
# block is only ever the referee's, so a quoted line such as "Orders: stay, take" is not one.
_SENT_START = re.compile(r"^ORDERS\s+(?P<tag>[\w.-]+\s+[\w.:-]+)\s*$")


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
class Block:
    """An ORDERS block found in the quoted part of a reply: the report's block, perhaps with
    the player's orders typed into it. `lines` are those between the ORDERS and END lines,
    without their quote marks; `tag` is the text after ORDERS."""

    tag: str | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class OrdersSection:
    """Where the orders of a mail were found; ``tag`` is the text after ``ORDERS``, if any.

    `outside` holds the new text's lines around the block (when the orders are a block), and
    `quoted` the ORDERS blocks of the quoted part, the first one first. `forwarded` is the text
    of a mail below the new text, after its header block (none when an ORDERS block of the
    quoted part is in it: that one is compared with the block sent), and `forward_marker` says
    whether a marker called that mail forwarded. `overlong`: the new text is longer than the
    referee reads (more than `quotes.MAX_OWN_LINES` lines), so nothing was taken from it;
    `truncated`: the text had more than `MAX_BODY_LINES` lines, the rest unread."""

    lines: tuple[str, ...]
    from_block: bool
    tag: str | None = None
    problems: tuple[str, ...] = field(default_factory=tuple)
    outside: tuple[str, ...] = ()
    quoted: tuple[Block, ...] = ()
    forwarded: tuple[str, ...] = ()
    forward_marker: bool = False
    overlong: bool = False
    truncated: bool = False


MAX_BODY_LINES = 20_000  # a reply quoting a whole season of reports is far shorter
_MAX_QUOTED_BLOCKS = 4
_MAX_BLOCK_STARTS = 8  # ORDERS lines looked at in the quoted part, closed by an END or not
_MAX_BLOCK_LINES = 400


def _quoted_blocks(lines: list[str], reply: Reply) -> tuple[list[Block], set[int]]:
    """The ORDERS blocks in ``>`` lines or below the cut, and every line index they span.

    A line the player typed into a quoted block without a quote mark belongs to the block."""
    blocks: list[Block] = []
    spanned: set[int] = set()
    starts = 0
    i = 0
    while i < len(lines) and len(blocks) < _MAX_QUOTED_BLOCKS and starts < _MAX_BLOCK_STARTS:
        depth, content = split_quote(lines[i])
        found = _SENT_START.match(content.strip()) if (depth or i >= reply.cut) else None
        if found is None:
            i += 1
            continue
        starts += 1
        end = None
        for j in range(i + 1, min(len(lines), i + _MAX_BLOCK_LINES)):
            if _ORDERS_END.match(split_quote(lines[j])[1].strip()):
                end = j
                break
        if end is None:
            i += 1
            continue
        blocks.append(Block(found.group("tag") or None,
                            tuple(split_quote(line)[1].rstrip() for line in lines[i + 1 : end])))
        spanned.update(range(i, end + 1))
        i = end + 1
    return blocks, spanned


def find_orders(text: str) -> tuple[OrdersSection, list[str]]:
    """The orders section of *text* and the visible (unquoted) lines it was taken from. Only the
    first `MAX_BODY_LINES` lines are looked at (`truncated` says there were more); a new text
    longer than `quotes.MAX_OWN_LINES` lines gives an `overlong` section without orders (and the
    first of it as visible, for a PLAYER line at its top)."""
    lines = clean_text(text).split("\n", MAX_BODY_LINES)
    truncated = len(lines) > MAX_BODY_LINES
    if truncated:
        lines.pop()  # the rest, unsplit and unread
    lines = [line.rstrip() for line in lines]
    reply = split_reply(lines)
    if reply.overlong:
        return OrdersSection((), from_block=False, overlong=True), [lines[i] for i in reply.own]
    quoted, spanned = _quoted_blocks(lines, reply)
    visible = [lines[i] for i in reply.own if i not in spanned]
    forwarded = () if spanned & set(reply.forwarded) else tuple(_trim([lines[i] for i in reply.forwarded]))
    start = None
    tag = None
    for index, line in enumerate(visible):
        found = _ORDERS_START.match(line.strip())
        if found:
            start, tag = index, (found.group("tag") or None)
            break
    if start is None:
        return OrdersSection(tuple(_trim(visible)), from_block=False, quoted=tuple(quoted), forwarded=forwarded,
                             forward_marker=reply.forward_marker, truncated=truncated), visible
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
    outside = tuple(line for line in visible[:start] + visible[end + 1 :] if line.strip())
    return OrdersSection(block, from_block=True, tag=tag, problems=tuple(problems), outside=outside,
                         quoted=tuple(quoted), truncated=truncated), visible


def starts_block(line: str) -> bool:
    """Whether a line of the new text opens an ORDERS block."""
    return bool(_ORDERS_START.match(line.strip()))


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
        if PLAYER_KEYWORD.match(stripped):
            match = _PLAYER.match(stripped)
            if match and found is None:
                found = (match.group("name").lower(), match.group("token"))
            continue
        kept.append(line)
    return found, "\n".join(kept)


def extract_player_line(text: str) -> tuple[str, str] | None:
    """``(name, token)`` from the first well-formed ``PLAYER name token`` line, or None."""
    return split_player_line(text)[0]
