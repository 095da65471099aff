"""The game record: a text log of a game that anyone can replay, with each line chained to
the one before by a hash so that an edited line shows. The format is in docs/log-format.md.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .contract import Game, OrderError
from .history import components_hash, effective_events, setup_state, state_hash
from .press import with_talk
from .progress import DEFAULT, DROP, ORDER, Position, Refused
from .rng import verify_commitment

MAGIC = "REFEREE-LOG"
# 2: a set may cancel another player's set that no longer applies without the set it replaced
# (docs/service.md). A referee that only knows 1 refuses that set, so only a record that has
# such a step is written as 2; every other record stays 1, readable by older referees too.
CANCELS = 2
VERSIONS = (1, CANCELS)
LOGGED = (ORDER, DEFAULT, DROP, "undo", "replace", "adjudicate")
HASH_CHARS = 16
PRESS, NOTICE = "press", "notice"  # table talk and the moderator's notices (referee/press.py): a replay passes over them


class LogError(Exception):
    """A log that cannot be read or replayed; `line` is the 1-based line of the file."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


def link(previous: str, body: str) -> str:
    """The chain: each line's hash covers the previous hash and the line's own text."""
    return hashlib.sha256((previous + body).encode("utf-8")).hexdigest()[:HASH_CHARS]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _payload(event: Mapping[str, Any]) -> Any:
    kind = event["type"]
    if kind in (ORDER, DEFAULT):
        return event["text"]
    if kind == "undo":
        return {"to": event["to"], "reason": event["reason"]}
    if kind == "adjudicate":
        return {"waiting_for": event.get("waiting_for", [])}
    return ""


def write_log(meta: Mapping[str, Any], events: Sequence[Mapping[str, Any]], final_state: Mapping[str, Any],
              *, reveal_seed: bool = False, press: Sequence[Mapping[str, Any]] = (),
              press_shown: str | None = None) -> str:
    """The record of a game: header, one line per effective step and moderator action, end line.
    `press`: the table talk it shows (referee/press.py), each piece where it came among the
    steps, and `press_shown` what of it the record shows (none, public, all: a header line); a
    replay passes over both."""
    header = {
        "game": meta["game"],
        "rules_version": meta["rules_version"],
        "components_sha256": meta["components_sha256"],
    }
    if meta.get("components_custom"):
        header["components"] = meta["components"]
    header.update({"options": meta["options"], "players": list(meta["players"]),
                   "commitment": meta["commitment"]})
    if meta.get("seed_revealed") or reveal_seed:
        header["seed"] = meta["seed"]
    if press_shown is not None:
        header["press"] = press_shown
    header["game_id"] = meta.get("id")
    header["created"] = meta.get("created")
    logged = [e for e in effective_events(events) if e["type"] in LOGGED]
    version = CANCELS if any(e.get("cancelled") for e in logged) else 1
    head = "\n".join([f"{MAGIC} {version}"] + [f"{k}: {_json(v)}" for k, v in header.items()]) + "\n"
    lines = [head]
    previous = link("", head)
    talk = sorted(press, key=lambda r: r["n"])
    for body in _bodies(logged, talk):
        previous = link(previous, body)
        lines.append(f"{body}\t{previous}\n")
    body = f"end\t{state_hash(dict(final_state))}"
    lines.append(f"{body}\t{link(previous, body)}\n")
    return "".join(lines)


def _bodies(logged: Sequence[Mapping[str, Any]], talk: Sequence[Mapping[str, Any]]) -> list[str]:
    """The body lines in order: the steps, and each piece of table talk after the step that
    came before it. Table talk has `-` for its number, so that a record showing only what was
    written to everyone does not tell how much was written in private."""
    return [_press_body(item) if item["type"] in (PRESS, NOTICE) else
            "\t".join([str(item["seq"]), item.get("phase") or "-", item.get("at", "-"), item["type"],
                       item.get("player") or "-", _json(_payload(item))])
            for item in with_talk(logged, talk)]


def _press_body(record: Mapping[str, Any]) -> str:
    to = "all" if record.get("all") else list(record.get("to", ()))
    return "\t".join(["-", record.get("phase") or "-", record.get("at", "-"), record["type"], record.get("from") or "-",
                      _json({"to": to, "text": record.get("text", "")})])


@dataclass
class ReplayResult:
    ok: bool
    message: str
    line: int | None = None
    steps: int = 0
    state: dict[str, Any] | None = None  # the final position, when the replay got to the end


