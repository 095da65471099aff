"""Choosing and decoding the text body of a MIME tree, with limits against hostile structure.

A few kilobytes of MIME can describe thousands of parts or deep nesting, and base64 inflates
into large text; the walk is bounded before anything is decoded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import Message

from .charsets import decode_bytes
from .flowed import unflow
from .html import MAX_MARKUP, html_to_text

__all__ = ["MAX_DEPTH", "MAX_PARTS", "MAX_TEXT", "BodyResult", "extract_body"]

MAX_PARTS = 200
MAX_DEPTH = 10
MAX_TEXT = 256 * 1024
MAX_HTML = 1024 * 1024


@dataclass
class BodyResult:
    text: str = ""
    content_type: str | None = None
    content_types: list[str] = field(default_factory=list)
    cut: bool = False  # the text was longer than is read; its end is left out


def _content_type(part: Message) -> str:
    """A part's content type, worked out once: reading a mail asks for it half a dozen times,
    and each time the standard library finds and splits the header again."""
    known = part.__dict__.get("_referee_content_type")
    if known is None:
        try:
            known = part.get_content_type()
        except Exception:
            known = "text/plain"
        part._referee_content_type = known  # type: ignore[attr-defined]
    return known


def _param(part: Message, name: str) -> str | None:
    try:
        value = part.get_param(name)
    except Exception:
        return None
    if value is None or isinstance(value, tuple):
        return None if value is None else str(value[2])
    return str(value)


def _walk(msg: Message, problems: list[str]) -> tuple[list[tuple[Message, bool]], bool]:
    """Parts in document order, each with whether it sits inside an attached message.

    At most MAX_PARTS parts and MAX_DEPTH levels are visited; the flag says nothing was left out.
    """
    parts: list[tuple[Message, bool]] = []
    complete = True
    stack: list[tuple[Message, int, bool]] = [(msg, 0, False)]
    while stack:
        part, depth, enclosed = stack.pop()
        if len(parts) >= MAX_PARTS:
            problems.append(f"mime: more than {MAX_PARTS} parts; the rest ignored")
            complete = False
            break
        parts.append((part, enclosed))
        try:
            children = part.get_payload() if part.is_multipart() else None
        except Exception:
            children = None
        if not children or not isinstance(children, list):
            continue
        if depth + 1 > MAX_DEPTH:
            if complete:
                problems.append(f"mime: nested deeper than {MAX_DEPTH}; deeper parts ignored")
            complete = False
            continue
        enclosed_children = enclosed or _content_type(part).startswith("message/")
        for child in reversed(children):
            if isinstance(child, Message):
                stack.append((child, depth + 1, enclosed_children))
    return parts, complete


def _is_attachment(part: Message) -> bool:
    try:
        return part.get_content_disposition() == "attachment"
    except Exception:
        return False


def _choose(msg: Message, parts: list[tuple[Message, bool]], complete: bool) -> Message | None:
    if not msg.is_multipart():  # what get_body answers for a single part, without its search
        return msg if _content_type(msg) in ("text/plain", "text/html") and not _is_attachment(msg) else None
    if complete:
        try:
            return msg.get_body(preferencelist=("plain", "html"))  # type: ignore[attr-defined]
        except Exception:
            pass
    # Bounded stand-in for get_body: the first inline text part outside attached messages.
    found: dict[str, Message] = {}
    for part, enclosed in parts:
        ctype = _content_type(part)
        if enclosed or _is_attachment(part):
            continue
        if ctype in ("text/plain", "text/html"):
            found.setdefault(ctype, part)
    # A Message without headers is falsy (len() counts headers), so test for None explicitly.
    plain = found.get("text/plain")
    return plain if plain is not None else found.get("text/html")


def _decode_part(part: Message, problems: list[str]) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        problems.append("body: transfer encoding could not be decoded")
        payload = None
    if payload is None:
        raw = part.get_payload() if not part.is_multipart() else ""
        payload = raw.encode("ascii", "surrogateescape") if isinstance(raw, str) else b""
    if not isinstance(payload, bytes):
        payload = bytes(payload) if isinstance(payload, (bytearray, memoryview)) else b""
    limit = MAX_HTML if _content_type(part) == "text/html" else MAX_TEXT * 4
    if len(payload) > limit:
        problems.append(f"body: longer than {limit} bytes; cut")
        payload = payload[:limit]
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
    return decode_bytes(payload, charset, problems)


def extract_body(msg: Message, problems: list[str]) -> BodyResult:
    """The preferred text body as text (plain first, HTML converted), flowed text unwrapped."""
    result = BodyResult()
    parts, complete = _walk(msg, problems)
    result.content_types = [_content_type(part) for part, _ in parts]
    part = _choose(msg, parts, complete)
    if part is None:
        problems.append("body: no text part")
        return result
    ctype = _content_type(part)
    result.content_type = ctype
    # The top level's own defects are reported by the caller; decoding may add more.
    known = len(part.defects) if part is msg else 0
    text = _decode_part(part, problems)
    new_defects = part.defects[known:]
    if new_defects:
        problems.append("body: " + ", ".join(sorted({type(d).__name__ for d in new_defects}))[:150])
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    if ctype == "text/html":
        if len(text) > MAX_MARKUP:
            problems.append(f"body: HTML longer than {MAX_MARKUP} characters; the rest not read")
            result.cut = True
        text = html_to_text(text, MAX_TEXT)
    else:
        if (_param(part, "format") or "").strip().lower() == "flowed":
            delsp = (_param(part, "delsp") or "").strip().lower() == "yes"
            text = unflow(text, delsp)
    if len(text) > MAX_TEXT:
        problems.append(f"body: longer than {MAX_TEXT} characters; cut")
        text = text[:MAX_TEXT]
        result.cut = True
    result.text = text
    return result
