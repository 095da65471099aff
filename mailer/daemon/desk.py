"""Mail to the referee's own address: LIST, JOIN, CONFIRM (or a reply to a confirmation
mail), LEAVE and GAMES.

From is only a claim here, so nothing From says is believed on its own: a JOIN is seated
only when the address it names answers the confirmation mail (whose reply address carries a
one-time code) or the moderator approves it; GAMES and LEAVE are answered to the registered
address of the seats, never to anyone else. What changes a game goes through the service,
one unit of work with the mail it causes; answers that touch no game go through the system
outbox, each once per mail (its serial comes from the mail).

What the desk sends is bounded as a whole, not only per address (mailer/daemon/desk_book.py):
an address that holds no seat here shares with every other such address a few dozen answers
an hour, and beyond that its LIST, JOIN, HELP and unknown commands are taken silently (a JOIN
then records nothing). A mail whose From could not be mailed anyway (a local part longer than
mail servers take) gets no answer at all.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

from mailer.inbound.addresses import referee_code
from mailer.inbound.message import InboundMail
from mailer.outbound.notifier import MailNotifier, reply_address
from mailer.outbound.reports import command_words
from mailer.own_address import referee_address
from referee.i18n import DEFAULT_LANGUAGE, LanguageError, language_code, translations
from referee.rendering import paragraphs, render
from referee.service import Referee, ServiceError
from referee.tokens import LOCAL_PART_MAX, longest_name

from .desk_book import DeskBook, Verdict
from .mail_commands import SUBJECT_PREFIX, WORDS

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
    silent: bool = False  # taken without an answer: the desk's bounds were reached


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

    def __init__(self, referee: Referee, notifier: MailNotifier, hostname: str, answers: DeskBook,
                 is_player: Callable[[str], bool]) -> None:
        self.referee = referee
        self.notifier = notifier
        self.host = hostname
        self.answers = answers  # answers per address and per hour over newcomers: From may be forged
        self.is_player = is_player  # an address holding a seat here is no newcomer

    def handle(self, mail: InboundMail, raw: bytes, code: str) -> DeskResult:
        """Answer one mail, in the language of the game it is about (JOIN, LEAVE), of the
        sender's seats (GAMES), of its command word or of its Content-Language, else English:
        the desk's readers have chosen no language of their own yet."""
        sender = mail.sender
        assert sender
        if not mailable(sender):
            return DeskResult("ignored", "the sender's address cannot be mailed (too long)", silent=True)
        serial = f"desk.{_digest(mail.message_id, raw)}"
        name, args, word_lang = desk_command(mail)
        asked_for = word_lang or stated_language(mail)  # None: no language of the mail's own
        lang = asked_for or DEFAULT_LANGUAGE
        if code:
            return self._confirm(mail, code, serial, lang)
        if name == "CONFIRM" and len(args) == 1:
            return self._confirm(mail, args[0], serial, lang)
        if name == "LIST" and not args:
            verdict = self._answer(sender, translations(lang).gettext("Open games"), lambda: render(
                "signup/open-games.txt", lang=lang, games=self.referee.open_games(),
                referee=referee_address(self.host), commands=self._commands(lang)), mail, serial, lang)
            return DeskResult("command", "LIST") if verdict.answered else _silent("LIST", verdict)
        if name == "GAMES" and not args:
            return self._games(mail, serial, asked_for)
        if name in ("JOIN", "LEAVE") and args:
            lang = word_lang or self.referee.open_game_language(args[0].lower()) or lang
        if name == "JOIN" and 1 <= len(args) <= 2:
            return self._join(mail, serial, args, lang)
        if name == "LEAVE" and len(args) == 1:
            return self._guarded(mail, serial, "LEAVE", args[0], lang, lambda: self.referee.leave_request(
                args[0].lower(), sender, serial=serial, in_reply_to=mail.message_id))
        t = translations(lang)
        problem = "" if name == "HELP" else form_problem(name, args, lang)
        verdict = self._answer(sender, t.gettext("Commands of the referee"), lambda: render(
            "signup/desk-help.txt", lang=lang, problem=problem, commands=self._commands(lang)), mail, serial, lang)
        if not verdict.answered:
            return _silent(name or "a mail with no command", verdict)
        if name == "HELP":
            return DeskResult("command", "HELP")
        return DeskResult("rejected", f"not a command: {name or mail.subject[:40]!r}")

    def _join(self, mail: InboundMail, serial: str, args: list[str], lang: str) -> DeskResult:
        """JOIN: its answer (a confirmation mail, or why not) goes to the sender, so it is
        done only when the sender may be answered; else nothing is recorded."""
        assert mail.sender
        sender = mail.sender
        done: list[DeskResult] = []
        verdict = self.answers.answer(sender, newcomer=not self.is_player(sender), send=lambda: done.append(
            self._guarded(mail, serial, "JOIN", args[0], lang, lambda: self.referee.join(
                args[0].lower(), sender, args[1] if len(args) > 1 else None, message_id=mail.message_id,
                in_reply_to=mail.message_id), charged=True)))
        return done[0] if done else _silent("JOIN", verdict, args[0].lower()[:64])

    def _confirm(self, mail: InboundMail, code: str, serial: str, lang: str) -> DeskResult:
        return self._guarded(mail, serial, "CONFIRM", None, lang, lambda: self.referee.confirm(
            code, in_reply_to=mail.message_id))

    def _guarded(self, mail: InboundMail, serial: str, name: str, game: str | None, lang: str,
                 work: Callable[[], object], *, charged: bool = False) -> DeskResult:
        """Do a command through the service; its refusal is answered to the sender, with
        nothing changed (the service's refusals reveal nothing about anyone's seat).
        `charged`: the answer was counted already (JOIN), so the refusal is sent as it is."""
        try:
            work()
        except ServiceError as exc:
            assert mail.sender
            t = translations(lang)
            said = command_words(name, lang)  # the command in the reader's words (ISCRIVIMI)
            problem = paragraphs(t.gettext("Your {command} could not be done: {why}").format(
                command=said, why=exc.said(lang)), t.gettext("Nothing was changed.")).rstrip("\n")
            subject = t.gettext("{command} not done").format(command=said)
            text = render("signup/desk-help.txt", lang=lang, problem=problem, commands=self._commands(lang))
            if charged:
                self._send(mail.sender, subject, text, mail, serial, lang)
            else:
                verdict = self._answer(mail.sender, subject, text, mail, serial, lang)
                if not verdict.answered:
                    return _silent(name, verdict, game, f"{name}: {exc}")
            return DeskResult("rejected", f"{name}: {exc}", game)
        return DeskResult("command", name, game)

    def _games(self, mail: InboundMail, serial: str, lang: str | None) -> DeskResult:
        """GAMES: answered to the address the seats are registered to (the sender, as it is
        stored), in the language its seats are played in (the one most of them use) unless the
        mail asks for another; a forged From only sends that address its own list. The games
        are read only for an answer that is sent."""
        sender = mail.sender
        assert sender

        def send() -> None:
            used, games = self.referee.games_of(sender, lang)
            for item in games:
                item["reply"] = reply_address(item["id"], {"name": item["player"], "token": item.pop("token")},
                                              self.host)
            to = next((g["email"] for g in games), sender)
            self._send(to, translations(used).gettext("Your games"), render(
                "signup/my-games.txt", lang=used, games=games, address=to, referee=referee_address(self.host),
                commands=self._commands(used)), mail, serial, used)

        verdict = self.answers.answer(sender, newcomer=not self.is_player(sender), send=send)
        return DeskResult("command", "GAMES") if verdict.answered else _silent("GAMES", verdict)

    def _commands(self, lang: str) -> str:
        return render("signup/desk-commands.txt", lang=lang, referee=referee_address(self.host)).strip("\n")

    def _answer(self, to: str, subject: str, text: str | Callable[[], str], mail: InboundMail,
                serial: str, lang: str = "en") -> Verdict:
        """An answer from the system outbox, unless `to` had its hour's share of them, or `to`
        is a newcomer and newcomers had theirs (From may be forged: someone else's address
        must not be flooded with LIST answers); whether it was sent. A `text` that is a
        function is written only for an answer that is sent. `lang` is the answer's language,
        named in its Content-Language."""
        return self.answers.answer(to, newcomer=not self.is_player(to), send=lambda: self._send(
            to, subject, text() if callable(text) else text, mail, serial, lang))

    def _send(self, to: str, subject: str, text: str, mail: InboundMail, serial: str, lang: str = "en") -> None:
        self.notifier.system_mail(to, subject, text, in_reply_to=mail.message_id, serial=serial, language=lang)


