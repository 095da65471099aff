"""Builds outgoing mail: receipts, reports and refusals, threaded per game.

Every header value that could carry player text goes through `sanitise_header`. Message-IDs
are fixed by what the mail is (game, kind, sequence, player), so a mail re-sent after a crash
has the same id and clients and the capture relay recognise it.
"""

from __future__ import annotations

import binascii
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from email.header import Header
from email.utils import format_datetime, formataddr

from mailer.safe_headers import normalise_message_id, sanitise_header

_ID_PART = re.compile(r"[^a-z0-9._-]+")
MAX_LINE = 78


def message_id(game_id: str, kind: str, serial: int | str, player: str, host: str) -> str:
    """`<game.kind.serial.player@host>` with every part reduced to safe characters."""
    parts = [_ID_PART.sub("-", str(p).lower()).strip("-") or "x" for p in (game_id, kind, serial, player)]
    return f"<{'.'.join(parts)}@{own_id_host(host)}>"


def own_id_host(host: str) -> str:
    """What follows the `@` in the Message-IDs of the referee's mail: how a reply or a report of
    failure is known to concern one of them."""
    return _ID_PART.sub("-", host.lower())


def thread_root(game_id: str, host: str) -> str:
    """The id every mail of a game refers to, so clients show one thread per game."""
    return message_id(game_id, "thread", 0, "all", host)


@dataclass(frozen=True)
class OutgoingMail:
    game_id: str
    kind: str  # receipt / report / refusal / notice
    to: str
    subject: str
    text: str
    message_id: str
    html: str | None = None
    reply_to: str | None = None
    in_reply_to: str | None = None  # the player's mail this answers, if any
    answers: tuple[str, ...] = ()  # earlier mails of the player's this one answers too (in References)
    auto: str = "auto-generated"  # "auto-replied" for answers to a player's mail
    language: str = "en"  # what the text is written in: the Content-Language header
    label: str = ""  # what the mail is to its reader (ask, round, end, ...); empty: its kind
    phase: str = ""  # the phase it reports, `ROUND; KEY; NAME` in the game's own words


def build(mail: OutgoingMail, *, host: str, sender_name: str, date: datetime) -> bytes:
    """The mail's bytes, CRLF line ends, 7-bit clean.

    Written directly rather than through `EmailMessage`: the stdlib's header objects and its
    pure-Python quoted-printable encoder made composing a receipt cost more than reading,
    checking and storing the order it answers. The boundary of a two-part mail comes from the
    Message-ID, so the same mail always has the same bytes."""
    game_address = f"{mail.game_id}@{host}" if mail.game_id else f"referee@{host}"
    headers = [("From", formataddr((sanitise_header(sender_name, 60), game_address))),
               ("To", sanitise_header(mail.to, 320))]
    if mail.reply_to:
        headers.append(("Reply-To", sanitise_header(mail.reply_to, 320)))
    headers += [("Subject", sanitise_header(mail.subject, 200)), ("Date", format_datetime(date)),
                ("Message-ID", sanitise_header(mail.message_id, 320))]
    references = []
    if mail.game_id:
        references.append(thread_root(mail.game_id, host))
        headers.append(("List-Id", f"{sanitise_header(mail.game_id, 64)} <{mail.game_id}.{host}>"))
    for earlier in mail.answers:
        earlier = normalise_message_id(earlier)
        if earlier and earlier not in references:
            references.append(earlier)
    answered = normalise_message_id(mail.in_reply_to)
    if answered:
        references = [r for r in references if r != answered] + [answered]
    if references:
        headers += [("In-Reply-To", references[-1]), ("References", " ".join(references))]
    headers += [("Auto-Submitted", mail.auto),
                ("Precedence", "bulk" if mail.auto == "auto-generated" else "list"),
                ("X-Auto-Response-Suppress", "All"), ("Content-Language", sanitise_header(mail.language or "en", 16)),
                # for filters and tools, the same whatever language the mail is written in
                ("X-Referee-Kind", sanitise_header(mail.label or mail.kind, 40))]
    if mail.phase:
        headers.append(("X-Referee-Phase", sanitise_header(mail.phase, 200)))
    headers.append(("MIME-Version", "1.0"))
    if mail.html is None:
        part_headers, body = _text_part(mail.text, "plain")
        headers += part_headers
    else:
        boundary = "=_" + hashlib.sha256(mail.message_id.encode("utf-8")).hexdigest()[:32]
        headers.append(("Content-Type", f'multipart/alternative; boundary="{boundary}"'))
        parts = [_text_part(mail.text, "plain"), _text_part(mail.html, "html")]
        # the line break before a delimiter belongs to the delimiter, not to the part
        body = "".join(f"--{boundary}\r\n" + "".join(_header_line(n, v) for n, v in part_headers) + "\r\n"
                       + text + "\r\n" for part_headers, text in parts) + f"--{boundary}--\r\n"
    return ("".join(_header_line(name, value) for name, value in headers) + "\r\n" + body).encode("ascii")


def _text_part(text: str, subtype: str) -> tuple[list[tuple[str, str]], str]:
    """Headers and encoded body of one text part: 7bit when the text is short-lined ASCII
    (readable as it is), quoted-printable otherwise."""
    lines = text.encode("utf-8").splitlines()
    if text.isascii() and max(map(len, lines), default=0) <= MAX_LINE:
        encoding, body = "7bit", b"\r\n".join(lines).decode("ascii")
    else:
        encoding = "quoted-printable"
        body = binascii.b2a_qp(b"\n".join(lines), istext=True).decode("ascii").replace("\n", "\r\n")
    return [("Content-Type", f'text/{subtype}; charset="utf-8"'), ("Content-Transfer-Encoding", encoding)], \
        body + "\r\n"


def _header_line(name: str, value: str) -> str:
    """One header, folded at spaces to keep lines short; non-ASCII text as RFC 2047 words."""
    if not value.isascii():
        return f"{name}: " + Header(value, "utf-8", header_name=name).encode(linesep="\r\n") + "\r\n"
    lines, line = [], f"{name}:"
    for word in value.split(" "):
        if len(line) + 1 + len(word) > MAX_LINE and line.strip() and not line.endswith(":"):
            lines.append(line)
            line = ""
        line += " " + word
    lines.append(line)
    return "\r\n".join(lines) + "\r\n"
