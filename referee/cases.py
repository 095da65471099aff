"""Case files: a position, orders in sequence, and what must be true afterwards.

Written for rulebook examples and FAQ answers, in the spirit of the Diplomacy adjudicator
test cases, so that anyone can check an engine against them. The format is described in
docs/cases.md. Steps run through the same `Position` as live games and log replay.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from .contract import Game, OrderError, State, menu_lines
from .options import resolve_options
from .progress import DEFAULT, DROP, ORDER, Position, Refused, phase_json

CASE_KEYS = {"name", "description", "game", "players", "seed", "options", "components", "state", "state_null", "step"}
STEP_KEYS = {"player", "orders", "default", "drop", "expect", "expect_error", "expect_message",
             "expect_events", "expect_phase", "expect_waiting", "expect_null", "note",
             "expect_view", "expect_seen", "expect_unseen", "expect_menu", "expect_not_in_view"}
PER_PLAYER = ("expect_view", "expect_seen", "expect_unseen", "expect_menu", "expect_not_in_view")
ERROR_CLASSES = {"invalid", "illegal", "ambiguous", "refused"}
MISSING = object()


class CaseError(Exception):
    """A case file that is not well formed (as opposed to one whose expectations fail)."""


@dataclass
class CaseResult:
    path: str
    name: str
    ok: bool
    failures: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- paths


def split_path(path: str) -> list[str]:
    return [part for part in path.split(".") if part != ""]


def get_path(data: Any, path: str) -> Any:
    """`a.b.0.c`: dict keys, and list indices written as numbers."""
    here = data
    for part in split_path(path):
        if isinstance(here, dict) and part in here:
            here = here[part]
        elif isinstance(here, list) and part.lstrip("-").isdigit() and -len(here) <= int(part) < len(here):
            here = here[int(part)]
        else:
            return MISSING
    return here


def set_path(data: Any, parts: list[str], value: Any) -> None:
    here = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(here, list):
            if not part.lstrip("-").isdigit() or not -len(here) <= int(part) < len(here):
                raise CaseError(f"state override {'.'.join(parts)!r}: no list item {part}")
            index = int(part)
            if last:
                here[index] = value
            else:
                here = here[index]
        elif isinstance(here, dict):
            if last:
                here[part] = deep_merge(here.get(part), value) if isinstance(value, dict) else value
            else:
                here = here.setdefault(part, {})
        else:
            raise CaseError(f"state override {'.'.join(parts)!r}: {part!r} is inside a plain value")


def deep_merge(base: Any, overrides: Any) -> Any:
    """Overrides win; tables merge key by key; a key with dots is a path."""
    if not isinstance(base, dict) or not isinstance(overrides, dict):
        return overrides
    merged = json.loads(json.dumps(base))
    for key, value in overrides.items():
        set_path(merged, split_path(key), value)
    return merged


def flatten(expect: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested expectation tables to dotted paths (a table value is compared key by key)."""
    out: dict[str, Any] = {}
    for key, value in expect.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict) and value:
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


def show(value: Any) -> str:
    return "(missing)" if value is MISSING else json.dumps(value, ensure_ascii=False, sort_keys=True)


# --------------------------------------------------------------------------- running


def load_case(text: str) -> dict[str, Any]:
    try:
        case = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CaseError(f"not valid TOML: {exc}") from None
    unknown = set(case) - CASE_KEYS
    if unknown:
        raise CaseError(f"unknown key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(CASE_KEYS))}")
    for key in ("game", "players", "seed"):
        if key not in case:
            raise CaseError(f"a case needs {key!r}")
    for n, step in enumerate(case.get("step", []), 1):
        unknown = set(step) - STEP_KEYS
        if unknown:
            raise CaseError(f"step {n}: unknown key(s) {', '.join(sorted(unknown))}")
        if "player" not in step:
            raise CaseError(f"step {n}: a step needs 'player'")
        if sum(k in step for k in ("orders", "default", "drop")) != 1:
            raise CaseError(f"step {n}: give exactly one of 'orders', 'default = true' or 'drop = true'")
        if "expect_error" in step and step["expect_error"] not in ERROR_CLASSES:
            raise CaseError(f"step {n}: expect_error must be one of {', '.join(sorted(ERROR_CLASSES))}")
        for key in PER_PLAYER:
            if key in step and not isinstance(step[key], dict):
                raise CaseError(f"step {n}: {key} is a table of player names")
            unknown = {str(p).lower() for p in step.get(key, {})} - {str(p).lower() for p in case["players"]}
            if unknown:
                raise CaseError(f"step {n}: {key} names no player of the case: {', '.join(sorted(unknown))}")
    return case


def start_position(game: Game, case: Mapping[str, Any]) -> Position:
    options, problems = resolve_options(game, case.get("options", {}))
    if problems:
        raise CaseError("; ".join(problems))
    components = game.load_components(case.get("components"))
    state: State = game.setup([str(p) for p in case["players"]], str(case["seed"]), options, components)
    if "state" in case:
        state = deep_merge(state, case["state"])
    for path in case.get("state_null", []):  # TOML has no null
        set_path(state, split_path(path), None)
    return Position.start(game, state)


