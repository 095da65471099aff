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
from referee.i18n import DEFAULT_LANGUAGE, LanguageError, language_code, translations
from referee.rendering import paragraphs, render
from referee.service import Referee, ServiceError

from .mail_commands import SUBJECT_PREFIX, WORDS
from .refusals import RefusalBook

DESK_COMMANDS = ("LIST", "JOIN", "CONFIRM", "LEAVE", "GAMES", "HELP")
# the commands in the other languages Referee speaks, and which language each word is: the
# desk's own, and those of the players' mail commands it shares (HELP: HILFE, AIUTO)
DESK_WORDS = {"LISTE": ("LIST", "de"), "ANMELDEN": ("JOIN", "de"), "BESTÄTIGEN": ("CONFIRM", "de"),
              "BESTAETIGEN": ("CONFIRM", "de"), "ABMELDEN": ("LEAVE", "de"), "PARTIEN": ("GAMES", "de"),
              "ELENCO": ("LIST", "it"), "ISCRIVIMI": ("JOIN", "it"), "CONFERMA": ("CONFIRM", "it"),
              "LASCIA": ("LEAVE", "it"), "PARTITE": ("GAMES", "it"),
              **{word: (command, lang) for word, (command, lang) in WORDS.items() if command in DESK_COMMANDS}}


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


def desk_command(mail: InboundMail) -> tuple[str, list[str], str | None]:
    """The command word, its arguments and the language it was written in (None: English,
    which every reader may write): the first line of the mail's text, else its subject;
    ("", [], None) when neither holds one."""
    lines = [line.strip() for line in mail.orders_text.splitlines() if line.strip()]
    for candidate in lines[:1] + [SUBJECT_PREFIX.sub("", mail.subject)]:
        words = candidate.split()
        word = words[0].upper().rstrip(":") if words else ""
        if word in DESK_COMMANDS:
            return word, words[1:], None
        if word in DESK_WORDS:
            return DESK_WORDS[word][0], words[1:], DESK_WORDS[word][1]
    return "", [], None


def stated_language(mail: InboundMail) -> str | None:
    """The first language Referee speaks that the mail's Content-Language or Accept-Language
    names (a mail program writes what its user reads), else None."""
    for tag in mail.languages:
        try:
            return language_code(tag)
        except LanguageError:
            continue
    return None


class Desk:
    """Answers the mail of the referee's own address."""

    def __init__(self, referee: Referee, notifier: MailNotifier, hostname: str, answers: RefusalBook) -> None:
        self.referee = referee
        self.notifier = notifier
        self.host = hostname
        self.answers = answers  # answers per address and hour: From may be forged, so they are bounded

    def handle(self, mail: InboundMail, raw: bytes, code: str) -> DeskResult:
        """Answer one mail, in the language of the game it is about (JOIN, LEAVE), of the
        sender's seats (GAMES), of its command word or of its Content-Language, else English:
        the desk's readers have chosen no language of their own yet."""
        sender = mail.sender
        assert sender
        serial = f"desk.{_digest(mail.message_id, raw)}"
        name, args, word_lang = desk_command(mail)
        asked_for = word_lang or stated_language(mail)  # None: no language of the mail's own
        lang = asked_for or DEFAULT_LANGUAGE
        if code:
            return self._confirm(mail, code, serial, lang)
        if name == "CONFIRM" and len(args) == 1:
            return self._confirm(mail, args[0], serial, lang)
        if name == "LIST" and not args:
            self._answer(sender, translations(lang).gettext("Open games"), render(
                "signup/open-games.txt", lang=lang, games=self.referee.open_games(),
                referee=referee_address(self.host), commands=self._commands(lang)), mail, serial)
            return DeskResult("command", "LIST")
        if name == "GAMES" and not args:
            return self._games(mail, serial, asked_for)
        if name in ("JOIN", "LEAVE") and args:
            lang = word_lang or self.referee.open_game_language(args[0].lower()) or lang
        if name == "JOIN" and 1 <= len(args) <= 2:
            return self._guarded(mail, serial, "JOIN", args[0], lang, lambda: self.referee.join(
                args[0].lower(), sender, args[1] if len(args) > 1 else None, message_id=mail.message_id,
                in_reply_to=mail.message_id))
        if name == "LEAVE" and len(args) == 1:
            return self._guarded(mail, serial, "LEAVE", args[0], lang, lambda: self.referee.leave_request(
                args[0].lower(), sender, serial=serial, in_reply_to=mail.message_id))
        t = translations(lang)
        if name == "HELP":
            problem = ""
        elif name:
            problem = t.gettext("{command} was not understood as written: see the forms below.").format(command=name)
        else:
            problem = t.gettext("Your mail holds no command the referee knows.")
        self._answer(sender, t.gettext("Commands of the referee"), render(
            "signup/desk-help.txt", lang=lang, problem=problem, commands=self._commands(lang)), mail, serial)
        if name == "HELP":
            return DeskResult("command", "HELP")
        return DeskResult("rejected", f"not a command: {name or mail.subject[:40]!r}")

    def _confirm(self, mail: InboundMail, code: str, serial: str, lang: str) -> DeskResult:
        return self._guarded(mail, serial, "CONFIRM", None, lang, lambda: self.referee.confirm(
            code, in_reply_to=mail.message_id))

    def _guarded(self, mail: InboundMail, serial: str, name: str, game: str | None, lang: str,
                 work: Callable[[], object]) -> DeskResult:
        """Do a command through the service; its refusal is answered to the sender, with
        nothing changed (the service's refusals reveal nothing about anyone's seat)."""
        try:
            work()
        except ServiceError as exc:
            assert mail.sender
            t = translations(lang)
            problem = paragraphs(t.gettext("Your {command} could not be done: {why}").format(
                command=name, why=exc.said(lang)), t.gettext("Nothing was changed.")).rstrip("\n")
            self._answer(mail.sender, t.gettext("{command} not done").format(command=name), render(
                "signup/desk-help.txt", lang=lang, problem=problem, commands=self._commands(lang)), mail, serial)
            return DeskResult("rejected", f"{name}: {exc}", game)
        return DeskResult("command", name, game)

    def _games(self, mail: InboundMail, serial: str, lang: str | None) -> DeskResult:
        """GAMES: answered to the address the seats are registered to (the sender, as it is
        stored), in the language its seats are played in (the one most of them use) unless the
        mail asks for another; a forged From only sends that address its own list."""
        assert mail.sender
        lang, games = self.referee.games_of(mail.sender, lang)
        for item in games:
            item["reply"] = reply_address(item["id"], {"name": item["player"], "token": item.pop("token")}, self.host)
        to = next((g["email"] for g in games), mail.sender)
        self._answer(to, translations(lang).gettext("Your games"), render(
            "signup/my-games.txt", lang=lang, games=games, address=to, referee=referee_address(self.host),
            commands=self._commands(lang)), mail, serial)
        return DeskResult("command", "GAMES")

    def _commands(self, lang: str) -> str:
        return render("signup/desk-commands.txt", lang=lang, referee=referee_address(self.host)).strip("\n")

    def _answer(self, to: str, subject: str, text: str, mail: InboundMail, serial: str) -> None:
        """An answer from the system outbox, unless `to` had its hour's share of them (From
        may be forged: someone else's address must not be flooded with LIST answers)."""
        self.answers.answer(to, player=True, send=lambda: self.notifier.system_mail(
            to, subject, text, in_reply_to=mail.message_id, serial=serial))


def _digest(message_id: str | None, raw: bytes) -> str:
    return hashlib.sha256((message_id or "").encode("utf-8") + raw).hexdigest()[:16]
