"""Reading inbound headers without trusting them (mailer/safe_headers.py cleans the values).

Header values arrive from strangers. With ``policy.default`` a header object is only built when
it is read, and building it can raise (an encoded CR/LF in a display name does) or take very
long, so every read goes through the functions here, which work from the raw values, bound
their size and never raise.
"""

from __future__ import annotations

import re
from email.header import decode_header, make_header
from email.message import Message

from mailer.safe_headers import MESSAGE_ID, sanitise_header

__all__ = [
    "MAX_HEADER_CHARS",
    "MAX_HEADER_INSTANCES",
    "header_addresses",
    "header_raw",
    "header_text",
    "message_id_list",
    "single_address",
]

_BARE_ADDR = re.compile(r"[^\s<>,;:\"'()\[\]\\]{1,64}@[A-Za-z0-9.\-\[\]:]{1,255}")
_MAX_IDS = 50
_LINE_BREAK = re.compile(r"\r\n|\n|\r")
_SIMPLE_ID = re.compile(r"[ \t]*<[A-Za-z0-9._+=$-]{1,120}@[A-Za-z0-9.-]{1,120}>[ \t]*")
_ATOMS = r"[A-Za-z0-9_+=-]{1,64}(?:\.[A-Za-z0-9_+=-]{1,64}){0,8}"
_HOST = r"[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}"
_SIMPLE_ADDRESS = re.compile(
    rf"[ \t]*(?:({_ATOMS}@{_HOST})|(?:[A-Za-z0-9'-]{{1,40}}(?:[ \t][A-Za-z0-9'-]{{1,40}}){{0,5}}[ \t]+)?<({_ATOMS}@{_HOST})>)[ \t]*")
_MAX_ADDRESSES = 100
# The header registry is slow on pathological values (tens of thousands of encoded words or
# addresses take seconds to minutes), so only bounded values reach it.
MAX_HEADER_CHARS = 4096
MAX_HEADER_INSTANCES = 10


def _raw_values(msg: Message, name: str) -> list[str]:
    """Every raw value of header *name*, in order. The headers are indexed by name once per
    message (a mail is asked for some twenty of them) and kept on the message."""
    index: dict[str, list[str]] | None = getattr(msg, "_referee_raw_index", None)
    if index is None:
        index = {}
        try:
            for key, value in msg.raw_items():
                index.setdefault(str(key).lower(), []).append(str(value))
        except Exception:  # a broken header list must not stop the parse
            index = {}
        msg._referee_raw_index = index  # type: ignore[attr-defined]
    return list(index.get(name.lower(), ()))


def _decode_raw(value: str) -> str:
    """Decode RFC 2047 words by hand when the header registry refused the value."""
    try:
        return str(make_header(decode_header(value)))
    except Exception:
        return value.encode("ascii", "replace").decode("ascii") if _has_surrogates(value) else value


def _has_surrogates(value: str) -> bool:
    return any("\udc80" <= ch <= "\udcff" for ch in value)


def header_raw(msg: Message, name: str) -> str | None:
    """The first value of header *name* exactly as sent (unfolded), without decoding or parsing."""
    raw = _raw_values(msg, name)
    if not raw:
        return None
    value = raw[0]
    if _has_surrogates(value):
        value = value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
    return value


def _cut(name: str, value: str, problems: list[str] | None) -> str:
    if len(value) > MAX_HEADER_CHARS:
        if problems is not None:
            problems.append(f"{name}: longer than {MAX_HEADER_CHARS} characters; cut")
        return value[:MAX_HEADER_CHARS]
    return value


def _header_object(msg: Message, name: str, value: str) -> object:
    """Build the structured header for one raw value; may raise on hostile input."""
    return msg.policy.header_fetch_parse(name, value)  # type: ignore[union-attr]


def _plain(name: str, value: str) -> str | None:
    """The decoded text of a value the header registry would return unchanged, without
    building the header object (which costs more than the rest of reading a mail): ASCII
    with no encoded words, and for Message-ID a single well-formed id. None otherwise."""
    if not value.isascii() or "=?" in value:
        return None
    if name.lower() == "message-id" and not _SIMPLE_ID.fullmatch(value):
        return None
    return _LINE_BREAK.sub("", value)


