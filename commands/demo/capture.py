"""A capture mail server: an SMTP relay on loopback that files each mail into its recipient's
own Maildir instead of delivering it anywhere.

The daemon talks to it exactly as it talks to a real relay (`relay = "smtp://..."`), so
everything up to the network is the production path; only the last hop is local. Each known
recipient has a mailbox `<root>/<name>/` that any mail client or `mailbox.Maildir` can read;
mail for anyone else is refused at RCPT, which the outbox treats as a permanent failure.
"""

from __future__ import annotations

import asyncio
import mailbox
import threading
from pathlib import Path
from typing import Callable, Mapping

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


class CaptureHandler:
    """aiosmtpd handler. `boxes` maps a recipient address (any letter case) to a mailbox name;
    `on_delivery(name, raw)` runs after a mail is filed, so readers need not poll."""

    def __init__(self, root: str | Path, boxes: Mapping[str, str],
                 on_delivery: Callable[[str, bytes], None] | None = None) -> None:
        self.root = Path(root)
        self.boxes = {address.lower(): name for address, name in boxes.items()}
        self.on_delivery = on_delivery
        self._lock = threading.Lock()
        self.delivered = 0
        self.root.mkdir(parents=True, exist_ok=True)
        self._maildirs = {name: mailbox.Maildir(self.root / name, factory=None, create=True)
                          for name in set(self.boxes.values())}

    def path(self, name: str) -> Path:
        return self.root / name

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if address.lower() not in self.boxes:
            return "550 5.1.1 No mailbox here for that address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        try:
            await asyncio.to_thread(self._file, envelope.mail_from or "", list(envelope.rcpt_tos), raw)
        except OSError:
            return "451 4.3.0 Cannot file the message now; try again later"
        return "250 2.0.0 Filed"

    def _file(self, mail_from: str, recipients: list[str], raw: bytes) -> None:
        for rcpt in recipients:
            name = self.boxes[rcpt.lower()]
            trace = f"Return-Path: <{mail_from}>\r\nDelivered-To: {rcpt}\r\n".encode("utf-8")
            with self._lock:
                self._maildirs[name].add(trace + raw)
                self.delivered += 1
            if self.on_delivery is not None:
                self.on_delivery(name, raw)


def capture_server(handler: CaptureHandler, port: int, *, host: str = "127.0.0.1") -> Controller:
    """A threaded capture server; `start()` it, then point a relay URL at `host:port`."""
    return Controller(handler, hostname=host, port=port, server_hostname="capture.localhost",
                      decode_data=False, enable_SMTPUTF8=True)
