"""The inbound SMTP server: check recipients, spool the raw bytes, answer. Nothing else.

Parsing, authentication and the rules all happen in the worker, off the event loop, so a
slow game never holds up an SMTP conversation and a crash never loses an accepted mail.
Overload is signalled the SMTP way: a 4xx answer makes the sending server retry later.
"""

from __future__ import annotations

import asyncio
import logging
import time
from email._header_value_parser import get_addr_spec, get_angle_addr
from email.errors import HeaderParseError
from functools import lru_cache
from typing import Callable

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from mailer.repeated import RepeatedLog, is_resource_error
from referee.config import Settings

from .journal import Journal
from .sender_limits import SenderRateLimit
from .spool import Spool

__all__ = ["IngestController", "IngestHandler", "IngestSMTP", "SenderRateLimit", "make_controller"]

log = logging.getLogger("referee.smtp")


def _clean(value: str) -> str:
    return "".join(ch for ch in value if ch.isprintable() and ch not in "\r\n<>")[:320]


class IngestHandler:
    """aiosmtpd handler. `is_known(address)` says whether a recipient is one of our game
    addresses; it must be cheap (it runs on the event loop). `valid_token(address)` says
    whether it is a tokenised reply address with the player's current token; it may read a
    game file, so it runs in a thread, and only when it matters: for a sender whose
    allowance is used up, and when the spool's unreserved part is full."""

    def __init__(self, spool: Spool, settings: Settings, is_known: Callable[[str], bool],
                 valid_token: Callable[[str], bool] | None = None) -> None:
        self.spool = spool
        self.settings = settings
        self.is_known = is_known
        self.valid_token = valid_token or (lambda address: False)
        limits = settings.limits
        self.rate = SenderRateLimit(limits.mails_per_sender_per_hour)
        self.player_rate = SenderRateLimit(limits.mails_per_sender_per_hour)  # mail to valid token addresses
        self.open_room = limits.max_spool_messages - limits.max_spool_messages * limits.spool_reserved_percent // 100
        self._pending, self._counted_at = 0, float("-inf")
        self.errors = RepeatedLog(log)
        self.journal = Journal(spool)
        self.journal.recover()  # what a crash left in the journal goes first

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, mail_options: list[str]) -> str:
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        """The sender's allowance is looked at only once the recipient is known to be ours:
        a sender who has used it up may still write to a player's valid token address, which
        has an allowance of its own (nobody else can use it up without the token)."""
        if len(envelope.rcpt_tos) >= self.settings.limits.max_recipients:
            return "452 4.5.3 Too many recipients"
        if not self.is_known(address):
            return "550 5.1.1 No such game or player address here"
        sender = envelope.mail_from or ""
        if sender and self.rate.full(sender) and not (
                await self._player_address(envelope, address) and not self.player_rate.full(sender)):
            return "450 4.7.1 Too many messages from this sender; try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def _player_address(self, envelope: Envelope, address: str) -> bool:
        """Whether `address` is a valid token address; remembered for the message."""
        checked: dict[str, bool] = envelope.__dict__.setdefault("player_addresses", {})
        if address not in checked:
            checked[address] = await asyncio.to_thread(self.valid_token, address)
        return checked[address]

    def _spool_count(self) -> int:
        """How many mails the spool holds. Counting the spool's directory on every message
        would cost more than storing it, so the count is taken once a second and the
        messages stored since are added to it; a count that reaches the reserved part is
        taken again at once (the worker may have taken mail meanwhile)."""
        now = time.monotonic()
        if now - self._counted_at > 1.0 or self._pending >= self.open_room:
            self._pending, self._counted_at = self.spool.pending(), now
        return self._pending

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        count, sender = self._spool_count(), envelope.mail_from or ""
        players_only = [await self._player_address(envelope, rcpt) for rcpt in envelope.rcpt_tos] \
            if count >= self.open_room or (sender and self.rate.full(sender)) else []
        if count >= self.settings.limits.max_spool_messages or (count >= self.open_room and not all(players_only)):
            return "452 4.3.1 Too much mail waiting; try again later"
        raw = envelope.original_content or b""
        clean = _clean(sender)
        copies = [f"Return-Path: <{clean}>\r\nDelivered-To: {_clean(rcpt)}\r\n".encode("utf-8") + raw
                  for rcpt in envelope.rcpt_tos]
        try:
            await self.journal.store(copies)
        except OSError as exc:
            self.errors.error(f"store {exc.errno}", f"cannot store a message: {exc}")
            return "451 4.3.0 Cannot store the message now; try again later"
        self._pending += len(copies)
        if sender:
            limit = self.player_rate if players_only and all(players_only) and self.rate.full(sender) else self.rate
            limit.count(sender)
        return "250 2.0.0 Queued"

    async def handle_exception(self, error: Exception) -> str:
        kind = f"session {type(error).__name__} {getattr(error, 'errno', '')}"
        self.errors.error(kind, f"SMTP session failed: {type(error).__name__}: {error}",
                          level=logging.ERROR if is_resource_error(error) else logging.WARNING)
        return "451 4.3.0 Temporary problem; try again later"

    def loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        """The event loop's own errors: running out of descriptors makes every accept fail,
        and asyncio would log each with a traceback; these are counted instead."""
        error = context.get("exception")
        if is_resource_error(error):
            self.errors.error(f"loop {error.errno}", f"{context.get('message', 'event loop')}: {error}")  # type: ignore[union-attr]
        else:
            loop.default_exception_handler(context)

    def __dir__(self) -> list[str]:
        """Only the hooks: aiosmtpd lists a handler's names for every connection to find them
        (see IngestSMTP)."""
        return list(_HANDLER_HOOKS)


