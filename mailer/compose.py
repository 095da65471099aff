"""Builds outgoing mail: receipts, reports and refusals, threaded per game.

Every header value that could carry player text goes through `sanitise_header`. Message-IDs
are fixed by what the mail is (game, kind, sequence, player), so a mail re-sent after a crash
has the same id and clients and the capture relay recognise it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr

from .headers import normalise_message_id, sanitise_header

_ID_PART = re.compile(r"[^a-z0-9._-]+")


def message_id(game_id: str, kind: str, serial: int | str, player: str, host: str) -> str:
    """`<game.kind.serial.player@host>` with every part reduced to safe characters."""
    parts = [_ID_PART.sub("-", str(p).lower()).strip("-") or "x" for p in (game_id, kind, serial, player)]
    return f"<{'.'.join(parts)}@{_ID_PART.sub('-', host.lower())}>"


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
    auto: str = "auto-generated"  # "auto-replied" for answers to a player's mail


def build(mail: OutgoingMail, *, host: str, sender_name: str, date: datetime) -> bytes:
    msg = EmailMessage()
    game_address = f"{mail.game_id}@{host}" if mail.game_id else f"referee@{host}"
    msg["From"] = formataddr((sanitise_header(sender_name, 60), game_address))
    msg["To"] = sanitise_header(mail.to, 320)
    if mail.reply_to:
        msg["Reply-To"] = sanitise_header(mail.reply_to, 320)
    msg["Subject"] = sanitise_header(mail.subject, 200)
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = mail.message_id
    references = []
    if mail.game_id:
        references.append(thread_root(mail.game_id, host))
        msg["List-Id"] = f"{sanitise_header(mail.game_id, 64)} <{mail.game_id}.{host}>"
    answered = normalise_message_id(mail.in_reply_to)
    if answered:
        references.append(answered)
    if references:
        msg["In-Reply-To"] = references[-1]
        msg["References"] = " ".join(references)
    msg["Auto-Submitted"] = mail.auto
    msg["Precedence"] = "bulk" if mail.auto == "auto-generated" else "list"
    msg["X-Auto-Response-Suppress"] = "All"
    msg.set_content(mail.text)
    if mail.html is not None:
        msg.add_alternative(mail.html, subtype="html")
    return msg.as_bytes(policy=SMTP)
