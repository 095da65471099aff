"""Undoing RFC 3676 ``format=flowed`` wrapping, which the stdlib leaves alone.

Without this an order typed as one line (``A PAR - BUR``) can arrive as two, and each half is
then a wrong order.
"""

from __future__ import annotations

__all__ = ["unflow"]


def _split_quote(line: str) -> tuple[int, str]:
    depth = 0
    while depth < len(line) and line[depth] == ">":
        depth += 1
    return depth, line[depth:]


def unflow(text: str, delsp: bool = False) -> str:
    """Join soft-broken lines (ending in a space) of a flowed body; keep quote depth visible.

    Space-stuffing (one leading space added by the sender) is removed, the signature separator
    ``-- `` is never treated as flowed, and a flowed line only joins a following line of the
    same quote depth (RFC 3676 section 4.5).
    """
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for line in text.split("\n"):
        depth, content = _split_quote(line)
        if content.startswith(" "):
            content = content[1:]
        if pending is not None and depth != pending_depth:
            out.append(_render(pending_depth, pending))
            pending = None
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        joined = content if pending is None else pending + content
        if flowed:
            pending, pending_depth = joined, depth
        else:
            out.append(_render(depth, joined))
            pending = None
    if pending is not None:
        out.append(_render(pending_depth, pending))
    return "\n".join(out)


def _render(depth: int, content: str) -> str:
    if depth == 0:
        return content
    return ">" * depth + " " + content