def run_steps(game: Game, pos: Position, steps: list[dict[str, Any]]) -> list[str]:
    failures: list[str] = []
    for n, step in enumerate(steps, 1):
        player = str(step["player"]).lower()
        where = f"step {n} ({player}: {step.get('orders', 'default' if step.get('default') else 'drop')!s})"
        where = where.replace("\n", " | ")
        got_class, message, events, happened = None, "", [], []
        try:
            if step.get("drop"):
                outcome = pos.submit(player, [], DROP)
            elif step.get("default"):
                pos.ensure_prompted(player)  # as the service: only a player still asked gets defaults
                outcome = pos.submit(player, game.default_orders(pos.state, player), DEFAULT)
            else:  # refused before it is read, as the service refuses it (Position.take)
                outcome = pos.submit(player, pos.take(player, step["orders"]), ORDER)
            events = [e.kind for e in outcome.events]
            happened = outcome.events
        except Refused as exc:
            got_class, message = "refused", str(exc)
        except OrderError as exc:
            got_class, message = exc.category.value, str(exc)
        wanted = step.get("expect_error")
        if wanted != got_class:
            an = "a" if wanted == "refused" else "an"
            if wanted is None:
                failures.append(f"{where}: expected the orders to be accepted, got {got_class}: {message}")
            elif got_class is None:
                failures.append(f"{where}: expected {an} {wanted} error, but the orders were accepted")
            else:
                failures.append(f"{where}: expected {an} {wanted} error, got {got_class}: {message}")
        elif "expect_message" in step and step["expect_message"] not in message:
            failures.append(f"{where}: the error message does not contain {step['expect_message']!r}\n"
                            f"    actual: {message}")
        for path, value in flatten(step.get("expect", {})).items():
            actual = get_path(pos.state, path)
            if actual is MISSING or actual != value:
                failures.append(f"{where}: {path}\n    expected: {show(value)}\n    actual:   {show(actual)}")
        for path in step.get("expect_null", []):  # TOML has no null, so absent values are listed
            actual = get_path(pos.state, path)
            if actual is not None:
                failures.append(f"{where}: {path}\n    expected: null\n    actual:   {show(actual)}")
        if "expect_events" in step:
            missing = [k for k in step["expect_events"] if k not in events]
            if missing:
                failures.append(f"{where}: events\n    expected: {show(step['expect_events'])}\n"
                                f"    actual:   {show(events)}")
        if "expect_phase" in step:
            phase = phase_json(game, pos.state)
            if step["expect_phase"] not in (phase["key"], phase["name"]):
                failures.append(f"{where}: phase\n    expected: {show(step['expect_phase'])}\n"
                                f"    actual:   {show(phase['key'])} ({phase['name']})")
        if "expect_waiting" in step and sorted(step["expect_waiting"]) != sorted(pos.waiting_for()):
            failures.append(f"{where}: waiting for\n    expected: {show(sorted(step['expect_waiting']))}\n"
                            f"    actual:   {show(sorted(pos.waiting_for()))}")
        failures += seen_failures(game, pos, step, happened, where)
    return failures


def seen_failures(game: Game, pos: Position, step: Mapping[str, Any], events: list, where: str) -> list[str]:
    """The expectations about one player's side of the game: their view (`expect_view`),
    texts among the step's events they may see (`expect_seen`) or may not (`expect_unseen`),
    lines of their menu (`expect_menu`), and texts found nowhere in their view
    (`expect_not_in_view`)."""
    failures: list[str] = []
    for who, paths in step.get("expect_view", {}).items():
        view = game.view(pos.state, str(who).lower())
        for path, value in flatten(paths).items():
            actual = get_path(view, path)
            if actual is MISSING or actual != value:
                failures.append(f"{where}: {who} sees {path}\n    expected: {show(value)}\n    actual:   {show(actual)}")
    for who, texts in step.get("expect_not_in_view", {}).items():  # e.g. another player's plan
        whole = json.dumps(game.view(pos.state, str(who).lower()), ensure_ascii=False)
        failures += [f"{where}: {who} should not see {text!r} anywhere in their view" for text in texts if text in whole]
    for key, wanted in (("expect_seen", True), ("expect_unseen", False)):
        for who, texts in step.get(key, {}).items():
            seen = [e.text for e in events if e.visible_to(str(who).lower())]
            for text in texts:
                if any(text in t for t in seen) != wanted:
                    failures.append(f"{where}: {who} should {'' if wanted else 'not '}see {text!r}\n"
                                    f"    seen: {show(seen)}")
    for who, lines in step.get("expect_menu", {}).items():
        menu = [line.text for line in menu_lines(game, pos.state, str(who).lower())[0]]
        for line in lines:
            if line not in menu:
                failures.append(f"{where}: {who}'s menu lacks {line!r}\n    menu: {show(menu)}")
    return failures


def run_case(text: str, games: Callable[[str], Game], path: str = "<case>") -> CaseResult:
    """Run one case file's text; a malformed file is a failure with the reason."""
    name = Path(path).stem
    try:
        case = load_case(text)
        name = case.get("name", name)
        try:
            game = games(case["game"])
        except LookupError as exc:
            raise CaseError(str(exc)) from None
        pos = start_position(game, case)
        failures = run_steps(game, pos, case.get("step", []))
    except CaseError as exc:
        return CaseResult(path, name, False, [f"bad case file: {exc}"])
    except Exception as exc:  # a crash in the engine is a failed case, not a crashed runner
        return CaseResult(path, name, False, [f"the engine raised {exc.__class__.__name__}: {exc}"])
    return CaseResult(path, name, not failures, failures)
