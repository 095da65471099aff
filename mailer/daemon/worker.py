"""The worker: spooled mail in, orders submitted, answers queued.

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
import re
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, TypeVar

from mailer.inbound.addresses import KnownGames, parse_plus_address
from mailer.inbound.directory import PlayerAddresses
from mailer.inbound.message import InboundMail, parse_message
from mailer.inbound.spool import Spool
from mailer.outbound.notifier import MailNotifier
from mailer.outbound.reports import MAIL_COMMANDS
from mailer.safe_headers import sanitise_header
from referee.config import Settings
from referee.receipts import ACCEPTED, DUPLICATE, REJECTED, Receipt
from referee.rendering import plural
from referee.service import Referee, ServiceError, Submission
from referee.store import GameFileBroken, GameNotFound, StoreBusy, remember_existing

from .refusals import RefusalBook

log = logging.getLogger("referee.worker")

REFUSAL = (
    "This mail could not be matched to a player of a game run here, so nothing was done.\n\n"
    "To send orders, reply to the latest report you received from the referee (its reply\n"
    "address identifies you), or write to the game's address and put this line in the mail:\n\n"
    "    PLAYER <your name> <your token>\n"
)


_SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|fwd?|wg|tr)\s*:\s*|\[[^\]]*\]\s*)+", re.IGNORECASE)
PARALLEL_GAMES = 4
_T = TypeVar("_T")
MAX_UNREAD_SHOWN = 10
COMMANDS = {"STATUS": 0, "HELP": 0, "VACATION": 1, "TIMEZONE": 1}  # how many words must follow
# Errors that say something about the machine or about one game's file, not about the mail:
# a full disk, an I/O error, a permission, a lock held too long, a damaged game file. Such a
# mail stays in the spool and is tried again after a wait that doubles up to RETRY_MAX.
PASSING = (OSError, MemoryError, StoreBusy, GameNotFound, GameFileBroken)
RETRY_FIRST = 1.0
RETRY_MAX = 300.0

SET_ASIDE = (
    "Your mail could not be processed because of a fault on the referee's side, so nothing\n"
    "in it has been done yet. It is kept, and the moderator has been told; once the fault is\n"
    "mended the mail is processed and answered as usual. You need not send it again.\n"
)


def mail_command(mail: InboundMail) -> tuple[str, str] | None:
    """A mail command (name, argument): a first body line, or else a subject, that is just
    STATUS, HELP, VACATION ... or TIMEZONE ...; never in a mail with an ORDERS block."""
    if mail.orders_from_block:
        return None
    lines = _text_lines(mail)
    for candidate in ([lines[0]] if lines else []) + [_SUBJECT_PREFIX.sub("", mail.subject)]:
        words = candidate.split()
        if not words:
            continue
        name = words[0].upper().rstrip(":")
        if name == "TZ":
            name = "TIMEZONE"
        if name in COMMANDS and (len(words) > 1) == bool(COMMANDS[name]):
            return name, " ".join(words[1:])
        if lines:  # a first body line that is not a command: these are orders
            return None
    return None


def lines_after_command(mail: InboundMail) -> list[str]:
    """What follows a command given on a mail's first line: never read, so the player is told
    (someone who writes STATUS above their orders would otherwise wait for a receipt)."""
    return _text_lines(mail)[1:]


def _text_lines(mail: InboundMail) -> list[str]:
    """The non-blank lines of the mail's own text, stripped, as commands are looked for."""
    return [line.strip() for line in mail.orders_text.splitlines() if line.strip()]


def _unread(name: str, rest: list[str]) -> str:
    shown = [sanitise_header(line, 100) for line in rest[:MAX_UNREAD_SHOWN]]
    more = f"\n    ... and {len(rest) - len(shown)} more" if len(rest) > len(shown) else ""
    return (f"Your mail began with {name}, so it was read as that command alone. "
            f"{plural(len(rest), 'line')} after it {'was' if len(rest) == 1 else 'were'} not read, "
            f"and no orders were taken from this mail:\n\n" + "\n".join(f"    {line}" for line in shown)
            + more + "\n\nSend orders in a mail of their own.\n")


