"""Bounding raw message bytes before the stdlib parser sees them.

The parser re-reads ``Content-*`` fields (RFC 2231 parameters) every time a content type is
asked for, and the cost grows faster than the field: a 140 kB Content-Type costs seconds. No
client writes such fields, so they are cut before parsing. This bounds one expensive shape;
the worker still needs a wall-clock limit and the SMTP server a size limit.
"""

from __future__ import annotations

import re

__all__ = ["MAX_CONTENT_FIELD", "bound_content_fields"]

MAX_CONTENT_FIELD = 2048
_CONTENT_FIELD = re.compile(rb"^content-[a-z0-9-]*[ \t]*:", re.IGNORECASE)


def bound_content_fields(raw: bytes) -> tuple[bytes, bool]:
    """*raw* with every folded ``Content-*:`` field cut to MAX_CONTENT_FIELD bytes.

    Works line by line without knowing the MIME structure, so it applies to the headers of
    nested parts too. Returns the bytes and whether anything was cut.
    """
    if len(raw) < MAX_CONTENT_FIELD:
        return raw, False
    lines = raw.splitlines(keepends=True)
    out: list[bytes] = []
    cut = False
    field_size = -1  # -1: not inside a Content-* field
    for line in lines:
        if field_size >= 0 and line[:1] in (b" ", b"\t"):
            if field_size + len(line) > MAX_CONTENT_FIELD:
                cut = True
                continue
            field_size += len(line)
            out.append(line)
            continue
        field_size = -1
        if _CONTENT_FIELD.match(line):
            if len(line) > MAX_CONTENT_FIELD:
                ending = line[len(line.rstrip(b"\r\n")) :]
                line = line[:MAX_CONTENT_FIELD].rstrip(b"\r\n") + ending
                cut = True
            field_size = len(line)
        out.append(line)
    return (b"".join(out), True) if cut else (raw, False)
