"""A player who plays by mail: reads reports from its own Maildir, decides, and replies by SMTP
the way a person does.

What a bot reads: the mail in its mailbox. A report's ORDERS block names the game and the
phase (read with the product's own parser); a receipt or a refusal answers the bot's last
mail (In-Reply-To) and says in its subject whether the orders were taken. What a person
would get from reading the report, the bot gets from the game file: it loads the state
read-only to list every legal order and tries a whole turn on a copy before writing it down.
It never writes to the store; its orders reach the game only through the referee's SMTP
port, like anybody's.

A reply looks like one a person writes: `Re:` subject, In-Reply-To and References, a greeting,
the report's ORDERS block with the chosen orders filled in, a signature, and the report quoted
below with `>`. A refused set is rewritten from the fresh state with the refused order left
out; after `max_refusals` refusals in one phase the bot stops and says why, so a broken game
stalls visibly instead of looping.
"""

from __future__ import annotations

import mailbox
import os
import random
import re
import smtplib
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formataddr, format_datetime, make_msgid
from pathlib import Path

from mailer.inbound.message import InboundMail, parse_message
from mailer.inbound.orders import find_orders
from referee.contract import Game, State
from referee.i18n import DEFAULT_LANGUAGE, translations
from referee.i18n.terms import localise
from referee.store import GameStore, StoreError

MAX_ORDERS_PER_MAIL = 12
MAX_REFUSALS = 5
ANSWER_TIMEOUT = 60.0  # no receipt this long after sending: the mail is taken as lost


@dataclass
class Received:
    """One mail from the referee as the bot understood it."""

    parsed: InboundMail
    reply_to: str | None
    references: str
    sender: str
    block: list[str] | None  # the report's ORDERS block, tag and END included
    key: str | None  # the phase the block is for


@dataclass(frozen=True)
class Sent:
    """A mail of ours the referee has not answered yet."""

    message_id: str
    key: str
    orders: list[str]  # the whole set as written
    new: list[str]  # the orders first written in this mail
    at: float


@dataclass
class BotCounters:
    received: int = 0
    sent: int = 0
    accepted: int = 0
    refused: int = 0


