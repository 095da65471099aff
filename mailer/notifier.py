"""Turns what the service did into queued mail, inside the same unit of work.

The service calls these hooks while it still holds the game's transaction, so a turn, its
receipt and the reports it triggers are written together: after a crash either all of them
exist or none does. Mail that must not touch the game (a rejected submission, a stranger)
goes to the system outbox, a small store of its own.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Mapping

from referee.config import Settings
from referee.contract import Event, Game, State
from referee.receipts import Receipt
from referee.store import GameTransaction

from .compose import OutgoingMail, message_id
from .outbox import Outbox, queue
from .reports import render_report, report_context, report_subject

SYSTEM_GAME = "postmaster"


def reply_address(game_id: str, seat: Mapping[str, Any], host: str) -> str:
    return f"{game_id}+{seat['name']}+{seat['token']}@{host}"


class MailNotifier:
    def __init__(self, settings: Settings, clock: Callable[[], datetime], outbox: Outbox,
                 system_outbox: Outbox) -> None:
        self.settings = settings
        self.clock = clock
        self.outbox = outbox
        self.system_outbox = system_outbox
        self._touched: set[str] = set()

    # -- helpers

    def _queue(self, tx: GameTransaction, mail: OutgoingMail) -> None:
        queue(tx, mail, host=self.settings.hostname, sender_name=self.settings.sender_name, now=self.clock())
        self._touched.add(tx.game_id)

    def flush_marks(self) -> None:
        """After the unit of work is written: tell the sender which games have mail."""
        for game_id in self._touched:
            self.outbox.mark(game_id)
        self._touched.clear()

    def _seat(self, meta: Mapping[str, Any], player: str) -> Mapping[str, Any]:
        return next(s for s in meta["seats"] if s["name"] == player)

    # -- hooks called by the service inside its transaction

    def receipt(self, tx: GameTransaction, meta: Mapping[str, Any], receipt: Receipt,
                in_reply_to: str | None) -> None:
        """An accepted submission's receipt, to the player's registered address."""
        seat = self._seat(meta, receipt.player)
        serial = f"{receipt.seq}" if receipt.seq is not None else receipt.at
        self._queue(tx, OutgoingMail(
            tx.game_id, "receipt", seat["email"], f"[{tx.game_id}] Orders received: {receipt.status}",
            receipt.render(), message_id(tx.game_id, "receipt", serial, seat["name"], self.settings.hostname),
            reply_to=reply_address(tx.game_id, seat, self.settings.hostname),
            in_reply_to=in_reply_to, auto="auto-replied"))

    def reports(self, tx: GameTransaction, game: Game, meta: Mapping[str, Any], state: State) -> None:
        """Reports after a phase resolved. A player gets one when something is asked of them,
        when a new phase or round begins, or when the game ends; in between (another player's
        turn in a sequential phase) the events wait for their next report, so nobody is sent
        a mail per move of every other player."""
        phase = game.phase(state)
        stage = f"{phase.round}/{phase.name}"
        asked = {p.player for p in game.prompts(state)}
        over = not asked
        reported: dict[str, int] = dict(meta.get("reported", {}))
        records = tx.events(since=min(reported.values(), default=0))
        last_seq = records[-1]["seq"] if records else max(reported.values(), default=0)
        for seat in meta["seats"]:
            name = seat["name"]
            if not (name in asked or over or meta.get("reported_stage") != stage):
                continue
            seen = reported.get(name, 0)
            events = [Event.from_json(e) for r in records if r["seq"] > seen for e in r.get("events", [])]
            ctx = report_context(game, state, game_id=tx.game_id, player=name, events=events)
            text, html = render_report(ctx)
            self._queue(tx, OutgoingMail(
                tx.game_id, "report", seat["email"], report_subject(ctx), text,
                message_id(tx.game_id, f"report-{phase.key}", last_seq, name, self.settings.hostname),
                html=html, reply_to=reply_address(tx.game_id, seat, self.settings.hostname)))
            reported[name] = last_seq
        tx.set_meta(reported=reported, reported_stage=stage)

    # -- mail that must not touch a game

    def system_mail(self, to: str, subject: str, text: str, *, in_reply_to: str | None, serial: str) -> None:
        store = self.system_outbox.store
        if not store.exists(SYSTEM_GAME):
            store.create(SYSTEM_GAME, {"game": "system", "players": [], "status": "active"}, {})
        with store.transaction(SYSTEM_GAME) as tx:
            queue(tx, OutgoingMail("", "notice", to, subject, text,
                                   message_id("system", "notice", serial, "x", self.settings.hostname),
                                   in_reply_to=in_reply_to, auto="auto-replied"),
                  host=self.settings.hostname, sender_name=self.settings.sender_name, now=self.clock())
        self.system_outbox.mark(SYSTEM_GAME)
