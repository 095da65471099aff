"""The moderator's levers on the clock: the deadline policy, extend, pause and resume. Each
change is logged with its reason and announced to the players."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Sequence

from ..contract import phase_kinds
from ..errors import BadRequest, ServiceError
from ..i18n.messages import msg
from ..policy import DEFAULT_PRESET, Policy, PolicyError, kind_problems, split_assignment
from ..schedule import deadline_info, due_of, moved
from ..timekeeping import LATEST, TimeError, format_duration, from_iso, parse_duration, to_iso
from .openings import Openings


class ModeratorLevers(Openings):
    """Part of `Referee`: the moderator's levers on the clock."""

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
                body: list[Any] = [msg("The moderator changed how deadlines work in this game:"), ""]
                body += [f"  {c.text()}" for c in felt] or [f"  {line}" for line in lines]
                body += ["", msg("A deadline already set stays as it is; new values apply from the next phase on.")]
                self._announce(tx, msg("Deadline rules changed"), body, reason.strip(), f"policy-{seq}")
            self._settle_mail(tx, now)
        self._flush_notices()
        return {"game": game_id, "changes": lines, "unchanged": unchanged, "announced": bool(felt or current is None),
                "policy": new.to_json()}

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
            self._announce(tx, msg("Deadline extended"), [
                msg("The moderator extended the deadline of phase {phase} by {by}.", phase=schedule["phase"],
                    by=format_duration(delta)),
                "", msg("New deadline: {deadline}", deadline="{deadline}")], reason.strip(), f"extend-{seq}")
            self._settle_mail(tx, now)
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
            self._announce(tx, msg("Game paused"), [
                msg("The moderator paused this game: no deadline runs until it resumes."),
                msg("You may still send orders; they are taken as usual.")], reason.strip(), f"pause-{seq}")
            self._settle_mail(tx, now)
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
            body: list[Any] = [msg("The moderator resumed this game; the clock runs again.")]
            if schedule and schedule.get("due"):
                body += [msg("The deadline of phase {phase} moved by {by}, the time the game stood still.",
                             phase=schedule["phase"], by=format_duration(shift)),
                         "", msg("New deadline: {deadline}", deadline="{deadline}")]
            self._announce(tx, msg("Game resumed"), body, reason.strip(), f"resume-{seq}")
            if tx.meta.get("status") != "finished":
                game = self.game_of(tx.meta)
                pos = self._position(tx, game)
                policy = Policy.from_meta(tx.meta.get("policy"))
                if policy is not None:
                    self._vacation_moves(tx, policy, pos.waiting_for(), now)
            self._settle_mail(tx, now)
        self._flush_notices()
        return {"game": game_id, "moved": format_duration(shift), "due": schedule.get("due") if schedule else None}


def _felt(old: Policy, new: Policy, key: str) -> bool:
    """Whether changing `key` from `old` to `new` changes anything in effect: a deadline
    override is felt only when that phase kind's deadline differs."""
    if key.startswith("deadline."):
        kind = key.partition(".")[2]
        return old.rule(kind).text() != new.rule(kind).text()
    return old.values.get(key) != new.values.get(key) or key == "preset"
