"""One mail from the spool: who wrote it, what it asks for, and the answer it gets.

Who is writing is decided by a secret, never by From: the token in a tokenised reply address
(`game+player+token@host`), or a `PLAYER name token` line in a mail to the plain game address.
Anything that cannot be matched gets a short refusal that says nothing about the game, if it
comes from a player of some game here, and at most once an hour by default
(mailer/daemon/refusals.py); a stranger gets no answer. Automatic mail (bounces, vacation
replies, lists) gets no answer at all, so two robots can never talk to each other forever.
"""

from __future__ import annotations

import hashlib
import logging
import textwrap
from dataclasses import dataclass, replace
from typing import Any, Callable

from mailer.inbound.addresses import KnownGames, parse_plus_address
from mailer.inbound.automatic import auto_reply_subject
from mailer.inbound.bounces import read_bounce
from mailer.inbound.directory import PlayerAddresses
from mailer.inbound.message import InboundMail, parse_message
from mailer.outbound.bounced import note_failure
from mailer.outbound.compose import own_id_host
from mailer.outbound.notifier import MailNotifier
from mailer.outbound.reports import command_words
from referee.config import Settings
from referee.i18n import N_, translations
from referee.receipts import ACCEPTED, DUPLICATE, REJECTED, Receipt
from referee.service import Referee, ServiceError, Submission
from referee.store import StoreError, remember_existing

from .copies import TokenCopies
from .desk import Desk, desk_code
from .desk_book import desk_book
from .mail_commands import CHECK, command_summary, lines_after_command, mail_command, unread_notice
from .press_mail import PRESS, answer_press, read_press
from .reading import MailReading, phase_key_of
from .refusals import RefusalBook

log = logging.getLogger("referee.worker")

PLAIN = "PLAIN"  # the "command" of a mail to a game's plain address from a player without a token

REFUSAL = (  # to a sender no seat matched, so in no language of theirs: English
    "This mail could not be matched to a player of a game run here, so nothing was done.\n\n"
    "To send orders, reply to the latest report you received from the referee (its reply\n"
    "address identifies you), or write to the game's address and put this line in the mail:\n\n"
    "    PLAYER <your name> <your token>\n"
)

NOT_A_PLAYER = "not answered: the sender is in no game"

SET_ASIDE = N_(
    "Your mail could not be processed because of a fault on the referee's side, so nothing "
    "in it has been done yet. It is kept, and the moderator has been told; once the fault is "
    "mended the mail is processed and answered as usual. You need not send it again."
)


# The answer to CHECK. Its subject does not begin with CHECK, so that a reply to it with the
# corrected orders (it goes to the game, by the player's reply address) plays them.
CHECKED_OK = N_("[{game}] Checked, not sent: your orders would be accepted")
CHECKED_NOT_OK = N_("[{game}] Checked, not sent: your orders would NOT be accepted")
CHECK_ONLY = N_("CHECK only: nothing was sent and the game is unchanged. Sent now, these orders would get this "
                "receipt:")
CHECK_TO_SEND = N_("To send your orders, reply to this mail with them (without CHECK); the reply goes to the game.")


def _filled(text: str) -> str:
    return textwrap.fill(text, 78, break_long_words=False, break_on_hyphens=False)


@dataclass(frozen=True)
class Handled:
    outcome: str  # accepted, rejected, refused, duplicate, unmatched, ignored
    detail: str = ""
    game: str | None = None
    player: str | None = None
    message_id: str | None = None  # of the mail handled, so that a log line joins the MTA's
    stranger: bool = False  # from an address that got no answer, as anyone's made-up mail gets none


