"""An open game starting by itself once its start rule is met: the seat order drawn from the
game's seed, the opening position set up, the commitment published and every player's
welcome (their token address, then the first report) queued, all in the unit of work that
took the last seat or that the clock's tick opened."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..computer_seats import computer_seat, free_names
from ..contract import SetupError
from ..i18n.messages import msg
from ..press import PressOptions
from ..signups import OPEN, seat_order, start_due
from ..timekeeping import to_iso
from .openings import Openings


class Starting(Openings):
    """Part of `Referee`: an open game's start."""

    def _start_if_due(self, tx: Any, now: datetime) -> bool:
        """Start the game when its rule is met; whether it started."""
        meta = tx.meta
        record = meta.get("signup")
        if meta.get("status") != OPEN or not record or not start_due(record, len(meta["seats"]), now):
            return False
        game = self.game_of(meta)
        people = list(meta["seats"])
        bots = [computer_seat(name, record["fill"]) for name in
                free_names([s["name"] for s in people], record["max"] - len(people))] if record.get("fill") else []
        order = seat_order(meta["seed"], [s["name"] for s in people + bots])
        if not game.min_players <= len(order) <= game.max_players:
            return False  # the seat range was checked at creation; nothing to start with otherwise
        try:
            state = game.setup(order, meta["seed"], meta["options"], meta.get("components"))
        except SetupError as exc:  # the options were checked when the game was made; tell the moderator
            self._alert(tx, "The game could not start", [f"Setting up the game failed: {exc}",
                                                          "It stays open; fix the cause and start it again."],
                        f"start-failed-{len(meta['seats'])}")
            return False
        by_name = {s["name"]: s for s in people + bots}
        seats = [by_name[name] for name in order]
        record = dict(record, pending=[])
        tx.set_meta(players=order, seats=seats, status="active", started=to_iso(now), signup=record)
        tx.set_state(state)
        tx.append({"type": "started", "at": to_iso(now), "players": order, "commitment": meta["commitment"],
                   **({"computers": [s["name"] for s in bots]} if bots else {})})
        lines = [msg("{title}, game {game}, has started with {count} players. Seat order, drawn from the game's "
                     "seed: {order}.", title=game.title, game=tx.game_id, count=len(order), order=", ".join(order)),
                 msg("Seed commitment (SHA-256): {commitment}. The seed is published when the game ends, so anyone "
                     "can check the seat order and every draw.", commitment=meta["commitment"]),
                 PressOptions.from_meta(meta).line()]
        own = self.notifier.welcome_lines(tx.game_id, seats) if self.notifier is not None else {}
        self._add_notices(tx, lines, own)
        self._notify_reports(tx, game, state, now)
        self._settle_mail(tx, now)  # everyone's first mail, under their choice
        return True