def _simple_address(value: str) -> str | None:
    """The addr_spec of a value that is just one plain address (`a.b@host`, `<a.b@host>` or
    `Some Name <a.b@host>` with plain words), which the registry parses without defects to
    exactly this; None for anything else, which then goes through the registry."""
    found = _SIMPLE_ADDRESS.fullmatch(value)
    return (found.group(1) or found.group(2)) if found else None


def header_text(msg: Message, name: str, problems: list[str] | None = None) -> str | None:
    """The first value of header *name* as decoded text, or None when absent; never raises."""
    raw = _raw_values(msg, name)
    if not raw:
        return None
    value = _cut(name, raw[0], problems)
    plain = _plain(name, value)
    if plain is not None:
        return plain
    try:
        text = str(_header_object(msg, name, value))
    except Exception:
        if problems is not None:
            problems.append(f"{name}: header could not be decoded")
        text = _decode_raw(value)
    if _has_surrogates(text):
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return text


def header_addresses(msg: Message, name: str, problems: list[str] | None = None) -> list[str]:
    """Every addr_spec in the first few instances of header *name*; never raises."""
    out: list[str] = []
    raw_values = _raw_values(msg, name)
    if len(raw_values) > MAX_HEADER_INSTANCES and problems is not None:
        problems.append(f"{name}: more than {MAX_HEADER_INSTANCES} headers; the rest ignored")
    for raw in raw_values[:MAX_HEADER_INSTANCES]:
        value = _cut(name, raw, problems)
        simple = _simple_address(value)
        if simple is not None:
            out.append(simple)
            continue
        try:
            addresses = getattr(_header_object(msg, name, value), "addresses", None)
        except Exception:
            addresses = None
            if problems is not None:
                problems.append(f"{name}: header could not be decoded")
        if addresses is None:
            out.extend(_BARE_ADDR.findall(value))
            continue
        for address in addresses:
            spec = address.addr_spec
            if address.username and address.domain and spec and spec != "<>":
                out.append(spec)
    seen: dict[str, None] = {}
    for spec in out:
        clean = sanitise_header(spec, 320)
        if clean and " " not in clean:
            seen.setdefault(clean, None)
        if len(seen) >= _MAX_ADDRESSES:
            break
    return list(seen)


def single_address(msg: Message, name: str) -> tuple[str | None, str | None]:
    """The addr_spec of a header that must hold exactly one well-formed address.

    Returns ``(address, problem)``; exactly one of them is None. Python 3.11 before 3.11.10
    parses ``alice@x)<bob@y>`` leniently (CVE-2023-27043), so any defect means no sender at all.
    """
    raw_values = _raw_values(msg, name)
    if not raw_values:
        return None, f"{name}: missing"
    if len(raw_values) > 1:
        return None, f"{name}: header given {len(raw_values)} times"
    if len(raw_values[0]) > MAX_HEADER_CHARS:
        return None, f"{name}: malformed (too long)"
    simple = _simple_address(raw_values[0])
    if simple is not None:
        return simple, None
    try:
        value = _header_object(msg, name, raw_values[0])
    except Exception:
        return None, f"{name}: malformed (could not be parsed)"
    defects = getattr(value, "defects", ())
    addresses = getattr(value, "addresses", None)
    if defects:
        return None, f"{name}: malformed ({sanitise_header(defects[0], 60)})"
    if not addresses:
        return None, f"{name}: no address"
    if len(addresses) != 1:
        return None, f"{name}: {len(addresses)} addresses"
    address = addresses[0]
    spec = address.addr_spec
    if not address.username or not address.domain or spec != sanitise_header(spec, 320) or " " in spec:
        return None, f"{name}: malformed address"
    return spec, None


def message_id_list(value: str | None) -> tuple[str, ...]:
    """The ``<...>`` ids of a References header, in order, capped in number."""
    if not value:
        return ()
    ids: list[str] = []
    for found in MESSAGE_ID.finditer(value):
        inner = sanitise_header(found.group(1), 250)
        if inner:
            ids.append(f"<{inner}>")
    return tuple(ids[-_MAX_IDS:])
