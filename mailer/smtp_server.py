"""The inbound SMTP server: check recipients, spool the raw bytes, answer. Nothing else.

Parsing, authentication and the rules all happen in the worker, off the event loop, so a
slow game never holds up an SMTP conversation and a crash never loses an accepted mail.
Overload is signalled the SMTP way: a 4xx answer makes the sending server retry later.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from email._header_value_parser import get_addr_spec, get_angle_addr
from email.errors import HeaderParseError
from functools import lru_cache
from typing import Callable

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from referee.config import Settings

from .journal import Journal
from .spool import Spool


class SenderRateLimit:
    """At most `limit` mails per sender address in a sliding hour."""

    def __init__(self, limit: int, window: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._seen: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, sender: str) -> bool:
        now = self.clock()
        seen = self._seen[sender.lower()]
        while seen and now - seen[0] > self.window:
            seen.popleft()
        if len(seen) >= self.limit:
            return False
        seen.append(now)
        return True


def _clean(value: str) -> str:
    return "".join(ch for ch in value if ch.isprintable() and ch not in "\r\n<>")[:320]


class IngestHandler:
    """aiosmtpd handler. `is_known(address)` says whether a recipient is one of our game
    addresses; it must be cheap (it runs on the event loop)."""

    def __init__(self, spool: Spool, settings: Settings, is_known: Callable[[str], bool]) -> None:
        self.spool = spool
        self.settings = settings
        self.is_known = is_known
        self.rate = SenderRateLimit(settings.limits.mails_per_sender_per_hour)
        self._pending, self._counted_at = 0, float("-inf")
        self.journal = Journal(spool)
        self.journal.recover()  # what a crash left in the journal goes first

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, mail_options: list[str]) -> str:
        if address and not self.rate.allow(address):
            return "450 4.7.1 Too many messages from this sender; try again later"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if len(envelope.rcpt_tos) >= self.settings.limits.max_recipients:
            return "452 4.5.3 Too many recipients"
        if not self.is_known(address):
            return "550 5.1.1 No such game or player address here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    def _spool_full(self) -> bool:
        """Whether the spool holds the most mail allowed. Counting the spool's directory on
        every message would cost more than storing it, so the count is taken once a second
        and the messages stored since are added to it; only a count that reaches the limit is
        checked again at once (the worker may have taken mail meanwhile)."""
        limit, now = self.settings.limits.max_spool_messages, time.monotonic()
        if now - self._counted_at > 1.0 or self._pending >= limit:
            self._pending, self._counted_at = self.spool.pending(), now
        return self._pending >= limit

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self._spool_full():
            return "452 4.3.1 Too much mail waiting; try again later"
        raw = envelope.original_content or b""
        sender = _clean(envelope.mail_from or "")
        copies = [f"Return-Path: <{sender}>\r\nDelivered-To: {_clean(rcpt)}\r\n".encode("utf-8") + raw
                  for rcpt in envelope.rcpt_tos]
        try:
            await self.journal.store(copies)
        except OSError:
            return "451 4.3.0 Cannot store the message now; try again later"
        self._pending += len(copies)
        return "250 2.0.0 Queued"

    def handle_exception(self, error: Exception) -> str:
        return "451 4.3.0 Temporary problem; try again later"

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
    addresses read, are the same as aiosmtpd's own (tests/mailserver/test_smtp_server.py)."""

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
