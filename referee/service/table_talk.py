"""Table talk: a player's PRESS passed on to other players, a moderator's notice to everyone,
all of it kept with the game (referee/press.py), and the moderator's levers on it.

A mail with table talk and orders is one unit of work: the table talk is checked and queued
for its readers first, then the orders take the path of any submission, their receipt saying
which lines of the mail went where.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Sequence

from ..errors import BadRequest, ServiceError
from ..gamelog import write_log
from ..i18n import recipient_language
from ..i18n.messages import msg
from ..press import (NONE, PUBLIC, TABLE, PressLimits, PressOptionError, PressOptions,
                     code_audience, dropped, for_archive, is_reply_code, resolve_names, sent_within)
from ..receipts import ACCEPTED, Receipt
from ..signups import OPEN
from ..timekeeping import to_iso
from ..tokens import same_token
from .steps import Reopened
from .submissions import Reading, Submission, Submissions


@dataclass(frozen=True)
class Talk:
    """One piece of table talk as sent: to whom (None: everyone; names as written; `by_address`:
    the players the reply address it was sent to stands for), the text, the lines of the mail
    it took, and notes on what was left out of it."""

    audience: tuple[str, ...] | None
    text: str
    lines: tuple[int, int] | None = None
    by_address: bool = False
    left_out: tuple[Any, ...] = ()


@dataclass(frozen=True)
class PressRequest:
    """A player's table talk, perhaps with orders from the same mail (`orders`, read where
    `order_lines` says; None there: an ORDERS block). The service answers a mail (`source`
    "mail") whose talk went somewhere; an answer that changes nothing is the caller's."""

    player: str
    talks: tuple[Talk, ...]
    token: str | None = None  # the seat's token, or a reply code (referee/press.py)
    message_id: str | None = None
    in_reply_to: str | None = None
    source: str = "cli"
    attachments: tuple[str, ...] = ()
    orders: Submission | None = None
    order_lines: tuple[int, int] | None = None


@dataclass
class PressOutcome:
    """What became of each piece (`talks`: audience, who got it, whether it was sent and why
    not, its number), the receipt of the orders that came with it, and the lines that say
    all of it as messages, in the sender's language when written."""

    game: str
    player: str
    language: str
    address: str  # the sender's registered address, where an answer not queued with the game goes
    talks: list[dict[str, Any]] = field(default_factory=list)
    receipt: Receipt | None = None
    duplicate: bool = False
    notes: list[Any] = field(default_factory=list)

    @property
    def sent(self) -> int:
        return sum(1 for t in self.talks if t["sent"])


