"""Where outgoing mail goes: a real SMTP relay, or a capture Maildir for development.

The capture Maildir names each file after the mail's Message-ID, so delivering the same mail
twice (after a crash between "sent" and "marked sent") leaves one file: exactly once.
"""

from __future__ import annotations

import hashlib
import smtplib
import ssl
from pathlib import Path
from typing import Protocol, Sequence
from urllib.parse import urlsplit

from referee.storage import fsync_dir, write_atomically


class RelayError(Exception):
    temporary = True


class TemporaryRelayError(RelayError):
    temporary = True


class PermanentRelayError(RelayError):
    temporary = False


class Relay(Protocol):
    """Where mail goes. A relay may also offer `session()`: an object with the same `deliver`
    and a `close()`, which keeps its connection for the mails that follow."""

    def deliver(self, raw: bytes, mail_from: str, recipients: Sequence[str], message_id: str) -> None: ...


class MaildirRelay:
    """Writes each mail into `<root>/new/`, one file per Message-ID."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        for sub in ("tmp", "new", "cur"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)

    def deliver(self, raw: bytes, mail_from: str, recipients: Sequence[str], message_id: str) -> None:
        name = hashlib.sha256(message_id.encode("utf-8")).hexdigest()[:32]
        envelope = f"Return-Path: <{mail_from}>\r\n".encode() + b"".join(
            f"Delivered-To: {r}\r\n".encode() for r in recipients
        )
        try:
            write_atomically(self.root / "new" / name, envelope + raw)
            fsync_dir(self.root / "new")
        except OSError as exc:
            raise TemporaryRelayError(f"cannot write to {self.root}: {exc}") from exc


class SMTPRelay:
    """Submits to an SMTP server; 4xx and connection trouble are temporary, 5xx permanent.

    `deliver` uses a connection for one mail; `session()` gives a connection that is kept
    for the mails that follow, as the sender's connections do."""

    def __init__(self, host: str, port: int, *, use_tls: bool = False, user: str = "",
                 password: str = "", timeout: float = 30.0, local_hostname: str = "localhost") -> None:
        self.host, self.port = host, port
        self.use_tls, self.user, self.password = use_tls, user, password
        self.timeout, self.local_hostname = timeout, local_hostname

    def session(self) -> "SMTPSession":
        return SMTPSession(self)

    def deliver(self, raw: bytes, mail_from: str, recipients: Sequence[str], message_id: str) -> None:
        session = self.session()
        try:
            session.deliver(raw, mail_from, recipients, message_id)
        finally:
            session.close()

    def connect(self) -> smtplib.SMTP:
        """A logged-in connection; raises TemporaryRelayError or PermanentRelayError."""
        client: smtplib.SMTP | None = None
        try:
            if self.use_tls:
                client = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout,
                                          local_hostname=self.local_hostname, context=ssl.create_default_context())
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout, local_hostname=self.local_hostname)
            client.ehlo_or_helo_if_needed()
            if self.user:
                if not self.use_tls:
                    client.starttls(context=ssl.create_default_context())
                    client.ehlo()
                client.login(self.user, self.password)
            return client
        except BaseException as exc:
            if client is not None:
                _close(client)
            if isinstance(exc, Exception):
                raise _relay_error(exc, self) from exc
            raise


class SMTPSession:
    """One connection to the relay, used for one mail after another.

    A connection the relay closed while it sat idle is noticed at the MAIL command, before
    anything is handed over, and opened again once. Trouble after that point (the relay may
    or may not have taken the mail) is a temporary error and the connection is dropped; so is
    any refusal, after which the relay is asked to forget the transaction (RSET)."""

    MAILS_PER_CONNECTION = 100  # then a fresh connection, as relays limit what one may carry

    def __init__(self, relay: SMTPRelay) -> None:
        self.relay = relay
        self.client: smtplib.SMTP | None = None
        self.carried = 0

    def deliver(self, raw: bytes, mail_from: str, recipients: Sequence[str], message_id: str) -> None:
        if self.client is not None and self.carried >= self.MAILS_PER_CONNECTION:
            self.close()
        for fresh in ((False, True) if self.client is not None else (True,)):
            if fresh:
                self.client = self.relay.connect()
                self.carried = 0
            client = self.client
            assert client is not None
            try:
                options = [f"size={len(raw)}"] if client.has_extn("size") else []
                code, answer = client.mail(mail_from, options)
            except (smtplib.SMTPServerDisconnected, OSError) as exc:
                self.close()
                if fresh:
                    raise _relay_error(exc, self.relay) from exc
                continue  # the relay had closed the idle connection: nothing was handed over
            if code == 421 and not fresh:  # the relay is closing the idle connection
                self.close()
                continue
            break
        try:
            if code != 250:
                raise _classify(code, _text(answer))
            refused = {}
            for recipient in recipients:
                code, answer = client.rcpt(recipient)
                if code not in (250, 251):
                    refused[recipient] = (code, _text(answer))
            if len(refused) == len(recipients):
                raise _classify(min(code for code, _ in refused.values()), str(refused))
            code, answer = client.data(raw)
            if code != 250:
                raise _classify(code, _text(answer))
        except RelayError:
            self._forget()
            raise
        except smtplib.SMTPResponseException as exc:  # DATA not taken (smtplib raises for it)
            self._forget()
            raise _classify(exc.smtp_code, _text(exc.smtp_error)) from exc
        except (smtplib.SMTPException, OSError) as exc:
            self.close()
            raise _relay_error(exc, self.relay) from exc
        self.carried += 1
        if refused:
            raise PermanentRelayError(f"relay refused some recipients: {refused}")

    def _forget(self) -> None:
        """After a refusal: RSET, or a fresh connection next time if even that fails."""
        try:
            if self.client is not None:
                self.client.rset()
        except (smtplib.SMTPException, OSError):
            self.close()

    def close(self) -> None:
        if self.client is not None:
            _close(self.client)
            self.client = None


def _close(client: smtplib.SMTP) -> None:
    try:
        client.quit()
    except (smtplib.SMTPException, OSError):
        client.close()


def _text(answer: bytes | str) -> str:
    return answer.decode("utf-8", "replace") if isinstance(answer, bytes) else str(answer)


def _relay_error(exc: Exception, relay: SMTPRelay) -> RelayError:
    if isinstance(exc, RelayError):
        return exc
    if isinstance(exc, smtplib.SMTPResponseException):
        return _classify(exc.smtp_code, _text(exc.smtp_error))
    return TemporaryRelayError(f"relay {relay.host}:{relay.port} unreachable: {exc}")


def _classify(code: int, text: str) -> RelayError:
    if 400 <= code < 500:
        return TemporaryRelayError(f"{code} {text}")
    return PermanentRelayError(f"{code} {text}")


def relay_from_url(url: str, *, user: str = "", password: str = "", local_hostname: str = "localhost") -> Relay:
    """`maildir:PATH`, `smtp://host:port` or `smtps://host:port`."""
    if url.startswith("maildir:"):
        return MaildirRelay(url[len("maildir:"):])
    parts = urlsplit(url)
    if parts.scheme in ("smtp", "smtps") and parts.hostname:
        default_port = 465 if parts.scheme == "smtps" else 25
        return SMTPRelay(parts.hostname, parts.port or default_port, use_tls=parts.scheme == "smtps",
                         user=user, password=password, local_hostname=local_hostname)
    raise ValueError(f"relay {url!r} must be maildir:PATH, smtp://host:port or smtps://host:port")
