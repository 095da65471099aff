"""Turning body bytes into text under whatever charset label the sender's client chose.

Labels lie often enough that the rules follow what browsers do (WHATWG Encoding): ``iso-8859-1``
and ``us-ascii`` mean windows-1252, so smart quotes do not become C1 controls. Bytes that do not
fit the declared UTF-8 are read as windows-1252 one run at a time instead of being replaced,
because a Latin-1 "é" in a mail labelled UTF-8 is far more common than real corruption.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["decode_bytes"]

_CP1252_LABELS = frozenset(
    {
        "iso-8859-1", "iso8859-1", "iso_8859-1", "iso88591", "latin1", "latin-1", "l1",
        "iso-ir-100", "ibm819", "cp819", "csisolatin1", "windows-1252", "cp1252", "x-cp1252",
        "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", "cp367", "ibm367",
    }
)
_ASCII_LABELS = frozenset({"us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", "cp367", "ibm367"})
# Codecs that exist in Python but are not charsets a mail body can honestly be in.
_REFUSED_CODECS = frozenset(
    {"undefined", "unicode_escape", "raw_unicode_escape", "idna", "punycode", "mbcs", "oem"}
)
_FALLBACK_ERRORS = "referee-mailer-cp1252"


def _cp1252_fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    chunk = error.object[error.start : error.end]
    return chunk.decode("cp1252", "replace"), error.end


try:
    codecs.lookup_error(_FALLBACK_ERRORS)
except LookupError:
    codecs.register_error(_FALLBACK_ERRORS, _cp1252_fallback)


def _without_surrogates(text: str) -> str:
    """Some codecs (UTF-7) decode to lone surrogates, which no mail, file or template can
    encode again: a receipt quoting such a line could not be sent. They become U+FFFD."""
    return _SURROGATES.sub("\ufffd", text)


_SURROGATES = re.compile("[\ud800-\udfff]")


def _clean_label(charset: str | None) -> str:
    label = (charset or "").strip().strip("\"'").strip().lower()
    return label[:40]


def _utf8_then_cp1252(data: bytes) -> tuple[str, bool]:
    """UTF-8 with undecodable runs read as windows-1252; the flag says whether that happened."""
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", _FALLBACK_ERRORS), True


def decode_bytes(data: bytes, charset: str | None, problems: list[str]) -> str:
    """Decode *data* labelled *charset*; never raises, records what it had to guess."""
    label = _clean_label(charset)
    if data.startswith(codecs.BOM_UTF8):
        return _utf8_then_cp1252(data[len(codecs.BOM_UTF8) :])[0]
    if label in _CP1252_LABELS:
        if label in _ASCII_LABELS and not data.isascii():
            text, mixed = _utf8_then_cp1252(data)
            if not mixed:
                problems.append("charset: 8-bit text labelled us-ascii, read as utf-8")
                return text
        return data.decode("cp1252", "replace")
    if label in ("", "utf-8", "utf8", "unicode-1-1-utf-8", "x-unknown"):
        text, mixed = _utf8_then_cp1252(data)
        if mixed:
            problems.append("charset: bytes that are not utf-8 read as windows-1252")
        return text
    try:
        info = codecs.lookup(label)
        if info.name in _REFUSED_CODECS or not getattr(info, "_is_text_encoding", True):
            raise LookupError(label)
    except (LookupError, ValueError, TypeError):
        shown = "".join(ch for ch in label if ch.isprintable())[:40]
        problems.append(f"charset: unknown {shown!r}, read as utf-8/windows-1252")
        return _utf8_then_cp1252(data)[0]
    try:
        return _without_surrogates(data.decode(info.name, "replace"))
    except Exception:
        problems.append(f"charset: {info.name} failed, read as utf-8/windows-1252")
        return _utf8_then_cp1252(data)[0]
