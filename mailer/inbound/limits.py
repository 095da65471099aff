"""Bounding raw message bytes before the stdlib parser sees them.

The parser re-reads ``Content-*`` fields (RFC 2231 parameters) every time a content type is
asked for, and the cost grows faster than the field: a 140 kB Content-Type costs seconds. No
client writes such fields, so they are cut before parsing. The parser also reads a message line
by line in Python: a mail of half a million short lines costs it a second, so a message is cut
after `MAX_RAW_LINES` lines, far more than the referee reads of a body
(mailer/inbound/orders.py). Both work on the bytes without knowing the MIME structure, in time
linear in the size, and leave a message within the limits as it is. The SMTP server's size
limit bounds the rest.
"""

from __future__ import annotations

import re

__all__ = ["MAX_CONTENT_FIELD", "MAX_RAW_LINES", "bound_content_fields", "bound_lines"]

MAX_CONTENT_FIELD = 2048
MAX_RAW_LINES = 40_000  # twice the body lines read: base64 and quoted-printable lines are long
# A Content-* field and its folded continuation lines, wherever a line starts with one.
_CONTENT_FIELD = re.compile(rb"^content-[a-z0-9-]*[ \t]*:[^\n]*\n?(?:[ \t][^\n]*\n?)*", re.IGNORECASE | re.MULTILINE)


def _cut(field: bytes) -> bytes:
    """A field cut to MAX_CONTENT_FIELD bytes on a line boundary (its first line cut short)."""
    lines = field.splitlines(keepends=True)
    first = lines[0]
    if len(first) > MAX_CONTENT_FIELD:
        ending = first[len(first.rstrip(b"\r\n")):]
        return first[:MAX_CONTENT_FIELD].rstrip(b"\r\n") + ending
    out, size = [first], len(first)
    for line in lines[1:]:
        if size + len(line) > MAX_CONTENT_FIELD:
            break
        out.append(line)
        size += len(line)
    return b"".join(out)


def bound_content_fields(raw: bytes) -> tuple[bytes, bool]:
    """*raw* with every folded ``Content-*:`` field cut to MAX_CONTENT_FIELD bytes.

    Applies to the headers of nested parts too. Returns the bytes and whether anything was cut.
    """
    if len(raw) < MAX_CONTENT_FIELD:
        return raw, False
    out: list[bytes] = []
    pos = 0
    for found in _CONTENT_FIELD.finditer(raw):
        if found.end() - found.start() <= MAX_CONTENT_FIELD:
            continue
        out.append(raw[pos:found.start()])
        out.append(_cut(found.group()))
        pos = found.end()
    if not out:
        return raw, False
    out.append(raw[pos:])
    return b"".join(out), True


def bound_lines(raw: bytes) -> tuple[bytes, bool]:
    """*raw* cut after its first MAX_RAW_LINES lines, and whether it was."""
    if raw.count(b"\n") <= MAX_RAW_LINES:
        return raw, False
    end = -1
    for _ in range(MAX_RAW_LINES):
        end = raw.find(b"\n", end + 1)
    return raw[:end + 1], True