def replay_log(text: str, games: Callable[[str], Game], *, seed: str | None = None) -> ReplayResult:
    """Recompute a game from its log; ok only if every link and the final state hash match."""
    try:
        return _replay(text, games, seed)
    except LogError as exc:
        return ReplayResult(False, exc.message, exc.line)


def _read_version(first: str) -> int:
    """The format version on a record's first line. Version 1 is read with today's rules
    too: a record without a cancellation replays the same under both, and records written
    with cancellations before version 2 existed say 1."""
    magic, _, number = first.rstrip("\n").partition(" ")
    if magic != MAGIC or not number.isdigit():
        raise LogError(f"not a Referee game record (the first line must be '{MAGIC} <version>')", 1)
    version = int(number)
    if version not in VERSIONS:
        known = " and ".join(str(v) for v in VERSIONS)
        raise LogError(f"the record is in format version {version}, which this referee cannot read (it reads "
                       f"versions {known}); replay it with the referee that wrote it, or a newer one", 1)
    return version


def _read_header(lines: list[str]) -> tuple[dict[str, Any], int]:
    _read_version(lines[0] if lines else "")
    header: dict[str, Any] = {}
    n = 1
    while n < len(lines) and ": " in lines[n] and "\t" not in lines[n]:
        key, _, value = lines[n].rstrip("\n").partition(": ")
        try:
            header[key] = json.loads(value)
        except ValueError:
            raise LogError(f"header value of {key!r} is not valid JSON", n + 1) from None
        n += 1
    for key in ("game", "rules_version", "components_sha256", "options", "players", "commitment"):
        if key not in header:
            raise LogError(f"the header has no {key!r}", n)
    return header, n


def _replay(text: str, games: Callable[[str], Game], seed: str | None) -> ReplayResult:
    lines = text.splitlines(keepends=True)
    header, n = _read_header(lines)
    previous = link("", "".join(lines[:n]))
    try:
        game = games(header["game"])
    except LookupError as exc:
        raise LogError(str(exc), 2) from None
    if game.rules_version != header["rules_version"]:
        raise LogError(f"recorded with rules version {header['rules_version']} of {game.name}; "
                       f"version {game.rules_version} is installed", 2)
    seed = header.get("seed") or seed
    if seed is None:
        raise LogError("the log has no seed (the game is not over); pass the seed with --seed")
    if not verify_commitment(seed, header["commitment"]):
        raise LogError("the seed does not match the seed commitment in the header")
    components = header.get("components")
    if components is None:
        builtin = game.load_components(None)
        if components_hash(builtin) != header["components_sha256"]:
            raise LogError("this game used a component set that is neither built in nor recorded in the "
                           "log; it cannot be replayed here")
    elif components_hash(components) != header["components_sha256"]:
        raise LogError("the recorded component set does not match its SHA-256 in the header")
    meta = {"players": header["players"], "seed": seed, "options": header["options"], "components": components}
    pos = Position.start(game, setup_state(game, meta))
    steps = 0
    for number in range(n + 1, len(lines) + 1):
        raw = lines[number - 1].rstrip("\n")
        if not raw.strip():
            continue
        body, sep, given = raw.rpartition("\t")
        if not sep:
            raise LogError("a log line must end with a tab and its hash", number)
        expected = link(previous, body)
        if given != expected:
            raise LogError(f"hash mismatch: the line says {given}, the chain gives {expected} "
                           "(this line or one before it was changed)", number)
        previous = expected
        fields = body.split("\t")
        if fields[0] == "end":
            actual = state_hash(pos.state)
            if len(fields) != 2 or fields[1] != actual:
                raise LogError(f"final state hash differs: the log says {fields[1:]}, the replay gives {actual}",
                               number)
            return ReplayResult(True, f"replayed {steps} step(s); chain and final state match", number, steps,
                                dict(pos.state))
        if len(fields) != 6:
            raise LogError("expected seq, phase, time, type, player and text separated by tabs", number)
        _seq, phase, _at, kind, player, payload = fields
        if kind not in (ORDER, DEFAULT, DROP):
            continue
        if phase != pos.key:
            raise LogError(f"the line is for phase {phase}, but the replay is in phase {pos.key}", number)
        try:
            orders = [] if kind == DROP else game.parse(pos.state, player, json.loads(payload))
            pos.submit(player, orders, kind)
        except (OrderError, Refused, ValueError) as exc:
            raise LogError(f"the step does not replay: {exc}", number) from None
        steps += 1
    raise LogError("the log ends without its 'end' line", len(lines))
