"""Where outgoing mail goes: a real SMTP relay, or a capture Maildir for development.

The capture Maildir names each file after the mail's Message-ID, so delivering the same mail
twice (after a crash between "sent" and "marked sent") leaves one file: exactly once.
"""

from __future__ import annotations

import hashlib
import smtplib
import socket
import ssl
from pathlib import Path
from typing import Protocol, Sequence
from urllib.parse import urlsplit

from .spool import _fsync_dir
from referee.storage import write_atomically


class RelayError(Exception):
    temporary = True


class TemporaryRelayError(RelayError):
    temporary = True


class PermanentRelayError(RelayError):
    temporary = False


class Relay(Protocol):
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
            _fsync_dir(self.root / "new")
        except OSError as exc:
            raise TemporaryRelayError(f"cannot write to {self.root}: {exc}") from exc


class SMTPRelay:
    """Submits to an SMTP server; 4xx and connection trouble are temporary, 5xx permanent."""

    def __init__(self, host: str, port: int, *, use_tls: bool = False, user: str = "",
                 password: str = "", timeout: float = 30.0, local_hostname: str = "localhost") -> None:
        self.host, self.port = host, port
        self.use_tls, self.user, self.password = use_tls, user, password
        self.timeout, self.local_hostname = timeout, local_hostname

    def deliver(self, raw: bytes, mail_from: str, recipients: Sequence[str], message_id: str) -> None:
        try:
            if self.use_tls:
                client: smtplib.SMTP = smtplib.SMTP_SSL(
                    self.host, self.port, timeout=self.timeout, local_hostname=self.local_hostname,
                    context=ssl.create_default_context())
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout, local_hostname=self.local_hostname)
            with client:
                if self.user:
                    if not self.use_tls:
                        client.starttls(context=ssl.create_default_context())
                    client.login(self.user, self.password)
                refused = client.sendmail(mail_from, list(recipients), raw)
        except smtplib.SMTPRecipientsRefused as exc:
            raise _classify(min(code for code, _ in exc.recipients.values()), str(exc.recipients)) from exc
        except smtplib.SMTPResponseException as exc:
            raise _classify(exc.smtp_code, exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)) from exc
        except (smtplib.SMTPException, OSError, socket.timeout) as exc:
            raise TemporaryRelayError(f"relay {self.host}:{self.port} unreachable: {exc}") from exc
        if refused:
            raise PermanentRelayError(f"relay refused some recipients: {refused}")


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
