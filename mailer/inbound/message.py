"""One inbound mail, parsed once into plain values the rest of the referee can trust.

:func:`parse_message` never raises: whatever arrives (garbage bytes, hostile headers, broken
MIME), the result says what could be read and lists the rest in ``problems``. Nothing in an
:class:`InboundMail` is a header object, so no inbound value can reach an outgoing header
without going through :func:`sanitise_header` first; ``subject`` already has.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from email.message import Message
from email.parser import BytesParser
from email.policy import Policy

from mailer.safe_headers import normalise_message_id, sanitise_header

from . import policies
from .addresses import parse_plus_address
from .automatic import automatic_reason
from .body import extract_body
from .headers import (
    header_addresses,
    header_raw,
    header_text,
    message_id_list,
    single_address,
)
from .limits import MAX_RAW_LINES, bound_content_fields, bound_lines
from .markers import FORWARD_SUBJECT
from .orders import Block, extract_player_line, find_orders, split_player_line

__all__ = [
    "Block",
    "InboundMail",
    "extract_player_line",
    "parse_message",
    "parse_plus_address",
    "sanitise_header",
    "split_player_line",
]

MAX_PROBLEMS = 50
MAX_FIRST_LINE = 200


@dataclass(frozen=True)
class InboundMail:
    """What a raw inbound message says, reduced to values that are safe to act on.

    ``sender`` is the From addr_spec only when From held exactly one well-formed address; it is
    a claim, not proof of identity. ``orders_text`` is the text to hand to a game's order
    parser: the ``ORDERS`` block when there is one (``orders_from_block``), else the new text
    of the reply; a ``PLAYER`` line is never part of it but is reported in ``player``.
    ``orders_outside`` holds the new text's other lines when the orders are a block, and
    ``quoted_blocks`` the ORDERS blocks of the quoted part (the report's, perhaps edited in
    place), which only mailer/daemon/reading.py may read, by comparing them with the block sent.
    ``forwarded_text`` is, for a mail that forwards another (its subject or the forward's marker
    says so), the text of the forwarded mail below its header block: read when the sender's own
    text holds no orders. ``overlong`` says the sender's own text is longer than the referee
    reads (mailer/inbound/orders.py): nothing was taken from it, and it is answered so;
    ``truncated`` that the mail was longer than the referee looks at, the rest unread.
    ``first_line`` is the first line of the new text with something on it, as written.
    """

    message_id: str | None = None
    sender: str | None = None
    recipients: tuple[str, ...] = ()
    delivered_to: tuple[str, ...] = ()  # the envelope recipients our SMTP server wrote on top, in order
    subject: str = ""
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    date: str | None = None
    is_automatic: bool = False
    automatic_reason: str | None = None
    body: str = ""
    body_type: str | None = None
    orders_text: str = ""
    orders_from_block: bool = False
    orders_tag: str | None = None
    orders_outside: tuple[str, ...] = ()
    quoted_blocks: tuple[Block, ...] = ()
    forwarded_text: str = ""
    overlong: bool = False
    truncated: bool = False
    first_line: str = ""
    player: tuple[str, str] | None = None
    problems: tuple[str, ...] = field(default_factory=tuple)
    languages: tuple[str, ...] = ()  # what Content-Language and Accept-Language name, in order: `de`, `it-ch` ...


def _parse_headers(msg: Message, problems: list[str], content_types: list[str]) -> InboundMail:
    """The header-derived fields, loop classification included; the body fields stay empty."""
    sender, sender_problem = single_address(msg, "From")
    if sender_problem:
        problems.append(sender_problem)
    recipients: list[str] = []
    for name in ("To", "Cc"):
        recipients.extend(header_addresses(msg, name, problems))
    delivered_to = header_addresses(msg, "Delivered-To", problems)
    recipients.extend(delivered_to)
    message_id = normalise_message_id(header_text(msg, "Message-ID", problems))
    if message_id is None:
        problems.append("Message-ID: missing or unusable")
    date = header_raw(msg, "Date")
    reason = automatic_reason(msg, content_types, sender)
    languages = [tag.split(";")[0].strip().lower() for name in ("Content-Language", "Accept-Language")
                 for tag in (header_text(msg, name) or "").split(",") if tag.split(";")[0].strip()]
    return InboundMail(
        message_id=message_id,
        sender=sender,
        recipients=tuple(dict.fromkeys(recipients)),
        delivered_to=tuple(delivered_to),
        subject=sanitise_header(header_text(msg, "Subject", problems) or ""),
        in_reply_to=normalise_message_id(header_text(msg, "In-Reply-To", problems)),
        references=message_id_list(header_text(msg, "References", problems)),
        date=sanitise_header(date) if date is not None else None,
        is_automatic=reason is not None,
        automatic_reason=reason,
        languages=tuple(dict.fromkeys(tag[:20] for tag in languages[:8])),
    )


def _parse(raw: bytes, problems: list[str], policy: Policy = policies.DEFAULT) -> InboundMail:
    raw, cut = bound_content_fields(raw)
    if cut:
        problems.append("mime: oversized Content-* header cut")
    raw, truncated = bound_lines(raw)
    if truncated:
        problems.append(f"mime: more than {MAX_RAW_LINES} lines; the rest not read")
    msg = BytesParser(policy=policy).parsebytes(raw)
    if msg.defects:
        kinds = sorted({type(defect).__name__ for defect in msg.defects})
        problems.append("mime: " + ", ".join(kinds)[:150])
    if not any(True for _ in msg.raw_items()):
        problems.append("headers: none found")
    body = extract_body(msg, problems)
    headers = _parse_headers(msg, problems, body.content_types)
    section, visible = find_orders(body.text)
    problems.extend(section.problems)
    if section.overlong:
        problems.append("body: its new text is longer than the referee reads; nothing taken from it")
    _, orders_text = split_player_line("\n".join(section.lines))
    quoted = tuple(Block(sanitise_header(block.tag) if block.tag else None,
                         tuple(split_player_line("\n".join(block.lines))[1].split("\n")))
                   for block in section.quoted)
    forwarded = ""
    if section.forwarded and not section.from_block and \
            (section.forward_marker or FORWARD_SUBJECT.match(headers.subject)):
        forwarded = split_player_line("\n".join(section.forwarded))[1]
    return replace(
        headers,
        body=body.text,
        body_type=body.content_type,
        orders_text=orders_text,
        orders_from_block=section.from_block,
        orders_tag=sanitise_header(section.tag) if section.tag else None,
        orders_outside=tuple(split_player_line("\n".join(section.outside))[1].split("\n")) if section.outside else (),
        quoted_blocks=quoted,
        forwarded_text=forwarded,
        overlong=section.overlong,
        truncated=truncated or body.cut or section.truncated,
        first_line=next((line.strip() for line in visible if line.strip()), "")[:MAX_FIRST_LINE],
        player=extract_player_line("\n".join(visible)),
    )


def _headers_only(raw: bytes, problems: list[str]) -> InboundMail:
    """What the headers say when the body cannot be parsed; the body stays empty."""
    try:
        raw, _ = bound_content_fields(raw)
        msg = BytesParser(policy=policies.SALVAGING).parsebytes(raw, headersonly=True)
        return _parse_headers(msg, problems, [])
    except Exception:
        return InboundMail()


def parse_message(raw: bytes) -> InboundMail:
    """Parse raw message bytes into an :class:`InboundMail`; never raises on any input."""
    problems: list[str] = []
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        return InboundMail(problems=("input: not bytes",))
    try:
        mail = _parse(bytes(raw), problems)
    except RecursionError:
        problems.append("mime: structure too deep to parse; headers only")
        mail = _headers_only(bytes(raw), problems)
    except Exception as error:
        # The standard library's parser gave up on a header (a broken RFC 2231 parameter does
        # that): read it again keeping what can be read of every header, so that the mail is
        # still answered; if even that fails, the headers alone say who wrote it.
        problems.append(f"mime: a header the parser could not read was read in part "
                        f"({sanitise_header(type(error).__name__, 60)})")
        try:
            mail = _parse(bytes(raw), problems, policies.SALVAGING)
        except RecursionError:
            mail = _headers_only(bytes(raw), problems)
        except Exception as again:  # the last line of defence
            problems.append(f"parse failed: {sanitise_header(type(again).__name__, 60)}; headers only")
            mail = _headers_only(bytes(raw), problems)
    cleaned = tuple(dict.fromkeys(sanitise_header(problem, 200) for problem in problems))
    return replace(mail, problems=cleaned[:MAX_PROBLEMS])
