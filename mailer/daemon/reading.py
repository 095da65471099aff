"""A mail's orders, read inside the game's unit of work, where the game and the mail sent are.

What the inbound parser found (mailer/inbound/message.py) is the player's own text (an ORDERS
block of theirs, or the new text of the reply) and the ORDERS blocks of the quoted part. Here:

* the quoted block is compared with the block as it was sent (mailer/sent_blocks.py, found by
  the Message-ID the reply names in In-Reply-To or References, or else among the blocks sent to
  the player under the same tag, the one the mail's block matches best): only the lines the player added
  or changed there count, however the client quoted or re-wrapped the rest, and a block left as
  it was is never taken for the player's orders. Without the block sent on record nothing of a
  quoted block is read: only the comparison can tell the player's lines from the referee's;
* an ORDERS block in the player's own text that is the block as sent, unchanged, is a quote the
  quote detection missed, and is not read either; in one that the player edited, the lines as
  sent are left out;
* in own text outside a block, prose is set aside (prose_lines.py);
* when the player's own text and the quoted block both hold orders, the own text wins, and the
  receipt says so;
* a mail that forwards another, with no orders in its own text or a quoted block, is read from
  the forwarded mail's text below its header block (prose set aside the same way), and the
  receipt says so; when nothing holds orders, the receipt says where the referee looked;
* a mail longer than the referee reads (mailer/inbound/orders.py), or orders with a line longer
  than any order, are refused with the limits, unread: the work a mail costs is bounded
  whatever it holds, and so is what its answer quotes back.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from mailer.inbound.message import Block, InboundMail
from mailer.safe_headers import sanitise_header
from mailer.sent_blocks import SentBlock, fingerprint, same_tag, sent_block, sent_blocks_to
from referee.contract import Game, State, order_keywords
from referee.i18n import N_
from referee.i18n.messages import Message, msg
from referee.orderlines import folded_names, keyword_match
from referee.service import Reading

from mailer.inbound.orders import MAX_BODY_LINES
from mailer.inbound.quotes import MAX_OWN_LINES

from .prose_lines import MAX_ORDER_CHARS, set_aside_prose

__all__ = ["MailReading", "phase_key_of"]

MAX_SET_ASIDE = 12
MAX_SHOWN = 100  # characters of one line quoted back in a receipt
MAX_NOTED = 6  # lines quoted back in one note
MAX_OUTSIDE = 20  # lines around an ORDERS block looked at for orders written outside it
_REWRAP = 3  # a line of the block sent may come back split over this many lines

# Notes of a receipt, kept as messages (referee/i18n/messages.py): each player reads them in
# their own language.
OWN_WINS = N_("Your own text holds orders, so the lines you typed into the quoted ORDERS block were not read "
              "(your own text comes first): {lines}.")
QUOTED_READ = N_("Read from the ORDERS block you edited where your reply quotes it: the lines you added or "
                 "changed.")
OWN_AS_SENT = N_("The ORDERS block in your mail is the one the referee sent, unchanged, so it was not read; the "
                 "text above it may be part of the quote and was not read either.")
QUOTED_UNKNOWN = N_("The ORDERS block quoted in your reply could not be compared with a block the referee sent "
                    "you (none with its ORDERS line is on record), so nothing in it was read.")
OUTSIDE = N_("Only the ORDERS block of your mail is read; these lines outside it look like orders: {lines}.")
NO_ORDERS = N_("No orders were found. Looked in {places}. Write one order per line between the ORDERS and END "
               "lines, or above the quoted report.")
TOO_LONG = N_("Your mail is longer than the referee reads, so nothing in it was read. It reads at most {own} lines "
              "of your own text, {all} lines in all, and no line of orders longer than {chars} characters. Send "
              "your orders on their own, one per line.")
MORE_SET_ASIDE = N_("... and {count} more")
TRUNCATED = N_("Your mail is longer than the referee reads: only its first {lines} lines were looked at.")
FORWARDED_READ = N_("Read from the mail you forwarded, below its header block (From, Date, Subject), since your "
                    "own text holds no orders.")


def phase_key_of(tag: str | None, game_id: str) -> str | None:
    """The phase an ORDERS tag names, when it names this game (`ORDERS <game> <phase>`)."""
    words = (tag or "").split()
    if len(words) >= 2 and words[0].lower() == game_id:
        return words[1]
    return None


def _is_order_line(line: str) -> bool:
    return bool(line.split("#", 1)[0].strip())


def not_as_sent(lines: Sequence[str], sent: SentBlock) -> tuple[list[str], bool]:
    """The lines with those of the block as sent blanked, and whether all were as sent. A line
    the client re-wrapped comes back split over up to three lines, which joined match it."""
    out = list(lines)
    unchanged = True
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        span = 0
        for size in range(1, _REWRAP + 1):
            piece = lines[i : i + size]
            if len(piece) < size or not piece[-1].strip():
                break
            if fingerprint(" ".join(part.strip() for part in piece)) in sent.prints:
                span = size
                break
        if span:
            out[i : i + span] = [""] * span
            i += span
        else:
            unchanged = False
            i += 1
    return out, unchanged


def _places(places: list[Message]) -> Message:
    """Where the referee looked, as one phrase: "A", "A and B", "A, B and C"."""
    if len(places) == 1:
        return places[0]
    if len(places) == 2:
        return msg("{first} and {second}", first=places[0], second=places[1])
    return msg("{first}, {second} and {third}", first=places[0], second=places[1], third=places[2])


def _shown(lines: Iterable[str]) -> str:
    """Lines quoted back in a note: a few, each cut short."""
    shown = [line.strip() for line in lines if line.strip()]
    text = "; ".join(sanitise_header(line, MAX_SHOWN) for line in shown[:MAX_NOTED])
    return text + (f"; ... (+{len(shown) - MAX_NOTED})" if len(shown) > MAX_NOTED else "")


def _too_long(lines: Sequence[str]) -> bool:
    return any(len(line) > MAX_ORDER_CHARS for line in lines)


class MailReading:
    """The `Submission.reader` of one mail: called by the service with the game, the position,
    the player and the unit of work's transaction."""

    def __init__(self, mail: InboundMail, game_id: str) -> None:
        self.mail = mail
        self.game_id = game_id

    def _answered(self) -> list[str]:
        """The Message-IDs the reply answers, the one it answers directly first."""
        ids = [self.mail.in_reply_to] + list(reversed(self.mail.references))
        return list(dict.fromkeys(i for i in ids if i))

    def __call__(self, game: Game, state: State, player: str, tx: Any) -> Reading:
        mail = self.mail
        if mail.overlong:
            return Reading("", refused=_refusal())
        sent = None
        if mail.quoted_blocks or (mail.orders_from_block and mail.orders_tag):
            sent = sent_block(tx, self._answered()) or self._sent_to(tx, player)
        notes: list[Message] = [msg(TRUNCATED, lines=MAX_BODY_LINES)] if mail.truncated else []
        places: list[Message] = []
        own = mail.orders_text.split("\n") if mail.orders_text else []
        own_key = None
        set_aside: list[str] = []
        if mail.orders_from_block:
            own_key = phase_key_of(mail.orders_tag, self.game_id)
            if sent is not None and same_tag(mail.orders_tag, sent.tag):
                own, unchanged = not_as_sent(own, sent)
                if unchanged:
                    notes.append(msg(OWN_AS_SENT))
                    own, own_key = [], None
            places.append(msg("the ORDERS block of your own text"))
            looks = [line for line in mail.orders_outside[:MAX_OUTSIDE]
                     if len(line) <= MAX_ORDER_CHARS and _looks_like_order(game, state, player, line)]
            if looks:
                notes.append(msg(OUTSIDE, lines=_shown(looks)))
        else:
            own, set_aside = set_aside_prose(game, state, player, own)
            places.append(msg("your own text"))
        quoted, quoted_key = self._quoted(sent, notes, places)
        forwarded: list[str] = []
        if mail.forwarded_text and not any(_is_order_line(line) for line in own + quoted):
            forwarded, aside = set_aside_prose(game, state, player, mail.forwarded_text.split("\n"))
            set_aside += aside
            places.append(msg("the mail you forwarded"))
        if any(_is_order_line(line) for line in own):
            if any(_is_order_line(line) for line in quoted):
                notes.append(msg(OWN_WINS, lines=_shown(line for line in quoted if _is_order_line(line))))
            text, key = own, own_key
        elif any(_is_order_line(line) for line in quoted):
            notes.append(msg(QUOTED_READ))
            text, key = quoted, quoted_key
        elif any(_is_order_line(line) for line in forwarded):
            notes.append(msg(FORWARDED_READ))
            text, key = forwarded, None
        else:
            notes.append(msg(NO_ORDERS, places=_places(places)))
            text, key = own, own_key
        if _too_long(text):  # the game reads these lines: none may be longer than an order
            return Reading("", refused=_refusal())
        shown: list[Any] = [sanitise_header(line, MAX_SHOWN) for line in set_aside[:MAX_SET_ASIDE]]
        if len(set_aside) > MAX_SET_ASIDE:
            shown.append(msg(MORE_SET_ASIDE, count=len(set_aside) - MAX_SET_ASIDE))
        return Reading("\n".join(text), key, tuple(shown), tuple(notes))

    def _sent_to(self, tx: Any, player: str) -> SentBlock | None:
        """For a reply that names no mail on record: of the blocks sent to the player under the
        tag of a block in the mail, the one that leaves the fewest of its lines unmatched."""
        mail = self.mail
        email = next((seat.get("email") for seat in tx.meta.get("seats", []) if seat.get("name") == player), None)
        blocks = list(mail.quoted_blocks)
        if mail.orders_from_block and mail.orders_tag:
            blocks.insert(0, Block(mail.orders_tag, tuple(mail.orders_text.split("\n"))))
        best: tuple[int, SentBlock] | None = None
        for block in blocks if email else ():
            for sent in sent_blocks_to(tx, email, block.tag or ""):
                left = sum(1 for line in not_as_sent(block.lines, sent)[0] if line.strip())
                if best is None or left < best[0]:
                    best = (left, sent)
        return best[1] if best else None

    def _quoted(self, sent: SentBlock | None, notes: list[Message], places: list[Message]) -> tuple[list[str], str | None]:
        """The lines the player added or changed in the quoted ORDERS block, and its phase."""
        blocks = self.mail.quoted_blocks
        if not blocks:
            return [], None
        block: Block = blocks[0]
        if sent is not None:
            block = next((b for b in blocks if same_tag(b.tag, sent.tag)), blocks[0])
        if sent is None or not same_tag(block.tag, sent.tag):
            if any(_is_order_line(line) for line in block.lines):
                notes.append(msg(QUOTED_UNKNOWN))
            return [], None
        lines, unchanged = not_as_sent(block.lines, sent)
        places.append(msg("the ORDERS block quoted from the referee's mail (as it was sent)") if unchanged
                      else msg("the ORDERS block quoted from the referee's mail"))
        return lines, phase_key_of(block.tag, self.game_id)


def _refusal() -> Message:
    return msg(TOO_LONG, own=MAX_OWN_LINES, all=MAX_BODY_LINES, chars=MAX_ORDER_CHARS)


def _looks_like_order(game: Game, state: State, player: str, line: str) -> bool:
    """A line outside the ORDERS block that the game would have read as an order."""
    keywords = order_keywords(game)
    content = line.split("#", 1)[0].strip()
    if not keywords or not content or \
            keyword_match(content.split()[0], folded_names(keywords), close=False)[0] not in ("exact", "prefix"):
        return False
    try:
        game.parse(state, player, content)
    except Exception:
        return False
    return True
