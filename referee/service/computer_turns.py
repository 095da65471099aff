"""Computer seats' decisions: read what the seat may see, think outside the game's lock, and
send the answer through the same path as a person's orders.

`play_computers` loops while the game asks one of its computer seats: it reads the stored
game (no lock is held while thinking, so the game's mail is never held up), makes the seat's
`Observation` (its view and the events it may see, nothing else of the state), has it
decided by `think` (in the daemon and in `referee tick`, a `Thinker`: a process of its own
with a time limit), and submits the lines with the seat's token, the phase key they were
thought for and a Message-ID made from the position, so that two processes thinking about
the same moment (the daemon and a `tick` from cron) make one move: the second is a
duplicate. The move is checked, logged and answered like any other; a game with computer
seats replays from its log without thinking again.

When the thinking fails (a timeout, a crash, an answer the game refuses), the seat's default
orders are played, the game's history says why, and the game goes on.

The game's meta lists its computer seats waiting for a decision (`computers`), so that the
clock's wake index (`next_wake`) opens such a game at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable

from ..computer import Observation, observe
from ..computer.thinking import ThinkingFailed
from ..computer_seats import due_computers
from ..contract import Event, OrderError
from ..playthrough import own_position_and_set
from ..progress import DEFAULT, Refused
from ..receipts import ACCEPTED, DUPLICATE
from .submissions import Submission, Submissions

log = logging.getLogger("referee.computer")

Think = Callable[[Observation, str, str], list[str]]
SEEN_RECORDS = 60  # the latest event records a computer seat's observation holds
MOST_MOVES = 500  # decisions played in one call, so that a game that never stops asking cannot hold it


@dataclass
class ComputerMove:
    """One decision of a computer seat: what was sent, or the default orders played and why."""

    game: str
    player: str
    phase: str
    text: str
    status: str  # accepted, duplicate, default
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "player": self.player, "phase": self.phase, "text": self.text,
                "status": self.status, "reason": self.reason}


class ComputerTurns(Submissions):
    """Part of `Referee`: the decisions of computer seats."""

    def play_computers(self, game_id: str, think: Think) -> list[ComputerMove]:
        """Every decision the game's computer seats owe, until it waits for a person (or ends)."""
        moves: list[ComputerMove] = []
        for _ in range(MOST_MOVES):
            move = self._next_computer_move(game_id, think)
            if move is None:
                break
            moves.append(move)
        return moves

    def _next_computer_move(self, game_id: str, think: Think) -> ComputerMove | None:
        stored = self.store.load(game_id)
        meta = stored.meta
        if meta.get("status") != "active" or meta.get("paused"):
            return None
        game = self.game_of(meta)
        prompts = game.prompts(stored.state)
        due = due_computers(meta, list(dict.fromkeys(p.player for p in prompts)))
        if not due:
            return None
        player = due[0]
        seat = self._require_seat(meta, player)
        key = game.phase(stored.state).key
        try:
            state, earlier = own_position_and_set(game, stored, player)
        except OrderError:
            state, earlier = stored.state, []
        seen = observe(game, state, player, meta.get("components") or {}, _visible(stored.events, player))
        level = seat["computer"]["level"]
        serial = f"{len(stored.events)}.{player}"
        try:
            lines = think(seen, level, f"{seat['computer']['seed']}/{serial}")
        except ThinkingFailed as exc:
            return self._computer_defaults(game_id, player, key, f"no decision: {exc}")
        text = "\n".join(earlier + lines)
        receipt = self.submit_many(game_id, [Submission(
            player, text, token=seat["token"], message_id=f"<computer.{serial}.{key}@{game_id}>", phase_key=key,
            source="computer")])[0]
        if receipt.status in (ACCEPTED, DUPLICATE):
            return ComputerMove(game_id, player, key, text, receipt.status)
        why = receipt.reason or "; ".join(str(e.get("message", e)) for e in receipt.errors or [])
        return self._computer_defaults(game_id, player, key, f"the answer was not accepted ({why})")

    def _computer_defaults(self, game_id: str, player: str, key: str, reason: str) -> ComputerMove | None:
        """The seat's default orders, when its thinking gave no usable answer; the history
        says why. Nothing when the game has moved on meanwhile."""
        log.warning("%s: %s's computer player: %s; default orders played", game_id, player, reason)
        with self.store.transaction(game_id) as tx:
            game = self.game_of(tx.meta)
            pos = self._position(tx, game)
            if pos.key != key or player not in pos.waiting_for():
                return None
            orders = game.default_orders(pos.state, player)
            try:
                outcome = pos.submit(player, orders, DEFAULT)
            except (OrderError, Refused) as exc:
                log.error("%s: %s's default orders cannot be applied: %s", game_id, player, exc)
                return None
            text = "\n".join(game.format(o) for o in orders)
            event = {"type": DEFAULT, "at": self._now(), "player": player, "phase": outcome.before_key,
                     "text": text, "orders": [o.to_json() for o in orders], "source": "computer", "reason": reason,
                     "events": [e.to_json() for e in outcome.events]}
            if outcome.resolved:
                event["opened"] = outcome.after_key
            tx.append(event)
            self._save(tx, pos, outcome.resolved)
            self._finish_if_over(tx, game, pos)
            self._notify_reports(tx, game, pos.state)
            self._settle_mail(tx)
        self._flush_notices()
        return ComputerMove(game_id, player, key, text, "default", reason)


def _visible(records: list[dict[str, Any]], player: str) -> list[Event]:
    """The events of the latest records that the player may see."""
    out = []
    for record in records[-SEEN_RECORDS:]:
        for data in record.get("events", []):
            event = Event.from_json(data)
            if event.visible_to(player):
                out.append(event)
    return out