def command_summary() -> str:
    return "\n".join(f"    {name:<24} {what}" for name, what in MAIL_COMMANDS)


@dataclass(frozen=True)
class Handled:
    outcome: str  # accepted, rejected, refused, duplicate, unmatched, ignored
    detail: str = ""
    game: str | None = None
    player: str | None = None


_GONE = Handled("gone", "filed by another worker on the spool")


class MailWorker:
    def __init__(self, referee: Referee, notifier: MailNotifier, settings: Settings,
                 game_exists: Callable[[str], bool] | None = None) -> None:
        self.referee = referee
        self.notifier = notifier
        self.settings = settings
        self.game_exists = remember_existing(game_exists or referee.store.exists)
        self.parallel = PARALLEL_GAMES
        self.players = PlayerAddresses(referee.store.games_dir)
        self.refusals = RefusalBook(notifier.system_outbox.store.root / "refusals.json",
                                    settings.limits.refusals_per_sender_per_hour, notifier.clock)
        self.clock: Callable[[], float] = time.monotonic
        self._retries: dict[str, tuple[int, float, str | None]] = {}  # spool key: failed tries, next try, game
        self._kept: Counter[str] = Counter()  # this pass: why mail was kept for a later try
        self._guard = threading.Lock()  # games are worked on in several threads

    @property
    def kept(self) -> int:
        """How many mails are waiting in the spool for a later try after an error that passes."""
        return len(self._retries)

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

    def _valid_game(self, game_id: str) -> bool:
        try:
            return self.game_exists(game_id)
        except Exception:
            return False

    def handle(self, raw: bytes) -> Handled:
        """Process one message."""
        read = self._read(raw)
        return read if isinstance(read, Handled) else self._dispatch(read)

    def _dispatch(self, read: "_Read") -> Handled:
        """A mail command, or one submission on its own."""
        if read.command is not None:
            return self._command(read.mail, read.raw, *read.who, *read.command)
        return self._answer(read, self.referee.submit_many(read.who[0], [read.submission()])[0])

    def _take(self, spool: Spool, key: str) -> "_Read | Handled":
        """Read a spooled mail; `_GONE` when another worker on the spool has filed it since."""
        try:
            raw = spool.read(key)
        except FileNotFoundError:
            if not spool.has(key):
                return _GONE
            raise
        return self._read(raw)

    def _read(self, raw: bytes) -> "_Read | Handled":
        """Parse and identify; what needs no game (automatic mail, strangers) is done here."""
        mail = parse_message(raw)
        if mail.is_automatic:
            return Handled("ignored", f"automatic mail ({mail.automatic_reason})")
        if not mail.sender:
            return Handled("ignored", "no usable sender address to answer")
        if mail.sender.lower().rpartition("@")[2] == self.settings.hostname.lower():
            return Handled("ignored", "mail from one of our own addresses (a loop)")
        who = self._identify(mail)
        if who is None or not self._valid_game(who[0]):
            return Handled("unmatched", f"no game and player token found; {self._refuse(mail)}")
        return _Read(raw, mail, who, mail_command(mail))

    def _answer(self, read: "_Read", receipt: Receipt) -> Handled:
        """What follows a submission's receipt: the accepted receipt is already queued with the
        turn; a refusal or rejection is answered from the system outbox."""
        mail, raw = read.mail, read.raw
        game_id, player, token = read.who
        if receipt.status == ACCEPTED:
            return Handled(ACCEPTED, game=game_id, player=player)
        if receipt.status == DUPLICATE:
            return Handled(DUPLICATE, game=game_id, player=player)
        seat = self.referee.seat(game_id, player, token)
        if seat is None:  # wrong token or unknown player: answer the sender, reveal nothing
            return Handled("refused", f"bad token; {self._refuse(mail)}", game_id, player)
        phase_key = read.phase_key()
        subject = f"[{game_id}] Orders not accepted"
        if phase_key is not None and receipt.phase and receipt.phase.get("key") != phase_key:
            subject = f"[{game_id}] Too late: phase {phase_key} is closed, {receipt.phase['key']} is open"
        self.notifier.system_mail(
            seat["email"], subject, receipt.render(),
            in_reply_to=mail.message_id, serial=f"{game_id}.{player}.{_digest(mail.message_id, raw)}")
        return Handled(receipt.status if receipt.status == REJECTED else "refused", receipt.reason, game_id, player)

    def _command(self, mail: InboundMail, raw: bytes, game_id: str, player: str, token: str,
                 name: str, argument: str) -> Handled:
        """STATUS and HELP are answered with mail; VACATION and TIMEZONE change the seat and
        are confirmed. Identity is checked exactly as for orders."""
        serial = f"{player}.{_digest(mail.message_id, raw)}"
        rest = lines_after_command(mail)
        try:
            if name in ("STATUS", "HELP"):
                self.referee.request(game_id, player, name.lower(), token=token, in_reply_to=mail.message_id,
                                     serial=serial)
            elif name == "VACATION":
                self.referee.vacation(game_id, player, argument, token=token, source="mail",
                                      message_id=mail.message_id)
            else:
                self.referee.set_timezone(game_id, player, argument, token=token, source="mail",
                                          in_reply_to=mail.message_id, serial=serial, message_id=mail.message_id)
        except ServiceError as exc:
            seat = self.referee.seat(game_id, player, token)
            if seat is None:
                return Handled("refused", f"bad token; {self._refuse(mail)}", game_id, player)
            self.notifier.system_mail(
                seat["email"], f"[{game_id}] {name} not done",
                f"Your {name} could not be done: {exc}\n\nNothing was changed. The mail commands are:\n\n"
                f"{command_summary()}\n" + (f"\n{_unread(name, rest)}" if rest else ""),
                in_reply_to=mail.message_id, serial=f"{game_id}.{serial}")
            return Handled("rejected", f"{name}: {exc}", game_id, player)
        if rest:
            seat = self.referee.seat(game_id, player, token)
            if seat is not None:
                self.notifier.system_mail(seat["email"], f"[{game_id}] Only {name} was done", _unread(name, rest),
                                          in_reply_to=mail.message_id, serial=f"{game_id}.{serial}.rest")
        return Handled("command", name, game_id, player)

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
        return "not answered: answered lately" if player else "not answered: the sender is in no game"

    def run_once(self, spool: Spool) -> list[Handled]:
        """Process every spooled message once; a busy store leaves the message for later.

        Mail is taken per game in arrival order, and a run of orders to one game is submitted
        in one unit of work (one read and one write of the game's file). Games are
        independent, so several are worked on at once (`parallel` threads): most of a unit of
        work's time is spent waiting for the disk to confirm its write, and the waits overlap.

        A mail whose work fails with an error that passes (PASSING) stays in the spool and is
        tried again after a wait; one that fails otherwise is set aside (`_failed`)."""
        done: dict[str, Handled] = {}
        try:
            listed = list(spool.keys())
        except OSError as exc:
            log.error("the spool cannot be listed (%s); trying again at the next pass", exc)
            return []
        now = self.clock()
        present = set(listed)
        with self._guard:
            self._retries = {key: entry for key, entry in self._retries.items() if key in present}
            keys = [key for key in listed if self._retries.get(key, (0, 0.0, None))[1] <= now]
            held: dict[str, str] = {}  # a game's oldest mail still waiting: its later mail waits too
            for key in listed:
                tries, after, game = self._retries.get(key, (0, 0.0, None))
                if after > now and game is not None:
                    held.setdefault(game, key)
        games: dict[str, list[tuple[str, _Read]]] = {}
        for key in keys:
            read = self._attempt(spool, key, done, lambda key=key: self._take(spool, key))
            if read is None:
                continue
            if read is _GONE:  # taken and filed by another worker on this spool since it was listed
                continue
            if isinstance(read, Handled):
                self._file(spool, key, done, read)
            elif read.who[0] not in held or key < held[read.who[0]]:  # a game's mail in arrival order
                games.setdefault(read.who[0], []).append((key, read))
        if len(games) > 1 and self.parallel > 1:
            with ThreadPoolExecutor(min(self.parallel, len(games)), thread_name_prefix="worker") as pool:
                for finished in [pool.submit(self._game_apart, spool, game_id, mails, done)
                                 for game_id, mails in games.items()]:
                    finished.result()
        else:
            for game_id, mails in games.items():
                self._game_apart(spool, game_id, mails, done)
        self._report_kept()
        return [done[key] for key in keys if key in done]  # in arrival order

    def _game_apart(self, spool: Spool, game_id: str, mails: list[tuple[str, "_Read"]],
                    done: dict[str, Handled]) -> None:
        """One game's mail; whatever goes wrong stays with this game's mail."""
        try:
            self._game(spool, game_id, mails, done)
        except Exception as exc:  # every step is guarded; this is the last line of defence
            log.exception("the mail of game %s could not be worked on", game_id)
            for key, _ in mails:
                if key not in done:
                    self._later(key, exc, game_id)

    def _game(self, spool: Spool, game_id: str, mails: list[tuple[str, "_Read"]], done: dict[str, Handled]) -> None:
        """One game's mail, in order: runs of orders together, commands alone."""
        i = 0
        while i < len(mails):
            run = [mails[i]]
            while mails[i][1].command is None and i + len(run) < len(mails) \
                    and mails[i + len(run)][1].command is None:
                run.append(mails[i + len(run)])
            i += len(run)
            if len(run) > 1 and self._submit_run(spool, game_id, run, done):
                continue
            for key, read in run:  # alone, so that one bad mail cannot hold up the others
                self._one(spool, key, read, done)

    def _submit_run(self, spool: Spool, game_id: str, run: list[tuple[str, "_Read"]],
                    done: dict[str, Handled]) -> bool:
        """Submit a run of orders together; False when it failed and must be done one by one."""
        try:
            receipts = self.referee.submit_many(game_id, [read.submission() for _, read in run])
        except PASSING as exc:
            for key, _ in run:  # the mail stays in the spool for a later pass
                self._later(key, exc, game_id)
            return True
        except Exception:
            log.info("a batch of %d mails to %s failed; taking them one by one", len(run), game_id)
            return False
        finally:
            self._flush_marks()
        for (key, read), receipt in zip(run, receipts):
            self._settle(spool, key, done, lambda read=read, receipt=receipt: self._answer(read, receipt), read)
        return True

    def _one(self, spool: Spool, key: str, read: "_Read", done: dict[str, Handled]) -> None:
        self._settle(spool, key, done, lambda: self._dispatch(read), read)

    def _settle(self, spool: Spool, key: str, done: dict[str, Handled], work: Callable[[], Handled],
                read: "_Read | None" = None) -> None:
        """Do the rest of one mail's work and file the mail as done (or as `_attempt` says)."""
        handled = self._attempt(spool, key, done, work, read)
        if handled is not None:
            self._file(spool, key, done, handled)

    def _file(self, spool: Spool, key: str, done: dict[str, Handled], handled: Handled) -> None:
        """Move a mail whose work is done to cur/. If that fails the mail stays in new/ and is
        read again later: its Message-ID is recorded with its effect, so nothing is done twice."""
        try:
            spool.done(key, "S")
        except OSError as exc:
            if not (isinstance(exc, FileNotFoundError) and not spool.has(key)):
                self._later(key, exc, handled.game)
                return
            # another worker on this spool did the same work and filed it first; the mail's
            # Message-ID made its second submission a duplicate, so nothing was done twice
        with self._guard:
            self._retries.pop(key, None)
        done[key] = handled

    def _attempt(self, spool: Spool, key: str, done: dict[str, Handled], work: Callable[[], _T],
                 read: "_Read | None" = None) -> _T | None:
        """Run one step of a mail's work. None when it did not finish: the mail is left for a
        later pass when the error passes (PASSING; a mail processed again is recognised by
        its Message-ID), and set aside on any other error."""
        try:
            return work()
        except PASSING as exc:
            self._later(key, exc, read.who[0] if read is not None else None)
            return None
        except Exception as exc:
            self._failed(spool, key, exc, done, read)
            return None
        finally:
            self._flush_marks()

    def _flush_marks(self) -> None:
        try:
            self.notifier.flush_marks()
        except OSError as exc:  # the notifier keeps the games and marks them at its next flush
            log.warning("outgoing mail could not be marked for sending yet: %s", exc)

    def _later(self, key: str, exc: BaseException, game: str | None = None) -> None:
        """Keep a mail in the spool and try it again after a wait that doubles each time; the
        later mail of its game (when known) waits for it, so that a game's mail is still
        taken in the order it arrived."""
        with self._guard:
            tries = self._retries.get(key, (0, 0.0, None))[0] + 1
            wait = min(RETRY_FIRST * 2 ** min(tries - 1, 30), RETRY_MAX)
            self._retries[key] = (tries, self.clock() + wait, game)
            self._kept[_why(exc)] += 1

    def _report_kept(self) -> None:
        """One line per kind of trouble per pass, however many mails it holds back."""
        with self._guard:
            kept, self._kept = self._kept, Counter()
        for why, count in kept.items():
            log.warning("%d mail(s) kept in the spool to be tried again later: %s", count, why)

    def _failed(self, spool: Spool, key: str, exc: Exception, done: dict[str, Handled],
                read: "_Read | None" = None) -> None:
        """Never lose the mail, never stop the daemon. When the mail's game cannot be worked on
        at all, the game is at fault and the mail waits for it; otherwise the mail itself
        cannot be processed: it is set aside (`referee spool`), its sender is told when they
        are a known player, and the moderator is told."""
        if read is not None and not self._game_works(read.who[0]):
            log.error("game %s cannot be worked on; its mail waits in the spool", read.who[0], exc_info=exc)
            self._later(key, exc, read.who[0])
            return
        reason = f"{type(exc).__name__}: {exc}"[:300]
        game, player = (read.who[0], read.who[1]) if read is not None else (None, None)
        try:
            spool.set_aside(key, reason, game=game, player=player)
        except OSError as trouble:  # not even that: keep it where it is
            self._later(key, trouble, game)
            return
        with self._guard:
            self._retries.pop(key, None)
        log.error("mail %s set aside: %s; `referee spool` lists it and `referee spool requeue %s` "
                  "processes it again", key, reason, key, exc_info=exc)
        done[key] = Handled("error", f"set aside: {reason}", game, player)
        self._tell_set_aside(key, reason, read)

    def _game_works(self, game_id: str) -> bool:
        try:
            self.referee.status(game_id)
        except Exception:
            return False
        return True

    def _tell_set_aside(self, key: str, reason: str, read: "_Read | None") -> None:
        """The player (only one whose token is right: nobody else is told anything) and the
        moderator hear of a mail set aside."""
        try:
            if read is not None:
                game_id, player, token = read.who
                seat = self.referee.seat(game_id, player, token)
                if seat is not None:
                    self.notifier.system_mail(
                        seat["email"], f"[{game_id}] Your mail is kept for the moderator", SET_ASIDE,
                        in_reply_to=read.mail.message_id, serial=f"aside.{_digest(read.mail.message_id, read.raw)}")
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


def _why(exc: BaseException) -> str:
    """A short, stable description of an error that passes, for the pass's summary line."""
    return f"{type(exc).__name__}: {exc}"[:200]


@dataclass(frozen=True)
class _Read:
    """A parsed mail from an identified player, waiting for its game."""

    raw: bytes
    mail: InboundMail
    who: tuple[str, str, str]  # game id, player, token
    command: tuple[str, str] | None

    def phase_key(self) -> str | None:
        """The phase an ORDERS block's tag names, when it names this game."""
        words = (self.mail.orders_tag or "").split()
        if len(words) >= 2 and words[0].lower() == self.who[0]:
            return words[1]
        return None

    def submission(self) -> Submission:
        _, player, token = self.who
        return Submission(player, self.mail.orders_text, token=token, message_id=self.mail.message_id,
                          phase_key=self.phase_key(), source="mail", in_reply_to=self.mail.message_id)


def _digest(message_id: str | None, raw: bytes) -> str:
    """A stable short id for an answer, so a re-processed mail gets the same Message-ID."""
    return hashlib.sha256((message_id or "").encode("utf-8") + raw).hexdigest()[:16]