_HANDLER_HOOKS = sorted(name for name in dir(IngestHandler) if name.startswith("handle_"))


# The only attributes aiosmtpd looks up by listing a session's names (see IngestSMTP).
_SESSION_METHODS = sorted(name for name in dir(SMTP) if name.startswith(("auth_", "smtp_")))


@lru_cache(maxsize=1024)
def _envelope_address(arg: str) -> tuple[str | None, str | None]:
    """An address from MAIL FROM or RCPT TO and the text after it, parsed as aiosmtpd does:
    ("", "") when there is none, (None, None) when it cannot be read. Players write from the
    same few addresses, so the answers are kept."""
    if not arg:
        return "", ""
    try:
        address, rest = (get_angle_addr if arg.lstrip().startswith("<") else get_addr_spec)(arg)
    except HeaderParseError:
        return None, None
    return address.addr_spec, rest


class IngestSMTP(SMTP):
    """aiosmtpd's SMTP session (version 1.4), without two costs it pays for every connection,
    which together came to a quarter of the SMTP process's processor time under load: finding
    its AUTH and command methods and the handler's hooks by listing and reading every
    attribute of the new session and of the handler (both now list only what is looked for),
    and defining a class each time it reads an address. The methods and hooks found, and the
    addresses read, are the same as aiosmtpd's own (tests/mailer/inbound/test_smtp_server.py)."""

    def __dir__(self) -> list[str]:
        return list(_SESSION_METHODS)

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        address, rest = _envelope_address(arg)
        if address and self.local_part_limit and len(address.rpartition("@")[0]) > self.local_part_limit:
            return None, None
        return address, rest


class IngestController(Controller):
    """aiosmtpd's threaded server, with the handler's journal open while it runs."""

    handler: IngestHandler

    def factory(self) -> SMTP:
        return IngestSMTP(self.handler, **self.SMTP_kwargs)

    def start(self) -> None:
        self.loop.set_exception_handler(self.handler.loop_exception)
        self.handler.journal.start()
        try:
            super().start()
        except BaseException:
            self.handler.journal.close()
            raise

    def stop(self, no_assert: bool = False) -> None:
        try:
            super().stop(no_assert)
        finally:
            self.handler.journal.close()
            self.handler.errors.flush(everything=True)


def make_controller(handler: IngestHandler, settings: Settings, *, port: int | None = None) -> IngestController:
    """A threaded aiosmtpd server with the limits from the settings."""
    limits = settings.limits
    return IngestController(
        handler,
        hostname=settings.listen_host,
        port=settings.listen_port if port is None else port,
        server_hostname=settings.hostname,  # avoids a blocking getfqdn() at start
        data_size_limit=limits.max_message_bytes,
        enable_SMTPUTF8=True,
        decode_data=False,
        timeout=limits.smtp_timeout_seconds,
        command_call_limit={"RCPT": limits.max_recipients + 5, "NOOP": 5, "*": limits.commands_per_session},
    )
