"""Time passing: `tick` sends reminders, releases held sets and plays default orders when a
deadline and its grace have passed, and escalates repeated misses.

Every operation is one unit of work on one game: the change, its log event and the mail it
causes are written together, so `tick` run twice, from cron and the daemon at once, or after a
crash, never resolves a phase or sends a reminder twice. The store's file lock serialises
concurrent ticks; the schedule record (`referee/schedule.py`) says what is done.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from ..contract import Game, OrderError
from ..policy import Policy
from ..progress import DROP, Position
from ..schedule import closes_at, due_of, mark_reminded, reminders_due
from ..store import GameNotFound, StoreBusy, StoreError
from ..i18n import recipient_language, translations
from ..i18n.messages import moment, msg
from ..timekeeping import UTC, format_duration, from_iso, show_moment, to_iso
from ..notify import digest_wake
from ..wakeups import NEVER
from ..signups import OPEN, start_wake
from .computer_turns import ComputerTurns, Think
from .starting import Starting
from .steps import TickAction


class Ticking(ComputerTurns, Starting):
    """Part of `Referee`: due deadlines and reminders, for cron and the daemon alike."""

    def tick(self, now: datetime | None = None, games: Sequence[str] | None = None, *,
             think: Think | None = None) -> list[TickAction]:
        """Process every due deadline and reminder, and with `think` the decisions computer
        seats owe (the daemon thinks in a process of its own and passes none). Safe to run at
        any time, any number of times, from several processes at once."""
        now = (now or self.clock()).astimezone(UTC)
        if games is not None:
            ids = list(games)
        else:
            ids = [r["id"] for r in self.store.list() if r.get("status") != "finished"]
            hints = self.store.wake_due(now.timestamp())
            if hints is not None:  # games whose wake time has not come have nothing due
                ids = [game_id for game_id in ids if hints.get(game_id, True)]
        actions: list[TickAction] = []
        computers: list[str] = []
        for game_id in ids:
            try:
                done, due = self._tick_game(game_id, now)
                actions += done
                if due:
                    computers.append(game_id)
            except (StoreBusy, GameNotFound):
                continue  # busy: the next tick takes it; gone: nothing to do
            except StoreError as exc:  # a broken game file: the message names it and says what to do
                actions.append(TickAction(game_id, "error", str(exc)))
            except Exception as exc:  # one broken game must not stop the clock of the others
                actions.append(TickAction(game_id, "error", f"{type(exc).__name__}: {exc}"))
            finally:
                self._flush_notices()
        if think is not None:
            for game_id in computers:
                actions += self.tick_computers(game_id, think)
        return actions

    def tick_computers(self, game_id: str, think: Think) -> list[TickAction]:
        """The decisions a game's computer seats owe, as tick actions; a failure stays with
        the game (the next tick tries again)."""
        try:
            moves = self.play_computers(game_id, think)
        except (StoreBusy, GameNotFound):
            return []
        except Exception as exc:  # one broken game must not stop the others' computer seats
            return [TickAction(game_id, "error", f"computer seats: {type(exc).__name__}: {exc}")]
        finally:
            self._flush_notices()
        return [TickAction(game_id, "computer", f"{m.phase}: {m.text.replace(chr(10), ' | ') or '-'}"
                           + (f" ({m.status}: {m.reason})" if m.status not in ("accepted", "duplicate") else ""),
                           (m.player,)) for m in moves]

    def _tick_game(self, game_id: str, now: datetime) -> tuple[list[TickAction], bool]:
        """What the tick did for the game, and whether computer seats owe a decision now."""
        with self.store.transaction(game_id) as tx:
            if tx.meta.get("status") == OPEN:  # its start (with everyone's first mail), or nothing
                if self._start_if_due(tx, now):
                    return [TickAction(game_id, "started", f"started with {', '.join(tx.meta['players'])}",
                                       tuple(tx.meta["players"]))], bool(tx.meta.get("computers"))
                return [], False
            done = self._tick_in(tx, game_id, now)
            # reminders, the reports of a phase closed, digests due: each player's one mail
            digests = [name for name, why in self._settle_mail(tx, now) if why in ("digest", "soon")]
            if digests:
                done.append(TickAction(game_id, "digest", "the mail that waited for these players' digest",
                                       tuple(digests)))
            due = bool(tx.meta.get("computers")) and tx.meta.get("status") == "active" and not tx.meta.get("paused")
        return done, due

    def _tick_in(self, tx: Any, game_id: str, now: datetime) -> list[TickAction]:
        done: list[TickAction] = []
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

    def _end_vacations(self, tx: Any, now: datetime) -> None:
        vacations = tx.meta.get("vacations", {})
        over = [p for p, v in vacations.items() if from_iso(v["until"]) <= now]
        if over:
            tx.set_meta(vacations={p: v for p, v in vacations.items() if p not in over})

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
        due = due_of(schedule)
        assert due is not None
        self._tell_defaults(tx, applied, msg("The deadline of phase {phase} ({due}) passed without their orders",
                                             phase=schedule["phase"], due=moment(due)))
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
            self._announce(tx, msg("{player} dropped after {count} missed deadlines", player=player, count=count),
                           [msg("{player} has missed {count} deadlines in a row in {game}.", player=player, count=count,
                                game=tx.game_id),
                            msg("As this game's policy says, {player} leaves the game.", player=player)], "",
                           f"escalation-{seq}")
        elif action == "replace":
            offered = list(dict.fromkeys([*tx.meta.get("offered", []), player]))
            tx.set_meta(offered=offered)
            lines += ["The seat is offered to a replacement player. To hand it over:",
                      f"  referee replace {tx.game_id} {player} --email NEW-ADDRESS"]
            if self.notifier is not None:
                t = translations(recipient_language(tx.meta, player))
                self.notifier.to_player(
                    tx, tx.meta, player, t.gettext("[{game}] Your seat may be given to someone else").format(
                        game=tx.game_id),
                    t.gettext("You have missed {count} deadlines in a row in {game}, and default orders were played "
                              "for you.").format(count=count, game=tx.game_id) + "\n\n"
                    + t.gettext("As this game's policy says, your seat is now offered to a replacement player. If you "
                                "want to keep playing, just send your orders for the next phase you are asked about; "
                                "the moderator will see it.") + "\n", f"offer-{seq}", None, "notice")
        else:
            lines.append("Nothing else was done; the game goes on with default orders.")
        self._alert(tx, f"{player} missed {count} deadlines in {tx.game_id}", lines, f"escalation-{seq}")
        return TickAction(tx.game_id, "escalation", f"{player} missed {count} in a row: {action}"
                          + (f" ({note})" if note else ""), (player,))


def next_wake(meta: Mapping[str, Any]) -> float:
    """The earliest moment (POSIX time) a tick could have anything to do for a game with this
    meta, for the store's wake index. A lower bound by construction: nothing a tick does for
    a deadline (a reminder, holding or closing the phase, a miss) comes before the deadline
    less its longest reminder, a vacation ends at its `until`, a digest is due at its
    player's time or a day before a deadline (referee/notify.py), and everything else a
    tick could do follows a unit of work, which sets the time again."""
    if meta.get("status") == OPEN:  # only a start date needs the clock; a sign-up starts a full game
        return start_wake(meta.get("signup") or {"starts_when": "full"}) or NEVER
    digest = digest_wake(meta) if meta.get("status") != "finished" else None
    policy = Policy.from_meta(meta.get("policy"))
    if policy is None or meta.get("status") == "finished" or meta.get("paused"):
        return digest if digest is not None else NEVER
    if meta.get("computers"):
        return 0.0  # a computer seat owes a decision: now
    schedule = meta.get("schedule")
    if schedule is None:
        return 0.0  # a phase without its deadline record yet: the next tick makes it
    times = [from_iso(v["until"]).timestamp() for v in meta.get("vacations", {}).values()]
    if digest is not None:
        times.append(digest)
    due = due_of(schedule)
    if due is not None:
        times.append((due - max(policy.reminders, default=timedelta(0))).timestamp())
    return min(times, default=NEVER)
