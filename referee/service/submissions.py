"""A player's orders: checked, applied and answered with a receipt, several to one game in
one unit of work."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..contract import Game, OrderError, State, phase_code, planned_orders, same_phase
from ..i18n import recipient_language, translations
from ..i18n.messages import say
from ..i18n.terms import in_language, localise, localised_phase, to_english
from ..policy import Policy
from ..progress import DEFAULT, ORDER, Position, Refused, Step, phase_dict, phase_json
from ..receipts import ACCEPTED, DUPLICATE, REFUSED, REJECTED, Receipt, diff_lines, error_list, more_errors
from ..rendering import menu_text
from ..schedule import deadline_text, due_of, seat_zone
from ..tokens import same_token
from .problems import errors_of, on_text_lines, together, without_lines
from .steps import Reopened, Steps


@dataclass(frozen=True)
class Reading:
    """A submission's text as read with its game's help: the text to parse, the phase it names,
    the lines set aside as not orders and notes for the receipt; `refused`, why nothing of it is
    read at all (a mail longer than the referee reads), which refuses the submission."""

    text: str
    phase_key: str | None = None
    set_aside: tuple[Any, ...] = ()  # lines as written, and perhaps a message: how many more
    notes: tuple[Any, ...] = ()  # messages (referee/i18n/messages.py), read in the player's language
    refused: Any = None  # a message, in the player's language
    talk: tuple[Any, ...] = ()  # messages on the table talk of the same mail (referee/service/table_talk.py)


# Reads a submission inside its unit of work: the game, the position, the player, the transaction.
Reader = Callable[[Game, State, str, Any], Reading]


@dataclass(frozen=True)
class Submission:
    """One player's orders as sent: what `Referee.submit_many` takes. A mail comes with a
    `reader` (mailer/daemon/reading.py), which needs the game and the mail sent before to tell
    the player's orders from the rest of their reply; `text` and `phase_key` are then its."""

    player: str
    text: str
    token: str | None = None
    message_id: str | None = None
    phase_key: str | None = None
    source: str = "cli"
    in_reply_to: str | None = None
    reader: Reader | None = None


def _less(lines: list[str], orders: Sequence[Any], game: Game) -> list[str]:
    """`lines` without the canonical text of each of `orders`, one line for one."""
    left = list(lines)
    for order in orders:
        text = game.format(order)
        if text in left:
            left.remove(text)
    return left


def _submitter(record: Mapping[str, Any]) -> str:
    """Who sent an accepted message, from its submissions record (old records hold the receipt)."""
    return record["player"] if "player" in record else record["receipt"].get("player")