class MailHandler:
    """Reads one mail, finds the player by their secret, and hands the orders or the command
    to the service; answers what the service does not (refusals, rejections, mail set aside)."""

    def __init__(self, referee: Referee, notifier: MailNotifier, settings: Settings,
                 game_exists: Callable[[str], bool] | None = None) -> None:
        self.referee = referee
        self.notifier = notifier
        self.settings = settings
        self.game_exists = remember_existing(game_exists or referee.store.exists)
        self.players = PlayerAddresses(referee.store.games_dir)
        self.desk = Desk(referee, notifier, settings.hostname, desk_book(settings, notifier),
                         lambda address: address in self.players)
        self.refusals = RefusalBook(notifier.system_outbox.store.root / "refusals.json",
                                    settings.limits.refusals_per_sender_per_hour, notifier.clock)
        # answers to players who wrote to a game's plain address: bounded like the desk's, so
        # that mail forged in a player's name cannot flood their mailbox
        self.plain_answers = RefusalBook(notifier.system_outbox.store.root / "plain-answers.json",
                                         settings.limits.desk_answers_per_address_per_hour, notifier.clock)
        self.copies = TokenCopies(notifier.system_outbox.store.root / "token-copies.json", notifier.clock)

    def _identify(self, mail: InboundMail) -> tuple[str, str, str] | None:
        host = self.settings.hostname.lower()
        candidates = list(mail.delivered_to) + list(mail.recipients)
        for address in candidates:
            local, _, domain = address.lower().rpartition("@")
            if domain != host:
                continue
            parsed = parse_plus_address(address, games=KnownGames(self.game_exists))
            if parsed:
                return parsed
            if self._valid_game(local) and mail.player:
                name, token = mail.player
                return local, name, token
        return None

    def _answers_ours(self, mail: InboundMail) -> bool:
        """Whether a mail replies to one of the referee's own mails (its Message-IDs end in
        our host), so that an auto-responder that says nothing of itself in its headers
        cannot start a loop by answering a report and then each of our answers."""
        suffix = "@" + own_id_host(self.settings.hostname) + ">"
        return any(mid.lower().endswith(suffix) for mid in (mail.in_reply_to, *mail.references) if mid)

    def _plain_copy(self, mail: InboundMail, raw: bytes) -> "IdentifiedMail | None":
        """A mail to a game's plain address, without a PLAYER line, from an address registered
        to a seat of that game: its player forgot the token (or the mail reached the token
        address as well). Answered in `_plain`, with nothing played."""
        host, sender = self.settings.hostname.lower(), (mail.sender or "").lower()
        if sender not in self.players:  # a stranger (the common forgery) costs no game file read
            return None
        for address in mail.delivered_to or mail.recipients:
            local, _, domain = address.lower().rpartition("@")
            if domain != host or "+" in local or not self._valid_game(local):
                continue
            try:
                seats = self.referee.store.load(local).meta["seats"]
            except StoreError:
                continue
            seat = next((seat for seat in seats if seat["email"].lower() == sender), None)
            if seat is not None:
                return IdentifiedMail(raw, mail, (local, seat["name"], ""), (PLAIN, ""))
        return None

    def _plain(self, read: "IdentifiedMail") -> Handled:
        """The player is told, at their registered address, where to write instead; unless the
        same mail came with their token (orders taken, or mailer/daemon/copies.py). Nothing of
        the game changes: the answer goes from the system outbox."""
        game_id, player, _ = read.who
        mail_id = read.mail.message_id
        with self.referee.store.transaction(game_id) as tx:  # read only: nothing is written
            taken = bool(mail_id) and tx.find_record("submissions", "message_id", mail_id) is not None
            meta = tx.meta
        if taken or self.copies.seen(game_id, mail_id):
            return Handled(DUPLICATE, "a copy at the plain address of a mail taken with the token", game_id, player)
        seat = next(seat for seat in meta["seats"] if seat["name"] == player)
        told = self.plain_answers.answer(seat["email"], player=True, send=lambda: (
            self.notifier.plain_address_answer(game_id, meta, seat, mail_id)))
        return Handled("refused", "to the plain game address without a token: "
                       + ("told the player's reply address" if told else "not answered: answered lately"),
                       game_id, player)

    def _valid_game(self, game_id: str) -> bool:
        try:
            return self.game_exists(game_id)
        except Exception:
            return False

    def handle(self, raw: bytes) -> Handled:
        """Process one message."""
        read = self._read(raw)
        return read if isinstance(read, Handled) else replace(self._dispatch(read), message_id=read.mail.message_id)

    def _dispatch(self, read: "IdentifiedMail") -> Handled:
        """A mail command, or one submission on its own."""
        if read.command is not None and read.command[0] == PLAIN:
            return self._plain(read)
        if read.command is not None:
            self._withdraw_plain(read)
            if read.command[0] == CHECK:
                return self._check(read)
            if read.command[0] == PRESS:
                outcome, detail, player = answer_press(self, read)
                return Handled(outcome, detail, read.who[0], player)
            return self._command(read.mail, read.raw, *read.who, *read.command)
        return self._answer(read, self.referee.submit_many(read.who[0], [read.submission()])[0])

    def _withdraw_plain(self, read: "IdentifiedMail") -> None:
        """A mail with the token that was addressed to the game's plain address too (To the
        game, Bcc the reply address): the answer its plain copy may be waiting to get, from an
        earlier pass or process, is not sent, and a plain copy read later gets none (one mail,
        one answer; mailer/daemon/copies.py). Nothing here touches the game's file."""
        game_id, player, _ = read.who
        if f"{game_id}@{self.settings.hostname}".lower() not in (r.lower() for r in read.mail.recipients):
            return
        self.copies.add(game_id, read.mail.message_id or "")
        self.notifier.withdraw_plain_answer(game_id, player, read.mail.message_id)

    def _read(self, raw: bytes) -> "IdentifiedMail | Handled":
        """Parse and identify; what needs no game (automatic mail, strangers) is done here."""
        mail = parse_message(raw)
        read = self._identified(mail, raw)
        return replace(read, message_id=mail.message_id) if isinstance(read, Handled) else read

    def _identified(self, mail: InboundMail, raw: bytes) -> "IdentifiedMail | Handled":
        if mail.is_automatic:
            return self._bounced(mail, raw) or Handled("ignored", f"automatic mail ({mail.automatic_reason})")
        if not mail.sender:
            return Handled("ignored", "no usable sender address to answer")
        if mail.sender.lower().rpartition("@")[2] == self.settings.hostname.lower():
            return Handled("ignored", "mail from one of our own addresses (a loop)")
        if auto_reply_subject(mail.subject) and self._answers_ours(mail):
            return Handled("ignored", f"an automatic reply to the referee's mail ({mail.subject[:60]!r})")
        code = desk_code(mail, self.settings.hostname)
        if code is not None:
            done = self.desk.handle(mail, raw, code)
            return Handled(done.outcome, done.detail, done.game, stranger=done.silent)
        who = self._identify(mail)
        if who is None and mail.player is None:
            plain = self._plain_copy(mail, raw)
            if plain is not None:
                return plain
        if who is None or not self._valid_game(who[0]):
            said = self._refuse(mail)
            return Handled("unmatched", f"no game and player token found; {said}", stranger=said == NOT_A_PLAYER)
        command = mail_command(mail)
        press = read_press(mail, who[2], self.settings.hostname, command)  # table talk (mailer/daemon/press_mail.py)
        return IdentifiedMail(raw, mail, who, command if press is None else (PRESS, ""), press)

    def _bounced(self, mail: InboundMail, raw: bytes) -> Handled | None:
        """A report that one of the games' mails could not be delivered: recorded in the game
        (mailer/outbound/bounced.py); None when the mail is no such report."""
        report = read_bounce(raw)
        if report is None:
            return None
        suffix = "@" + own_id_host(self.settings.hostname)
        ours = [mid for mid in report.message_ids if mid.lower().endswith(suffix + ">")]
        for message_id in ours:
            game_id = self._game_of_id(message_id, mail)
            if game_id is None:
                continue
            with self.referee.store.transaction(game_id) as tx:
                marked = note_failure(tx, self.notifier, message_id=message_id, why=report.why, source="dsn",
                                      now=self.notifier.clock(), recipients=report.recipients,
                                      report=mail.message_id)
            players = ", ".join(player for player, _ in marked) or "no seat (already recorded, or not a player's)"
            return Handled("bounce", f"{message_id} not delivered ({report.why}): {players}", game_id,
                           marked[0][0] if marked else None)
        return Handled("ignored", f"a report of failure for no game's mail ({', '.join(ours) or 'not ours'}: "
                                  f"{report.why})")

    def _game_of_id(self, message_id: str, mail: InboundMail) -> str | None:
        """The game a Message-ID of ours belongs to (`<game.kind.serial.player@host>`): the
        longest run of its first parts that names a game here."""
        parts = message_id.strip("<>").rpartition("@")[0].split(".")
        for end in range(len(parts) - 3, 0, -1):
            candidate = ".".join(parts[:end])
            if self._valid_game(candidate):
                return candidate
        return None

    def _answer(self, read: "IdentifiedMail", receipt: Receipt) -> Handled:
        """What follows a submission's receipt: the accepted receipt is already queued with the
        turn; a refusal or rejection is answered from the system outbox."""
        mail, raw = read.mail, read.raw
        game_id, player, token = read.who
        self._withdraw_plain(read)
        if receipt.status == ACCEPTED:
            return Handled(ACCEPTED, game=game_id, player=player)
        if receipt.status == DUPLICATE:
            return Handled(DUPLICATE, game=game_id, player=player)
        seat = self.referee.seat(game_id, player, token)
        if seat is None:  # wrong token or unknown player: answer the sender, reveal nothing
            return Handled("refused", f"bad token; {self._refuse(mail)}", game_id, player)
        t = translations(receipt.language)
        subject = t.gettext("[{game}] Orders not accepted").format(game=game_id)
        if receipt.stale and receipt.phase:
            subject = t.gettext("[{game}] Too late: phase {old} is closed, {key} is open").format(
                game=game_id, old=receipt.stale, key=receipt.phase["key"])
        self.notifier.system_mail(
            seat["email"], subject, receipt.render(), seat=seat, game_id=game_id,
            in_reply_to=mail.message_id, serial=f"{game_id}.{player}.{_digest(mail.message_id, raw)}",
            language=receipt.language, label="refusal")
        return Handled(receipt.status if receipt.status == REJECTED else "refused", receipt.reason, game_id, player)

    def _command(self, mail: InboundMail, raw: bytes, game_id: str, player: str, token: str,
                 name: str, argument: str) -> Handled:
        """STATUS, HELP and HISTORY are answered with mail; VACATION, TIMEZONE, NOTIFY and LANGUAGE change
        the seat and are confirmed. Identity is checked exactly as for orders."""
        serial = f"{player}.{_digest(mail.message_id, raw)}"
        rest = lines_after_command(mail)
        try:
            if name in ("STATUS", "HELP", "HISTORY"):
                self.referee.request(game_id, player, name.lower(), token=token, in_reply_to=mail.message_id,
                                     serial=serial)
            elif name == "LEAVE":
                self.referee.leave(game_id, player, token=token)
            elif name == "VACATION":
                self.referee.vacation(game_id, player, argument, token=token, source="mail",
                                      message_id=mail.message_id)
            elif name == "NOTIFY":
                self.referee.set_notify(game_id, player, argument, token=token, source="mail",
                                        in_reply_to=mail.message_id, serial=serial, message_id=mail.message_id)
            elif name == "LANGUAGE":
                self.referee.set_language(game_id, player, argument, token=token, source="mail",
                                          in_reply_to=mail.message_id, serial=serial, message_id=mail.message_id)
            else:
                self.referee.set_timezone(game_id, player, argument, token=token, source="mail",
                                          in_reply_to=mail.message_id, serial=serial, message_id=mail.message_id)
        except ServiceError as exc:
            seat = self.referee.seat(game_id, player, token)
            if seat is None:
                return Handled("refused", f"bad token; {self._refuse(mail)}", game_id, player)
            lang = seat["language"]
            t = translations(lang)
            said = command_words(name, lang)  # the command in the reader's words (VACANZA)
            self.notifier.system_mail(
                seat["email"], t.gettext("[{game}] {command} not done").format(game=game_id, command=said),
                t.gettext("Your {command} could not be done: {error}").format(command=said, error=exc) + "\n\n"
                + t.gettext("Nothing was changed. The mail commands are:") + "\n\n"
                f"{command_summary(lang)}\n" + (f"\n{unread_notice(name, rest, lang)}" if rest else ""),
                in_reply_to=mail.message_id, serial=f"{game_id}.{serial}", language=lang)
            return Handled("rejected", f"{name}: {exc}", game_id, player)
        if rest:
            seat = self.referee.seat(game_id, player, token)
            if seat is not None:
                t = translations(seat["language"])
                self.notifier.system_mail(seat["email"], t.gettext("[{game}] Only {command} was done").format(
                    game=game_id, command=command_words(name, seat["language"])), unread_notice(name, rest, seat["language"]),
                    in_reply_to=mail.message_id, serial=f"{game_id}.{serial}.rest", language=seat["language"])
        return Handled("command", name, game_id, player)

    def _check(self, read: "IdentifiedMail") -> Handled:
        """CHECK: the receipt the orders would get, to the player's registered address only;
        nothing is submitted. A wrong token gets the refusal any unmatched mail gets."""
        game_id, player, token = read.who
        assert read.command is not None
        seat = self.referee.seat(game_id, player, token)
        if seat is None:
            return Handled("refused", f"bad token; {self._refuse(read.mail)}", game_id, player)
        checked = replace(read.mail, orders_text=read.command[1])
        receipt = self.referee.check_submission(game_id, Submission(
            player, checked.orders_text, token=token, phase_key=read.phase_key(), source="mail",
            reader=MailReading(checked, game_id)))
        t = translations(receipt.language)
        subject = t.gettext(CHECKED_OK if receipt.ok else CHECKED_NOT_OK).format(game=game_id)
        text = "\n\n".join([_filled(t.gettext(CHECK_ONLY)), receipt.render().rstrip("\n"),
                             _filled(t.gettext(CHECK_TO_SEND))]) + "\n"
        self.notifier.system_mail(
            seat["email"], subject, text, seat=seat, game_id=game_id,
            in_reply_to=read.mail.message_id, serial=f"{game_id}.check.{_digest(read.mail.message_id, read.raw)}")
        return Handled("command", f"CHECK: {receipt.status}", game_id, player)

    def _refuse(self, mail: InboundMail) -> str:
        """Answer mail that matched no seat, if its sender is a player here and was not
        answered too often lately (see mailer/daemon/refusals.py); what was done, for the log."""
        sender = mail.sender
        assert sender
        player = sender in self.players
        if self.refusals.answer(sender, player=player, send=lambda: self.notifier.system_mail(
                sender, "Your mail to the referee", REFUSAL, in_reply_to=mail.message_id,
                serial=f"refusal.{_digest(mail.message_id, b'')}")):
            return "answered"
        return "not answered: answered lately" if player else NOT_A_PLAYER

    def _game_works(self, game_id: str) -> bool:
        try:
            self.referee.status(game_id)
        except Exception:
            return False
        return True

    def _tell_set_aside(self, key: str, reason: str, read: "IdentifiedMail | None") -> None:
        """The player (only one whose token is right: nobody else is told anything) and the
        moderator hear of a mail set aside."""
        try:
            if read is not None:
                game_id, player, token = read.who
                seat = self.referee.seat(game_id, player, token)
                if seat is not None:
                    t = translations(seat["language"])
                    self.notifier.system_mail(
                        seat["email"], t.gettext("[{game}] Your mail is kept for the moderator").format(game=game_id),
                        textwrap.fill(t.gettext(SET_ASIDE), 88) + "\n",
                        in_reply_to=read.mail.message_id, serial=f"aside.{_digest(read.mail.message_id, read.raw)}",
                        language=seat["language"])
            moderator = self.settings.moderator_email
            if moderator:
                self.notifier.system_mail(
                    moderator, f"Mail set aside: {key}",
                    f"A mail could not be processed and was set aside:\n\n    {key}\n    {reason}\n\n"
                    f"`referee spool` lists the mail set aside; once the cause is mended,\n"
                    f"`referee spool requeue {key}` processes it again.\n",
                    in_reply_to=None, serial=f"aside.{key}")
        except Exception:
            log.exception("the answers about mail %s set aside could not be queued", key)


