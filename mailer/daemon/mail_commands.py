"""The mail commands a player may send instead of orders: STATUS, HELP, HISTORY, VACATION,
TIMEZONE, LANGUAGE, NOTIFY, LEAVE; and CHECK, which stands in front of orders.

A command is a mail's first line of text, or else its subject, and nothing else: a mail with
an ORDERS block is never a command, and what follows a command in the mail is not read (the
player is told).
"""

from __future__ import annotations

import re

from mailer.inbound.message import InboundMail
from mailer.inbound.prose import is_salutation
from mailer.outbound.reports import command_words, mail_commands
from mailer.safe_headers import sanitise_header
from referee.i18n import DEFAULT_LANGUAGE, translations

SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|fwd?|wg|tr)\s*:\s*|\[[^\]]*\]\s*)+", re.IGNORECASE)
MAX_UNREAD_SHOWN = 10
COMMANDS = {"STATUS": 0, "HELP": 0, "HISTORY": 0, "VACATION": 1, "TIMEZONE": 1, "LANGUAGE": 1, "LEAVE": 0,
            "NOTIFY": 1}  # words to follow
# The commands' names in the other languages a player may write in (docs/languages.md), with
# the language each is (None: a short form anyone may write). The sign-up desk takes the words
# of the commands it shares with these (HELP, LEAVE) from here too (desk.py).
WORDS: dict[str, tuple[str, str | None]] = {
    "TZ": ("TIMEZONE", None), "ZEITZONE": ("TIMEZONE", "de"), "FUSO": ("TIMEZONE", "it"),
    "SPRACHE": ("LANGUAGE", "de"), "LINGUA": ("LANGUAGE", "it"), "HILFE": ("HELP", "de"), "AIUTO": ("HELP", "it"),
    "STAND": ("STATUS", "de"), "STATO": ("STATUS", "it"), "URLAUB": ("VACATION", "de"),
    "VACANZA": ("VACATION", "it"), "FERIEN": ("VACATION", "de"), "VERLAUF": ("HISTORY", "de"),
    "CRONOLOGIA": ("HISTORY", "it"), "BENACHRICHTIGUNG": ("NOTIFY", "de"), "AVVISI": ("NOTIFY", "it"),
    "AUSSTEIGEN": ("LEAVE", "de"), "ABMELDEN": ("LEAVE", "de"), "LASCIA": ("LEAVE", "it")}
ALIASES = {word: command for word, (command, _) in WORDS.items()}
CHECK = "CHECK"
CHECK_WORDS = {CHECK, "PRÜFE", "PRUEFE", "VERIFICA"}  # CHECK as German and Italian players write it


def check_request(mail: InboundMail) -> str | None:
    """The orders a CHECK mail asks about: a mail whose subject, or whose first line of its
    own text, is CHECK. The orders are the ORDERS block when there is one, else the text
    after the CHECK line; None when the mail is no CHECK."""
    first = mail.first_line.upper().rstrip(":")
    subject = SUBJECT_PREFIX.sub("", mail.subject).split()
    if first not in CHECK_WORDS and not (subject and subject[0].upper().rstrip(":") in CHECK_WORDS):
        return None
    lines = mail.orders_text.splitlines()
    if not mail.orders_from_block:
        kept = [line for line in lines if line.strip()]
        if kept and kept[0].strip().upper().rstrip(":") in CHECK_WORDS:
            lines = lines[lines.index(kept[0]) + 1:]
    return "\n".join(lines).strip("\n")


def mail_command(mail: InboundMail) -> tuple[str, str] | None:
    """A mail command (name, argument): a first body line, or else a subject, that is just
    STATUS, HELP, VACATION ..., TIMEZONE ..., NOTIFY ... or LANGUAGE ... (or one of their
    `ALIASES`); never in a mail with an ORDERS block. CHECK comes back as (CHECK, the orders to
    check)."""
    checked = check_request(mail)
    if checked is not None:
        return CHECK, checked
    if mail.orders_from_block:
        return None
    lines = _text_lines(mail)
    for candidate in ([lines[0]] if lines else []) + [SUBJECT_PREFIX.sub("", mail.subject)]:
        words = candidate.split()
        if not words:
            continue
        name = words[0].upper().rstrip(":")
        name = ALIASES.get(name, name)
        if name in COMMANDS and (len(words) > 1) == bool(COMMANDS[name]):
            return name, " ".join(words[1:])
        if lines:  # a first body line that is not a command: these are orders
            return None
    return None


def lines_after_command(mail: InboundMail) -> list[str]:
    """What follows a command given on a mail's first line: never read, so the player is told
    (someone who writes STATUS above their orders would otherwise wait for a receipt). A
    greeting or a thank-you is not worth telling."""
    return [line for line in _text_lines(mail)[1:] if not is_salutation(line)]


def _text_lines(mail: InboundMail) -> list[str]:
    """The non-blank lines of the mail's own text, stripped, as commands are looked for."""
    return [line.strip() for line in mail.orders_text.splitlines() if line.strip()]


def unread_notice(name: str, rest: list[str], lang: str = DEFAULT_LANGUAGE) -> str:
    t = translations(lang)
    shown = [sanitise_header(line, 100) for line in rest[:MAX_UNREAD_SHOWN]]
    more = ("\n    " + t.gettext("... and {count} more").format(count=len(rest) - len(shown))
            if len(rest) > len(shown) else "")
    return (t.ngettext("Your mail began with {command}, so it was read as that command alone. {count} line after it "
                       "was not read, and no orders were taken from this mail:",
                       "Your mail began with {command}, so it was read as that command alone. {count} lines after it "
                       "were not read, and no orders were taken from this mail:", len(rest)).format(
                command=command_words(name, lang), count=len(rest))
            + "\n\n" + "\n".join(f"    {line}" for line in shown)
            + more + "\n\n" + t.gettext("Send orders in a mail of their own.") + "\n")


def command_summary(lang: str = DEFAULT_LANGUAGE) -> str:
    return "\n".join(f"    {name:<24} {what}" for name, what in mail_commands(lang))

