"""The one way into a game for the CLI and the mail daemon alike.

`Referee` validates, applies and records; it never prints. Each operation that changes a
game is one store transaction, so it is written once and atomically, or not at all. Time
comes from an injected clock so tests can fix it; nothing below reads the wall clock.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence

from . import registry
from .contract import (ComponentError, Game, GameOption, Order, OrderError, PhaseInfo, SetupError, State, canonical_json,
                       phase_kinds)
from .deadlines import Deadlines
from .errors import BadRequest, ServiceError
from .policy import DEFAULT_PRESET, Policy, PolicyError, kind_problems
from .progress import DEFAULT, DROP, ORDER, Outcome, Position, Refused, Step
from .receipts import ACCEPTED, DUPLICATE, REFUSED, REJECTED, Receipt, diff_lines, error_list
from .rendering import menu_text
from .rng import commitment, new_seed
from .schedule import deadline_info, deadline_text, due_of, seat_zone
from .store import GAME_ID, GameStore, StoreError, check_game_id
from .tokens import name_problem, new_token, normalise_email, same_token, valid_name

Clock = Callable[[], datetime]
log = logging.getLogger("referee.service")

STATE_EVENTS = (ORDER, DEFAULT, DROP)
MAX_DEFAULT_ROUNDS = 1000
MAX_NOTICE_LINES = 60  # a player who gets no report for a long time is not told an endless story


def system_clock() -> datetime:
    """The real clock; only the command line passes it in."""
    return datetime.now(timezone.utc)


@dataclass
class NewGame:
    id: str
    game: str
    players: list[dict[str, str]]  # name, email, token
    commitment: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "players": self.players, "commitment": self.commitment}


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


@dataclass(frozen=True)
class Submission:
    """One player's orders as sent: what `Referee.submit_many` takes."""

    player: str
    text: str
    token: str | None = None
    message_id: str | None = None
    phase_key: str | None = None
    source: str = "cli"
    in_reply_to: str | None = None


@dataclass
class Reopened:
    """A notice to a player whose part another player's set opened again, held to the end of
    the unit of work: a later set of the same player accepted in that unit makes it stale
    (their receipt already says what stands), and so does the phase closing meanwhile."""

    player: str
    by: str
    phase: str
    state: State  # the position the notice's ORDERS block is written for
    seq: int  # the set that opened the part again; it names the notice's Message-ID
    lines: list[str]
    cancelled: list[str]


def _submitter(record: Mapping[str, Any]) -> str:
    """Who sent an accepted message, from its submissions record (old records hold the receipt)."""
    return record["player"] if "player" in record else record["receipt"].get("player")


def phase_json(game: Game, state: State) -> dict[str, Any]:
    return _phase_dict(game.phase(state))


def _phase_dict(info: PhaseInfo) -> dict[str, Any]:
    return {"key": info.key, "round": info.round, "name": info.name, "kind": info.kind}


def state_hash(state: State) -> str:
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def components_hash(components: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(components)).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- stored games

# What every operation reads from a game's meta without asking; a file that lacks one of
# these (edited by hand, cut short by another tool) is refused when it is opened.
REQUIRED_META = (("game", str), ("players", list), ("seats", list), ("seed", str), ("options", dict),
                 ("commitment", str))


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


# --------------------------------------------------------------------------- options


def _convert(option: GameOption, raw: str) -> Any:
    """Turn `--option key=value` text into the option's type (that of its default)."""
    default = option.default
    if isinstance(default, bool):
        low = raw.strip().lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise ValueError(f"option {option.name} takes true or false, not {raw!r}")
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"option {option.name} takes a whole number, not {raw!r}") from None
    if isinstance(default, float):
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"option {option.name} takes a number, not {raw!r}") from None
    return raw