class Submissions(Steps):
    """Part of `Referee`: a player's orders, read, checked, applied and answered."""

    def submit(self, game_id: str, player: str, text: str, *, token: str | None = None,
               message_id: str | None = None, phase_key: str | None = None, source: str = "cli",
               in_reply_to: str | None = None) -> Receipt:
        """Read, check and apply one submission; always returns a receipt, never raises for bad
        orders. Only an accepted submission writes to the store."""
        return self.submit_many(game_id, [Submission(player, text, token=token, message_id=message_id,
                                                     phase_key=phase_key, source=source,
                                                     in_reply_to=in_reply_to)])[0]

    def submit_many(self, game_id: str, submissions: Sequence[Submission]) -> list[Receipt]:
        """Several submissions to one game, in order, in one unit of work: the game is read and
        written once, which is what lets the mail worker keep up with a burst of mail. Each
        gets the receipt it would get alone; a refused or rejected one writes nothing, and an
        error in any of them writes none of them. Reopened notices are queued at the end, less
        those a later set of the same player made stale (`_send_reopened`)."""
        with self.store.transaction(game_id) as tx:
            notices: list[Reopened] = []
            receipts = [self._submit_in(tx, game_id, sub, notices) for sub in submissions]
            self._send_reopened(tx, notices, receipts)
            if any(r.status == ACCEPTED for r in receipts):
                self._settle_mail(tx)
        self._flush_notices()
        return receipts

    def _submit_in(self, tx: Any, game_id: str, sub: Submission, notices: list[Reopened]) -> Receipt:
        player, text, message_id = sub.player.strip().lower(), sub.text, sub.message_id
        phase_key, source, in_reply_to = sub.phase_key, sub.source, sub.in_reply_to
        at = self._now()
        base = {"game": game_id, "player": player, "message_id": message_id, "source": source, "at": at,
                "language": recipient_language(tx.meta, player)}
        lang = base["language"]
        t = translations(lang)
        screened = self._screened(tx, game_id, player, sub, base)
        if screened is not None:
            return screened
        meta = tx.meta
        if meta.get("status") == "open":
            return Receipt(REFUSED, reason=f"{game_id} has not started yet; your first report comes when it "
                           "starts", **base)
        game = self.game_of(meta)
        pos = self._position(tx, game)
        phase = phase_dict(pos.phase)
        base["phase"] = localised_phase(game, lang, phase)  # as the receipt shows it
        if sub.reader is not None:
            reading = sub.reader(in_language(game, lang), pos.state, player, tx)  # prose told from their orders
            text, phase_key = reading.text, reading.phase_key
            base.update(set_aside=list(reading.set_aside), notes=list(reading.notes), talk=list(reading.talk))
            if reading.refused is not None:
                return Receipt(REFUSED, reason=say(reading.refused, lang, game), **base)
        if meta.get("status") == "finished" or pos.over:
            return Receipt(REFUSED, reason=t.gettext("{game} is over; no more orders are taken").format(game=game_id),
                           **base)
        if phase_key is not None and not same_phase(game, phase_key, phase["key"]):
            return Receipt(REFUSED, reason=self._stale(tx, game, player, phase_key, base["phase"], lang),
                           stale=phase_code(game, phase_key), **base)
        try:
            # read at the edge: the game, its errors and the log see English only
            english = to_english(game, lang, text)
            orders = pos.take(player, english)
        except Refused as exc:
            return Receipt(REFUSED, reason=str(exc), **base)
        except OrderError as exc:
            exc = self._and_illegal(game, lang, pos, player, text, exc)
            return Receipt(REJECTED, errors=error_list(exc, text, lang, game), more_errors=more_errors(exc),
                           **self._menu(game, pos, player, lang), next=self._next(game, pos, player, False, lang),
                           **base)
        held = meta.get("held")
        # only a set in a simultaneous decision replaces the earlier one; in a sequential turn
        # (a construction phase, say) each set is carried out on top, and what came before stands
        previous = pos.last_set(player) if pos.is_simultaneous(player) else None
        if held and held["player"] == player:
            previous = Step(ORDER, player, [], held["text"])
        try:
            trial = Position(game, pos.state, pos.opening, list(pos.steps))
            outcome = trial.submit(player, orders)
        except OrderError as exc:
            exc = on_text_lines(exc, english, lambda t: pos.read(player, t), len(orders))
            return Receipt(REJECTED, errors=error_list(exc, text, lang, game), more_errors=more_errors(exc),
                           **self._menu(game, pos, player, lang), next=self._next(game, pos, player, False, lang),
                           **base)
        echo = [game.format(o) for o in orders]
        planned = planned_orders(game, pos.state, player, orders)
        old = previous.text.splitlines() if previous else []
        # what stands as facts now (kept from the earlier set, or sent again) is neither taken
        # out of the set nor added to it: the receipt's events say so
        added, removed = diff_lines(_less(old, outcome.kept, game), _less(echo, outcome.repeated, game))
        event = {"type": ORDER, "at": at, "player": player, "phase": phase["key"],
                 "text": "\n".join(echo), "orders": [o.to_json() for o in orders],
                 "message_id": message_id, "source": source,
                 "events": [e.to_json() for e in outcome.events]}
        misses = {p: n for p, n in meta.get("misses", {}).items() if p != player}
        offered = [p for p in meta.get("offered", []) if p != player]
        tx.set_meta(misses=misses, offered=offered)
        if outcome.resolved and self._holds(meta, pos, player):
            # early=false: the set that would close a simultaneous phase waits for the deadline
            event = dict(event, type="held")
            del event["events"]
            seq = tx.append(event)
            tx.set_meta(held={"phase": phase["key"], "player": player, "text": event["text"],
                              "orders": event["orders"], "seq": seq})
            visible: list[str] = []
            after = self._held_next(tx.meta, pos, player, lang)
        else:
            pos = trial
            if outcome.resolved:
                event["opened"] = outcome.after_key
            seq = self._append_order(tx, game, pos.state, player, outcome, event, notices)
            self._save(tx, pos, outcome.resolved)
            if held and held["player"] == player:
                tx.set_meta(held=None)
            self._finish_if_over(tx, game, pos)
            visible = [say(e.text, lang, game) for e in outcome.events if e.visible_to(player)]
            after = self._next(game, pos, player, outcome.resolved, lang)
            if outcome.resolved:  # the receipt names the new phase's deadline
                self._sync_schedule(tx, game, pos.state, self.clock())
        shown = [localise(game, lang, line) for line in echo]
        added = [localise(game, lang, line) for line in added]
        removed = [localise(game, lang, line) for line in removed]
        receipt = Receipt(ACCEPTED, echo=shown, added=added, removed=removed, first_set=previous is None,
                          planned=planned, events=visible, next=after, seq=seq,
                          deadline=self._deadline_line(tx.meta, player, lang), **base)
        # enough to recognise the message again; the receipt itself is rebuilt from the log
        tx.add_record("submissions", {"message_id": message_id, "seq": seq, "player": player})
        if self.notifier is not None:
            self.notifier.receipt(tx, tx.meta, receipt, in_reply_to)
        if pos is trial and outcome.resolved:
            self._notify_reports(tx, game, pos.state)
        return receipt

    @staticmethod
    def _and_illegal(game: Game, lang: str, pos: Position, player: str, text: str, exc: OrderError) -> OrderError:
        """The invalid lines of a submission, and with them what the position refuses of the
        lines that are orders (referee/service/problems.py): every problem in one answer."""
        found = errors_of(exc)
        invalid = {e.line for e in found}
        if None in invalid:
            return exc
        try:
            rest = to_english(game, lang, without_lines(text, invalid))
            orders = pos.read(player, rest)
        except OrderError:
            return exc  # nothing more reads as orders: the invalid lines are the whole answer
        with suppress(Refused):  # refused as a whole, not line by line: the invalid lines are the answer
            try:
                Position(game, pos.state, pos.opening, list(pos.steps)).submit(player, orders)
            except OrderError as more:
                return together(found + errors_of(on_text_lines(more, rest, lambda t: pos.read(player, t),
                                                                len(orders))))
        return exc

    def _screened(self, tx: Any, game_id: str, player: str, sub: Submission,
                  base: dict[str, Any]) -> Receipt | None:
        """The receipt of a submission that is not read at all: a wrong player name or token,
        or a message seen before (its first receipt again, as a duplicate); None to go on."""
        t = translations(base["language"])
        seat = self._seat(tx.meta, player)
        if sub.token is not None and (seat is None or not same_token(sub.token, seat["token"])):
            return Receipt(REFUSED, reason=t.gettext("the player name or token is not right for this game"), **base)
        if seat is None:
            return Receipt(REFUSED, reason=t.gettext("{game} has no player {player!r}").format(game=game_id,
                                                                                               player=player), **base)
        if sub.message_id:
            record = tx.find_record("submissions", "message_id", sub.message_id)
            if record is not None:
                if _submitter(record) != player:
                    return Receipt(REFUSED, reason=t.gettext("message id {id} was already used for another "
                                                             "submission").format(id=sub.message_id), **base)
                return self._duplicate(tx, record, base)
        return None

    def _duplicate(self, tx: Any, record: Mapping[str, Any], base: Mapping[str, Any]) -> Receipt:
        """The receipt for a message accepted before: what was understood then, from the log."""
        if "receipt" in record:  # game files written before records were kept short
            old = Receipt.from_json(record["receipt"])
            old.status = DUPLICATE
            return old
        event = tx.find_record("events", "seq", record["seq"]) or {}
        game = self.game_of(tx.meta)
        return Receipt(DUPLICATE, echo=[localise(game, base["language"], line)
                                        for line in event.get("text", "").splitlines()], seq=record["seq"],
                       **dict(base, phase=None))

    @staticmethod
    def _menu(game: Game, pos: Position, player: str, lang: str) -> dict[str, list[str]]:
        """What a player whose set was rejected may send: in a simultaneous phase the menu of
        the position a new set replaces the earlier one in; a game with a complete menu only."""
        state = pos.state
        if pos.is_simultaneous(player) and pos.last_set(player) is not None:
            try:
                state = pos.without(player).state
            except OrderError:  # the earlier set no longer comes off cleanly: the menu of the position as it is
                pass
        menu = menu_text(game, state, player, lang=lang)
        return {"menu": menu.now, "ahead": menu.ahead} if menu.complete else {}

    def _stale(self, tx: Any, game: Game, player: str, phase_key: str, phase: Mapping[str, Any], lang: str) -> str:
        """Why orders for a past phase are refused, and which phase is open now (`phase` as the
        player reads it; `phase_key` as they wrote it, a code or a key)."""
        t = translations(lang)
        defaulted = any(e["type"] == DEFAULT and e.get("player") == player and e.get("source") == "deadline"
                        and same_phase(game, phase_key, e.get("phase") or "") for e in tx.events())
        how = (t.gettext("which closed at its deadline (your default orders were played)") if defaulted
               else t.gettext("which is not open (already resolved)"))
        return t.gettext("these orders are for phase {old}, {how}; the phase now open is {phase} ({when}, "
                         "phase {key})").format(old=phase_code(game, phase_key), how=how, phase=phase["name"],
                                                when=phase["when"], key=phase["key"])

    def _holds(self, meta: Mapping[str, Any], pos: Position, player: str) -> bool:
        """Whether a set that completes the phase must wait for the deadline (early=false):
        only in a simultaneous decision with a deadline still to come (docs/deadlines.md)."""
        policy = Policy.from_meta(meta.get("policy"))
        if policy is None or policy.early or not pos.is_simultaneous(player):
            return False
        due = due_of(meta.get("schedule"))
        if due is None or meta.get("schedule", {}).get("phase") != pos.key:
            return False
        return bool(meta.get("paused")) or self.clock() < due

    def _held_next(self, meta: Mapping[str, Any], pos: Position, player: str, lang: str) -> dict[str, Any]:
        phase = localised_phase(pos.game, lang, phase_json(pos.game, pos.state))
        text = translations(lang).gettext(
            "everyone is in for {phase} (phase {key}). Early resolution is off in this game, so the phase resolves "
            "at its deadline; until then you may send a new set, which replaces this one.").format(
            phase=phase["name"], key=phase["key"])
        return {"resolved": False, "finished": False, "phase": phase, "waiting_for": [], "held": True, "text": text}

    def _deadline_line(self, meta: Mapping[str, Any], player: str, lang: str) -> str:
        schedule = meta.get("schedule")
        if not schedule or Policy.from_meta(meta.get("policy")) is None:
            return ""
        return translations(lang).gettext("phase {key}: {deadline}").format(
            key=schedule["phase"], deadline=deadline_text(meta, seat_zone(meta, player), lang))
