"""Deadlines in the service: the policy, time passing (`tick`), and the moderator's and
players' levers on the clock (extend, pause, resume, vacation, time zone).

`Deadlines` is a part of `Referee` (a mixin), kept apart because it is about time rather than
orders. Every operation is one unit of work on one game: the change, its log event and the
mail it causes are written together, so `tick` run twice, from cron and the daemon at once,
or after a crash, never resolves a phase or sends a reminder twice. The store's file lock
serialises concurrent ticks; the schedule record (`referee/schedule.py`) says what is done.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..contract import Game, Order, OrderError, State, phase_kinds
from ..errors import BadRequest, ServiceError
from ..policy import DEFAULT_PRESET, Policy, PolicyError, kind_problems, split_assignment
from ..progress import DROP, ORDER, Position, Refused
from ..schedule import (closes_at, deadline_info, deadline_text, due_of, mark_reminded, moved,
                       new_schedule, reminders_due)
from ..store import GameNotFound, StoreBusy, StoreError
from ..wakeups import NEVER
from ..tokens import same_token
from ..timekeeping import (LATEST, TimeError, UTC, check_moment, format_duration, from_iso, get_zone,
                          parse_duration, show_moment, to_iso, zone_name)

if TYPE_CHECKING:  # the service module builds on this one
    from . import Reopened

MAX_VACATION = timedelta(days=366)


@dataclass
class TickAction:
    """One thing `tick` did, for its output and for tests."""

    game: str
    action: str  # reminder, defaults, waiting, escalation, released, vacation
    detail: str
    players: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "action": self.action, "detail": self.detail, "players": list(self.players)}


class Deadlines:
    """Mixed into `Referee`; uses its store, clock, notifier and position helpers."""

    # These come from Referee; declared for readers and type checkers.
    store: Any
    notifier: Any
    default_preset: str

    # ------------------------------------------------------------------ policy

    def build_policy(self, preset: str | None, assignments: Sequence[str] = ()) -> Policy:
        """A new game's policy; PolicyError lists every problem."""
        items: dict[str, str] = {}
        problems: list[str] = []
        for item in assignments:
            try:
                key, value = split_assignment(item)
            except PolicyError as exc:
                problems += exc.problems
                continue
            items[key] = value
        if problems:
            raise PolicyError(problems)
        return Policy.build(preset or self.default_preset or DEFAULT_PRESET, items)

    def policy_show(self, game_id: str) -> dict[str, Any]:
        meta = self.store.load(game_id).meta
        policy = Policy.from_meta(meta.get("policy"))
        return {"game": game_id, "policy": policy.to_json() if policy else None,
                "rows": policy.rows() if policy else [], "deadline": deadline_info(meta),
                "paused": meta.get("paused"), "misses": meta.get("misses", {}),
                "vacations": meta.get("vacations", {}),
                "vacation_used": {p: format_duration(timedelta(seconds=s))
                                  for p, s in meta.get("vacation_used", {}).items()}}

    def policy_set(self, game_id: str, assignments: Sequence[str], reason: str) -> dict[str, Any]:
        """Change the policy; logged with the reason and announced. Deadlines already set stay
        (use `extend` to move one); everything else applies at once."""
        if not reason.strip():
            raise BadRequest(["a policy change needs a reason (--reason)"])
        if not assignments:
            raise BadRequest(["give at least one KEY=VALUE"])
        items: dict[str, str] = {}
        try:
            for item in assignments:
                key, value = split_assignment(item)
                items[key] = value
        except PolicyError as exc:
            raise BadRequest(exc.problems) from None
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            current = Policy.from_meta(meta.get("policy"))
            base = current or Policy.build(self.default_preset or DEFAULT_PRESET)
            try:
                new, changes = base.changed(items)
            except PolicyError as exc:
                raise BadRequest(exc.problems) from None
            wrong_kinds = kind_problems(new, phase_kinds(self.game_of(meta)))
            if wrong_kinds:
                raise BadRequest(wrong_kinds)
            unchanged = sorted(key for key in items if key not in {c.key for c in changes})
            if current is not None and not changes:
                return {"game": game_id, "changes": [], "unchanged": unchanged, "policy": new.to_json()}
            # what players would notice; `deadline.auction=2d` where every deadline is 2d
            # already pins the value (kept and logged) but changes no deadline (not announced)
            felt = [c for c in changes if current is None or _felt(current, new, c.key)]
            tx.set_meta(policy=new.to_meta())
            lines = [c.text() for c in changes] or [f"deadlines on, preset {new.preset}"]
            seq = tx.append({"type": "policy", "at": to_iso(now), "changes": lines, "reason": reason.strip()})
            if meta.get("status") != "finished":
                game = self.game_of(meta)
                self._sync_schedule(tx, game, tx.state, now)
            if felt or current is None:
                body = ["The moderator changed how deadlines work in this game:", ""]
                body += [f"  {c.text()}" for c in felt] or [f"  {line}" for line in lines]
                body += ["", "A deadline already set stays as it is; new values apply from the next phase on."]
                self._announce(tx, "Deadline rules changed", body, reason.strip(), f"policy-{seq}")
        self._flush_notices()
        return {"game": game_id, "changes": lines, "unchanged": unchanged, "announced": bool(felt or current is None),
                "policy": new.to_json()}

    # ------------------------------------------------------------------ the schedule

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
                        self._announce(tx, f"Vacation quota of {player} used up", [
                            f"{player} is on vacation, but the vacation quota of this game "
                            f"({format_duration(quota)} per player) is used up, so deadlines no longer "
                            f"move for {player}. The deadline of phase {schedule['phase']} stays "
                            f"{show_moment(due)}."], "", f"quota-{seq}")
                    continue
                schedule = moved(schedule, by, now)
                used[player] = used.get(player, 0) + int(by.total_seconds())
                changed = step = True
                seq = tx.append({"type": "vacation_moved", "at": to_iso(now), "player": player,
                                 "phase": schedule["phase"], "by": format_duration(by), "due": schedule["due"]})
                left_after = quota - timedelta(seconds=used[player])
                self._announce(tx, "Deadline moved for a vacation", [
                    f"{player} is on vacation until {show_moment(until)}, so the deadline of "
                    f"phase {schedule['phase']} moves by {format_duration(by)}.",
                    "", "New deadline: {deadline}",
                    "", f"{player} has {format_duration(left_after)} of vacation quota left in this game."],
                    "", f"vacation-moved-{seq}")
            if not step:
                break
        if changed:
            tx.set_meta(schedule=schedule, vacations=vacations, vacation_used=used)

    # ------------------------------------------------------------------ time passes

    def tick(self, now: datetime | None = None, games: Sequence[str] | None = None) -> list[TickAction]:
        """Process every due deadline and reminder. Safe to run at any time, any number of
        times, from several processes at once."""
        now = (now or self.clock()).astimezone(UTC)
        if games is not None:
            ids = list(games)
        else:
            ids = [r["id"] for r in self.store.list() if r.get("status") != "finished"]
            hints = self.store.wake_due(now.timestamp())
            if hints is not None:  # games whose wake time has not come have nothing due
                ids = [game_id for game_id in ids if hints.get(game_id, True)]
        actions: list[TickAction] = []
        for game_id in ids:
            try:
                actions += self._tick_game(game_id, now)
            except (StoreBusy, GameNotFound):
                continue  # busy: the next tick takes it; gone: nothing to do
            except StoreError as exc:  # a broken game file: the message names it and says what to do
                actions.append(TickAction(game_id, "error", str(exc)))
            except Exception as exc:  # one broken game must not stop the clock of the others
                actions.append(TickAction(game_id, "error", f"{type(exc).__name__}: {exc}"))
            finally:
                self._flush_notices()
        return actions

    def _tick_game(self, game_id: str, now: datetime) -> list[TickAction]:
        done: list[TickAction] = []
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            policy = Policy.from_meta(meta.get("policy"))
            if policy is None or meta.get("status") == "finished":
                return done
            game = self.game_of(meta)
            pos = self._position(tx, game)
            if pos.over:
                return done
            self._sync_schedule(tx, game, pos.state, now)
            self._end_vacations(tx, now)
            if tx.meta.get("paused"):
                return done
            waiting = pos.waiting_for()
            self._vacation_moves(tx, policy, waiting, now)
            schedule = tx.meta["schedule"]
            due = due_of(schedule)
            if due is None:
                return done
            held = tx.meta.get("held")
            if held and now >= due:
                done += self._release(tx, game, pos, held, now)
                if pos.key != schedule["phase"]:
                    return done
                waiting = pos.waiting_for()
            elif held:  # the player whose set is held is in, not missing
                waiting = [p for p in waiting if p != held["player"]]
            close = closes_at(schedule, policy)
            assert close is not None
            if now >= close:
                if policy.missed == "wait":
                    if schedule.get("noted") != schedule["due"]:
                        done.append(self._note_wait(tx, game, schedule, waiting, now))
                    return done
                done += self._miss(tx, game, pos, policy, schedule, now)
                return done
            offsets = reminders_due(schedule, policy, now)
            if offsets and waiting:
                nearest = min(offsets)
                tx.set_meta(schedule=mark_reminded(schedule, offsets))
                tx.append({"type": "reminder", "at": to_iso(now), "phase": schedule["phase"],
                           "before": format_duration(nearest), "players": waiting})
                if self.notifier is not None:
                    for player in waiting:
                        self.notifier.reminder(tx, game, tx.meta, pos.state, player, nearest, now)
                done.append(TickAction(game_id, "reminder", f"{format_duration(nearest)} before the deadline "
                                       f"of phase {schedule['phase']}", tuple(waiting)))
        return done

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

    def _note_wait(self, tx: Any, game: Game, schedule: Mapping[str, Any], waiting: list[str],
                   now: datetime) -> TickAction:
        tx.set_meta(schedule=dict(schedule, noted=schedule["due"]))
        seq = tx.append({"type": "deadline", "at": to_iso(now), "phase": schedule["phase"], "due": schedule["due"],
                         "waiting_for": waiting, "applied": False})
        self._alert(tx, f"Deadline passed in {tx.game_id}", [
            f"The deadline of phase {schedule['phase']} ({show_moment(due_of(schedule))}) has passed.",
            f"Orders are missing from: {', '.join(waiting)}.",
            "This game's policy is missed=wait: nothing is applied; the phase waits.",
            f"To close it with default orders: referee adjudicate {tx.game_id}",
            f"To give more time: referee extend {tx.game_id} --by 1d --reason \"...\""], f"wait-{seq}")
        return TickAction(tx.game_id, "waiting", f"deadline of phase {schedule['phase']} passed; "
                          "the moderator is alerted", tuple(waiting))

    def _miss(self, tx: Any, game: Game, pos: Position, policy: Policy, schedule: Mapping[str, Any],
              now: datetime) -> list[TickAction]:
        """The deadline and its grace passed: default orders for everyone still missing."""
        at = to_iso(now)
        waiting = pos.waiting_for()
        tx.append({"type": "deadline", "at": at, "phase": schedule["phase"], "due": schedule["due"],
                   "waiting_for": waiting, "applied": True})
        applied = self._apply_defaults(tx, game, pos, at, "deadline")
        self._tell_defaults(tx, applied, f"The deadline of phase {schedule['phase']} ({show_moment(due_of(schedule))}) "
                            "passed without their orders")  # type: ignore[arg-type]
        missed = list(dict.fromkeys(item["player"] for item in applied))
        done = [TickAction(tx.game_id, "defaults", f"deadline of phase {schedule['phase']} passed; "
                           f"default orders applied", tuple(missed))]
        misses = dict(tx.meta.get("misses", {}))
        for player in missed:
            misses[player] = misses.get(player, 0) + 1
        tx.set_meta(misses=misses)
        self._save(tx, pos, True)
        for player in missed:
            if policy.escalate_after and misses[player] == policy.escalate_after:
                done.append(self._escalate(tx, game, pos, policy, player, misses[player], now))
        self._finish_if_over(tx, game, pos)
        self._notify_reports(tx, game, pos.state, now)
        return done

    def _escalate(self, tx: Any, game: Game, pos: Position, policy: Policy, player: str, count: int,
                  now: datetime) -> TickAction:
        action = policy.escalation
        at = to_iso(now)
        note = ""
        if action == "drop":
            if pos.over:
                action, note = "alert", "the game is over"
            else:
                try:
                    outcome = pos.submit(player, [], DROP)
                except OrderError as exc:
                    action, note = "alert", f"{game.title} does not allow dropping {player}: {exc.message}"
                else:
                    event = {"type": DROP, "at": at, "player": player, "phase": outcome.before_key, "text": "",
                             "orders": [], "source": "escalation", "events": [e.to_json() for e in outcome.events]}
                    if outcome.resolved:
                        event["opened"] = outcome.after_key
                    tx.append(event)
                    self._save(tx, pos, outcome.resolved)
        seq = tx.append({"type": "escalation", "at": at, "player": player, "misses": count,
                         "action": action, "note": note})
        lines = [f"{player} has missed {count} deadlines in a row in {tx.game_id}."]
        if note:
            lines.append(f"The policy says drop, but {note}; this is an alert instead.")
        if action == "drop":
            lines.append(f"{player} has been dropped from the game, as its policy says.")
            self._announce(tx, f"{player} dropped after {count} missed deadlines",
                           [lines[0], f"As this game's policy says, {player} leaves the game."], "",
                           f"escalation-{seq}")
        elif action == "replace":
            offered = list(dict.fromkeys([*tx.meta.get("offered", []), player]))
            tx.set_meta(offered=offered)
            lines += ["The seat is offered to a replacement player. To hand it over:",
                      f"  referee replace {tx.game_id} {player} --email NEW-ADDRESS"]
            if self.notifier is not None:
                self.notifier.to_player(tx, tx.meta, player, f"[{tx.game_id}] Your seat may be given to someone else", (
                    f"You have missed {count} deadlines in a row in {tx.game_id}, and default orders were "
                    "played for you.\n\nAs this game's policy says, your seat is now offered to a replacement "
                    "player. If you want to keep playing, just send your orders for the next phase you are "
                    "asked about; the moderator will see it.\n"), f"offer-{seq}", None, "notice")
        else:
            lines.append("Nothing else was done; the game goes on with default orders.")
        self._alert(tx, f"{player} missed {count} deadlines in {tx.game_id}", lines, f"escalation-{seq}")
        return TickAction(tx.game_id, "escalation", f"{player} missed {count} in a row: {action}"
                          + (f" ({note})" if note else ""), (player,))

    # ------------------------------------------------------------------ moderator levers

    def _open_schedule(self, tx: Any, game_id: str) -> tuple[Policy, dict[str, Any]]:
        meta = tx.meta
        policy = Policy.from_meta(meta.get("policy"))
        if meta.get("status") == "finished":
            raise ServiceError(f"{game_id} is over; it has no deadline")
        if policy is None:
            raise ServiceError(f"{game_id} has no deadline policy; set one with "
                               f"`referee policy set {game_id} preset=standard --reason ...`")
        schedule = meta.get("schedule")
        if not schedule:
            raise ServiceError(f"{game_id} has no open phase with a deadline")
        return policy, schedule

    def extend(self, game_id: str, by: str, reason: str) -> dict[str, Any]:
        """Move the open phase's deadline later; logged and announced."""
        problems = [] if reason.strip() else ["an extension needs a reason (--reason)"]
        try:
            delta = parse_duration(by)
            if delta <= timedelta(0):
                problems.append("extend by more than 0m")
        except TimeError as exc:
            problems.append(f"--by: {exc}")
        if problems:
            raise BadRequest(problems)
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            _, schedule = self._open_schedule(tx, game_id)
            if due_of(schedule) is None:
                raise ServiceError(f"phase {schedule['phase']} of {game_id} has no deadline to extend "
                                   "(its policy says none)")
            if due_of(schedule) + delta > LATEST:  # type: ignore[operator]
                raise BadRequest([f"--by: the deadline would move past the year {LATEST.year}"])
            schedule = moved(schedule, delta, now)
            tx.set_meta(schedule=schedule)
            seq = tx.append({"type": "extend", "at": to_iso(now), "phase": schedule["phase"],
                             "by": format_duration(delta), "due": schedule["due"], "reason": reason.strip()})
            self._announce(tx, "Deadline extended", [
                f"The moderator extended the deadline of phase {schedule['phase']} by {format_duration(delta)}.",
                "", "New deadline: {deadline}"], reason.strip(), f"extend-{seq}")
        self._flush_notices()
        return {"game": game_id, "phase": schedule["phase"], "by": format_duration(delta), "due": schedule["due"]}

    def pause(self, game_id: str, reason: str) -> dict[str, Any]:
        """Stop the clock: no deadline passes and no reminder goes out; orders are still taken."""
        if not reason.strip():
            raise BadRequest(["a pause needs a reason (--reason)"])
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            if tx.meta.get("status") == "finished":
                raise ServiceError(f"{game_id} is over; there is nothing to pause")
            if tx.meta.get("paused"):
                raise ServiceError(f"{game_id} is already paused since {tx.meta['paused']['since']}")
            tx.set_meta(paused={"since": to_iso(now), "reason": reason.strip()})
            seq = tx.append({"type": "pause", "at": to_iso(now), "reason": reason.strip()})
            self._announce(tx, "Game paused", [
                "The moderator paused this game: no deadline runs until it resumes.",
                "You may still send orders; they are taken as usual."], reason.strip(), f"pause-{seq}")
        self._flush_notices()
        return {"game": game_id, "paused": to_iso(now)}

    def resume(self, game_id: str, reason: str = "") -> dict[str, Any]:
        """Start the clock again; the open deadline moves by the time it stood still."""
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            paused = tx.meta.get("paused")
            if not paused:
                raise ServiceError(f"{game_id} is not paused")
            schedule = tx.meta.get("schedule")
            shift = timedelta(0)
            if schedule and due_of(schedule) is not None:
                since = max(from_iso(paused["since"]), from_iso(schedule["opened"]))
                shift = max(now - since, timedelta(0))
                schedule = moved(schedule, shift, now)
            tx.set_meta(paused=None, schedule=schedule)
            seq = tx.append({"type": "resume", "at": to_iso(now), "reason": reason.strip(),
                             "moved": format_duration(shift), "due": schedule.get("due") if schedule else None})
            body = ["The moderator resumed this game; the clock runs again."]
            if schedule and schedule.get("due"):
                body += [f"The deadline of phase {schedule['phase']} moved by {format_duration(shift)}, "
                         "the time the game stood still.", "", "New deadline: {deadline}"]
            self._announce(tx, "Game resumed", body, reason.strip(), f"resume-{seq}")
            if tx.meta.get("status") != "finished":
                game = self.game_of(tx.meta)
                pos = self._position(tx, game)
                policy = Policy.from_meta(tx.meta.get("policy"))
                if policy is not None:
                    self._vacation_moves(tx, policy, pos.waiting_for(), now)
        self._flush_notices()
        return {"game": game_id, "moved": format_duration(shift), "due": schedule.get("due") if schedule else None}

    # ------------------------------------------------------------------ players' levers

    def _checked_seat(self, tx: Any, player: str, token: str | None) -> dict[str, Any]:
        seat = self._seat(tx.meta, player)
        if seat is None or (token is not None and not same_token(token, seat["token"])):
            if token is not None:
                raise ServiceError("the player name or token is not right for this game")
            raise ServiceError(f"{tx.game_id} has no player {player!r}; players: {', '.join(tx.meta['players'])}")
        return seat

    def vacation(self, game_id: str, player: str, spec: str, *, token: str | None = None,
                 source: str = "cli", message_id: str | None = None) -> dict[str, Any]:
        """`5d`, `until 2026-12-01` (a date in the player's zone, or a date-time), or `off`.
        A mail (`message_id`) already processed changes nothing the second time."""
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            seat = self._checked_seat(tx, player, token)
            name = seat["name"]
            if self._seen_command(tx, message_id):
                return {"game": game_id, "player": name, "duplicate": True}
            if tx.meta.get("status") == "finished":
                raise ServiceError(f"{game_id} is over")
            policy = Policy.from_meta(tx.meta.get("policy"))
            if policy is None:
                raise ServiceError(f"{game_id} has no deadlines, so a vacation changes nothing")
            try:
                until = vacation_end(spec, now, seat.get("timezone"))
            except TimeError as exc:
                raise BadRequest([str(exc)]) from None
            vacations = dict(tx.meta.get("vacations", {}))
            used = timedelta(seconds=tx.meta.get("vacation_used", {}).get(name, 0))
            left = max(policy.vacation_quota - used, timedelta(0))
            if until is None:
                if name not in vacations:
                    raise ServiceError(f"{name} is not on vacation in {game_id}")
                vacations.pop(name)
                tx.set_meta(vacations=vacations)
                seq = tx.append({"type": "vacation", "at": to_iso(now), "player": name, "until": None,
                                 "source": source})
                self._announce(tx, f"{name} is back", [f"{name}'s vacation is over; deadlines run as usual."],
                               "", f"vacation-{seq}")
                result = {"game": game_id, "player": name, "until": None, "quota_left": format_duration(left)}
            else:
                vacations[name] = {"start": to_iso(now), "until": to_iso(until)}
                tx.set_meta(vacations=vacations)
                seq = tx.append({"type": "vacation", "at": to_iso(now), "player": name, "until": to_iso(until),
                                 "source": source})
                quota_note = (f"Deadlines that fall while {name} is away move to give {name} a normal deadline "
                              f"after coming back, within the vacation quota: {format_duration(left)} left of "
                              f"{format_duration(policy.vacation_quota)}.")
                if left <= timedelta(0):
                    quota_note = (f"{name}'s vacation quota in this game ({format_duration(policy.vacation_quota)}) "
                                  "is used up, so deadlines do not move; default orders apply as usual.")
                self._announce(tx, f"{name} is on vacation", [
                    f"{name} is on vacation until {show_moment(until, seat.get('timezone'))}.", "", quota_note],
                    "", f"vacation-{seq}")
                game = self.game_of(tx.meta)
                pos = self._position(tx, game)
                if not tx.meta.get("paused"):
                    self._vacation_moves(tx, policy, pos.waiting_for(), now)
                result = {"game": game_id, "player": name, "until": to_iso(until), "quota_left": format_duration(left)}
            result["deadline"] = deadline_info(tx.meta)
        self._flush_notices()
        return result

    def set_timezone(self, game_id: str, player: str, zone: str, *, token: str | None = None,
                     source: str = "cli", in_reply_to: str | None = None, serial: str | None = None,
                     message_id: str | None = None) -> dict[str, Any]:
        """A player's time zone, for the deadlines in their reports, receipts and reminders."""
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            seat = self._checked_seat(tx, player, token)
            if self._seen_command(tx, message_id):
                return {"game": game_id, "player": seat["name"], "duplicate": True}
            try:
                name_of_zone = zone_name(zone)
            except TimeError as exc:
                raise BadRequest([str(exc)]) from None
            seats = [dict(s, timezone=name_of_zone) if s["name"] == seat["name"] else s for s in tx.meta["seats"]]
            tx.set_meta(seats=seats)
            seq = tx.append({"type": "timezone", "at": to_iso(now), "player": seat["name"], "zone": name_of_zone,
                             "source": source})
            text = deadline_text(tx.meta, name_of_zone)
            if self.notifier is not None and source == "mail":
                self.notifier.to_player(tx, tx.meta, seat["name"], f"[{game_id}] Time zone set: {name_of_zone}", (
                    f"Your time zone in {game_id} is now {name_of_zone}. Reports, receipts and reminders show "
                    f"deadlines in it, with UTC beside.\n\nThe current deadline: {text}\n"),
                    serial or f"timezone-{seq}", in_reply_to, "answer")
        self._flush_notices()
        return {"game": game_id, "player": seat["name"], "timezone": name_of_zone, "deadline": text}

    def _seen_command(self, tx: Any, message_id: str | None) -> bool:
        """Whether this mail command was done before; if not, remember it (same unit of work)."""
        if not message_id:
            return False
        if any(r.get("message_id") == message_id for r in tx.records("commands")):
            return True
        tx.add_record("commands", {"message_id": message_id})
        return False

    def _end_vacations(self, tx: Any, now: datetime) -> None:
        vacations = tx.meta.get("vacations", {})
        over = [p for p, v in vacations.items() if from_iso(v["until"]) <= now]
        if over:
            tx.set_meta(vacations={p: v for p, v in vacations.items() if p not in over})

    # ------------------------------------------------------------------ mail helpers

    def _announce(self, tx: Any, subject: str, lines: list[str], reason: str, serial: str,
                  in_reply_to: str | None = None) -> None:
        if self.notifier is not None:
            self.notifier.announce(tx, tx.meta, subject, lines, reason, serial, in_reply_to=in_reply_to)

    def _alert(self, tx: Any, subject: str, lines: list[str], serial: str) -> None:
        if self.notifier is not None:
            policy = Policy.from_meta(tx.meta.get("policy"))
            self.notifier.alert(tx, subject, lines, serial, policy.moderator if policy else "")


