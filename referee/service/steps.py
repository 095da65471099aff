"""Steps the service takes inside a unit of work besides a player's own submission: an
accepted set recorded (with the notices for the players it reopened), a held set released at
its deadline, default orders for the players still asked."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Sequence

from ..contract import Game, Order, OrderError, State
from ..errors import ServiceError
from ..progress import DEFAULT, ORDER, Outcome, Position, Refused
from ..receipts import ACCEPTED, Receipt
from ..timekeeping import to_iso
from .openings import Openings

MAX_DEFAULT_ROUNDS = 1000


@dataclass
class Reopened:
    """A notice to a player whose part another player's set opened again, held to the end of
    the unit of work: a later set of the same player accepted in that unit makes it stale
    (their receipt already says what stands), and so does the phase closing meanwhile."""

    player: str
    by: str
    phase: str
    state: State  # the position the notice's ORDERS block is written for
    seq: int  # the set that opened the part again; it names the notice's Message-ID
    lines: list[str]
    cancelled: list[str]


@dataclass
class TickAction:
    """One thing `tick` did, for its output and for tests."""

    game: str
    action: str  # reminder, defaults, waiting, escalation, released, vacation
    detail: str
    players: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "action": self.action, "detail": self.detail, "players": list(self.players)}


class Steps(Openings):
    """Part of `Referee`: steps taken for players, shared by submissions, moderation and ticks."""

    def _append_order(self, tx: Any, game: Game, state: State, player: str, outcome: Outcome,
                      event: dict[str, Any], notices: list[Reopened]) -> int:
        """Append an accepted set's event, naming the other players' parts it cancelled (see
        `Position.without`). Each player it cancelled or opened again gets a notice in
        `notices`, mailed at the end of the unit of work (`_send_reopened`): their report would
        only come when the phase resolves, and they have to act before that. A set that also
        closed the phase asks nothing more in it: the new phase's reports go out instead."""
        if outcome.cancelled:
            event["cancelled"] = [part.to_json() for part in outcome.cancelled]
        seq = tx.append(event)
        if self.notifier is None or outcome.resolved or not (outcome.cancelled or outcome.reopened):
            return seq
        asked = {p.player for p in game.prompts(state)}  # not a player dropped meanwhile
        cancelled = {part.player: part for part in outcome.cancelled}
        for who in dict.fromkeys([*cancelled, *outcome.reopened]):
            if who not in asked:
                continue
            part = cancelled.get(who)
            lines = [part.reason] if part else [e.text for e in outcome.events if e.to and who in e.to]
            notices.append(Reopened(who, player, outcome.after_key, state, seq, lines,
                                    part.text.splitlines() if part else []))
        return seq

    def _send_reopened(self, tx: Any, notices: Sequence[Reopened], receipts: Sequence[Receipt] = ()) -> None:
        """Queue the notices of a unit of work that still hold: not for a player whose set was
        accepted after the notice's cause (`receipts`: that unit's), nor for a phase since closed."""
        if self.notifier is None or not notices:
            return
        since = {r.player: r.seq for r in receipts if r.status == ACCEPTED and r.seq is not None}
        game = self.game_of(tx.meta)
        key = game.phase(tx.state).key
        for notice in notices:
            if notice.phase != key or since.get(notice.player, 0) > notice.seq:
                continue
            self.notifier.reopened(tx, game, tx.meta, notice.state, notice.player, by=notice.by,
                                   lines=notice.lines, cancelled=notice.cancelled, serial=f"reopened-{notice.seq}")

    def _apply_defaults(self, tx: Any, game: Game, pos: Position, at: str, source: str) -> list[dict[str, Any]]:
        """Default orders for every player still asked, until the phase key changes."""
        start = pos.key
        applied: list[dict[str, Any]] = []
        rounds = 0
        while pos.key == start and not pos.over:
            rounds += 1
            if rounds > MAX_DEFAULT_ROUNDS:
                raise ServiceError(f"default orders do not close phase {start}; the game engine never moves on")
            for player in pos.waiting_for():
                if pos.key != start:
                    break
                orders = game.default_orders(pos.state, player)
                try:
                    outcome = pos.submit(player, orders, DEFAULT)
                except (OrderError, Refused) as exc:
                    raise ServiceError(f"{player}'s default orders cannot be applied: {exc}") from None
                text = "\n".join(game.format(o) for o in orders)
                event = {"type": DEFAULT, "at": at, "player": player, "phase": outcome.before_key,
                         "text": text, "orders": [o.to_json() for o in orders], "source": source,
                         "events": [e.to_json() for e in outcome.events]}
                if outcome.resolved:
                    event["opened"] = outcome.after_key
                tx.append(event)
                applied.append({"player": player, "text": text})
        return applied

    def _release(self, tx: Any, game: Game, pos: Position, held: Mapping[str, Any], now: datetime,
                 *, report: bool = True) -> list[TickAction]:
        """The deadline of a held phase came: the set that completed it is applied now.
        With `report` False the caller saves the position and queues the reports itself."""
        tx.set_meta(held=None)
        orders = [Order.from_json(o) for o in held["orders"]]
        try:
            outcome = pos.submit(held["player"], orders)
        except (OrderError, Refused) as exc:
            tx.append({"type": "held_failed", "at": to_iso(now), "player": held["player"], "phase": held["phase"],
                       "reason": str(exc)})
            return [TickAction(tx.game_id, "released", f"{held['player']}'s held set no longer applies: {exc}",
                               (held["player"],))]
        event = {"type": ORDER, "at": to_iso(now), "player": held["player"], "phase": outcome.before_key,
                 "text": held["text"], "orders": held["orders"], "message_id": None, "source": "held",
                 "held": held["seq"], "events": [e.to_json() for e in outcome.events]}
        if outcome.resolved:
            event["opened"] = outcome.after_key
        notices: list[Reopened] = []
        self._append_order(tx, game, pos.state, held["player"], outcome, event, notices)
        if report:  # else the caller closes the phase with default orders: no notice would hold
            self._save(tx, pos, outcome.resolved)
            self._finish_if_over(tx, game, pos)
            self._send_reopened(tx, notices)
            if outcome.resolved:
                self._notify_reports(tx, game, pos.state, now)
        return [TickAction(tx.game_id, "released", f"phase {held['phase']} resolved at its deadline",
                           (held["player"],))]
