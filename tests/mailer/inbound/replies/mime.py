"""Bytes of a reply as a mail program writes them: headers, parts, charsets, transfer encodings."""

from __future__ import annotations

import base64
import hashlib
import quopri
from dataclasses import dataclass
from email.utils import formataddr, parseaddr

from .world import Report


@dataclass(frozen=True)
class Part:
    """One text part: its subtype, charset, transfer encoding and whether it is format=flowed."""

    text: str
    subtype: str = "plain"
    charset: str = "utf-8"
    cte: str = "quoted-printable"
    flowed: bool = False

    def encode(self) -> bytes:
        # a character the charset lacks becomes "?", as the clients that still label mail so do
        data = self.text.replace("\r\n", "\n").replace("\n", "\r\n").encode(self.charset, "replace")
        if self.cte == "quoted-printable":
            body = quopri.encodestring(data).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        elif self.cte == "base64":
            body = base64.encodebytes(data).replace(b"\n", b"\r\n")
        else:
            body = data
        params = f'; charset="{self.charset}"' + ('; format=flowed; delsp=no' if self.flowed else "")
        head = f"Content-Type: text/{self.subtype}{params}\r\nContent-Transfer-Encoding: {self.cte}\r\n\r\n"
        return head.encode("ascii") + body + (b"" if body.endswith(b"\r\n") else b"\r\n")


def reply(report: Report, parts: list[Part], *, sender: str = "Bob <bob@players.test>", client: str = "x",
          references: bool = True, extra: str = "", subject: str | None = None) -> bytes:
    """A reply to *report*: one part, or several as multipart/alternative (plain first); with
    *subject*, a mail of that subject (a forward) instead of "Re: " and the report's."""
    seed = hashlib.sha256(b"".join(p.encode() for p in parts) + client.encode()).hexdigest()[:16]
    name, address = parseaddr(sender)
    head = (f"From: {formataddr((name, address), 'utf-8')}\r\nTo: {report.reply_to}\r\n"
            f"Subject: {subject if subject is not None else 'Re: ' + report.subject}\r\n"
            f"Date: Tue, 3 Mar 2026 11:02:45 +0100\r\nMessage-ID: <{seed}@{client}.players.test>\r\n"
            "MIME-Version: 1.0\r\n")
    if references:
        head += f"In-Reply-To: {report.message_id}\r\nReferences: {report.message_id}\r\n"
    head += extra
    if len(parts) == 1:
        return head.encode("ascii") + parts[0].encode()
    boundary = f"=_{seed}"
    out = head.encode("ascii") + f'Content-Type: multipart/alternative; boundary="{boundary}"\r\n\r\n'.encode()
    for part in parts:
        out += f"--{boundary}\r\n".encode() + part.encode()
    return out + f"--{boundary}--\r\n".encode()


def quoted(text: str, mark: str = "> ") -> str:
    """Text quoted the way plain-text clients do, an empty line getting a bare ``>``."""
    return "\n".join((mark + line) if line else mark.rstrip() for line in text.rstrip("\n").split("\n"))


def html_lines(text: str) -> str:
    """Plain lines as the HTML editor of a client writes them: a div a line."""
    from html import escape

    return "".join(f"<div>{escape(line) if line else '<br>'}</div>" for line in text.split("\n"))