class TableTalk(Submissions):
    """Part of `Referee`: table talk sent, read, kept and exported."""

    press_limits = PressLimits()

    def press(self, game_id: str, request: PressRequest) -> PressOutcome:
        """Pass a player's table talk on, in one unit of work with the orders of the same mail.
        ServiceError when the name or token is not right (nothing is said about the game)."""
        with self.store.transaction(game_id) as tx:
            seat, by_address = self._press_seat(tx, request.player, request.token)
            name = seat["name"]
            outcome = PressOutcome(game_id, name, recipient_language(tx.meta, name), seat["email"])
            seen = request.message_id and any(r.get("message_id") == request.message_id for r in tx.records(TABLE))
            if seen:
                outcome.duplicate = True
            else:
                self._pass_on(tx, request, name, by_address, outcome)
            outcome.notes = self._press_notes(outcome, request)
            if request.orders is not None:
                notices: list[Reopened] = []
                sub = dataclasses.replace(request.orders, token=seat["token"],
                                          reader=_with_notes(request.orders, outcome.notes))
                outcome.receipt = self._submit_in(tx, game_id, sub, notices)
                self._send_reopened(tx, notices, [outcome.receipt])
                if outcome.receipt.status == ACCEPTED:
                    self._settle_mail(tx)
            elif self.notifier is not None and outcome.sent and request.source == "mail":
                # with the talk it answers; talk sent nowhere changes no game file, and is
                # answered by the mail side from the system outbox
                self.notifier.press_receipt(tx, tx.meta, outcome, request.in_reply_to)
        self._flush_notices()
        return outcome

    def _press_seat(self, tx: Any, player: str,
                    token: str | None) -> tuple[dict[str, Any], tuple[str, ...] | None | bool]:
        """The sender's seat, and who a reply code of theirs stands for (False: their own
        token, or none given from the command line)."""
        seat = self._seat(tx.meta, player)
        if seat is not None and (token is None or same_token(token, seat["token"])):
            return seat, False
        if seat is not None and is_reply_code(token):
            audience = code_audience(token or "", seat["token"], seat["name"], tx.meta["players"])
            if audience is not None:
                return seat, (audience or None)
        raise ServiceError("the player name or token is not right for this game")

    def _pass_on(self, tx: Any, request: PressRequest, name: str, by_address: tuple[str, ...] | None | bool,
                 outcome: PressOutcome) -> None:
        """Each piece checked against the game's options and the limits, recorded and queued
        for its readers; what became of it in `outcome`."""
        meta = tx.meta
        options = PressOptions.from_meta(meta)
        records = tx.records(TABLE)
        events = tx.events()
        gone = dropped(events)
        players = list(meta["players"])
        since = to_iso(self.clock() - timedelta(hours=1))
        budget = self.press_limits.per_player_per_hour - sent_within(records, name, since)
        game = self.game_of(meta) if meta.get("status") != OPEN else None
        phase = game.phase(tx.state).key if game is not None else None
        for index, talk in enumerate(request.talks):
            audience = (by_address if by_address is not False else None) if talk.by_address else talk.audience
            item: dict[str, Any] = {"audience": None if audience is None else list(audience), "to": [], "sent": False,
                                    "reason": None, "lines": list(talk.lines) if talk.lines else None, "n": None,
                                    "left_out": list(talk.left_out)}
            outcome.talks.append(item)
            readers, why = self._readers(meta, options, name, audience, players, gone, talk, index)
            if why is None and budget <= 0:
                why = msg("you may send {count} pieces of table talk an hour in this game, and have sent them; "
                          "send this one again later", count=self.press_limits.per_player_per_hour)
            if why is not None:
                item["reason"] = why
                continue
            budget -= 1
            record = {"n": len(records) + 1, "at": self._now(), "from": name, "to": readers,
                      "all": audience is None, "text": talk.text, "phase": phase,
                      "after": events[-1]["seq"] if events else 0, "attachments": list(request.attachments),
                      "message_id": request.message_id, "source": request.source}
            tx.add_record(TABLE, record)
            records.append(record)
            item.update(to=readers, sent=True, n=record["n"])
            if self.notifier is not None:
                self.notifier.press(tx, meta, record)

    def _readers(self, meta: dict[str, Any], options: PressOptions, name: str, audience: tuple[str, ...] | None,
                 players: Sequence[str], gone: set[str], talk: Talk, index: int) -> tuple[list[str], Any]:
        """Who a piece goes to, or why it goes to nobody (a message)."""
        if meta.get("status") == OPEN:
            return [], msg("the game has not started yet")
        if meta.get("status") == "finished" and not options.after_end:
            return [], msg("the game is over, and table talk ends with it in this game")
        if name in gone:
            return [], msg("you have left the game")
        if options.mode == NONE:
            return [], msg("table talk is off in this game (the moderator's choice)")
        if index >= self.press_limits.per_mail:
            return [], msg("a mail may hold at most {count} PRESS lines; send the rest in another mail",
                           count=self.press_limits.per_mail)
        if audience is not None and not audience:
            return [], msg("PRESS must be followed by ALL or by player names, like PRESS ann,bob")
        if audience is None:
            readers = [p for p in players if p != name and p not in gone]
        else:
            readers, unknown = resolve_names(audience, players)
            if unknown:
                return [], msg("no player is called {names}; the players are {players}",
                               names=", ".join(unknown)[:80], players=", ".join(players))
            if options.mode == PUBLIC and set(readers) | {name} != set(players) - gone | {name}:
                return [], msg("only table talk to everyone is allowed in this game: begin with PRESS ALL")
            left = [p for p in readers if p in gone]
            if left:
                return [], msg("{names} left the game, so nothing goes to them", names=", ".join(left))
            readers = [p for p in readers if p != name]
        if not readers:
            return [], msg("nobody else is left to read it") if audience is None else msg(
                "you wrote only to yourself")
        if not talk.text.strip():
            return [], msg("there was no text to send")
        size = len(talk.text.encode("utf-8"))
        if size > self.press_limits.max_bytes:
            return [], msg("it is {size} bytes long, and table talk may have at most {most}; send it in parts",
                           size=size, most=self.press_limits.max_bytes)
        return readers, None

    @staticmethod
    def _press_notes(outcome: PressOutcome, request: PressRequest) -> list[Any]:
        """The lines that tell the sender where each piece went (and the orders' lines), as
        messages: in a receipt of the orders, or in the answer to the table talk alone."""
        if outcome.duplicate:
            return [msg("The table talk of this mail was passed on when the mail first came; it is not sent again.")]
        notes: list[Any] = []
        for item in outcome.talks:
            audience = msg("everyone") if item["audience"] is None else ", ".join(item["audience"])
            where = msg("Lines {first}-{last}", first=item["lines"][0], last=item["lines"][1]) \
                if item["lines"] and item["lines"][0] != item["lines"][1] else \
                msg("Line {first}", first=item["lines"][0]) if item["lines"] else msg("Your mail")
            if item["sent"] and item["audience"] is not None and sorted(item["to"]) == sorted(item["audience"]):
                # sent to exactly the players named: the names once
                notes.append(msg("{where}: table talk sent to {names}.", where=where, names=", ".join(item["to"])))
            elif item["sent"]:
                notes.append(msg("{where}: table talk to {audience}, sent to {names}.", where=where, audience=audience,
                                 names=", ".join(item["to"])))
            else:
                notes.append(msg("{where}: table talk to {audience}, NOT sent: {reason}.", where=where,
                                 audience=audience, reason=item["reason"]))
            notes += item["left_out"]
        if request.attachments and outcome.sent:
            notes.append(msg("Files are not passed on: {files} stayed with the referee, and the players who got your "
                             "table talk were told.", files=", ".join(request.attachments)))
        if request.orders is not None:
            first, last = request.order_lines or (0, 0)
            notes.append(msg("Your ORDERS block was read as orders.") if request.order_lines is None else
                         msg("Lines {first}-{last} were read as orders.", first=first, last=last) if first != last else
                         msg("Line {first} was read as orders.", first=first))
        return notes

    # -- the moderator

    def notice(self, game_id: str, text: str) -> dict[str, Any]:
        """A notice from the moderator to every player still in the game, mailed at once and
        kept with the table talk (whatever the game's options say of players' table talk)."""
        text = text.strip()
        if not text:
            raise BadRequest(["the notice has no text"])
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            if meta.get("status") == OPEN:
                raise ServiceError(f"{game_id} has not started yet: it has no players to tell")
            events = tx.events()
            gone = dropped(events)
            readers = [p for p in meta["players"] if p not in gone]
            game = self.game_of(meta)
            record = {"n": len(tx.records(TABLE)) + 1, "at": self._now(), "from": None, "to": readers, "all": True,
                      "text": text, "phase": game.phase(tx.state).key,
                      "after": events[-1]["seq"] if events else 0, "attachments": [], "message_id": None,
                      "source": "cli"}
            tx.add_record(TABLE, record)
            if self.notifier is not None:
                self.notifier.press(tx, meta, record)
        self._flush_notices()
        return {"game": game_id, "n": record["n"], "to": readers}

    def press_records(self, game_id: str, player: str | None = None) -> list[dict[str, Any]]:
        """The table talk of a game, in order: all of it for the moderator, or what one
        player sent and got."""
        with self.store.transaction(game_id) as tx:
            if player is not None:
                player = self._require_seat(tx.meta, player)["name"]
            return [dict(r) for r in tx.records(TABLE)
                    if player is None or r.get("from") == player or player in r.get("to", ())]

    def press_options(self, game_id: str, assignments: Sequence[str] = ()) -> dict[str, Any]:
        """The game's table talk options; `KEY=VALUE` items change them, and every player is
        told of a change."""
        given = {}
        for item in assignments:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise BadRequest([f"{item!r} is not KEY=VALUE"])
            given[key.strip()] = value.strip()
        with self.store.transaction(game_id) as tx:
            before = PressOptions.from_meta(tx.meta)
            try:
                after = before.changed(given)
            except PressOptionError as exc:
                raise BadRequest(exc.problems) from None
            if after != before:
                tx.set_meta(press=after.to_meta())
                seq = tx.append({"type": "press_options", "at": self._now(), **after.to_meta()})
                if after.mode != before.mode and tx.meta.get("status") != OPEN:
                    self._announce(tx, msg("Table talk: the moderator changed the rules"), [after.line()], "",
                                   f"press-options-{seq}")
                    self._settle_mail(tx)
        self._flush_notices()
        return {"game": game_id, **after.to_meta()}

    def game_record(self, game_id: str, *, press: str | None = None, reveal_seed: bool = False) -> str:
        """The game record (referee/gamelog.py) with the table talk the game's
        `press_in_archive` shows, or `press` (none, public, all) for the moderator's own copy."""
        with self.store.transaction(game_id) as tx:
            meta, events, state, records = dict(tx.meta), tx.events(), dict(tx.state), tx.records(TABLE)
        if meta.get("status") == OPEN:
            raise ServiceError(f"{game_id} has not started yet: its record begins when it starts")
        choice = press or PressOptions.from_meta(meta).archive
        try:
            PressOptions().changed({"press_in_archive": choice})
        except PressOptionError as exc:
            raise BadRequest(exc.problems) from None
        return write_log(meta, events, state, reveal_seed=reveal_seed, press=for_archive(records, choice),
                         press_shown=choice)


def _with_notes(orders: Submission, notes: Sequence[Any]) -> Any:
    """The orders' reader, its receipt told what became of the table talk."""
    inner = orders.reader

    def read(game: Any, state: Any, player: str, tx: Any) -> Reading:
        reading = inner(game, state, player, tx) if inner is not None else Reading(orders.text, orders.phase_key)
        return dataclasses.replace(reading, talk=tuple(notes))
    return read
