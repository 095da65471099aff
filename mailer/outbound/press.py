"""Table talk leaving: a piece of a player's PRESS (or a moderator's notice) to each of its
readers, and the sender's receipt. A part of `MailNotifier`, called by the service inside
the unit of work that recorded the talk (referee/service/table_talk.py).

A reader gets it from the game's address under the sender's player name (`ann via Referee
<game@host>`), never the sender's address. Its Reply-To is the reader's reply address with a
code for a token (referee/press.py), so that a reply goes back through the referee as table
talk to the sender; another code in the text answers everyone the piece went to. Under
`NOTIFY press digest` the piece waits instead in the reader's mailbag for their next mail,
and never makes that mail come sooner (mailer/outbound/folding.py).
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping, Sequence

from referee.i18n import recipient_language, translations
from referee.press import DIGEST, EACH, NONE, TABLE, PressOptions, reply_code, seen_by
from referee.rendering import render
from referee.store import GameTransaction
from referee.timekeeping import from_iso, show_moment
from referee.notify import mode_word

from . import folding
from .compose import OutgoingMail, message_id
from .outbox import queue

KIND = "press"
HISTORY_SHOWN = 50  # pieces a HISTORY answer shows, the latest; the earlier ones are counted


def press_address(game_id: str, seat: Mapping[str, Any], audience: Sequence[str] | None, host: str) -> str:
    """The address that makes a mail of this seat's table talk to `audience` (None: everyone)."""
    return f"{game_id}+{seat['name']}+{reply_code(seat['token'], audience)}@{host}"


def press_answer(game_id: str, outcome: Any, players: Sequence[str]) -> tuple[str, str]:
    """The subject and text that tell a sender where their table talk went, in their language."""
    t = translations(outcome.language)
    sent = [item for item in outcome.talks if item["sent"]]
    if sent and len(sent) == len(outcome.talks):
        names = sorted({n for item in sent for n in item["to"]}, key=list(players).index)
        subject = t.gettext("[{game}] Table talk sent to {names}").format(game=game_id, names=", ".join(names))
    elif sent:
        subject = t.gettext("[{game}] Table talk: {sent} of {count} sent").format(
            game=game_id, sent=len(sent), count=len(outcome.talks))
    else:
        subject = t.gettext("[{game}] Table talk NOT sent").format(game=game_id)
    return subject, render("press-receipt.txt", lang=outcome.language, game_id=game_id, player=outcome.player,
                           notes=outcome.notes, sent=bool(sent))


def _received(tx: GameTransaction, reader: str) -> int:
    """How many pieces `reader` has been sent, this one included: what names their copy in its
    Message-ID. Not the piece's number in the game, which would tell them how much others
    wrote in private meanwhile."""
    return sum(1 for record in tx.records(TABLE) if reader in record.get("to", ()))


def answer_serial(in_reply_to: str | None, outcome: Any) -> str:
    """What names the answer to one mail of table talk, the same however often it is read."""
    return "press-" + hashlib.sha256((in_reply_to or repr(outcome.talks)).encode("utf-8")).hexdigest()[:16]