@dataclass
class MailBot:
    name: str
    address: str
    game: Game
    game_id: str
    store: GameStore  # read only
    maildir: Path
    smtp_port: int
    rng: random.Random
    smtp_host: str = "127.0.0.1"
    max_refusals: int = MAX_REFUSALS
    wake: threading.Event = field(default_factory=threading.Event)
    counters: BotCounters = field(default_factory=BotCounters)
    finished: bool = False
    problem: str | None = None  # why the bot stopped playing, if it did
    language: str = DEFAULT_LANGUAGE  # what the referee writes to it in, and it writes its orders in

    def __post_init__(self) -> None:
        self._box = mailbox.Maildir(self.maildir, factory=None, create=True)
        self._sent_box = self._box.add_folder("Sent")
        self._targets: dict[str, Received] = {}  # phase key -> the mail to answer
        self._sets: dict[str, list[str]] = {}  # phase key -> orders accepted (simultaneous phases)
        self._refusals: dict[str, int] = {}
        self._avoid: dict[str, set[str]] = {}
        self._awaiting: Sent | None = None
        self._last_reason = ""
        self._dirty = False
        t = translations(self.language)
        self._game_over = t.gettext("[{game}] Game over").format(game=self.game_id)
        self._received = t.gettext("[{game}] Orders received: {status}").format(game=self.game_id, status="")

    # -- the loop

    def run(self, stop: threading.Event, poll: float = 0.5) -> None:
        """Play until the game is over, the bot gives up, or `stop` is set. A failure (the
        referee's port refusing mail, a bug) stops the bot with the reason in `problem`."""
        while not stop.is_set() and not self.finished and self.problem is None:
            self.wake.wait(poll)
            self.wake.clear()
            try:
                self.step()
            except Exception as exc:  # the thread's last stop: the demo reports it and ends
                self.problem = f"{self.name} stopped: {type(exc).__name__}: {exc}"

    def step(self) -> None:
        """Read whatever is new, then write orders if the referee is waiting for this player."""
        for received in self._read_new():
            self._take(received)
        if self._awaiting and time.monotonic() - self._awaiting.at > ANSWER_TIMEOUT:
            self._awaiting = None  # never answered; decide again from the game as it stands
            self._dirty = True
        if self._dirty and not self._awaiting and not self.finished and self.problem is None:
            self._dirty = False
            self._decide()

    # -- reading mail

    def _read_new(self) -> list[Received]:
        """Mail in `new/`, oldest first, each moved to `cur/` and flagged seen once read (the
        Maildir convention, so a mail client shows it as read)."""
        new, cur = self.maildir / "new", self.maildir / "cur"
        out = []
        for name in sorted(os.listdir(new), key=arrival_key):
            raw = (new / name).read_bytes()
            os.replace(new / name, cur / f"{name}:2,S")
            out.append(self._understand(raw))
        return out

    def _understand(self, raw: bytes) -> Received:
        parsed = parse_message(raw)
        head = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        block, key = None, None
        if parsed.orders_from_block and parsed.orders_tag:
            words = parsed.orders_tag.split()
            if len(words) >= 2 and words[0] == self.game_id:
                key = words[1]
                section, _ = find_orders(parsed.body)
                block = [f"ORDERS {parsed.orders_tag}", *section.lines, "END"]
        return Received(parsed, head.get("Reply-To"), str(head.get("References") or ""),
                        str(head.get("From") or ""), block, key)

    def _take(self, mail: Received) -> None:
        self.counters.received += 1
        subject = mail.parsed.subject
        awaiting = self._awaiting
        sent = awaiting if awaiting and mail.parsed.in_reply_to == awaiting.message_id else None
        if subject.endswith(self._game_over):
            self.finished = True
        elif mail.key is not None and mail.reply_to:
            self._targets[mail.key] = mail  # a report asking for orders
            self._dirty = True
        elif sent and self._received in subject:
            self.counters.accepted += 1
            self._sets[sent.key] = sent.orders
            if mail.reply_to:
                self._targets[sent.key] = mail  # go on from the receipt if still asked
            self._awaiting = None
            # a receipt in another language is not read for its names: the game file says it
            self._dirty = self._dirty or self.language != DEFAULT_LANGUAGE or self.name in _waiting_for(
                mail.parsed.body)
        elif sent:  # "Orders not accepted", "Too late: ...": the set changed nothing
            self.counters.refused += 1
            self._refusals[sent.key] = self._refusals.get(sent.key, 0) + 1
            if sent.new:
                self._avoid.setdefault(sent.key, set()).add(sent.new[0])
            self._last_reason = _first_error(mail.parsed.body)
            self._awaiting = None
            self._dirty = True

    # -- deciding

    def _decide(self) -> None:
        try:
            state = self.store.load(self.game_id).state
        except StoreError:
            self._dirty = True  # busy: look again at the next wakeup
            return
        key = self.game.phase(state).key
        prompts = [p for p in self.game.prompts(state) if p.player == self.name]
        target = self._targets.get(key)
        if not prompts or target is None:
            return  # nothing asked of us, or the report for this phase has not arrived yet
        if self._refusals.get(key, 0) >= self.max_refusals:
            self.problem = (f"{self.name}: orders for phase {key} were refused {self._refusals[key]} times "
                            f"(last: {self._last_reason or 'no reason given'}); stopped writing")
            return
        simultaneous = prompts[0].simultaneous
        earlier = list(self._sets.get(key, [])) if simultaneous else []
        limit = 1 if self._refusals.get(key) else MAX_ORDERS_PER_MAIL
        new = self.choose(state, key, limit)
        if not new:
            self.problem = f"{self.name}: asked in phase {key} but the rules allow no order"
            return
        self._send(target, key, earlier, new)

    def choose(self, state: State, key: str, limit: int = MAX_ORDERS_PER_MAIL) -> list[str]:
        """A turn: orders picked at random from the legal ones, each tried on a copy of the
        state, for as long as the same phase still asks this player (up to `limit`)."""
        chosen: list[str] = []
        avoid = self._avoid.get(key, set())
        while len(chosen) < limit:
            menu = {self.game.format(o): o for o in self.game.legal_orders(state, self.name)}
            if not menu:
                break
            fresh = [text for text in menu if text not in avoid] if not chosen else []
            text = self.rng.choice(fresh or list(menu))
            state, _ = self.game.apply(state, self.name, [menu[text]])
            chosen.append(text)
            if self.game.phase(state).key != key:
                break
            if not any(p.player == self.name for p in self.game.prompts(state)):
                break
        return chosen

    # -- writing mail

    def _send(self, target: Received, key: str, earlier: list[str], new: list[str]) -> None:
        orders = earlier + new
        reply = self.compose(target, key, orders)
        with smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=30) as smtp:
            smtp.send_message(reply)
        self._sent_box.add(reply.as_bytes())
        self.counters.sent += 1
        self._awaiting = Sent(str(reply["Message-ID"]), key, orders, new, time.monotonic())

    def compose(self, target: Received, key: str, orders: list[str]) -> EmailMessage:
        """A reply to `target` (a report, or the receipt of an earlier set in the same phase),
        the orders written in the bot's language as a player would write them."""
        mail = target.parsed
        orders = [localise(self.game, self.language, text) for text in orders]
        if target.block is not None:
            block = _fill(target.block, orders)
        else:
            block = [f"ORDERS {self.game_id} {key}", *orders, "END"]
        greeting = "Hello referee," if target.block is not None else "Hello again,"
        when = mail.date or "earlier"
        quoted = "\n".join(f"> {line}".rstrip() for line in mail.body.rstrip("\n").split("\n"))
        body = (f"{greeting}\n\nhere are my orders.\n\n" + "\n".join(block) +
                f"\n\nThanks,\n{self.name.capitalize()}\n\nOn {when}, {target.sender} wrote:\n{quoted}\n")
        msg = EmailMessage()
        msg["From"] = formataddr((self.name.capitalize(), self.address))
        msg["To"] = target.reply_to
        subject = mail.subject
        msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        msg["Date"] = format_datetime(datetime.now(timezone.utc))
        msg["Message-ID"] = make_msgid(self.name, domain=self.address.rpartition("@")[2])
        if mail.message_id:
            msg["In-Reply-To"] = mail.message_id
            msg["References"] = f"{target.references} {mail.message_id}".strip()
        msg.set_content(body)
        return msg


