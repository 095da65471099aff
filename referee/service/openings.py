"""When a phase opens: its deadline record, deadlines moved for players on vacation, and the
reports that show it. Called inside the unit of work that opened the phase."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Sequence

from ..contract import Game, State
from ..policy import Policy
from ..schedule import due_of, moved, new_schedule
from ..i18n.messages import moment, msg
from ..timekeeping import format_duration, from_iso, show_moment, to_iso
from .core import ServiceCore


class Openings(ServiceCore):
    """Part of `Referee`: what follows a phase opening, inside the same unit of work."""

    def _notify_reports(self, tx: Any, game: Game, state: State, now: datetime | None = None) -> None:
        """A phase may have opened: give it its deadline, then queue the reports that show it."""
        self._sync_schedule(tx, game, state, now or self.clock())
        self._mark_computers(tx, game, state)
        if self.notifier is not None:
            self.notifier.reports(tx, game, tx.meta, state)

    def _sync_schedule(self, tx: Any, game: Game, state: State, now: datetime) -> None:
        """Make sure the open phase has its deadline record; called whenever a phase may have
        opened, inside the unit of work that opened it."""
        meta = tx.meta
        policy = Policy.from_meta(meta.get("policy"))
        if policy is None:
            return
        prompts = game.prompts(state)
        if not prompts:
            if meta.get("schedule") is not None or meta.get("held") is not None:
                tx.set_meta(schedule=None, held=None)
            return
        info = game.phase(state)
        schedule = meta.get("schedule")
        if schedule and schedule["phase"] == info.key:
            return
        updates: dict[str, Any] = {"schedule": new_schedule(policy, info, now)}
        if meta.get("held") and meta["held"]["phase"] != info.key:
            updates["held"] = None
        tx.set_meta(**updates)
        self._vacation_moves(tx, policy, sorted({p.player for p in prompts}), now)

    def _vacation_moves(self, tx: Any, policy: Policy, waiting: Sequence[str], now: datetime) -> None:
        """Move the open deadline for waiting players on vacation, within their quota."""
        meta = tx.meta
        schedule = meta.get("schedule")
        vacations = dict(meta.get("vacations", {}))
        if not schedule or not vacations:
            return
        used = dict(meta.get("vacation_used", {}))
        quota = policy.vacation_quota
        rule = policy.rule(schedule["kind"])
        changed = False
        for _ in range(len(vacations) + 1):
            due = due_of(schedule)
            if due is None:
                break
            step = False
            for player in waiting:
                vacation = vacations.get(player)
                if not vacation:
                    continue
                start, until = from_iso(vacation["start"]), from_iso(vacation["until"])
                if not (start <= due <= until) or until <= now:
                    continue
                target = rule.due(until)
                if target is None or target <= due:
                    continue
                left = quota - timedelta(seconds=used.get(player, 0))
                by = min(target - due, left)
                if by <= timedelta(0):
                    if not vacation.get("exhausted"):
                        vacations[player] = dict(vacation, exhausted=True)
                        changed = True
                        seq = tx.append({"type": "vacation_quota", "at": to_iso(now), "player": player,
                                         "phase": schedule["phase"]})
                        self._announce(tx, msg("Vacation quota of {player} used up", player=player), [
                            msg("{player} is on vacation, but the vacation quota of this game ({quota} per player) "
                                "is used up, so deadlines no longer move for {player}. The deadline of phase "
                                "{phase} stays {due}.", player=player, quota=format_duration(quota),
                                phase=schedule["phase"], due=moment(due))], "", f"quota-{seq}")
                    continue
                schedule = moved(schedule, by, now)
                used[player] = used.get(player, 0) + int(by.total_seconds())
                changed = step = True
                seq = tx.append({"type": "vacation_moved", "at": to_iso(now), "player": player,
                                 "phase": schedule["phase"], "by": format_duration(by), "due": schedule["due"]})
                left_after = quota - timedelta(seconds=used[player])
                self._announce(tx, msg("Deadline moved for a vacation"), [
                    msg("{player} is on vacation until {until}, so the deadline of phase {phase} moves by {by}.",
                        player=player, until=moment(until), phase=schedule["phase"], by=format_duration(by)),
                    "", msg("New deadline: {deadline}", deadline="{deadline}"),
                    "", msg("{player} has {left} of vacation quota left in this game.", player=player,
                            left=format_duration(left_after))],
                    "", f"vacation-moved-{seq}")
            if not step:
                break
        if changed:
            tx.set_meta(schedule=schedule, vacations=vacations, vacation_used=used)