def resolve_options(game: Game, given: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Every option of the game with the given values checked and converted; problems listed."""
    known = {o.name: o for o in game.options}
    values = {o.name: o.default for o in game.options}
    problems = []
    for name, raw in given.items():
        option = known.get(name)
        if option is None:
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            listing = ", ".join(known) or "none"
            problems.append(f"{game.name} has no option {name!r}{hint}; options: {listing}")
            continue
        try:
            value = _convert(option, raw) if isinstance(raw, str) else raw
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if option.choices is not None and value not in option.choices:
            choices = ", ".join(json.dumps(c) for c in option.choices)
            problems.append(f"option {name} must be one of {choices}, not {json.dumps(value)}")
            continue
        values[name] = value
    return values, problems


# --------------------------------------------------------------------------- effective history


def effective_events(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The log as it counts: each `undo` discards the events after its target, in order.

    Nothing is removed from the store; this is a view of it. The undo events themselves
    stay in the view, as moderator actions."""
    kept: list[dict[str, Any]] = []
    for event in events:
        if event["type"] == "undo":
            kept = [e for e in kept if e["seq"] <= event["to"]]
        kept.append(dict(event))
    return kept


def rebuild(game: Game, meta: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
            *, parse_text: bool = False) -> tuple[Position, list[tuple[str, State]]]:
    """Recompute the position from setup by replaying the effective steps.

    Returns the position and each phase opening met on the way (key, state), so callers can
    snapshot them. With `parse_text` the canonical text is parsed again (as a log replay
    would) instead of using the stored orders."""
    state = setup_state(game, meta)
    pos = Position.start(game, state)
    openings = [(pos.key, state)]
    for event in effective_events(events):
        kind = event["type"]
        if kind not in STATE_EVENTS:
            continue
        if kind == DROP:
            orders = []
        elif parse_text:
            orders = game.parse(pos.state, event["player"], event["text"])
        else:
            orders = [Order.from_json(o) for o in event["orders"]]
        outcome = pos.submit(event["player"], orders, kind)
        if outcome.resolved:
            openings.append((pos.key, pos.state))
    return pos, openings


def setup_state(game: Game, meta: Mapping[str, Any]) -> State:
    """The opening position. A game stores its components as `load_components` returned them,
    which is the form `setup` takes, not necessarily a form `load_components` reads again."""
    components = meta.get("components")
    return game.setup(list(meta["players"]), meta["seed"], dict(meta["options"]),
                      game.load_components(None) if components is None else components)


# --------------------------------------------------------------------------- the service


class Referee(Deadlines):
    """Games, submissions and moderator actions over a `GameStore`; deadlines and time come
    from `Deadlines` (referee/deadlines.py)."""

    def __init__(self, store: GameStore, clock: Clock = system_clock,
                 games: Callable[[str], Game] = registry.get, notifier: Any = None,
                 default_preset: str = DEFAULT_PRESET) -> None:
        self.store = store
        self.clock = clock
        self._games = games
        # Mail hooks (mailer.notifier.MailNotifier): called inside the game's unit of work so
        # a turn and the mail it causes are written together.
        self.notifier = notifier
        self.default_preset = default_preset
        # Called with a game's id after the unit of work that ended the game is written (the
        # tournaments' bookkeeping, referee/tournament/organiser.py); a failing hook is logged
        self.finished_hooks: list[Callable[[str], None]] = []
        self._ended = threading.local()

    def _notify_reports(self, tx: Any, game: Game, state: State, now: datetime | None = None) -> None:
        """A phase may have opened: give it its deadline, then queue the reports that show it."""
        self._sync_schedule(tx, game, state, now or self.clock())
        if self.notifier is not None:
            self.notifier.reports(tx, game, tx.meta, state)

    def _add_notices(self, tx: Any, lines: Sequence[str], own: Mapping[str, Sequence[str]] | None = None) -> None:
        """Lines every player is told at the top of their next report (`own`: lines for one
        player only), for what the events of a report do not show: an undo and its reason,
        default orders played. Kept in the game's meta until that report is queued."""
        notices = {p: list(v) for p, v in (tx.meta.get("notices") or {}).items()}
        for seat in tx.meta["seats"]:
            name = seat["name"]
            extra = [*lines, *(own or {}).get(name, ())]
            if extra:
                kept = notices.get(name, [])
                notices[name] = (kept + [""] if kept else []) + extra
                notices[name] = notices[name][-MAX_NOTICE_LINES:]
        tx.set_meta(notices=notices)

    def _tell_defaults(self, tx: Any, applied: Sequence[Mapping[str, Any]], why: str) -> None:
        """Everyone hears whose orders were defaults and why; each of those players hears
        what was played for them (nobody else: it may be hidden information)."""
        played: dict[str, list[str]] = {}
        for item in applied:
            played.setdefault(item["player"], []).append(item["text"])
        if not played:
            return
        names = ", ".join(played)
        own = {p: [f"Played for you: {' | '.join(t.replace(chr(10), ' | ') for t in texts if t) or 'nothing'}."]
               for p, texts in played.items()}
        self._add_notices(tx, [f"{why}, so default orders were played for {names}."], own)

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

    # -- helpers

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
        if resolved or (pos.steps and not any(s["key"] == pos.key for s in tx.snapshots())):
            # the opening state of the phase now open, which resubmission recomputes from
            tx.snapshot(pos.key, pos.opening)

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

    @staticmethod
    def _menu(game: Game, pos: Position, player: str) -> list[str]:
        """What a player whose set was rejected may send: in a simultaneous phase the menu of
        the position a new set replaces the earlier one in; a game with a complete menu only."""
        state = pos.state
        if pos.is_simultaneous(player) and pos.last_set(player) is not None:
            try:
                state = pos.without(player)[0]
            except OrderError:
                pass
        lines, complete = menu_text(game, state, player)
        return lines if complete else []

    def _next(self, game: Game, pos: Position, player: str | None, outcome_resolved: bool) -> dict[str, Any]:
        phase = phase_json(game, pos.state)
        waiting = pos.waiting_for()
        if not waiting:
            result = game.result(pos.state)
            winners = ", ".join(result.winners) if result else "none"
            return {"resolved": outcome_resolved, "finished": True, "phase": phase, "waiting_for": [],
                    "text": f"The game is over. Winner(s): {winners}."}
        wait = f"waiting for {', '.join(waiting)}"
        if outcome_resolved:
            text = f"the phase resolved; now open: {phase['name']} (round {phase['round']}, phase {phase['key']}), {wait}."
        else:
            text = f"{wait} in {phase['name']} (phase {phase['key']})."
            if player and player in waiting and pos.is_simultaneous(player):
                text += " You may send a new set: your latest set counts until you end your part or the phase closes."
        return {"resolved": outcome_resolved, "finished": False, "phase": phase, "waiting_for": waiting, "text": text}

    # -- creating games

    def new_game(self, game_type: str, players: Sequence[tuple[str, str]], *, seed: str | None = None,
                 options: Mapping[str, Any] | None = None, components: Mapping[str, Any] | None = None,
                 game_id: str | None = None, policy: str | None = None,
                 policy_set: Sequence[str] = ()) -> NewGame:
        """Check everything first; create the game only when nothing is wrong. `policy` names
        a deadline preset (default: the server's), `policy_set` holds KEY=VALUE overrides."""
        try:
            game = self._games(game_type)
        except registry.UnknownGame as exc:
            raise BadRequest([str(exc)]) from None
        problems: list[str] = []
        names = [name.strip().lower() for name, _ in players]
        if not game.min_players <= len(names) <= game.max_players:
            problems.append(f"{game.title} takes {game.min_players}-{game.max_players} players, not {len(names)}")
        planned = game_id if game_id is not None else self._fresh_id(game.name)
        addresses: list[str] = []
        for (raw, email), name in zip(players, names):
            if not valid_name(name):
                problems.append(f"bad player name {raw[:40]!r}: use letters, digits, '_' and '-', starting with a "
                                "letter or digit")
            elif planned and GAME_ID.match(planned) and (problem := name_problem(planned, name)):
                problems.append(problem)
            try:
                addresses.append(normalise_email(email))
            except ValueError as exc:
                problems.append(f"bad email address for {raw[:40]}: {exc}")
        for dup in sorted({n for n in names if names.count(n) > 1}):
            problems.append(f"player name {dup!r} is given more than once (names ignore letter case)")
        values, option_problems = resolve_options(game, options or {})
        problems += option_problems
        try:
            rules = self.build_policy(policy, policy_set)
            problems += kind_problems(rules, phase_kinds(game))
        except PolicyError as exc:
            problems += exc.problems
        try:
            loaded = game.load_components(components)
        except ComponentError as exc:
            problems += [f"components: {p}" for p in exc.problems]
            loaded = None
        if game_id is not None:
            try:
                check_game_id(game_id)
            except StoreError as exc:
                problems.append(str(exc))
            else:
                if self.store.exists(game_id):
                    problems.append(f"a game {game_id!r} already exists")
        if problems:
            raise BadRequest(problems)
        seed = seed if seed is not None else new_seed()
        try:
            state = game.setup(names, seed, values, loaded)
        except SetupError as exc:
            raise BadRequest([f"setup refused: {exc}"]) from None
        game_id = game_id or self._fresh_id(game.name)
        seats = [{"name": n, "email": e, "token": new_token()} for n, e in zip(names, addresses)]
        opened = self.clock()
        now = self._now()
        meta = {
            "game": game.name, "title": game.title, "rules_version": game.rules_version,
            "players": names, "seats": seats, "options": values,
            "components": loaded, "components_sha256": components_hash(loaded or {}),
            "components_custom": components is not None,
            "seed": seed, "commitment": commitment(seed), "seed_revealed": False,
            "created": now, "status": "active", "steps": [], "policy": rules.to_meta(),
        }
        self.store.create(game_id, meta, state, [{"type": "created", "at": now, "game": game.name, "players": names,
                                                   "policy": rules.preset}],
                          then=lambda tx: self._notify_reports(tx, game, state, opened))
        self._flush_notices()
        return NewGame(game_id, game.name, seats, meta["commitment"])

    def _fresh_id(self, name: str) -> str:
        prefix = name.split("-")[0][:16]
        n = 1
        while self.store.exists(f"{prefix}-{n}"):
            n += 1
        return f"{prefix}-{n}"

    # -- submissions

    def submit(self, game_id: str, player: str, text: str, *, token: str | None = None,
               message_id: str | None = None, phase_key: str | None = None, source: str = "cli",
               in_reply_to: str | None = None) -> Receipt:
        """Read, check and apply one submission; always returns a receipt, never raises for bad
        orders. Only an accepted submission writes to the store."""
        return self.submit_many(game_id, [Submission(player, text, token=token, message_id=message_id,
                                                     phase_key=phase_key, source=source,
                                                     in_reply_to=in_reply_to)])[0]

    def submit_many(self, game_id: str, submissions: Sequence[Submission]) -> list[Receipt]:
        """Several submissions to one game, in order, in one unit of work: the game is read and
        written once, which is what lets the mail worker keep up with a burst of mail. Each
        gets the receipt it would get alone; a refused or rejected one writes nothing, and an
        error in any of them writes none of them. Reopened notices are queued at the end, less
        those a later set of the same player made stale (`_send_reopened`)."""
        with self.store.transaction(game_id) as tx:
            notices: list[Reopened] = []
            receipts = [self._submit_in(tx, game_id, sub, notices) for sub in submissions]
            self._send_reopened(tx, notices, receipts)
        self._flush_notices()
        return receipts

    def _submit_in(self, tx: Any, game_id: str, sub: Submission, notices: list[Reopened]) -> Receipt:
        player, text, token, message_id = sub.player.strip().lower(), sub.text, sub.token, sub.message_id
        phase_key, source, in_reply_to = sub.phase_key, sub.source, sub.in_reply_to
        at = self._now()
        base = {"game": game_id, "player": player, "message_id": message_id, "source": source, "at": at}
        meta = tx.meta
        seat = self._seat(meta, player)
        if token is not None and (seat is None or not same_token(token, seat["token"])):
            return Receipt(REFUSED, reason="the player name or token is not right for this game", **base)
        if seat is None:
            return Receipt(REFUSED, reason=f"{game_id} has no player {player!r}", **base)
        if message_id:
            record = tx.find_record("submissions", "message_id", message_id)
            if record is not None:
                if _submitter(record) != player:
                    return Receipt(REFUSED, reason=f"message id {message_id} was already "
                                   "used for another submission", **base)
                return self._duplicate(tx, record, base)
        game = self.game_of(meta)
        pos = self._position(tx, game)
        phase = _phase_dict(pos.phase)
        base["phase"] = phase
        if meta.get("status") == "finished" or pos.over:
            return Receipt(REFUSED, reason=f"{game_id} is over; no more orders are taken", **base)
        if phase_key is not None and phase_key != phase["key"]:
            return Receipt(REFUSED, reason=self._stale(tx, player, phase_key, phase), **base)
        try:
            pos.ensure_prompted(player)
        except Refused as exc:
            return Receipt(REFUSED, reason=str(exc), **base)
        held = meta.get("held")
        previous = pos.last_set(player)
        if held and held["player"] == player:
            previous = Step(ORDER, player, [], held["text"])
        try:
            orders = pos.read(player, text)
            trial = Position(game, pos.state, pos.opening, list(pos.steps))
            outcome = trial.submit(player, orders)
        except OrderError as exc:
            return Receipt(REJECTED, errors=error_list(exc, text), menu=self._menu(game, pos, player),
                           next=self._next(game, pos, player, False), **base)
        echo = [game.format(o) for o in orders]
        old = previous.text.splitlines() if previous else []
        added, removed = diff_lines(old, echo)
        event = {"type": ORDER, "at": at, "player": player, "phase": phase["key"],
                 "text": "\n".join(echo), "orders": [o.to_json() for o in orders],
                 "message_id": message_id, "source": source,
                 "events": [e.to_json() for e in outcome.events]}
        misses = {p: n for p, n in meta.get("misses", {}).items() if p != player}
        offered = [p for p in meta.get("offered", []) if p != player]
        tx.set_meta(misses=misses, offered=offered)
        if outcome.resolved and self._holds(meta, pos, player):
            # early=false: the set that would close a simultaneous phase waits for the deadline
            event = dict(event, type="held")
            del event["events"]
            seq = tx.append(event)
            tx.set_meta(held={"phase": phase["key"], "player": player, "text": event["text"],
                              "orders": event["orders"], "seq": seq})
            visible: list[str] = []
            after = self._held_next(tx.meta, pos, player)
        else:
            pos = trial
            if outcome.resolved:
                event["opened"] = outcome.after_key
            seq = self._append_order(tx, game, pos.state, player, outcome, event, notices)
            self._save(tx, pos, outcome.resolved)
            if held and held["player"] == player:
                tx.set_meta(held=None)
            self._finish_if_over(tx, game, pos)
            visible = [e.text for e in outcome.events if e.visible_to(player)]
            after = self._next(game, pos, player, outcome.resolved)
            if outcome.resolved:  # the receipt names the new phase's deadline
                self._sync_schedule(tx, game, pos.state, self.clock())
        receipt = Receipt(ACCEPTED, echo=echo, added=added, removed=removed, first_set=previous is None,
                          events=visible, next=after, seq=seq,
                          deadline=self._deadline_line(tx.meta, player), **base)
        # enough to recognise the message again; the receipt itself is rebuilt from the log
        tx.add_record("submissions", {"message_id": message_id, "seq": seq, "player": player})
        if self.notifier is not None:
            self.notifier.receipt(tx, tx.meta, receipt, in_reply_to)
        if pos is trial and outcome.resolved:
            self._notify_reports(tx, game, pos.state)
        return receipt

    def _duplicate(self, tx: Any, record: Mapping[str, Any], base: Mapping[str, Any]) -> Receipt:
        """The receipt for a message accepted before: what was understood then, from the log."""
        if "receipt" in record:  # game files written before records were kept short
            old = Receipt.from_json(record["receipt"])
            old.status = DUPLICATE
            return old
        event = tx.find_record("events", "seq", record["seq"]) or {}
        return Receipt(DUPLICATE, echo=event.get("text", "").splitlines(), seq=record["seq"],
                       **dict(base, phase=None))

    def _stale(self, tx: Any, player: str, phase_key: str, phase: Mapping[str, Any]) -> str:
        """Why orders for a past phase are refused, and which phase is open now."""
        defaulted = any(e["type"] == DEFAULT and e.get("phase") == phase_key and e.get("player") == player
                        and e.get("source") == "deadline" for e in tx.events())
        how = ("which closed at its deadline (your default orders were played)" if defaulted
               else "which is not open (already resolved)")
        return (f"these orders are for phase {phase_key}, {how}; the phase now open is "
                f"{phase['name']} (round {phase['round']}, phase {phase['key']})")

    def _holds(self, meta: Mapping[str, Any], pos: Position, player: str) -> bool:
        """Whether a set that completes the phase must wait for the deadline (early=false):
        only in a simultaneous decision with a deadline still to come (docs/deadlines.md)."""
        policy = Policy.from_meta(meta.get("policy"))
        if policy is None or policy.early or not pos.is_simultaneous(player):
            return False
        due = due_of(meta.get("schedule"))
        if due is None or meta.get("schedule", {}).get("phase") != pos.key:
            return False
        return bool(meta.get("paused")) or self.clock() < due

    def _held_next(self, meta: Mapping[str, Any], pos: Position, player: str) -> dict[str, Any]:
        phase = phase_json(pos.game, pos.state)
        text = (f"everyone is in for {phase['name']} (phase {phase['key']}). Early resolution is off in this "
                "game, so the phase resolves at its deadline; until then you may send a new set, which "
                "replaces this one.")
        return {"resolved": False, "finished": False, "phase": phase, "waiting_for": [], "held": True, "text": text}

    def _append_order(self, tx: Any, game: Game, state: State, player: str, outcome: Outcome,
                      event: dict[str, Any], notices: list[Reopened]) -> int:
        """Append an accepted set's event, naming the other players' parts it cancelled (see
        `Position.without`). Each player it cancelled or opened again gets a notice in
        `notices`, mailed at the end of the unit of work (`_send_reopened`): their report would
        only come when the phase resolves, and they have to act before that. A set that also
        closed the phase asks nothing more in it: the new phase's reports go out instead."""
        if outcome.cancelled:
            event["cancelled"] = [part.to_json() for part in outcome.cancelled]
        seq = tx.append(event)
        if self.notifier is None or outcome.resolved or not (outcome.cancelled or outcome.reopened):
            return seq
        asked = {p.player for p in game.prompts(state)}  # not a player dropped meanwhile
        cancelled = {part.player: part for part in outcome.cancelled}
        for who in dict.fromkeys([*cancelled, *outcome.reopened]):
            if who not in asked:
                continue
            part = cancelled.get(who)
            lines = [part.reason] if part else [e.text for e in outcome.events if e.to and who in e.to]
            notices.append(Reopened(who, player, outcome.after_key, state, seq, lines,
                                    part.text.splitlines() if part else []))
        return seq

    def _send_reopened(self, tx: Any, notices: Sequence[Reopened], receipts: Sequence[Receipt] = ()) -> None:
        """Queue the notices of a unit of work that still hold: not for a player whose set was
        accepted after the notice's cause (`receipts`: that unit's), nor for a phase since closed."""
        if self.notifier is None or not notices:
            return
        since = {r.player: r.seq for r in receipts if r.status == ACCEPTED and r.seq is not None}
        game = self.game_of(tx.meta)
        key = game.phase(tx.state).key
        for notice in notices:
            if notice.phase != key or since.get(notice.player, 0) > notice.seq:
                continue
            self.notifier.reopened(tx, game, tx.meta, notice.state, notice.player, by=notice.by,
                                   lines=notice.lines, cancelled=notice.cancelled, serial=f"reopened-{notice.seq}")

    def _deadline_line(self, meta: Mapping[str, Any], player: str) -> str:
        schedule = meta.get("schedule")
        if not schedule or Policy.from_meta(meta.get("policy")) is None:
            return ""
        return f"phase {schedule['phase']}: {deadline_text(meta, seat_zone(meta, player))}"

    # -- moderator actions

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
                self._tell_defaults(tx, report.applied, f"The moderator closed phase {report.closed['key']} "
                                    "without waiting any longer")
            self._save(tx, pos, True)
            report.finished = self._finish_if_over(tx, game, pos)
            report.opened = None if pos.over else phase_json(game, pos.state)
            self._notify_reports(tx, game, pos.state)
        self._flush_notices()
        return report

    def _apply_defaults(self, tx: Any, game: Game, pos: Position, at: str, source: str) -> list[dict[str, Any]]:
        """Default orders for every player still asked, until the phase key changes."""
        start = pos.key
        applied: list[dict[str, Any]] = []
        rounds = 0
        while pos.key == start and not pos.over:
            rounds += 1
            if rounds > MAX_DEFAULT_ROUNDS:
                raise ServiceError(f"default orders do not close phase {start}; the game engine never moves on")
            for player in pos.waiting_for():
                if pos.key != start:
                    break
                orders = game.default_orders(pos.state, player)
                try:
                    outcome = pos.submit(player, orders, DEFAULT)
                except (OrderError, Refused) as exc:
                    raise ServiceError(f"{player}'s default orders cannot be applied: {exc}") from None
                text = "\n".join(game.format(o) for o in orders)
                event = {"type": DEFAULT, "at": at, "player": player, "phase": outcome.before_key,
                         "text": text, "orders": [o.to_json() for o in orders], "source": source,
                         "events": [e.to_json() for e in outcome.events]}
                if outcome.resolved:
                    event["opened"] = outcome.after_key
                tx.append(event)
                applied.append({"player": player, "text": text})
        return applied

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
                f"The moderator took the game back to just after event {to} of its history: "
                f"{len(discarded)} later event(s) no longer count.", f"Reason given: {reason.strip()}",
                "This report shows the game as it now stands; if it asks you for orders, send them (again)."])
            self._notify_reports(tx, game, pos.state)
            done = {"game": game_id, "to": to, "discarded": discarded, "phase": phase_json(game, pos.state),
                    "waiting_for": pos.waiting_for()}
        self._flush_notices()
        return done

    def replace(self, game_id: str, player: str, email: str) -> dict[str, Any]:
        """A new person takes over a seat: new address, new token; the old token stops working."""
        try:
            email = normalise_email(email)
        except ValueError as exc:
            raise BadRequest([f"bad email address: {exc}"]) from None
        with self.store.transaction(game_id) as tx:
            meta = tx.meta
            seat = self._require_seat(meta, player)
            token = new_token()
            name = seat["name"]
            # a new person: new address and token, and none of the old person's time zone,
            # misses or vacation (the vacation quota already used stays with the seat)
            seats = [{k: v for k, v in dict(s, email=email, token=token).items() if k != "timezone"}
                     if s["name"] == name else s for s in meta["seats"]]
            tx.set_meta(seats=seats, misses={p: n for p, n in meta.get("misses", {}).items() if p != name},
                        offered=[p for p in meta.get("offered", []) if p != name],
                        vacations={p: v for p, v in meta.get("vacations", {}).items() if p != name})
            # mail still queued for the former player asks them to reply with a token that no
            # longer works: it is not sent; the welcome carries the position instead
            dropped = self.notifier.drop_for_seat(tx, seat, f"not sent: the seat went to <{email}>") \
                if self.notifier is not None else []
            seq = tx.append({"type": "replace", "at": self._now(), "player": name, "dropped": dropped})
            if self.notifier is not None:
                self.notifier.welcome(tx, self.game_of(meta), tx.meta, tx.state, name, f"replace-{seq}")
        self._flush_notices()
        return {"game": game_id, "player": name, "email": email, "token": token, "dropped": dropped,
                "warning": name_problem(game_id, name)}

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
            done = {"game": game_id, "player": seat["name"], "events": [e.text for e in outcome.events],
                    "phase": phase_json(game, pos.state)}
        self._flush_notices()
        return done

    # -- reading

    def seat(self, game_id: str, player: str, token: str | None) -> dict[str, Any] | None:
        """The player's seat when `token` is theirs (compared in constant time), else None."""
        try:
            meta = self.store.load(game_id).meta
        except StoreError:
            return None
        seat = self._seat(meta, player)
        if seat is None or token is None or not same_token(token, seat["token"]):
            return None
        return seat

    def request(self, game_id: str, player: str, what: str, *, token: str | None,
                in_reply_to: str | None, serial: str) -> str:
        """A player's STATUS or HELP by mail: the answer is queued in the game's outbox (one
        per `serial`, so a mail processed twice is answered once). Returns the player's name."""
        if what not in ("status", "help"):
            raise ValueError(f"unknown request {what!r}")
        with self.store.transaction(game_id) as tx:
            seat = self._checked_seat(tx, player, token)
            game = self.game_of(tx.meta)
            if self.notifier is not None:
                answer = self.notifier.status_answer if what == "status" else self.notifier.help_answer
                answer(tx, game, tx.meta, tx.state, seat["name"], in_reply_to, serial)
        self._flush_notices()
        return seat["name"]

    def list(self) -> list[dict[str, Any]]:
        return self.store.list()

    def status(self, game_id: str) -> dict[str, Any]:
        stored = self.store.load(game_id)
        game = self.game_of(stored.meta)
        prompts = game.prompts(stored.state)
        result = game.result(stored.state) if not prompts else None
        return {
            "id": game_id, "game": stored.meta["game"], "title": stored.meta.get("title"),
            "status": stored.meta.get("status"), "phase": phase_json(game, stored.state),
            "waiting_for": [{"player": p.player, "decision": p.decision, "text": p.text,
                             "simultaneous": p.simultaneous} for p in prompts],
            "deadline": deadline_info(stored.meta), "paused": stored.meta.get("paused"),
            "offered": stored.meta.get("offered", []), "players": stored.meta["players"],
            "result": result.to_json() if result else None,
            "commitment": stored.meta["commitment"],
            "seed": stored.meta["seed"] if stored.meta.get("seed_revealed") else None,
        }

    def deadline_for(self, game_id: str, player: str | None = None) -> str:
        """The open deadline as a person reads it (in the player's time zone, if one is given)."""
        meta = self.store.load(game_id).meta
        return deadline_text(meta, seat_zone(meta, player) if player else None)

    def show(self, game_id: str, player: str | None = None) -> dict[str, Any]:
        stored = self.store.load(game_id)
        game = self.game_of(stored.meta)
        if player is not None:
            player = self._require_seat(stored.meta, player)["name"]
        return game.view(stored.state, player)

    def history(self, game_id: str) -> list[dict[str, Any]]:
        """Every event ever recorded, each marked whether it still counts after undos."""
        stored = self.store.load(game_id)
        live = {e["seq"] for e in effective_events(stored.events)}
        return [dict(e, effective=e["seq"] in live) for e in stored.events]

    def load(self, game_id: str):
        return self.store.load(game_id)
