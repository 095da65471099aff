"""The ground every duty of the service stands on: the store, the clock and the mail hooks;
the live position of a game; seats; notices for the next report; announcements.

Each operation that changes a game is one store transaction, so it is written once and
atomically, or not at all. Time comes from an injected clock so tests can fix it; nothing in
the service reads the wall clock.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence

from .. import registry
from ..computer_seats import due_computers, is_computer
from ..contract import Game
from ..errors import ServiceError
from ..i18n import DEFAULT_LANGUAGE, translations
from ..i18n.messages import kept_message, msg, orders
from ..i18n.terms import localised_phase
from ..policy import DEFAULT_PRESET, Policy
from ..progress import Position, Step, phase_json
from ..store import GameStore
from ..tokens import same_token

Clock = Callable[[], datetime]
log = logging.getLogger("referee.service")

MAX_NOTICE_LINES = 60  # a player who gets no report for a long time is not told an endless story

# What every operation reads from a game's meta without asking; a file that lacks one of
# these (edited by hand, cut short by another tool) is refused when it is opened.
REQUIRED_META = (("game", str), ("players", list), ("seats", list), ("seed", str), ("options", dict),
                 ("commitment", str))


def system_clock() -> datetime:
    """The real clock; only the command line passes it in."""
    return datetime.now(timezone.utc)


def stored_game_problem(meta: Mapping[str, Any], state: Any) -> str | None:
    """What makes a stored game unusable, in a few words; None when nothing does. For the
    store's `check`: the file is refused as a whole, naming it, instead of failing with a
    KeyError half-way through some command."""
    for key, kind in REQUIRED_META:
        if key not in meta:
            return f"its meta has no {key!r}"
        if not isinstance(meta[key], kind):
            return f"its meta {key!r} is not a {kind.__name__}"
    for seat in meta["seats"]:
        if not isinstance(seat, dict) or not all(isinstance(seat.get(k), str) for k in ("name", "email", "token")):
            return "a seat lacks its name, address or token"
    if not isinstance(state, dict):
        return "it has no current state"
    return None


class ServiceCore:
    """What every part of `Referee` uses. The mixins of this package build on it, each on
    the parts it needs, and `Referee` (facade.py) joins them."""

    def __init__(self, store: GameStore, clock: Clock = system_clock,
                 games: Callable[[str], Game] = registry.get, notifier: Any = None,
                 default_preset: str = DEFAULT_PRESET) -> None:
        self.store = store
        self.clock = clock
        self._games = games
        # Mail hooks (mailer.outbound.notifier.MailNotifier): called inside the game's unit of work so
        # a turn and the mail it causes are written together.
        self.notifier = notifier
        self.default_preset = default_preset
        # Called with a game's id after the unit of work that ended the game is written (the
        # tournaments' bookkeeping, referee/tournament/organiser.py); a failing hook is logged
        self.finished_hooks: list[Callable[[str], None]] = []
        self._ended = threading.local()

    def _now(self) -> str:
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the clock must return an aware datetime")
        return now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def game_of(self, meta: Mapping[str, Any]) -> Game:
        try:
            return self._games(meta["game"])
        except registry.UnknownGame as exc:
            raise ServiceError(f"this game needs {meta['game']!r}, which is not installed") from exc

    def _position(self, tx: Any, game: Game) -> Position:
        """The live position: the current state, the steps since the phase opened, and the
        snapshot taken when it opened."""
        if tx.meta.get("status") == "open":
            raise ServiceError(f"{tx.game_id} has not started yet: it waits for players to sign up")
        state = tx.state
        pos = Position(game, state, state, [Step.from_json(s) for s in tx.meta.get("steps", [])])
        if pos.steps:
            matches = [s for s in tx.snapshots() if s["key"] == pos.key]
            if not matches:
                raise ServiceError(f"the game file has no snapshot for phase {pos.key}; run undo to rebuild")
            pos.opening = matches[-1]["state"]
        return pos

    def _save(self, tx: Any, pos: Position, resolved: bool) -> None:
        tx.set_state(pos.state)
        tx.set_meta(steps=[s.to_json() for s in pos.steps])
        self._mark_computers(tx, pos.game, pos.state)
        if resolved or (pos.steps and not any(s["key"] == pos.key for s in tx.snapshots())):
            # the opening state of the phase now open, which resubmission recomputes from
            tx.snapshot(pos.key, pos.opening)

    def _mark_computers(self, tx: Any, game: Game, state: Any) -> None:
        """Note in the meta which computer seats the game waits for now, so that the clock's
        wake index opens the game at once (`next_wake`) and their decisions are played."""
        prompts = game.prompts(state) if tx.meta.get("status") == "active" else []
        due = due_computers(tx.meta, list(dict.fromkeys(p.player for p in prompts)))
        if due != tx.meta.get("computers", []):
            tx.set_meta(computers=due)

    def _finish_if_over(self, tx: Any, game: Game, pos: Position) -> bool:
        if not pos.over or tx.meta.get("status") == "finished":
            return False
        result = game.result(pos.state)
        meta = tx.meta
        tx.append({"type": "finished", "at": self._now(), "phase": pos.key,
                   "result": result.to_json() if result else None, "seed": meta["seed"]})
        tx.set_meta(status="finished", seed_revealed=True)
        self._ended.games = [*getattr(self._ended, "games", []), tx.game_id]
        return True

    def _seat(self, meta: Mapping[str, Any], player: str) -> dict[str, Any] | None:
        for seat in meta["seats"]:
            if seat["name"] == player.strip().lower():
                return seat
        return None

    def _require_seat(self, meta: Mapping[str, Any], player: str) -> dict[str, Any]:
        seat = self._seat(meta, player)
        if seat is None:
            raise ServiceError(f"{meta['id']} has no player {player!r}; players: {', '.join(meta['players'])}")
        return seat

    def _checked_seat(self, tx: Any, player: str, token: str | None) -> dict[str, Any]:
        seat = self._seat(tx.meta, player)
        if seat is None or (token is not None and not same_token(token, seat["token"])):
            if token is not None:
                raise ServiceError("the player name or token is not right for this game")
            raise ServiceError(f"{tx.game_id} has no player {player!r}; players: {', '.join(tx.meta['players'])}")
        return seat

    def _next(self, game: Game, pos: Position, player: str | None, outcome_resolved: bool,
              lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """What happens next, for a receipt: its `text` in the player's language."""
        phase = localised_phase(game, lang, phase_json(game, pos.state))
        waiting = pos.waiting_for()
        t = translations(lang)
        if not waiting:
            result = game.result(pos.state)
            winners = ", ".join(result.winners) if result else t.gettext("none")
            return {"resolved": outcome_resolved, "finished": True, "phase": phase, "waiting_for": [],
                    "text": t.gettext("The game is over. Winner(s): {winners}.").format(winners=winners)}
        values = {"waiting": ", ".join(waiting), "phase": phase["name"], "when": phase["when"], "key": phase["key"]}
        if outcome_resolved:
            text = t.gettext("the phase resolved; now open: {phase} ({when}, phase {key}), "
                             "waiting for {waiting}.").format(**values)
        else:
            text = t.gettext("waiting for {waiting} in {phase} (phase {key}).").format(**values)
            if player and player in waiting and pos.is_simultaneous(player):
                text += " " + t.gettext("You may send a new set: your latest set counts until you end your part "
                                        "or the phase closes.")
        return {"resolved": outcome_resolved, "finished": False, "phase": phase, "waiting_for": waiting, "text": text}

    def _add_notices(self, tx: Any, lines: Sequence[Any], own: Mapping[str, Sequence[Any]] | None = None) -> None:
        """Lines every player is told at the top of their next report (`own`: lines for one
        player only), for what the events of a report do not show: an undo and its reason,
        default orders played. Kept in the game's meta until that report is queued, as
        messages (`referee.i18n.messages`) each player reads in their own language."""
        notices = {p: list(v) for p, v in (tx.meta.get("notices") or {}).items()}
        for seat in tx.meta["seats"]:
            if is_computer(seat):
                continue  # nobody reads a computer seat's reports
            name = seat["name"]
            extra = [kept_message(line) for line in (*lines, *(own or {}).get(name, ()))]
            if extra:
                kept = notices.get(name, [])
                notices[name] = (kept + [""] if kept else []) + extra
                notices[name] = notices[name][-MAX_NOTICE_LINES:]
        tx.set_meta(notices=notices)

    def _tell_defaults(self, tx: Any, applied: Sequence[Mapping[str, Any]], why: Any) -> None:
        """Everyone hears whose orders were defaults and why; each of those players hears
        what was played for them (nobody else: it may be hidden information)."""
        played: dict[str, list[str]] = {}
        for item in applied:
            played.setdefault(item["player"], []).append(item["text"])
        if not played:
            return
        names = ", ".join(played)
        own: dict[str, list[Any]] = {}
        for p, texts in played.items():
            shown = " | ".join(t.replace("\n", " | ") for t in texts if t)
            own[p] = [msg("Played for you: {orders}.", orders=orders(shown)) if shown
                      else msg("Played for you: nothing.")]
        self._add_notices(tx, [msg("{why}, so default orders were played for {names}.", why=why, names=names)], own)

    def _settle_mail(self, tx: Any, now: datetime | None = None) -> list[tuple[str, str]]:
        """At the end of a unit of work: the mail each player is due now under their choice
        (referee/notify.py), everything for one player in one mail; what is not due waits
        in the game's meta, written with this unit of work. The players mailed, and why."""
        if self.notifier is None:
            return []
        return list(self.notifier.settle(tx, self.game_of(tx.meta), tx.meta, tx.state, now or self.clock()))

    def _urge_everyone(self, tx: Any) -> None:
        """Every player's next mail goes out now, whatever they chose (an undo may have taken
        back a set of theirs): a flag in their mailbag, read by `_settle_mail`."""
        bags = dict(tx.meta.get("mailbag") or {})
        for seat in tx.meta["seats"]:
            bag = dict(bags.get(seat["name"]) or {})
            bag["urgent"] = True
            bags[seat["name"]] = bag
        tx.set_meta(mailbag=bags)

    def _flush_notices(self) -> None:
        if self.notifier is not None:
            self.notifier.flush_marks()
        ended, self._ended.games = getattr(self._ended, "games", []), []
        for game_id in ended:
            for hook in self.finished_hooks:
                try:
                    hook(game_id)
                except Exception:  # the game's own work is written; a hook must not undo the answer
                    log.exception("a hook after game %s ended failed", game_id)

    def _announce(self, tx: Any, subject: str, lines: list[str], reason: str, serial: str,
                  in_reply_to: str | None = None) -> None:
        if self.notifier is not None:
            self.notifier.announce(tx, tx.meta, subject, lines, reason, serial, in_reply_to=in_reply_to)

    def _alert(self, tx: Any, subject: str, lines: list[str], serial: str) -> None:
        if self.notifier is not None:
            policy = Policy.from_meta(tx.meta.get("policy"))
            self.notifier.alert(tx, subject, lines, serial, policy.moderator if policy else "")