def _fill(block: list[str], orders: list[str]) -> list[str]:
    """The report's block with the orders written in, in order, above END. A single order
    that the block suggests is uncommented in place instead, as people do."""
    suggestion = f"# {orders[0]}" if len(orders) == 1 else None
    if suggestion is not None and suggestion in block:
        lines = list(block)
        lines[lines.index(suggestion)] = orders[0]
        return lines
    return block[:-1] + orders + block[-1:]


def _waiting_for(receipt: str) -> list[str]:
    """The players named on a receipt's `Next: ... waiting for a, b in ...` line."""
    for line in receipt.splitlines():
        if line.startswith("Next:") and "waiting for " in line:
            names = line.split("waiting for ", 1)[1].split(" in ", 1)[0].rstrip(".")
            return [name.strip() for name in names.split(",")]
    return []


def _first_error(body: str) -> str:
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith(("line ", "orders [", "Not accepted:")):
            return stripped[:200]
    return ""


_MAILDIR_NAME = re.compile(r"^(\d+)\.M(\d+)P(\d+)Q(\d+)")


def arrival_key(key: str) -> tuple[int, ...]:
    """`mailbox.Maildir` names start `SECONDS.M<micro>P<pid>Q<count>`, with unpadded numbers;
    sort on the numbers so that mail is read in the order it was filed."""
    match = _MAILDIR_NAME.match(key)
    return tuple(int(n) for n in match.groups()) if match else (0, 0, 0, 0)