def mailable(address: str) -> bool:
    """Whether an answer to `address` could be delivered: mail servers take at most
    LOCAL_PART_MAX characters before the @ and 254 in all, so a longer From is made up."""
    local, _, domain = address.rpartition("@")
    return 0 < len(local) <= LOCAL_PART_MAX and bool(domain) and len(address) <= 254


def _silent(command: str, verdict: Verdict, game: str | None = None, detail: str = "") -> DeskResult:
    """A mail the desk's bounds let through without an answer: nothing was sent or recorded."""
    return DeskResult("ignored", f"{command} taken without an answer: {verdict.why}"
                      + (f" ({detail})" if detail else ""), game, silent=True)


def form_problem(name: str, args: list[str], lang: str) -> str:
    """Which rule of its command's form a desk mail breaks, in `lang` (the forms themselves
    follow, in the list of commands): the right number of words after the command, a name
    that is one word, or a mail that begins with no command at all."""
    t = translations(lang)
    if not name:
        return t.gettext("Your mail holds no command the referee knows: the first line of the mail, or else its "
                         "subject, must begin with one of the commands below.")
    if name in ("LIST", "GAMES"):
        return t.gettext("{command} takes nothing after it: write {command} alone.").format(command=name)
    if name == "CONFIRM":
        return t.gettext("CONFIRM takes one word after it, the code of your confirmation mail (or reply to that "
                         "mail instead).")
    if name == "LEAVE":
        return t.gettext("LEAVE takes one word after it, the id of the game whose seat you give up.")
    if not args:
        return t.gettext("JOIN needs the id of the game after it (LIST shows the games open for sign-ups), and may "
                         "take your name after that.")
    game, words = args[0].lower(), args[1:]
    return t.gettext("A name is one word, and {name!r} is {count} words. A name may hold letters, digits, '_' and '-', "
                     "must start with a letter or digit, and may have at most {most} characters in this game: for "
                     "instance JOIN {game} {example}.").format(
        name=" ".join(words)[:60], count=len(words), most=max(longest_name(game), 1), game=game,
        example=_one_word(words, longest_name(game)))


def _one_word(words: list[str], most: int) -> str:
    """A name made of several words the way the rules take it: `Carla M.` -> `carla_m`."""
    parts = ["".join(c for c in word.lower() if c.isascii() and (c.isalnum() or c in "_-")) for word in words]
    joined = "_".join(p for p in parts if p).lstrip("_-")
    return (joined or "carla")[:max(most, 1)]


def _digest(message_id: str | None, raw: bytes) -> str:
    return hashlib.sha256((message_id or "").encode("utf-8") + raw).hexdigest()[:16]
