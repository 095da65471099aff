"""Finding the part of a reply that the sender wrote now, as opposed to what their client quoted.

The markers themselves, in a dozen languages, are in `markers.py`; this module decides what they
mean where they stand:

* lines starting with ``>`` are quoted and skipped, and reading goes on after them (bottom-posted
  and inline replies put new text below the quote);
* an attribution line ("On ... wrote:", "Am ... schrieb ...:", wrapped over up to three lines)
  is skipped when a ``>`` quote follows it, and otherwise ends the new text: a top-posting client
  that does not mark its quote with ``>`` puts the whole old message below it;
* a signature separator (``-- ``), a phone or provider footer, an "Original Message" or forwarded
  message separator, an Outlook header block (in any language: three "label: value" lines, one
  naming an address, are one too) and a corporate disclaimer end the new text;
* a mail system's warning above the text ("CAUTION: This email originated from outside of the
  organization", "[EXTERNAL]") is skipped, with the lines it is wrapped over.

Where the new text ends, the unmarked quote begins (`Reply.cut`): an ORDERS block found there or
in ``>`` lines is the report's, which `orders.py` hands on as quoted, never as the player's. When
a header block follows the cut (a forwarded mail's From, Date, Subject and To, or a quoted one's),
the text below it, up to that mail's own quote, is `Reply.forwarded`: for a mail that forwards
another, that text is what its writer meant to send (`orders.py` decides when it is read).

Recognising a quote is a convenience, not a safeguard: a quoted ORDERS block is only ever read
through a comparison with the block as it was sent (mailer/daemon/reading.py).

The new text is read up to `MAX_OWN_LINES` lines with text (`Reply.overlong` past them: the rest
is not looked at, and the mail is answered that it is too long), and every marker is matched
against a line of bounded length, so a long mail costs no more than a short one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .markers import (
    ATTRIBUTION,
    ATTRIBUTION_ANY,
    ATTRIBUTION_OPENING,
    BANNER,
    BANNER_MORE,
    DISCLAIMER,
    FOOTER,
    FORWARD_SEPARATOR,
    FORWARD_START,
    HEADER_FROM,
    HEADER_LABEL,
    HEADER_OTHER,
    SEPARATOR,
    UNDERSCORES,
)

__all__ = ["MAX_OWN_LINES", "Reply", "is_quoted", "split_quote", "split_reply", "visible_lines"]

MAX_OWN_LINES = 200  # lines with text a player writes in one mail, orders and letter together (a long letter)

_MAX_HEADER_LEN = 400
_MAX_MARKER_LEN = 100  # separators and phone footers are short; long lines never match
_MAX_DISCLAIMER_LEN = 600
_HEADER_WINDOW = 7
_BANNER_LINES = 4  # a mail system's warning, wrapped
_SENTENCE_END = (".", "!", "?", "]")
_RULE = re.compile(r"^[-_=*~ ]{4,}$")
_QUOTE_MARKS = re.compile(r"^[ \t]*((?:>[ \t]?)+)")


def is_quoted(line: str) -> bool:
    """A ``>``-quoted line (leading spaces tolerated, as some clients indent the quote)."""
    return line.lstrip(" \t").startswith(">")


def split_quote(line: str) -> tuple[int, str]:
    """How deep a line is quoted (``>`` and ``> >`` count alike) and its text without the marks."""
    found = _QUOTE_MARKS.match(line)
    if not found:
        return 0, line
    return found.group(1).count(">"), line[found.end():]


@dataclass(frozen=True)
class Reply:
    """Which lines of a body the sender wrote now (`own`, indices in order), and where the quoted
    history begins when a marker rather than ``>`` shows it (`cut`; the body's length if none).
    `forwarded`: the text of the mail below the cut, after its header block (indices in order);
    `forward_marker`: whether the marker at the cut says the mail below is forwarded;
    `overlong`: the new text has more than `MAX_OWN_LINES` lines with text (the rest was not read)."""

    own: tuple[int, ...]
    cut: int
    forwarded: tuple[int, ...] = ()
    forward_marker: bool = False
    overlong: bool = False


def _is_signature(line: str) -> bool:
    return line in ("-- ", "--") or line.strip() == "--"


def _join(parts: list[str]) -> str:
    """Lines of a wrapped attribution joined as one: no space after a broken ``<``."""
    text = parts[0]
    for part in parts[1:]:
        text += part if text.endswith("<") else " " + part
    return text


def _attribution(lines: list[str], i: int) -> tuple[int, bool]:
    """How many lines (1 to 3) an attribution starting at line *i* spans, 0 if none, and
    whether it says "wrote" (a strong one ends the new text even without a quote after it)."""
    first = lines[i].strip()
    if not first or len(first) > _MAX_HEADER_LEN:
        return 0, False
    if ATTRIBUTION.match(first):
        return 1, True
    if ATTRIBUTION_ANY.match(first):
        return 1, False
    if not ATTRIBUTION_OPENING.match(first):
        return 0, False
    parts = [first]
    for span in (2, 3):
        if i + span - 1 >= len(lines):
            break
        following = lines[i + span - 1].strip()
        if not following or is_quoted(lines[i + span - 1]):
            break
        parts.append(following)
        joined = _join(parts)
        if len(joined) > _MAX_HEADER_LEN:
            break
        if ATTRIBUTION.match(joined):
            return span, True
        if ATTRIBUTION_ANY.match(joined):
            return span, False
    return 0, False


def _is_header_block(lines: list[str], i: int) -> bool:
    """An Outlook-style header block starts at line *i*: a From label followed by two other
    labels, or three "label: value" lines in a row of which one names an address."""
    first = lines[i].strip()
    if not first or len(first) > _MAX_HEADER_LEN:
        return False
    window = [line.strip() for line in lines[i + 1 : i + 1 + _HEADER_WINDOW] if line.strip()][:_HEADER_WINDOW - 2]
    if HEADER_FROM.match(first) and sum(1 for line in window if HEADER_OTHER.match(line)) >= 2:
        return True
    run = [first] + list(_leading_labels(lines[i + 1 : i + 4]))
    return len(run) >= 3 and all(HEADER_LABEL.match(line) for line in run) and any("@" in line for line in run)


def _leading_labels(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        stripped = line.strip()
        if not stripped or not HEADER_LABEL.match(stripped):
            break
        out.append(stripped)
    return out


def _ends_new_text(lines: list[str], i: int) -> bool:
    """A marker at line *i* after which nothing is the sender's new text."""
    line = lines[i]
    stripped = line.strip()
    if _is_signature(line):
        return True
    if len(stripped) <= _MAX_MARKER_LEN and (
        SEPARATOR.match(stripped) or FORWARD_START.match(stripped) or FOOTER.match(stripped)
    ):
        return True
    if UNDERSCORES.match(stripped) and any(HEADER_FROM.match(line.strip()) or HEADER_LABEL.match(line.strip())
                                           for line in lines[i + 1 : i + 3]):
        return True
    if len(stripped) <= _MAX_DISCLAIMER_LEN and DISCLAIMER.match(stripped):
        return True
    return _is_header_block(lines, i)


def _banner(lines: list[str], i: int) -> int:
    """How many lines a mail system's warning starting at line *i* spans (0 if none): the
    warning, the lines it is wrapped over, and the advice after it on lines of their own."""
    stripped = lines[i].strip()
    if not stripped or len(stripped) > _MAX_DISCLAIMER_LEN or not BANNER.match(stripped):
        return 0
    span = 1
    while span < _BANNER_LINES and i + span < len(lines):
        following = lines[i + span].strip()
        wrapped = not lines[i + span - 1].strip().endswith(_SENTENCE_END)
        if not following or len(following) > _MAX_DISCLAIMER_LEN or not (wrapped or BANNER_MORE.match(following)):
            break
        span += 1
    return span


def _header_lines(lines: list[str], i: int) -> int:
    """Where the header block of a mail below a marker ends (the index after it), or *i* if no
    block of at least two "label: value" lines starts there."""
    j = i
    while j < len(lines) and j - i < _HEADER_WINDOW + 3:
        stripped = lines[j].strip()
        if not stripped or len(stripped) > _MAX_HEADER_LEN:
            break
        if not (HEADER_FROM.match(stripped) or HEADER_OTHER.match(stripped) or HEADER_LABEL.match(stripped)
                or (j > i and lines[j][:1] in " \t")):
            break
        j += 1
    return j if j - i >= 2 else i


def _forwarded(lines: list[str], cut: int) -> tuple[tuple[int, ...], bool]:
    """The text of the mail below the marker at *cut*, after its header block, and whether the
    marker says that mail is forwarded."""
    marker = lines[cut].strip()
    forward = len(marker) <= _MAX_MARKER_LEN and bool(FORWARD_SEPARATOR.match(marker) or FORWARD_START.match(marker))
    start = cut + 1 if (forward or SEPARATOR.match(marker) or UNDERSCORES.match(marker)) else cut
    start = _next_content(lines, start)
    if start >= len(lines):
        return (), forward
    end = _header_lines(lines, start)
    if end == start:
        return (), forward
    below = split_reply(lines[end:], forwards=False)
    return (() if below.overlong else tuple(end + k for k in below.own)), forward


def _next_content(lines: list[str], i: int) -> int:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def split_reply(lines: list[str], *, forwards: bool = True) -> Reply:
    """The lines the sender wrote in this mail, with the quoted history left out; with
    *forwards*, also the text of a mail below the cut (`Reply.forwarded`)."""
    own: list[int] = []
    written = 0
    i = 0
    n = len(lines)
    cut = n
    while i < n:
        line = lines[i]
        if is_quoted(line):
            i += 1
            continue
        banner = _banner(lines, i)
        if banner:
            i += banner
            continue
        if _ends_new_text(lines, i):
            cut = i
            break
        span, strong = _attribution(lines, i)
        if span:
            following = _next_content(lines, i + span)
            if following < n and is_quoted(lines[following]):
                i += span
                continue
            if strong:
                cut = i
                break
        if line.strip():
            written += 1
            if written > MAX_OWN_LINES:
                return Reply(tuple(own), i, overlong=True)
        own.append(i)
        i += 1
    while own and (not lines[own[-1]].strip() or _RULE.match(lines[own[-1]].strip())):
        own.pop()
    forwarded, marker = _forwarded(lines, cut) if forwards and cut < n else ((), False)
    return Reply(tuple(own), cut, forwarded, marker)


def visible_lines(lines: list[str]) -> list[str]:
    """The lines the sender wrote in this mail, in order, with the quoted history left out."""
    return [lines[i] for i in split_reply(lines).own]
