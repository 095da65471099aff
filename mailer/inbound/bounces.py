"""Delivery failures coming back: which of the referee's mails could not be delivered, to whom,
and why.

A report of failure comes back to the envelope address of the mail it reports (a game's plain
address): a delivery-status notification (RFC 3464: `multipart/report` with a
`message/delivery-status` part and the returned headers) or, from older or odder servers, a
plain text that says the mail could not be delivered and quotes the mail below it (Exim's
"Mail delivery failed", qmail's "failure notice", Exchange's "Undeliverable"). Either way the
returned mail's Message-ID is what ties the report to a mail the referee sent: the reader only
collects the ids found in the returned part; the caller keeps those that are its own.

A DSN whose recipients were only delayed, delivered or relayed is no failure, and neither is
mail that merely quotes a Message-ID (an auto-reply does): without a delivery-status part, the
text must read as a failure notice and come from a mail system.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import Message
from email.parser import HeaderParser

from mailer.safe_headers import normalise_message_id, sanitise_header

from .automatic import is_daemon_address, null_sender
from .limits import bound_content_fields

__all__ = ["Bounce", "read_bounce"]

MAX_PARTS = 60
MAX_IDS = 8
MAX_TEXT = 200_000  # of a non-standard notice's text searched for the returned headers
_STATUS_TYPES = ("message/delivery-status", "message/global-delivery-status")
_RETURNED_TYPES = ("message/rfc822", "message/global", "text/rfc822-headers", "message/global-headers")
_MESSAGE_ID_LINE = re.compile(r"^[ \t>]*Message-ID:[ \t]*(<[^<>\s]{1,250}>)", re.IGNORECASE | re.MULTILINE)
_SMTP_REPLY = re.compile(r"\b(5\d\d[ -](?:\d\.\d{1,3}\.\d{1,3}\s)?[^\n]{4,200})")
_DSN_STATUS = re.compile(r"\b(5\.\d{1,3}\.\d{1,3})\b")
# What failure notices without a delivery-status part say, in the languages mail servers write
# them in; one of these in the subject or the text, and a mail system as the sender, make a
# notice of failure.
_FAILURE = re.compile(
    r"undeliver|undelivered|not be delivered|couldn't be delivered|could not deliver|wasn't able to deliver|"
    r"delivery (?:status notification \(failure\)|has failed|failed|failure)|mail delivery failed|"
    r"failure notice|returned mail|permanent(?:ly)? (?:error|fatal|failed)|failed permanently|"
    r"unzustellbar|nicht zugestellt|konnte nicht zugestellt|zustellung fehlgeschlagen|"
    r"non recapitabile|impossibile recapitare|mancato recapito|"
    r"non remis|impossible de remettre|échec de (?:la )?remise|no se pudo entregar|no entregado|"
    r"onbestelbaar|niet bezorgd|não entregue|недоставлен|не доставлено|niedostarczon",
    re.IGNORECASE)


@dataclass(frozen=True)
class Bounce:
    """A report that mail could not be delivered."""

    message_ids: tuple[str, ...]  # of the returned mail: the referee's mail it reports, if ours
    recipients: tuple[str, ...]  # the addresses that failed, when the report names them
    why: str  # the failure in one line: the remote server's answer, or the status code
    standard: bool  # a DSN (RFC 3464), not a notice in prose


def read_bounce(raw: bytes, *, envelope_null: bool | None = None) -> Bounce | None:
    """The failure `raw` reports, or None when it reports none (never raises).

    `envelope_null` says whether the envelope sender was empty, when the caller knows; else
    the Return-Path line the receiving side wrote is read."""
    try:
        raw, _ = bound_content_fields(raw)
        msg = message_from_bytes(raw, policy=policy.compat32)
        return _read(msg, envelope_null)
    except Exception:  # a report too broken to read is no report
        return None


def _read(msg: Message, envelope_null: bool | None) -> Bounce | None:
    status_parts: list[Message] = []
    returned: list[Message] = []
    texts: list[str] = []
    own_id = normalise_message_id(msg.get("Message-ID"))
    for count, part in enumerate(msg.walk()):
        if count > MAX_PARTS:
            break
        kind = part.get_content_type()
        if kind in _STATUS_TYPES:
            status_parts.append(part)
        elif kind in _RETURNED_TYPES:
            returned.append(part)
        elif kind == "text/plain" and not _inside_returned(part, returned):
            texts.append(_text(part))
    ids = _returned_ids(returned, own_id)
    if status_parts:
        failed = [fields for part in status_parts for fields in _recipient_fields(part)
                  if (fields.get("action") or "").strip().lower() == "failed"]
        if not failed:
            return None  # delayed, delivered, relayed, expanded: no failure
        recipients = tuple(dict.fromkeys(filter(None, (_address(f.get("final-recipient"))
                                                        or _address(f.get("original-recipient")) for f in failed))))
        first = failed[0]
        why = first.get("diagnostic-code") or ""
        why = why.partition(";")[2].strip() if ";" in why else why.strip()
        why = why or f"status {(first.get('status') or '').strip() or '5.0.0'}"
        if not ids:  # a report that returned no part of its own: the text may still quote the headers
            ids = _quoted_ids("\n".join(texts), own_id)
        return Bounce(ids, recipients, sanitise_header(" ".join(why.split()), 300), True)
    text = "\n".join(texts)[:MAX_TEXT]
    subject = str(msg.get("Subject") or "")
    sender_is_system = (is_daemon_address(str(msg.get("From") or ""))
                        or (envelope_null if envelope_null is not None
                            else null_sender(str(msg.get("Return-Path") or "x"))))
    if not sender_is_system or not (_FAILURE.search(subject) or _FAILURE.search(text[:4000])):
        return None
    ids = ids or _quoted_ids(text, own_id)
    if not ids:
        return None
    reply = _SMTP_REPLY.search(text) or _DSN_STATUS.search(text)
    why = reply.group(1) if reply else (subject or "undeliverable")
    return Bounce(ids, _quoted_recipients(text), sanitise_header(" ".join(why.split()), 300), False)


def _inside_returned(part: Message, returned: list[Message]) -> bool:
    """Whether a text part belongs to a returned message (its body is not the notice's text)."""
    for message in returned:
        payload = message.get_payload()
        if isinstance(payload, list) and any(part is inner for outer in payload for inner in outer.walk()):
            return True
    return False


def _text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return str(part.get_payload() or "")
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, "replace")
    except LookupError:
        return payload.decode("utf-8", "replace")


