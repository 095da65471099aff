"""The roster: who plays, read from a CSV or TOML file, with every problem listed at once.

CSV: a header row naming the columns `name`, `email`, and optionally `rating` and
`timezone` (also `time zone`, `tz`), in any order and letter case. TOML: an array of tables
`[[player]]` (or `[[players]]`) with the same keys. Names follow the rules of player names
in a game (letters, digits, `_` and `-`, letter case ignored); a name or an address given
twice is refused, so nobody can be seated against themselves.
"""

from __future__ import annotations

import csv
import io
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..timekeeping import TimeError, zone_name
from ..tokens import normalise_email, valid_name

COLUMNS = {"name": "name", "email": "email", "e-mail": "email", "mail": "email", "rating": "rating",
           "timezone": "timezone", "time zone": "timezone", "time_zone": "timezone", "tz": "timezone",
           "zone": "timezone"}
MAX_PLAYERS = 1000


class RosterError(ValueError):
    """A roster that cannot be used; `problems` lists every one found."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class Entry:
    name: str
    email: str
    rating: float | None = None
    timezone: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "email": self.email, "rating": self.rating, "timezone": self.timezone}


def read_roster(path: str | Path) -> list[Entry]:
    """The players of a roster file (`.toml`: TOML; anything else: CSV)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RosterError([f"cannot read the roster {path}: {exc.strerror or exc}"]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError([f"the roster {path} is not UTF-8 text"]) from None
    rows = _toml_rows(text, path) if path.suffix.lower() == ".toml" else _csv_rows(text, path)
    return check_rows(rows)


def _toml_rows(text: str, path: Path) -> list[tuple[str, Mapping[str, Any]]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RosterError([f"the roster {path} is not valid TOML: {exc}"]) from None
    unknown = [k for k in data if k not in ("player", "players")]
    items = data.get("player", data.get("players"))
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise RosterError([f"the roster {path} needs its players as [[player]] tables, each with name and email"
                           + (f" (it has {', '.join(map(repr, unknown))} instead)" if unknown else "")])
    rows = []
    for n, item in enumerate(items, 1):
        fields = {}
        for key, value in item.items():
            column = COLUMNS.get(str(key).strip().lower())
            if column is None:
                raise RosterError([f"player {n}: unknown key {key!r}; keys: name, email, rating, timezone"])
            fields[column] = value
        rows.append((f"player {n}", fields))
    return rows


def _csv_rows(text: str, path: Path) -> list[tuple[str, Mapping[str, Any]]]:
    lines = list(csv.reader(io.StringIO(text)))
    lines = [(n, row) for n, row in enumerate(lines, 1) if any(cell.strip() for cell in row)]
    if not lines:
        raise RosterError([f"the roster {path} is empty; it needs a header row (name,email[,rating][,timezone]) "
                           "and one row per player"])
    header_no, header = lines[0]
    columns = [COLUMNS.get(cell.strip().lower()) for cell in header]
    unknown = [cell for cell, col in zip(header, columns) if col is None and cell.strip()]
    problems = []
    if unknown:
        problems.append(f"line {header_no}: unknown column(s) {', '.join(map(repr, unknown))}; "
                        "columns: name, email, rating, timezone")
    for needed in ("name", "email"):
        if needed not in columns:
            problems.append(f"line {header_no}: the header has no {needed!r} column (the first row names the columns)")
    if problems:
        raise RosterError(problems)
    rows = []
    for n, row in lines[1:]:
        if len(row) > len(columns):
            problems.append(f"line {n}: {len(row)} cells, but the header names {len(columns)} columns")
            continue
        rows.append((f"line {n}", {col: cell.strip() for col, cell in zip(columns, row) if col}))
    if problems:
        raise RosterError(problems)
    return rows


def check_rows(rows: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Entry]:
    """Entries from (where, fields) rows; RosterError lists every problem in every row."""
    problems: list[str] = []
    entries: list[Entry] = []
    if len(rows) > MAX_PLAYERS:
        raise RosterError([f"the roster has {len(rows)} players; at most {MAX_PLAYERS} are taken"])
    for where, fields in rows:
        before = len(problems)
        raw_name = str(fields.get("name") or "").strip()
        name = raw_name.lower()
        if not name:
            problems.append(f"{where}: no name")
        elif not valid_name(name):
            problems.append(f"{where}: bad player name {raw_name[:40]!r}: use letters, digits, '_' and '-', "
                            "starting with a letter or digit")
        raw_email = str(fields.get("email") or "").strip()
        email = ""
        if not raw_email:
            problems.append(f"{where}: no email address for {raw_name or 'this player'}")
        else:
            try:
                email = normalise_email(raw_email)
            except ValueError as exc:
                problems.append(f"{where}: bad email address: {exc}")
        rating = _rating(fields.get("rating"), where, problems)
        zone = None
        raw_zone = str(fields.get("timezone") or "").strip()
        if raw_zone:
            try:
                zone = zone_name(raw_zone)
            except TimeError as exc:
                problems.append(f"{where}: {exc}")
        if len(problems) == before:
            entries.append(Entry(name, email, rating, zone))
    problems += duplicates(entries)
    if problems:
        raise RosterError(problems)
    return entries


def _rating(raw: Any, where: str, problems: list[str]) -> float | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    try:
        value = float(raw) if not isinstance(raw, bool) else math.nan
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or not 0 <= value <= 1000:
        problems.append(f"{where}: rating {raw!r} is not a number from 0 to 1000")
        return None
    return value


def duplicates(entries: Sequence[Entry]) -> list[str]:
    """A name or an address given twice (names ignore letter case; so do addresses)."""
    problems = []
    for label, key in (("player name", lambda e: e.name), ("email address", lambda e: e.email.lower())):
        seen: dict[str, int] = {}
        for entry in entries:
            seen[key(entry)] = seen.get(key(entry), 0) + 1
        problems += [f"{label} {value!r} is given {count} times in the roster (letter case is ignored)"
                     for value, count in seen.items() if count > 1]
    return problems
