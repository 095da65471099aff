"""Table talk in a mail: the PRESS lines that begin it, the text each one sends, and what is
left of the mail for the orders.

A mail whose own text (what the sender wrote now, the quote of an earlier mail left out, as
the order reader reads it) begins with `PRESS ALL` or `PRESS ann,bob` is table talk; so is a
mail whose subject is such a line, and one written to a reply address of a table talk mail
(`game+bob+CODE@host`, referee/press.py), which answers the players CODE stands for. The
text runs to an `END PRESS` line, the next PRESS line, the ORDERS line of a block, or the end
of the mail; what follows END PRESS (or the ORDERS block) is read as orders, as in any mail.

    PRESS ALL                      NACHRICHT AN ALLE           MESSAGGIO A TUTTI
    PRESS ann,bob                  NACHRICHT AN ann,bob        MESSAGGIO A ann,bob
    END PRESS                      ENDE NACHRICHT              FINE MESSAGGIO

The text is the sender's own: lines that look like mail headers at its top (From:, Bcc: ...)
are left out, and so are the sender's reply addresses, which carry their secret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from mailer.inbound.message import InboundMail
from mailer.inbound.orders import find_orders, split_player_line, starts_block
from mailer.inbound.prose import is_salutation

from .mail_commands import SUBJECT_PREFIX

# The command words in every language a player may write in (docs/languages.md); the first of
# each is English.
PRESS_WORDS = {"PRESS": "en", "NACHRICHT": "de", "MESSAGGIO": "it"}
ALL_WORDS = frozenset({"ALL", "ALLE", "TUTTI"})
TO_WORDS = frozenset({"TO", "AN", "A"})
END_LINES = frozenset({"END PRESS", "ENDPRESS", "ENDE NACHRICHT", "FINE MESSAGGIO"})
MAX_NAMES = 12
_HEADER_LIKE = re.compile(r"^\s*(?:from|to|cc|bcc|subject|reply-to|sender|date|message-id|in-reply-to|references|"
                          r"return-path|received|delivered-to|mime-version|content-[a-z-]+|x-[a-z0-9-]+)\s*:",
                          re.IGNORECASE)
_SEPARATORS = re.compile(r"[,;\s]+")


@dataclass(frozen=True)
class Section:
    """One piece of table talk as the mail writes it: to whom (None: everyone; names as
    written), its text, and the lines of the sender's own text it took (0: the subject or the
    reply address said to whom)."""

    audience: tuple[str, ...] | None
    text: str
    first: int
    last: int
    headers_left_out: int = 0
    addresses_left_out: int = 0
    by_address: bool = False  # to the players the reply address it came to stands for


@dataclass(frozen=True)
class PressInMail:
    """A mail's table talk and the rest of it. `orders` is the mail as the order reader is to
    read it (the table talk blanked out, so the line numbers of a receipt stay the mail's),
    None when nothing but table talk (and greetings) is left; `order_lines` the lines of the
    own text read as orders, None when they are an ORDERS block."""

    sections: tuple[Section, ...]
    orders: InboundMail | None
    order_lines: tuple[int, int] | None
    attachments: tuple[str, ...] = ()


def press_line(line: str) -> tuple[tuple[str, ...] | None, str] | None:
    """A PRESS line's audience (None: everyone; the names as written, perhaps none) and the
    text after a colon on the same line; None when the line is no PRESS line."""
    words = line.split()
    if not words or words[0].rstrip(":").upper() not in PRESS_WORDS:
        return None
    head, _, inline = line.strip()[len(words[0]):].partition(":")
    rest = head.split()
    if len(rest) > 1 and rest[0].upper() in TO_WORDS:
        rest = rest[1:]
    if len(rest) == 1 and rest[0].upper() in ALL_WORDS:
        return None, inline.strip()
    names = [word for word in _SEPARATORS.split(" ".join(rest)) if word]
    return tuple(names[:MAX_NAMES]), inline.strip()


def is_end_line(line: str) -> bool:
    return " ".join(line.split()).upper().rstrip(".") in END_LINES


def subject_audience(subject: str) -> tuple[tuple[str, ...] | None, str] | None:
    """The audience a subject names when it is a PRESS line (`Re:` and `[game]` left out)."""
    return press_line(SUBJECT_PREFIX.sub("", subject or "").strip())


def find_press(mail: InboundMail, *, host: str, by_address: bool = False) -> PressInMail | None:
    """The table talk of a mail, or None when it has none. `by_address`: the mail came to a
    reply address of table talk, so it is table talk however it begins (to the players the
    address stands for, unless a PRESS line says otherwise)."""
    block = mail.orders_from_block
    if block:
        _, visible = find_orders(mail.body)
        before = []
        for line in visible:
            if starts_block(line.strip()):
                break
            before.append(line)
        own = _trim(split_player_line("\n".join(before))[1].split("\n"))
    else:
        own = mail.orders_text.split("\n") if mail.orders_text else []
    first = next((line for line in own if line.strip()), "")
    implicit: dict | None = None
    if by_address:
        implicit = {"audience": None, "by_address": True}
    elif press_line(first.strip()) is None:
        said = subject_audience(mail.subject)
        if said is None:
            return None
        implicit = {"audience": said[0], "by_address": False}
    sections, spans, orders_from = _sections(own, implicit, host)
    if not sections and by_address:  # nothing written: still table talk, refused for it
        sections = [Section(None, "", 0, 0, by_address=True)]
    if not sections:
        return None
    if block:
        outside = list(mail.orders_outside)
        for line in (own[i - 1] for i in spans):
            if line.strip() and line.strip() in (o.strip() for o in outside):
                outside.remove(next(o for o in outside if o.strip() == line.strip()))
        orders = replace(mail, orders_outside=tuple(outside))
        return PressInMail(tuple(sections), orders, None, mail.attachments)
    kept = ["" if i in spans or (orders_from is None or i < orders_from) else line
            for i, line in enumerate(own, 1)]
    read = [i for i, line in enumerate(kept, 1) if line.strip() and not is_salutation(line)]
    if not read:
        return PressInMail(tuple(sections), None, None, mail.attachments)
    lines = [i for i, line in enumerate(kept, 1) if line.strip()]
    return PressInMail(tuple(sections), replace(mail, orders_text="\n".join(kept)), (lines[0], lines[-1]),
                       mail.attachments)


def _sections(own: list[str], implicit: dict | None, host: str) -> tuple[list[Section], set[int], int | None]:
    """The sections of the own text, every line they took, and the first line of the orders;
    `implicit`: the section the mail begins with when its first line is no PRESS line."""
    sections: list[Section] = []
    spans: set[int] = set()
    current: dict | None = None
    if implicit is not None:
        current = dict(implicit, lines=[], first=0, last=0)
    orders_from = None

    def close() -> None:
        if current is not None and (current["first"] or any(line.strip() for line in current["lines"])):
            sections.append(_section(current, host))

    for i, line in enumerate(own, 1):
        stripped = line.strip()
        # reading stops at the first line of orders, so every line before this one is table talk
        found = press_line(stripped)
        if found is not None:
            close()
            current = {"audience": found[0], "lines": [found[1]] if found[1] else [], "first": i, "last": i}
            spans.add(i)
            continue
        if current is not None:
            spans.add(i)
            if is_end_line(stripped):
                current["last"] = i
                close()
                current = None
                continue
            current["lines"].append(line)
            current["last"] = i
            continue
        if stripped:
            orders_from = i
            break
    close()
    return sections, spans, orders_from


def _section(current: dict, host: str) -> Section:
    """A section's text cleaned: blank lines trimmed, header-like lines at its top and the
    sender's reply addresses left out, runs of blank lines made one."""
    lines = [line.rstrip() for line in current["lines"]]
    headers = 0
    lines = _trim(lines)
    while lines and _HEADER_LIKE.match(lines[0]):
        lines.pop(0)
        headers += 1
        lines = _trim(lines)
    text, addresses = _without_reply_addresses("\n".join(lines), host)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return Section(current["audience"], text, current["first"], current["last"], headers, addresses,
                   current.get("by_address", False))


def _without_reply_addresses(text: str, host: str) -> tuple[str, int]:
    """Reply addresses of this server (`game+player+token@host`) taken out of the text: each
    carries a player's secret (or a reply code standing for it)."""
    pattern = re.compile(r"<?[A-Za-z0-9._-]+[+-][A-Za-z0-9._-]+\+[A-Za-z0-9]{1,128}@" + re.escape(host) + r">?",
                         re.IGNORECASE)
    return pattern.subn("[...]", text)


def _trim(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]
