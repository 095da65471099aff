"""A player who plays by mail: reads its mail from its own Maildir, decides, and replies by
SMTP the way a person does.

What a bot reads: the mail in its mailbox. A mail that asks for orders carries an ORDERS
block naming the game and the phase (read with the product's own parser); a refusal answers
the bot's last mail (In-Reply-To); the referee names each mail's kind (a refusal, the end of
the game) in its X-Referee-Kind header, whatever language the mail is written in.
What a person would get from reading the report, the bot gets from the game file: it loads
the state read-only to list every legal order and tries a whole turn on a copy before writing
it down, and it sees there whether its last mail was taken (its Message-ID in the log), since
a player who is not asked anything more gets no receipt until their next mail. It never
writes to the store; its orders reach the game only through the referee's SMTP port.

With `talk` it also says a word to the table the way players do: its first mail of orders
begins with a greeting to everyone (PRESS ALL ... END PRESS, then the orders), and the first
table talk another player sends it is answered once, by replying to it, which goes back
through the referee to that player alone. It writes in its own language.

It answers only what it is asked: it writes for a phase only once a mail asking for orders
in that phase has arrived. And it plays the same game every time with the same seed: its
choices come from a random stream seeded by (seed, player, phase, mails sent in the phase),
drawn on the position it was asked about, and where several players are asked at once the
bots answer one after another in the order the game lists them, so no choice depends on
which mail happened to arrive first.

A reply looks like one a person writes: `Re:` subject, In-Reply-To and References, a greeting,
the mail's ORDERS block with the chosen orders filled in, a signature, and the mail quoted
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
from typing import Any

from mailer.inbound.message import InboundMail, parse_message
from mailer.inbound.orders import PLAYER_KEYWORD, clean_text, find_orders
from referee.bots import Bot
from referee.contract import Game, OrderError, State, phase_code
from referee.i18n import DEFAULT_LANGUAGE
from referee.i18n.terms import localise
from referee.playthrough import own_position
from referee.press import is_reply_code
from referee.store import GameStore, StoreError

END, REFUSAL = "end", "refusal"  # X-Referee-Kind of the game's last mail and of refused orders
MAX_ORDERS_PER_MAIL = 12
MAX_MAILS_PER_PHASE = 40  # a bot still asked after this many mails for one phase is going round in circles
MAX_REFUSALS = 5
ANSWER_TIMEOUT = 60.0  # no receipt this long after sending: the mail is taken as lost
# What a bot with `talk` says at the table, in its language: a greeting, and the answer to the
# first table talk it gets. The bots' own words, not the referee's: no catalogue.
GREETING = {"en": "Good luck, everyone. {name} here, glad to be at this table.",
            "de": "Viel Glück allerseits! Hier ist {name}, schön, mit euch am Tisch zu sitzen.",
            "it": "Buona fortuna a tutti! Sono {name}, felice di sedere a questo tavolo."}
ANSWER = {"en": "Thanks, {sender}, and the same to you. We shall see who is still smiling at the end.",
          "de": "Danke, {sender}, dir ebenso. Mal sehen, wer am Ende noch lacht.",
          "it": "Grazie, {sender}, altrettanto. Vedremo chi sorride ancora alla fine."}
POLL = 0.05  # how often a bot that waits for its turn or for its mail to be read looks again
IDLE = 1.0  # how long a bot that waits for nothing sleeps unless a mail wakes it


@dataclass
class Received:
    """One mail from the referee as the bot understood it."""

    parsed: InboundMail
    reply_to: str | None
    references: str
    sender: str
    block: list[str] | None  # the report's ORDERS block, tag and END included
    key: str | None  # the phase the block is for
    kind: str = ""  # what the referee says the mail is (X-Referee-Kind): ask, end, refusal, ...


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
    seed: str
    smtp_host: str = "127.0.0.1"
    max_refusals: int = MAX_REFUSALS
    brain: Bot | None = None  # referee/bots: what to write (None: random legal orders)
    wake: threading.Event = field(default_factory=threading.Event)
    counters: BotCounters = field(default_factory=BotCounters)
    finished: bool = False
    problem: str | None = None  # why the bot stopped playing, if it did
    language: str = DEFAULT_LANGUAGE  # what the referee writes to it in, and it writes its orders in
    talk: bool = False  # greets the table in its first mail of orders and answers the first table talk it gets

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
        self._mails: dict[str, int] = {}  # phase key -> mails written for it
        self._answered: set[str] = set()  # phase keys whose asking mail a mail of ours answered
        self._file = self.store.path(self.game_id) if hasattr(self.store, "path") else None
        self._stamp: tuple[int, int] | None = None
        self._greeted = self._talk_answered = not self.talk

    # -- the loop

    def run(self, stop: threading.Event, poll: float = POLL, idle: float = IDLE) -> None:
        """Play until the game is over, the bot gives up, or `stop` is set. A failure (the
        referee's port refusing mail, a bug) stops the bot with the reason in `problem`. A
        bot that waits for nothing sleeps until its next mail wakes it (`idle` at most)."""
        while not stop.is_set() and not self.finished and self.problem is None:
            self.wake.wait(poll if self._dirty or self._wants_game() else idle)
            self.wake.clear()
            try:
                self.step()
            except Exception as exc:  # the thread's last stop: the demo reports it and ends
                self.problem = f"{self.name} stopped: {type(exc).__name__}: {exc}"

    def step(self) -> None:
        """Read whatever is new, then write orders if the referee is waiting for this player.
        While a mail asking for orders is not answered yet, the game file is looked at again
        whenever it changed (the players asked with us at once answer first, and a mail of
        ours not read yet must show there before we write again); otherwise only mail can give
        the bot something to do, and the file is left alone."""
        for received in self._read_new():
            self._take(received)
        if self._wants_game() and self._changed():
            self._dirty = True
        if self._awaiting and time.monotonic() - self._awaiting.at > ANSWER_TIMEOUT:
            self._answered.discard(self._awaiting.key)
            self._awaiting = None  # never answered; decide again from the game as it stands
            self._dirty = True
        if self._dirty and not self.finished and self.problem is None:
            self._dirty = False
            self._decide()

    def _wants_game(self) -> bool:
        """Whether the game file can tell us something now: a mail asks for orders that we have
        not answered. Whether our last mail was taken is looked up when the next mail asks
        (a refusal comes by mail), so a bot waiting for its mail to be read does not watch."""
        return any(key not in self._answered for key in self._targets)

    def _changed(self) -> bool:
        if self._file is None:
            return False
        try:
            info = os.stat(self._file)
        except OSError:
            return False
        stamp = (info.st_mtime_ns, info.st_size)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        return True

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
                key = phase_code(self.game, words[1])  # phases are told apart by their codes, as mail names them
                block = [f"ORDERS {parsed.orders_tag}", *_block_lines(parsed), "END"]
        return Received(parsed, head.get("Reply-To"), str(head.get("References") or ""),
                        str(head.get("From") or ""), block, key, str(head.get("X-Referee-Kind") or ""))

    def _take(self, mail: Received) -> None:
        self.counters.received += 1
        awaiting = self._awaiting
        sent = awaiting if awaiting and mail.parsed.in_reply_to == awaiting.message_id else None
        if mail.kind == END:
            self.finished = True
        elif not self._talk_answered and _is_table_talk(mail):
            self._talk_answered = True
            self._answer_talk(mail)
        elif mail.key is not None and mail.reply_to:
            self._targets[mail.key] = mail  # a mail asking for orders
            self._answered.discard(mail.key)
            self._dirty = True
        elif sent and mail.kind == REFUSAL:
            self.counters.refused += 1
            self._refusals[sent.key] = self._refusals.get(sent.key, 0) + 1
            if sent.new:
                self._avoid.setdefault(sent.key, set()).add(sent.new[0])
            self._last_reason = _first_error(mail.parsed.body)
            self._answered.discard(sent.key)
            self._awaiting = None
            self._dirty = True

    # -- deciding

    def _decide(self) -> None:
        try:
            stored = self._look()
        except StoreError:
            self._dirty = True  # busy: look again at the next wakeup
            return
        if self._awaiting is not None:
            if not any(e.get("message_id") == self._awaiting.message_id for e in reversed(stored.events[-200:])):
                return  # not read yet (a refusal would have come by mail)
            self.counters.accepted += 1
            self._sets[self._awaiting.key] = self._awaiting.orders
            self._awaiting = None
        state = stored.state
        engine_key = self.game.phase(state).key
        key = phase_code(self.game, engine_key)
        prompts = self.game.prompts(state)
        mine = [p for p in prompts if p.player == self.name]
        target = self._targets.get(key)
        if not mine or target is None:
            return  # nothing asked of us, or the mail asking has not arrived yet
        if prompts[0].player != self.name:
            return  # asked with others at once: they answer first, in the game's order
        if self._refusals.get(key, 0) >= self.max_refusals:
            self.problem = (f"{self.name}: orders for phase {key} were refused {self._refusals[key]} times "
                            f"(last: {self._last_reason or 'no reason given'}); stopped writing")
            return
        earlier: list[str] = []
        if mine[0].simultaneous:  # a new set replaces the standing one: write it again, then go on
            standing = [s for s in stored.meta.get("steps", []) if s.get("player") == self.name
                        and s.get("kind") == "order"]
            earlier = list(self._sets.get(key, [])) if standing else []
        limit = 1 if self._refusals.get(key) else MAX_ORDERS_PER_MAIL
        count = self._mails.get(key, 0)
        if count >= MAX_MAILS_PER_PHASE:
            self.problem = (f"{self.name}: still asked in phase {key} after {count} mails of orders for it; "
                            "stopped writing")
            return
        if self.brain is not None and not self._refusals.get(key):
            earlier, new = [], self._think(stored)  # a whole set (and plans) from the game's own bot
        else:
            new = self.choose(state, key, limit, random.Random(f"{self.seed}/{self.name}/{engine_key}/{count}"))
        if not new:
            self.problem = f"{self.name}: asked in phase {key} but the rules allow no order"
            return
        self._mails[key] = count + 1
        self._send(target, key, earlier, new)

    def _look(self) -> Any:
        """The game as it stands, read without holding up the referee where the store allows."""
        peek = getattr(self.store, "peek", None)
        return peek(self.game_id) if peek is not None else self.store.load(self.game_id)

    def _think(self, stored: Any) -> list[str]:
        """The lines the game's bot writes for this player now: its answer to what is asked
        and, for a bot that plans, its plans. In a phase played by all at once it works from
        the position without this player's earlier set, which the new mail replaces."""
        assert self.brain is not None
        try:
            state = own_position(self.game, stored, self.name)
        except OrderError:
            state = stored.state
        return [line for line in self.brain.mail(self.game, state, self.name).splitlines() if line.strip()]

    def choose(self, state: State, key: str, limit: int = MAX_ORDERS_PER_MAIL,
               rng: random.Random | None = None) -> list[str]:
        """A turn: orders picked at random from the legal ones, each tried on a copy of the
        state, for as long as the same phase still asks this player (up to `limit`)."""
        rng = rng or random.Random(f"{self.seed}/{self.name}/{key}")
        chosen: list[str] = []
        avoid = self._avoid.get(key, set())
        while len(chosen) < limit:
            menu = {self.game.format(o): o for o in self.game.legal_orders(state, self.name)}
            if not menu:
                break
            fresh = [text for text in menu if text not in avoid] if not chosen else []
            text = rng.choice(fresh or list(menu))
            state, _ = self.game.apply(state, self.name, [menu[text]])
            chosen.append(text)
            if phase_code(self.game, self.game.phase(state).key) != key:
                break
            if not any(p.player == self.name for p in self.game.prompts(state)):
                break
        return chosen

    # -- writing mail

    def _send(self, target: Received, key: str, earlier: list[str], new: list[str]) -> None:
        orders = earlier + new
        greeting = None
        if not self._greeted:
            self._greeted = True
            greeting = GREETING.get(self.language, GREETING["en"]).format(name=self.name.capitalize())
        reply = self.compose(target, key, orders, greeting=greeting)
        self._mail(reply)
        self._answered.add(key)
        self._awaiting = Sent(str(reply["Message-ID"]), key, orders, new, time.monotonic())

    def _mail(self, message: EmailMessage) -> None:
        with smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=30) as smtp:
            smtp.send_message(message)
        self._sent_box.add(message.as_bytes())
        self.counters.sent += 1

    def _answer_talk(self, mail: Received) -> None:
        """A reply to a piece of table talk: to its Reply-To, which takes it back through the
        referee to the sender alone; the piece quoted below, as mail clients do."""
        sender = mail.sender.split("<")[0].strip().strip('"').split(" ")[0] or "?"
        text = ANSWER.get(self.language, ANSWER["en"]).format(sender=sender.capitalize())
        self._mail(self._reply(mail, f"{text}\n\n{self.name.capitalize()}\n"))

    def compose(self, target: Received, key: str, orders: list[str], greeting: str | None = None) -> EmailMessage:
        """A reply to `target` (a report, or the receipt of an earlier set in the same phase),
        the orders written in the bot's language as a player would write them; `greeting`:
        table talk to everyone above them."""
        orders = [localise(self.game, self.language, text) for text in orders]
        if target.block is not None:
            block = _fill(target.block, orders)
        else:
            block = [f"ORDERS {self.game_id} {key}", *orders, "END"]
        hello = "Hello referee," if target.block is not None else "Hello again,"
        talk = f"PRESS ALL\n{greeting}\nEND PRESS\n\n" if greeting else ""
        return self._reply(target, f"{talk}{hello}\n\nhere are my orders.\n\n" + "\n".join(block) +
                           f"\n\nThanks,\n{self.name.capitalize()}\n")

    def _reply(self, target: Received, text: str) -> EmailMessage:
        """`text` as a reply to `target`, to its Reply-To, the mail quoted below."""
        mail = target.parsed
        when = mail.date or "earlier"
        quoted = "\n".join(f"> {line}".rstrip() for line in mail.body.rstrip("\n").split("\n"))
        body = f"{text}\nOn {when}, {target.sender} wrote:\n{quoted}\n"
        reply = EmailMessage()
        reply["From"] = formataddr((self.name.capitalize(), self.address))
        reply["To"] = target.reply_to
        subject = mail.subject
        reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        reply["Date"] = format_datetime(datetime.now(timezone.utc))
        reply["Message-ID"] = make_msgid(self.name, domain=self.address.rpartition("@")[2])
        if mail.message_id:
            reply["In-Reply-To"] = mail.message_id
            reply["References"] = f"{target.references} {mail.message_id}".strip()
        reply.set_content(body)
        return reply