def _felt(old: Policy, new: Policy, key: str) -> bool:
    """Whether changing `key` from `old` to `new` changes anything in effect: a deadline
    override is felt only when that phase kind's deadline differs."""
    if key.startswith("deadline."):
        kind = key.partition(".")[2]
        return old.rule(kind).text() != new.rule(kind).text()
    return old.values.get(key) != new.values.get(key) or key == "preset"


def next_wake(meta: Mapping[str, Any]) -> float:
    """The earliest moment (POSIX time) a tick could have anything to do for a game with this
    meta, for the store's wake index. A lower bound by construction: nothing a tick does for
    a deadline (a reminder, holding or closing the phase, a miss) comes before the deadline
    less its longest reminder, a vacation ends at its `until`, and everything else a tick
    could do follows a unit of work, which sets the time again."""
    policy = Policy.from_meta(meta.get("policy"))
    if policy is None or meta.get("status") == "finished" or meta.get("paused"):
        return NEVER
    schedule = meta.get("schedule")
    if schedule is None:
        return 0.0  # a phase without its deadline record yet: the next tick makes it
    times = [from_iso(v["until"]).timestamp() for v in meta.get("vacations", {}).values()]
    due = due_of(schedule)
    if due is not None:
        times.append((due - max(policy.reminders, default=timedelta(0))).timestamp())
    return min(times, default=NEVER)


