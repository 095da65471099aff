"""Mail to the referee's own address: LIST, JOIN, CONFIRM (or a reply to a confirmation
mail), LEAVE and GAMES.

From is only a claim here, so nothing From says is believed on its own: a JOIN is seated
only when the address it names answers the confirmation mail (whose reply address carries a
one-time code) or the moderator approves it; GAMES and LEAVE are answered to the registered
address of the seats, never to anyone else. What changes a game goes through the service,
one unit of work with the mail it causes; answers that touch no game go through the system
outbox, each once per mail (its serial comes from the mail).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

from mailer.inbound.addresses import referee_code
from mailer.inbound.message import InboundMail
from mailer.outbound.notifier import MailNotifier, reply_address
from mailer.own_address import referee_address
from referee.rendering import render
from referee.service import Referee, ServiceError

from .mail_commands import SUBJECT_PREFIX
from .refusals import RefusalBook

DESK_COMMANDS = ("LIST", "JOIN", "CONFIRM", "LEAVE", "GAMES", "HELP")


@dataclass(frozen=True)
class DeskResult:
    outcome: str  # command, rejected, ignored
    detail: str
    game: str | None = None


def desk_code(mail: InboundMail, hostname: str) -> str | None:
    """The code of a mail to the referee's own address ("" for the plain address), or None
    when the mail is not to it. The spool's Delivered-To (one copy per recipient) decides."""
    for address in mail.delivered_to or mail.recipients:
        code = referee_code(address, hostname)
        if code is not None:
            return code
    return None


def desk_command(mail: InboundMail) -> tuple[str, list[str]]:
    """The command word and its arguments: the first line of the mail's text, else its
    subject; ("", []) when neither holds one."""
    lines = [line.strip() for line in mail.orders_text.splitlines() if line.strip()]
    for candidate in lines[:1] + [SUBJECT_PREFIX.sub("", mail.subject)]:
        words = candidate.split()
        if words and words[0].upper().rstrip(":") in DESK_COMMANDS:
            return words[0].upper().rstrip(":"), words[1:]
    return "", []


class Desk:
    """Answers the mail of the referee's own address."""

    def __init__(self, referee: Referee, notifier: MailNotifier, hostname: str, answers: RefusalBook) -> None:
        self.referee = referee
        self.notifier = notifier
        self.host = hostname
        self.answers = answers  # answers per address and hour: From may be forged, so they are bounded

    def handle(self, mail: InboundMail, raw: bytes, code: str) -> DeskResult:
        sender = mail.sender
        assert sender
        serial = f"desk.{_digest(mail.message_id, raw)}"
        if code:
            return self._confirm(mail, code, serial)
        name, args = desk_command(mail)
        if name == "CONFIRM" and len(args) == 1:
            return self._confirm(mail, args[0], serial)
        if name == "LIST" and not args:
            self._answer(sender, "Open games", render("signup/open-games.txt", games=self.referee.open_games(),
                                                      referee=referee_address(self.host), commands=self._commands()),
                         mail, serial)
            return DeskResult("command", "LIST")
        if name == "GAMES" and not args:
            return self._games(mail, serial)
        if name == "JOIN" and 1 <= len(args) <= 2:
            return self._guarded(mail, serial, "JOIN", args[0], lambda: self.referee.join(
                args[0].lower(), sender, args[1] if len(args) > 1 else None, message_id=mail.message_id,
                in_reply_to=mail.message_id))
        if name == "LEAVE" and len(args) == 1:
            return self._guarded(mail, serial, "LEAVE", args[0], lambda: self.referee.leave_request(
                args[0].lower(), sender, serial=serial, in_reply_to=mail.message_id))
        problem = (f"{name} was not understood as written: see the forms below." if name
                   else "Your mail holds no command the referee knows.")
        self._answer(sender, "Commands of the referee", render("signup/desk-help.txt", problem=problem,
                                                               commands=self._commands()), mail, serial)
        return DeskResult("rejected", f"not a command: {name or mail.subject[:40]!r}")

    def _confirm(self, mail: InboundMail, code: str, serial: str) -> DeskResult:
        return self._guarded(mail, serial, "CONFIRM", None, lambda: self.referee.confirm(
            code, in_reply_to=mail.message_id))

    def _guarded(self, mail: InboundMail, serial: str, name: str, game: str | None,
                 work: Callable[[], object]) -> DeskResult:
        """Do a command through the service; its refusal is answered to the sender, with
        nothing changed (the service's refusals reveal nothing about anyone's seat)."""
        try:
            work()
        except ServiceError as exc:
            assert mail.sender
            self._answer(mail.sender, f"{name} not done", render("signup/desk-help.txt",
                         problem=f"Your {name} could not be done: {exc}\n\nNothing was changed.",
                         commands=self._commands()), mail, serial)
            return DeskResult("rejected", f"{name}: {exc}", game)
        return DeskResult("command", name, game)

    def _games(self, mail: InboundMail, serial: str) -> DeskResult:
        """GAMES: answered to the address the seats are registered to (the sender, as it is
        stored); a forged From only sends that address its own list."""
        assert mail.sender
        games = self.referee.games_of(mail.sender)
        for item in games:
            item["reply"] = reply_address(item["id"], {"name": item["player"], "token": item.pop("token")}, self.host)
        to = next((g["email"] for g in games), mail.sender)
        self._answer(to, "Your games", render("signup/my-games.txt", games=games, address=to,
                                              referee=referee_address(self.host), commands=self._commands()),
                     mail, serial)
        return DeskResult("command", "GAMES")

    def _commands(self) -> str:
        return render("signup/desk-commands.txt", referee=referee_address(self.host)).rstrip("\n")

    def _answer(self, to: str, subject: str, text: str, mail: InboundMail, serial: str) -> None:
        """An answer from the system outbox, unless `to` had its hour's share of them (From
        may be forged: someone else's address must not be flooded with LIST answers)."""
        self.answers.answer(to, player=True, send=lambda: self.notifier.system_mail(
            to, subject, text, in_reply_to=mail.message_id, serial=serial))


def _digest(message_id: str | None, raw: bytes) -> str:
    return hashlib.sha256((message_id or "").encode("utf-8") + raw).hexdigest()[:16]
