"""What the players of a demo game got by mail, read from their mailboxes afterwards: how
many mails per player per round, why each came (it asked for orders, a round began, the game
ended, a reminder, or none of these), and how long the reports were.

`referee demo` prints the figures at the end and bench/bench_mail_per_round.py compares them
with the targets of the mail settings (referee/notify.py). A mail's kind and round are those
the referee names in its X-Referee-Kind and X-Referee-Phase headers (mailer/outbound/
notifier.py), so mail in German or Italian is counted as mail in English is. A receipt (the
answer to the player's own order mail) is counted apart from the mails the referee sends on
its own.
"""

from __future__ import annotations

import email
import statistics
from dataclasses import dataclass, field
from email import policy
from pathlib import Path
from typing import Iterable

from .bot import arrival_key

ASK, ROUND, END, REMINDER, RECEIPT, OTHER = "ask", "round", "end", "reminder", "receipt", "other"
KINDS = (ASK, ROUND, END, REMINDER, RECEIPT, OTHER)
ON_ITS_OWN = (ASK, ROUND, END, REMINDER, OTHER)  # every kind but the answer to a player's own mail


@dataclass
class PlayerMail:
    """One player's mailbox, mail by mail."""

    player: str
    kinds: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    widest: int = 0
    unanswered_asks: int = 0  # mails asking for orders that no reply of the bot answered
    orders_sent: int = 0  # mails the bot sent
    unanswered_orders: int = 0  # mails of the bot that no mail of the referee answers (In-Reply-To, References)
    rounds: set[int] = field(default_factory=set)
    round_of: list[int | None] = field(default_factory=list)  # the round each mail names, if any

    def count(self, kind: str) -> int:
        return sum(k == kind for k in self.kinds)


@dataclass
class MailStats:
    players: list[PlayerMail]
    rounds: int

    @property
    def mails(self) -> int:
        return sum(len(p.kinds) for p in self.players)

    def per_player_per_round(self, kind: str | None = None) -> float:
        total = sum(len(p.kinds) if kind is None else p.count(kind) for p in self.players)
        return total / max(len(self.players), 1) / max(self.rounds, 1)

    def count(self, kind: str) -> int:
        return sum(p.count(kind) for p in self.players)

    @property
    def most_in_a_round(self) -> int:
        """The most mails the referee sent one player on its own in one round: receipts,
        the answers to their own mail, are counted apart."""
        return max((n for p in self.players for n in _per_round(p, ON_ITS_OWN).values()), default=0)

    def _lines(self, kind: str | None) -> list[int]:
        return [n for p in self.players for k, n in zip(p.kinds, p.lines) if kind is None or k == kind]

    def median_lines(self, kind: str | None = None) -> float:
        lines = self._lines(kind)
        return statistics.median(lines) if lines else 0.0

    def most_lines(self, kind: str | None = None) -> int:
        return max(self._lines(kind), default=0)

    @property
    def widest(self) -> int:
        return max((p.widest for p in self.players), default=0)

    @property
    def unanswered_asks(self) -> int:
        return sum(p.unanswered_asks for p in self.players)

    @property
    def orders_sent(self) -> int:
        return sum(p.orders_sent for p in self.players)

    @property
    def unanswered_orders(self) -> int:
        return sum(p.unanswered_orders for p in self.players)

    def summary(self) -> str:
        parts = ", ".join(f"{self.per_player_per_round(k):.1f} {k}" for k in KINDS if self.count(k))
        return (f"{self.per_player_per_round():.1f} mails per player per round ({parts}); "
                f"{self.count(ASK)} of {self.mails} asked for orders; median report {self.median_lines():.0f} lines")


def _per_round(player: PlayerMail, kinds: Iterable[str] = KINDS) -> dict[int, int]:
    out: dict[int, int] = {}
    last = 0
    counted = set(kinds)
    for number, kind in zip(player.round_of, player.kinds):
        last = number if number is not None else last
        if kind in counted:
            out[last] = out.get(last, 0) + 1
    return out


def _receipt(mail: email.message.EmailMessage) -> bool:
    """The receipt of a player's order mail: its Message-ID names the kind (mailer/outbound/compose.py)."""
    return ".receipt." in str(mail["Message-ID"] or "")


def _text(mail: email.message.EmailMessage) -> str:
    body = mail.get_body(("plain",))
    return body.get_content().replace("\r\n", "\n") if body is not None else ""


def _mails(folder: Path) -> list[email.message.EmailMessage]:
    files = sorted((p for sub in ("new", "cur") for p in (folder / sub).iterdir() if p.is_file()),
                   key=lambda p: arrival_key(p.name))
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in files]


def _round(mail: email.message.EmailMessage) -> int | None:
    """The round a mail reports (its X-Referee-Phase), if it reports one."""
    head = str(mail["X-Referee-Phase"] or "").partition(";")[0].strip()
    return int(head) if head.lstrip("-").isdigit() else None


def read_player(name: str, box: Path) -> PlayerMail:
    """Classify every mail in `box` (a demo player's Maildir; the bot's replies in .Sent) by
    the kind the referee names in its X-Referee-Kind header, the same in every language."""
    out = PlayerMail(name)
    sent = _mails(box / ".Sent") if (box / ".Sent").exists() else []
    answered = {str(m["In-Reply-To"]) for m in sent}
    received = _mails(box)
    referred = {ref for m in received for ref in f"{m['In-Reply-To'] or ''} {m['References'] or ''}".split()}
    out.orders_sent = len(sent)
    out.unanswered_orders = sum(str(m["Message-ID"]) not in referred for m in sent)
    for mail in received:
        said = str(mail["X-Referee-Kind"] or "")
        kind = RECEIPT if _receipt(mail) else said if said in (ASK, ROUND, END, REMINDER) else OTHER
        if kind == ASK and str(mail["Message-ID"]) not in answered:
            out.unanswered_asks += 1
        number = _round(mail)
        if number is not None:
            out.rounds.add(number)
        out.kinds.append(kind)
        out.round_of.append(number)
        text = _text(mail)
        lines = text.splitlines()
        out.lines.append(len(lines))
        out.widest = max([out.widest] + [len(line) for line in lines])
    return out


def read(mailboxes: Path, players: list[str], rounds: int) -> MailStats:
    return MailStats([read_player(name, mailboxes / name) for name in players], rounds)
