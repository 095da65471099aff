"""Recognising mail written by a machine, which must never get an automatic answer.

Answering a vacation responder, a bounce or a list robot starts a mail loop (RFC 3834 section
2 and 5). The checks look at headers only; the caller adds what it alone knows (its own
addresses, the SMTP envelope sender).
"""

from __future__ import annotations

import re
from email.message import Message

from .headers import header_text

__all__ = ["auto_reply_subject", "automatic_reason", "is_daemon_address", "null_sender"]

_BULK_PRECEDENCE = frozenset({"bulk", "list", "junk", "auto_reply", "auto-reply"})
_DAEMON_LOCALS = frozenset({"mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon"})
_REPORT_TYPES = frozenset(
    {"multipart/report", "message/delivery-status", "message/disposition-notification",
     "message/feedback-report", "message/global-delivery-status"}
)
_FLAG_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Response")


# The subjects auto-responders write (out of office, automatic reply), in the languages the
# referee reads; only phrases a person hardly uses as the subject of their own mail.
_AUTO_SUBJECT = re.compile(
    r"out of (?:the )?office|\bautomatic reply|\bauto[- ]?repl(?:y|ied)\b|\bauto[- ]?response|autoresponder|"
    r"\bvacation (?:reply|response|notice|message)|"
    r"abwesenheitsnotiz|automatische antwort|\bautom\. antwort|"
    r"risposta automatica|\bfuori sede\b|\bfuori ufficio\b|"
    r"r[ée]ponse automatique|absent du bureau|\bmessage d'absence|"
    r"respuesta autom[áa]tica|fuera de la oficina|resposta autom[áa]tica|fora do escrit[óo]rio|"
    r"automatisch antwoord|afwezigheidsbericht|odpowied[źz] automatyczna|"
    r"automatiskt svar|automatisk svar|autosvar|frånvaromeddelande|"
    r"автоответ|автоматический ответ|自動返信|自動応答|不在通知",
    re.IGNORECASE)


def auto_reply_subject(subject: str) -> bool:
    """Whether a subject is an auto-responder's: "Out of Office: ...", "Automatische Antwort:
    ...", "Risposta automatica: ...". Many say nothing of themselves in their headers."""
    return bool(_AUTO_SUBJECT.search(subject or ""))


def is_daemon_address(text: str | None) -> bool:
    """True for MAILER-DAEMON / postmaster senders, even written without a domain."""
    if not text:
        return False
    lowered = text.lower()
    if "<" in lowered and ">" in lowered:
        lowered = lowered[lowered.rfind("<") + 1 : lowered.rfind(">")]
    local = lowered.strip().rpartition("@")[0] or lowered.strip()
    return local.strip().strip('"') in _DAEMON_LOCALS


def null_sender(return_path: str) -> bool:
    """Whether a Return-Path written by the receiving side holds the empty envelope sender,
    however the MTA writes it: `<>` (our SMTP server, most MTAs) or `<MAILER-DAEMON>`
    (Postfix's pipe and local delivery, which put that name in place of the empty address)."""
    text = return_path.strip()
    return text in ("", "<>") or is_daemon_address(text)


def automatic_reason(msg: Message, content_types: list[str], sender: str | None) -> str | None:
    """Why *msg* looks machine-made, or None when it looks written by a person.

    *content_types* are the types seen while walking the parts (so a report nested in a
    multipart/mixed counts too); *sender* is the From addr_spec if there was a valid one.
    """
    value = header_text(msg, "Auto-Submitted")
    if value is not None:
        keyword = value.split(";", 1)[0].strip().lower()
        if keyword != "no":
            return f"Auto-Submitted: {keyword or 'empty'}"[:80]
    precedence = (header_text(msg, "Precedence") or "").strip().lower()
    if precedence in _BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    if header_text(msg, "List-Id") is not None:
        return "List-Id present"
    for name in _FLAG_HEADERS:
        flag = header_text(msg, name)
        if flag is not None and flag.strip().lower() not in ("no", "false", "0"):
            return f"{name} present"
    return_path = header_text(msg, "Return-Path")
    if return_path is not None and null_sender(return_path):
        return "empty Return-Path (bounce)"
    raw_from = header_text(msg, "From")
    if is_daemon_address(sender) or is_daemon_address(raw_from):
        return "sender is a mail daemon"
    for content_type in content_types:
        if content_type in _REPORT_TYPES:
            return f"content type {content_type}"
    return None