class PressMail:
    """Table talk hooks of `MailNotifier`, which has what is named here."""

    settings: Any
    clock: Any
    _touched: set[str]
    _seat: Any
    _to_seat: Any
    to_player: Any

    def press(self, tx: GameTransaction, meta: Mapping[str, Any], record: Mapping[str, Any]) -> None:
        """A piece of table talk to each of its readers: at once, or folded into their next
        mail under `NOTIFY press digest`."""
        host = self.settings.hostname
        sender = record.get("from")
        for name in record["to"]:
            seat = self._seat(meta, name)
            lang = recipient_language(meta, name)
            t = translations(lang)
            answer_all = None
            if sender:
                others = sorted((set(record["to"]) | {sender}) - {name})
                if record.get("all"):
                    answer_all = press_address(tx.game_id, seat, None, host)
                elif others != [sender]:
                    answer_all = press_address(tx.game_id, seat, others, host)
            digest = seat.get("press_notify", EACH) == DIGEST
            context = dict(game_id=tx.game_id, sender=sender, reader=name, readers=record["to"],
                           everyone=bool(record.get("all")), text=record["text"],
                           attachments=record.get("attachments", ()),
                           at=show_moment(from_iso(record["at"]), seat.get("timezone"), lang),
                           answer=press_address(tx.game_id, seat, [sender], host) if sender else "",
                           answer_all=answer_all or "", brief=digest)
            # subjects that begin with the game's tag in the catalogue, like every other the
            # referee writes, so a translator sees them whole
            subject = (t.gettext("[{game}] Table talk from {sender}") if sender
                       else t.gettext("[{game}] Notice from the moderator")).format(game=tx.game_id, sender=sender)
            if record.get("all") and sender:
                subject = t.gettext("[{game}] Table talk from {sender} to everyone").format(game=tx.game_id,
                                                                                          sender=sender)
            text = render("press.txt", lang=lang, **context)
            if digest:
                folding.add_part(tx, name, KIND, subject.removeprefix(f"[{tx.game_id}] "), text)
                continue
            mail = OutgoingMail(tx.game_id, KIND, seat["email"], subject, text,
                                message_id(tx.game_id, KIND, _received(tx, name), name, host),
                                reply_to=context["answer"] or f"{tx.game_id}+{name}+{seat['token']}@{host}",
                                language=lang)
            via = t.gettext("{sender} via {referee}").format(sender=sender or t.gettext("moderator"),
                                                           referee=self.settings.sender_name)
            queue(tx, mail, host=host, sender_name=via, now=self.clock())
            self._touched.add(tx.game_id)

    def press_receipt(self, tx: GameTransaction, meta: Mapping[str, Any], outcome: Any,
                      in_reply_to: str | None) -> None:
        """The sender's answer to a mail of table talk alone that went somewhere: where each
        piece went, or why it did not; at once, whatever their mail setting (it answers their
        own mail)."""
        seat = self._seat(meta, outcome.player)
        subject, text = press_answer(tx.game_id, outcome, list(meta["players"]))
        self._to_seat(tx, seat, "press-receipt", subject, text, answer_serial(in_reply_to, outcome),
                      in_reply_to=in_reply_to, auto="auto-replied")

    def press_history(self, tx: GameTransaction, meta: Mapping[str, Any], player: str) -> str:
        """For the answer to HISTORY: the table talk the player sent and got, who to whom and
        when, oldest first; nothing another player wrote to someone else (referee/press.py
        `seen_by`). Empty when there is none and the game allows none."""
        seat = self._seat(meta, player)
        lang = recipient_language(meta, player)
        seen = seen_by(tx.records(TABLE), player)
        if not seen and PressOptions.from_meta(meta).mode == NONE:
            return ""
        shown = seen[-HISTORY_SHOWN:]
        pieces = [dict(piece, at=show_moment(from_iso(piece["at"]), seat.get("timezone"), lang)) for piece in shown]
        return render("press-history.txt", lang=lang, game_id=tx.game_id, player=player, pieces=pieces,
                      earlier=len(seen) - len(shown))

    def press_notify_answer(self, tx: GameTransaction, meta: Mapping[str, Any], player: str, mode: str, serial: str,
                            in_reply_to: str | None) -> None:
        """The answer to `NOTIFY press each|digest`, at once."""
        t = translations(recipient_language(meta, player))
        text = (t.gettext("Table talk from other players now waits for your next mail from the referee, and comes "
                          "with it; it never makes that mail come sooner.") if mode == DIGEST else
                t.gettext("Table talk from other players now comes at once, a mail for each piece."))
        subject = t.gettext("[{game}] Table talk setting: NOTIFY press {mode}").format(
            game=tx.game_id, mode=mode_word(mode, recipient_language(meta, player)))
        self.to_player(tx, meta, player, subject, text + "\n\n" + t.gettext(
            "NOTIFY press each and NOTIFY press digest change it again.") + "\n", serial, in_reply_to, "answer")
