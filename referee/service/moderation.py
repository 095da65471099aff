"""The moderator's hand on a game: adjudicate now, undo to an event, replace or drop a player."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..computer import available as computer_available
from ..computer_seats import BadLevel, checked_level, computer_seat, is_computer
from ..contract import OrderError
from ..errors import BadRequest, ServiceError
from ..history import effective_events, rebuild
from ..i18n.messages import msg
from ..wording import plural_phrase
from ..progress import DROP, phase_json
from ..tokens import name_problem, new_token, normalise_email
from .steps import Steps


@dataclass
class Adjudication:
    game: str
    closed: dict[str, Any]
    applied: list[dict[str, Any]] = field(default_factory=list)  # player, text
    opened: dict[str, Any] | None = None
    finished: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "closed": self.closed, "applied": self.applied,
                "opened": self.opened, "finished": self.finished}


class Moderation(Steps):
    """Part of `Referee`: the moderator's actions on the play of a game."""

    def adjudicate(self, game_id: str) -> Adjudication:
        """Close the open phase now: every player still asked gets their default orders."""
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            game = self.game_of(meta)
            pos = self._position(tx, game)
            if pos.over or meta.get("status") == "finished":
                raise ServiceError(f"{game_id} is over; there is nothing to adjudicate")
            report = Adjudication(game_id, phase_json(game, pos.state))
            at = self._now()
            tx.append({"type": "adjudicate", "at": at, "phase": pos.key, "waiting_for": pos.waiting_for()})
            held = meta.get("held")
            if held and held["phase"] == pos.key:
                # the held set is the player's own choice: it counts before any default
                self._release(tx, game, pos, held, self.clock(), report=False)
            if pos.key == report.closed["key"] and not pos.over:
                report.applied = self._apply_defaults(tx, game, pos, at, "adjudicate")
                self._tell_defaults(tx, report.applied, msg("The moderator closed phase {phase} without "
                                                                            "waiting any longer",
                                                                            phase=report.closed["key"]))
            self._save(tx, pos, True)
            report.finished = self._finish_if_over(tx, game, pos)
            report.opened = None if pos.over else phase_json(game, pos.state)
            self._notify_reports(tx, game, pos.state)
            self._settle_mail(tx)
        self._flush_notices()
        return report

    def undo(self, game_id: str, to: int, reason: str) -> dict[str, Any]:
        """Roll back to just after event `to`. Nothing is deleted: an `undo` event records the
        rollback and its reason, and the state is recomputed from the effective log."""
        if not reason.strip():
            raise BadRequest(["an undo needs a reason"])
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            game = self.game_of(meta)
            events = tx.events()
            live = effective_events(events)
            seqs = [e["seq"] for e in live]
            if meta.get("status") == "open":
                raise ServiceError(f"{game_id} has not started yet: it waits for players to sign up")
            started = [e["seq"] for e in live if e["type"] == "started"]
            if started and to < started[-1]:
                raise ServiceError(f"{game_id} started at event {started[-1]}; an undo goes back to its start at "
                                   "most (the sign-ups before it are not undone)")
            if to not in seqs:
                raise ServiceError(f"event {to} is not in the effective history of {game_id}; "
                                   f"choose one of 1-{events[-1]['seq']} shown by `referee history`")
            if to == seqs[-1]:
                raise ServiceError(f"event {to} is the latest event; there is nothing to undo")
            discarded = [e["seq"] for e in live if e["seq"] > to]
            tx.append({"type": "undo", "at": self._now(), "to": to, "reason": reason.strip(),
                       "discarded": discarded})
            pos, _ = rebuild(game, meta, tx.events())
            tx.drop_snapshots_after(to)
            tx.snapshot(pos.key, pos.opening)
            tx.set_state(pos.state)
            tx.set_meta(steps=[s.to_json() for s in pos.steps], held=None)
            if meta.get("status") == "finished" and not pos.over:
                tx.set_meta(status="active")
            self._finish_if_over(tx, game, pos)
            # every player gets the position as it now stands: an undo may bring back or take
            # away a set of a player who is not being asked
            tx.set_meta(reported_stage=None)
            self._add_notices(tx, [
                plural_phrase(len(discarded), "The moderator took the game back to just after event {to} of its "
                              "history: {n} later event no longer counts.", "The moderator took the game back to "
                              "just after event {to} of its history: {n} later events no longer count.",
                              to=to).to_json(),
                msg("Reason given: {reason}", reason=reason.strip()),
                msg("This report shows the game as it now stands; if it asks you for orders, send them (again).")])
            self._notify_reports(tx, game, pos.state)
            self._urge_everyone(tx)
            self._settle_mail(tx)
            done = {"game": game_id, "to": to, "discarded": discarded, "phase": phase_json(game, pos.state),
                    "waiting_for": pos.waiting_for()}
        self._flush_notices()
        return done

    def replace(self, game_id: str, player: str, email: str | None = None, *,
                computer: str | None = None) -> dict[str, Any]:
        """A new person takes over a seat (`email`): new address, new token; the old token stops
        working. Or a computer player does (`computer`: its level), and plays the seat's
        decisions from now on; a seat a computer plays goes back to a person the same way."""
        if (email is None) == (computer is None):
            raise BadRequest(["give the new player's address, or a computer player's level"])
        level = None
        if computer is not None:
            try:
                level = checked_level(computer)
            except BadLevel as exc:
                raise BadRequest([str(exc)]) from None
        else:
            try:
                email = normalise_email(email or "")
            except ValueError as exc:
                raise BadRequest([f"bad email address: {exc}"]) from None
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            seat = self._require_seat(meta, player)
            name = seat["name"]
            game = self.game_of(meta)
            if level is not None and not computer_available(game):
                raise ServiceError(f"{game.title} has no computer player")
            # a new person: new address and token, and none of the old person's time zone,
            # misses, vacation or bouncing address (the vacation quota already used stays with the seat)
            token = new_token()
            if level is not None:
                fresh = computer_seat(name, level)
                token = fresh["token"]
            else:
                fresh = {k: v for k, v in dict(seat, email=email, token=token).items()
                         if k not in ("timezone", "bouncing", "computer")}
            seats = [fresh if s["name"] == name else s for s in meta["seats"]]
            tx.set_meta(seats=seats, misses={p: n for p, n in meta.get("misses", {}).items() if p != name},
                        offered=[p for p in meta.get("offered", []) if p != name],
                        vacations={p: v for p, v in meta.get("vacations", {}).items() if p != name})
            # mail still queued for the former player asks them to reply with a token that no
            # longer works: it is not sent; the welcome carries the position instead
            target = f"a computer player ({level})" if level is not None else f"<{email}>"
            dropped = self.notifier.drop_for_seat(tx, seat, f"not sent: the seat went to {target}") \
                if self.notifier is not None and not is_computer(seat) else []
            seq = tx.append({"type": "replace", "at": self._now(), "player": name, "dropped": dropped,
                             **({"computer": level} if level is not None else {})})
            if meta.get("status") == "active":
                if level is not None:
                    self._add_notices(tx, [msg("{player}'s seat is now played by a computer player.", player=name)])
                elif is_computer(seat):
                    self._add_notices(tx, [msg("{player}'s seat is played by a person again.", player=name)])
                self._mark_computers(tx, game, tx.state)
            if self.notifier is not None and level is None:
                self.notifier.welcome(tx, game, tx.meta, tx.state, name, f"replace-{seq}")
            if self.notifier is not None:
                self._settle_mail(tx)
        self._flush_notices()
        return {"game": game_id, "player": name, "email": email or "", "token": token, "dropped": dropped,
                "computer": level, "warning": name_problem(game_id, name) if level is None else None}

    def drop(self, game_id: str, player: str) -> dict[str, Any]:
        """Remove a player where the game allows it; the game's refusal is passed on."""
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            seat = self._require_seat(meta, player)
            game = self.game_of(meta)
            pos = self._position(tx, game)
            if pos.over:
                raise ServiceError(f"{game_id} is over")
            try:
                outcome = pos.submit(seat["name"], [], DROP)
            except OrderError as exc:
                raise ServiceError(f"{game.title} does not allow dropping {seat['name']}: {exc.message}") from None
            event = {"type": DROP, "at": self._now(), "player": seat["name"], "phase": outcome.before_key,
                     "text": "", "orders": [], "events": [e.to_json() for e in outcome.events]}
            if outcome.resolved:
                event["opened"] = outcome.after_key
            tx.append(event)
            if (meta.get("held") or {}).get("player") == seat["name"]:
                tx.set_meta(held=None)
            self._save(tx, pos, outcome.resolved)
            self._finish_if_over(tx, game, pos)
            self._notify_reports(tx, game, pos.state)
            self._settle_mail(tx)
            done = {"game": game_id, "player": seat["name"], "events": [e.text for e in outcome.events],
                    "phase": phase_json(game, pos.state)}
        self._flush_notices()
        return done