@dataclass(frozen=True)
class IdentifiedMail:
    """A parsed mail from an identified player, waiting for its game."""

    raw: bytes
    mail: InboundMail
    who: tuple[str, str, str]  # game id, player, token
    command: tuple[str, str] | None
    press: Any = None  # the table talk of a PRESS mail (mailer/daemon/press_lines.py)

    def phase_key(self) -> str | None:
        """The phase an ORDERS block's tag names, when it names this game: the player's own
        block, or else the quoted one they may have typed their orders into."""
        own = phase_key_of(self.mail.orders_tag, self.who[0])
        if own is None and self.mail.quoted_blocks:
            return phase_key_of(self.mail.quoted_blocks[0].tag, self.who[0])
        return own

    def submission(self) -> Submission:
        """The orders, to be read in the game's unit of work (mailer/daemon/reading.py)."""
        game_id, player, token = self.who
        return Submission(player, self.mail.orders_text, token=token, message_id=self.mail.message_id,
                          phase_key=self.phase_key(), source="mail", in_reply_to=self.mail.message_id,
                          reader=MailReading(self.mail, game_id))


def _digest(message_id: str | None, raw: bytes) -> str:
    """A stable short id for an answer, so a re-processed mail gets the same Message-ID."""
    return hashlib.sha256((message_id or "").encode("utf-8") + raw).hexdigest()[:16]