def vacation_end(spec: str, now: datetime, zone: str | None) -> datetime | None:
    """When a vacation given as `5d`, `until 2026-12-01[ 18:00]` or `off` ends (None: off)."""
    words = spec.strip().split()
    if not words:
        raise TimeError("say how long: VACATION 5d, VACATION until 2026-12-01, or VACATION off")
    if words[0].lower() in ("off", "end", "stop", "back"):
        return None
    if words[0].lower() == "until":
        raw = " ".join(words[1:])
        if not raw:
            raise TimeError("until when? e.g. VACATION until 2026-12-01")
        shown = repr(raw if len(raw) <= 40 else raw[:40] + "...")
        try:
            if len(raw) <= 10:
                day = date.fromisoformat(raw)
                until = datetime.combine(day, time(0, 0), tzinfo=get_zone(zone or "UTC")).astimezone(UTC)
            else:
                value = datetime.fromisoformat(raw.replace("Z", "+00:00").replace(" ", "T"))
                if value.tzinfo is None:
                    value = value.replace(tzinfo=get_zone(zone or "UTC"))
                until = value.astimezone(UTC)
        except ValueError:
            raise TimeError(f"{shown} is not a date; write it like 2026-12-01 (or 2026-12-01 18:00)") from None
        except OverflowError:  # year 1 or 9999 moved by a time zone
            raise TimeError(f"{shown} is not a day a vacation can end on: it must be within a year from now") from None
        check_moment(until, shown)
    else:
        until = now + parse_duration(" ".join(words))
    if until <= now:
        raise TimeError(f"the vacation would end in the past ({show_moment(until, zone)})")
    if until - now > MAX_VACATION:
        raise TimeError("a vacation may last at most a year")
    return until