def _block_lines(parsed: InboundMail) -> list[str]:
    """The lines of the mail's ORDERS block, as `find_orders` reads them. The parser read the
    block already and kept it as `orders_text`, which lacks only lines that begin with PLAYER:
    when no line of the mail's text does, it is the block itself, and the mail is not read a
    second time (reading a report is the costliest thing a bot does)."""
    if not any(PLAYER_KEYWORD.match(line.strip()) for line in clean_text(parsed.body).split("\n")):
        return parsed.orders_text.split("\n") if parsed.orders_text else []
    section, _ = find_orders(parsed.body)
    return list(section.lines)


def _is_table_talk(mail: Received) -> bool:
    """Whether a mail is another player's table talk: its Reply-To carries a reply code
    (`game+player+CODE@host`) in place of a token."""
    local = (mail.reply_to or "").rpartition("@")[0].strip("<")
    return mail.block is None and is_reply_code(local.split("+")[-1] if local.count("+") == 2 else None)


def _fill(block: list[str], orders: list[str]) -> list[str]:
    """The report's block with the orders written in, in order, above END. A single order
    that the block suggests is uncommented in place instead, as people do."""
    suggestion = f"# {orders[0]}" if len(orders) == 1 else None
    if suggestion is not None and suggestion in block:
        lines = list(block)
        lines[lines.index(suggestion)] = orders[0]
        return lines
    return block[:-1] + orders + block[-1:]


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
