"""A tournament as plain data: settings, players, rounds of tables and their results.

The same shapes are stored in the tournament's file (store.py) and written into its archive
(archive.py), so `verify` recomputes the standings with exactly the code that made them.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping

NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,23}$")
HEAT, FINAL = "heat", "final"
DEFAULT_POLICY = "tournament"  # every game's deadline preset unless the organiser names another


def check_name(name: str) -> str | None:
    """Why `name` cannot name a tournament (None when it can): it starts every game id."""
    if not NAME.match(name or ""):
        return (f"bad tournament name {str(name)[:40]!r}: use lower-case letters, digits and hyphens, "
                "starting with a letter or digit, at most 24 characters")
    return None


def game_id(tournament: str, round_number: int, table: int) -> str:
    return f"{tournament}-r{round_number}-t{table}"


def game_seed(seed: str, game: str) -> str:
    """Each game's seed, derived from the tournament's: anyone given the tournament seed (it is
    revealed when the tournament ends) can check every game's, and nobody can work out a
    game's seed from another game's."""
    return hmac.new(seed.encode("utf-8"), f"referee/tournament/game/{game}".encode("utf-8"),
                    hashlib.sha256).hexdigest()


@dataclass
class Player:
    name: str
    email: str = ""  # never written to an archive
    rating: float | None = None  # as given in the roster
    timezone: str | None = None
    mu: float = 0.0  # the rating this tournament starts from
    sigma: float = 0.0
    rated_from: str = "default"  # "roster", "history" (earlier tournaments) or "default"
    dropped: dict[str, Any] | None = None  # round, game, how ("left": the game's drop rule; "defaults")

    def to_json(self, *, public: bool = False) -> dict[str, Any]:
        data = asdict(self)
        if public:
            del data["email"]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Player":
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


@dataclass
class Table:
    number: int
    game: str
    seats: list[str]  # in seat order
    commitment: str = ""
    result: dict[str, Any] | None = None  # ranking and scores, once the game is over

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Table":
        return cls(int(data["number"]), str(data["game"]), list(data["seats"]), data.get("commitment", ""),
                   data.get("result"))


@dataclass
class Round:
    number: int
    kind: str  # HEAT or FINAL
    tables: list[Table]
    top: int | None = None  # a final: how many players it takes
    sizes: tuple[int, int] | None = None  # table sizes set for this round alone (`next --table-size`)
    repeats: int = 0  # pairs who met before and meet again at these tables
    mailed: bool = False  # the standings after this round went to every player

    @property
    def finished(self) -> bool:
        return all(t.result is not None for t in self.tables)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "kind": self.kind, "top": self.top,
                "sizes": list(self.sizes) if self.sizes else None, "repeats": self.repeats,
                "mailed": self.mailed, "tables": [asdict(t) for t in self.tables]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Round":
        sizes = data.get("sizes")
        return cls(int(data["number"]), str(data["kind"]), [Table.from_json(t) for t in data["tables"]],
                   data.get("top"), (int(sizes[0]), int(sizes[1])) if sizes else None, int(data.get("repeats", 0)),
                   bool(data.get("mailed", False)))


@dataclass
class Tournament:
    name: str
    game: str
    title: str
    rules_version: str
    created: str
    seed: str
    commitment: str
    planned: int  # rounds
    sizes: tuple[int, int]  # smallest and largest table
    scoring: str
    policy: str
    policy_set: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    seed_revealed: bool = False
    language: str | None = None  # every game's language (each player may still choose their own)

    # -- reading

    def player(self, name: str) -> Player | None:
        return next((p for p in self.players if p.name == name.strip().lower()), None)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def complete(self) -> bool:
        """Every planned round made and played (a final is always the last round)."""
        last = self.current
        return last is not None and last.finished and (len(self.rounds) >= self.planned or last.kind == FINAL)

    def active(self, number: int | None = None) -> list[str]:
        """The players who may be seated in round `number` (default: the next one): all but
        those who dropped out before it was made."""
        number = len(self.rounds) + 1 if number is None else number
        return [p.name for p in self.players if p.dropped is None or p.dropped["after"] >= number]

    def before(self, number: int) -> "Tournament":
        """The tournament as it stood when round `number` was made: its earlier rounds only."""
        return replace(self, rounds=self.rounds[:number - 1])

    def table_of(self, game: str) -> tuple[Round, Table] | None:
        for rnd in self.rounds:
            for table in rnd.tables:
                if table.game == game:
                    return rnd, table
        return None

    # -- JSON

    def settings_json(self) -> dict[str, Any]:
        """Everything but the players and the rounds: what the archive's tournament.json holds
        (the seed only once revealed)."""
        return {"name": self.name, "game": self.game, "title": self.title, "rules_version": self.rules_version,
                "created": self.created, "commitment": self.commitment,
                "seed": self.seed if self.seed_revealed else None, "rounds": self.planned,
                "table_size": list(self.sizes), "scoring": self.scoring, "policy": self.policy,
                "policy_set": list(self.policy_set), "options": dict(self.options),
                **({"language": self.language} if self.language else {})}

    def to_json(self) -> dict[str, Any]:
        return {**self.settings_json(), "seed": self.seed, "seed_revealed": self.seed_revealed,
                "players": [p.to_json() for p in self.players], "round_list": [r.to_json() for r in self.rounds]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Tournament":
        return cls(
            name=data["name"], game=data["game"], title=data["title"], rules_version=data["rules_version"],
            created=data["created"], seed=data.get("seed") or "", commitment=data["commitment"],
            planned=int(data["rounds"]), sizes=(int(data["table_size"][0]), int(data["table_size"][1])),
            scoring=data["scoring"], policy=data["policy"], policy_set=list(data.get("policy_set", [])),
            options=dict(data.get("options", {})), players=[Player.from_json(p) for p in data.get("players", [])],
            rounds=[Round.from_json(r) for r in data.get("round_list", [])],
            seed_revealed=bool(data.get("seed_revealed", False)), language=data.get("language"))