def _recipient_fields(part: Message) -> list[dict[str, str]]:
    """The per-recipient blocks of a delivery-status part, as lower-cased field names."""
    payload = part.get_payload()
    if isinstance(payload, list):  # compat32 parses the blocks as messages of headers
        blocks = [{k.lower(): str(v) for k, v in block.items()} for block in payload]
    else:
        blocks = [{k.lower(): str(v) for k, v in HeaderParser().parsestr(chunk.strip() + "\n").items()}
                  for chunk in re.split(r"\r?\n\s*\r?\n", str(payload or "")) if chunk.strip()]
    return [block for block in blocks if "action" in block]


def _address(value: str | None) -> str | None:
    """`rfc822; ann@example.org` to `ann@example.org`."""
    if not value:
        return None
    address = value.partition(";")[2] if ";" in value else value
    address = address.strip().strip("<>").strip()
    return address.lower() if "@" in address and " " not in address and len(address) <= 320 else None


def _returned_ids(parts: list[Message], own_id: str | None) -> tuple[str, ...]:
    found: list[str] = []
    for part in parts:
        payload = part.get_payload()
        if isinstance(payload, list) and payload:  # message/rfc822: the returned message itself
            value = payload[0].get("Message-ID") if isinstance(payload[0], Message) else None
            found += [normalise_message_id(str(value))] if value else []
        else:  # text/rfc822-headers, or a message part the parser left as text
            text = _text(part) if not isinstance(payload, list) else ""
            found += list(_quoted_ids(text, own_id))
    return _clean(found, own_id)


def _quoted_ids(text: str, own_id: str | None) -> tuple[str, ...]:
    """Message-IDs on `Message-ID:` lines of quoted headers (a notice's copy of the mail)."""
    return _clean([normalise_message_id(found) for found in _MESSAGE_ID_LINE.findall(text[:MAX_TEXT])], own_id)


def _clean(ids: list[str | None], own_id: str | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in ids if i and i != own_id))[:MAX_IDS]


_ADDRESS = re.compile(r"<?([A-Za-z0-9._%+=-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63})>?")


def _quoted_recipients(text: str) -> tuple[str, ...]:
    """The addresses a notice names before its copy of the mail: usually the ones that failed."""
    head = re.split(r"^-{2,}.*(?:copy|original|below|message).*$|^Return-Path:|^Received:", text[:8000],
                    maxsplit=1, flags=re.IGNORECASE | re.MULTILINE)[0]
    return tuple(dict.fromkeys(address.lower() for address in _ADDRESS.findall(head)))[:MAX_IDS]
