"""A game at a glance for its moderator: whom it waits for and for what, since when and until
when, the seats to know about, and whether anything asks the moderator to act. `referee
status` tells one game so; `referee list` gives a line a game from the same facts, so twenty
games fit one screen with those that need attention marked."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from ..contract import Game, State, decision_title
from ..policy import Policy
from ..progress import phase_json
from ..schedule import closes_at, due_of
from ..seat_flags import seat_flags
from ..signups import FULL, OPEN, start_rule_text
from ..store import StoreError
from ..timekeeping import to_iso
from .core import ServiceCore


def waiting_lines(game: Game, state: State) -> list[dict[str, Any]]:
    """Whom the game waits for, a line per decision: players asked the same thing at once
    share one; `what` is in the moderator's words, not the asked player's prompt."""
    lines: dict[str, dict[str, Any]] = {}
    for prompt in game.prompts(state):
        key = prompt.decision if prompt.simultaneous else f"{prompt.decision}/{prompt.player}"
        line = lines.setdefault(key, {"players": [], "decision": prompt.decision, "simultaneous": prompt.simultaneous,
                                      "what": decision_title(game, prompt.decision)})
        line["players"].append(prompt.player)
    return list(lines.values())


def clock_facts(meta: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Since when the open phase waits and until when: opened, due, the end of the grace,
    how late it is (None: not yet; `grace`: past the deadline, in the grace period; `passed`:
    past both, so the clock's tick acts or, under missed=wait, the moderator), and a pause."""
    schedule = meta.get("schedule") or {}
    policy = Policy.from_meta(meta.get("policy"))
    due = due_of(schedule)
    close = closes_at(schedule, policy) if (schedule and policy is not None) else None
    paused = meta.get("paused")
    late = None
    if due is not None and not paused and now >= due:
        late = "grace" if close is not None and now < close else "passed"
    return {"since": schedule.get("opened"), "due": to_iso(due) if due else None,
            "grace_until": to_iso(close) if close else None, "late": late,
            "paused": dict(paused) if paused else None, "held": bool(meta.get("held"))}


class Glance(ServiceCore):
    """Part of `Referee`: a game's facts for its moderator, one game or all of them."""

    def glance(self, game_id: str) -> dict[str, Any]:
        """One game's facts (see the module); a StoreError for a game that does not exist or
        cannot be read."""
        return self._facts(game_id, self.store.load(game_id))

    def _facts(self, game_id: str, stored: Any) -> dict[str, Any]:
        meta, now = stored.meta, self.clock()
        out: dict[str, Any] = {"id": game_id, "game": meta["game"], "title": meta.get("title"),
                               "status": meta.get("status"), "players": list(meta["players"]),
                               "flags": seat_flags(meta, now)}
        if meta.get("status") == OPEN:
            record = meta["signup"]
            pending = [p["name"] for p in record.get("pending", []) if record.get("approve")]
            out.update(phase=None, waiting=[], since=meta.get("created"), due=None, grace_until=None, late=None,
                       paused=None, held=False,
                       signup={"taken": len(meta["seats"]), "min": record["min"], "max": record["max"],
                               "start": start_rule_text(record), "to_approve": pending,
                               "starts_at": None if record["starts_when"] == FULL else record["starts_when"]})
            out["attention"] = [f"to approve: {', '.join(pending)}"] if pending else []
            return out
        game = self.game_of(meta)
        state = stored.state
        out["phase"] = phase_json(game, state)
        out["waiting"] = waiting_lines(game, state)
        out.update(clock_facts(meta, now))
        result = game.result(state) if not out["waiting"] else None
        out["winners"] = list(result.winners) if result else None
        out["attention"] = self._attention(out)
        return out

    @staticmethod
    def _attention(facts: Mapping[str, Any]) -> list[str]:
        """What asks the moderator to act, in a few words each; empty when nothing does."""
        reasons = []
        if facts["waiting"] and facts["late"]:
            reasons.append("deadline passed, in its grace" if facts["late"] == "grace" else "deadline and grace passed")
        if facts["paused"]:
            reason = facts["paused"].get("reason")
            reasons.append(f"paused: {reason}" if reason else "paused")
        for name, flags in facts["flags"].items():
            reasons += [f"{name} {flag['short']}" for flag in flags if flag.get("attention")]
        return reasons

    def overview(self) -> list[dict[str, Any]]:
        """Every game's facts, in the catalogue's order; a game whose file cannot be read
        is listed with the reason instead of stopping the listing."""
        out = []
        for row in self.store.list():
            try:
                out.append(self.glance(row["id"]))
            except StoreError as exc:
                out.append({"id": row["id"], "game": row.get("game"), "title": None, "status": "broken",
                            "players": list(row.get("players") or []), "flags": {}, "phase": None, "waiting": [],
                            "attention": [f"the game file cannot be read: {exc}"]})
        return out
