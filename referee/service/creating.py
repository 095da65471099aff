"""Creating a game: everything checked first, the game stored only when nothing is wrong."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Mapping, Sequence

from .. import registry
from ..computer import available as computer_available
from ..computer_seats import BadLevel, checked_level, computer_seat
from ..contract import ComponentError, Game, SetupError, State, phase_kinds
from ..errors import BadRequest
from ..history import components_hash
from ..i18n import LanguageError, language_code
from ..notify import Notify, NotifyError
from ..options import resolve_options
from ..policy import DEFAULT_PRESET, Policy, PolicyError, kind_problems, split_assignment
from ..press import PressOptionError, PressOptions, split_options
from ..rng import commitment, new_seed
from ..store import GAME_ID, StoreError, check_game_id
from ..timekeeping import TimeError, zone_name
from ..tokens import INVALID, name_fault, name_problem, new_token, normalise_email
from .openings import Openings

# game ids that are addresses of the referee itself (mail to them is not a game's)
RESERVED_IDS = frozenset({"referee", "postmaster"})


@dataclass
class NewGame:
    id: str
    game: str
    players: list[dict[str, str]]  # name, email, token
    commitment: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "players": self.players, "commitment": self.commitment}


class Creating(Openings):
    """Part of `Referee`: new games and their deadline policy."""

    def new_game(self, game_type: str, players: Sequence[tuple[str, str]], *, seed: str | None = None,
                 options: Mapping[str, Any] | None = None, components: Mapping[str, Any] | None = None,
                 game_id: str | None = None, policy: str | None = None,
                 policy_set: Sequence[str] = (), timezones: Mapping[str, str] | None = None,
                 notify: Mapping[str, str] | None = None, language: str | None = None,
                 languages: Mapping[str, str] | None = None, bots: Sequence[tuple[str, str | None]] = ()) -> NewGame:
        """Check everything first; create the game only when nothing is wrong. `policy` names
        a deadline preset (default: the server's), `policy_set` holds KEY=VALUE overrides,
        `timezones` a player's time zone by name, so that their first report already shows
        deadlines in it, `notify` a player's mail setting by name (`each`, `turn`,
        `digest 08:00`; referee/notify.py), so that it holds from their first mail. `language`
        is the game's language (every player's until they choose their own), `languages` a
        player's own by name: the first report is already in it. `bots` are computer players
        (name, level or None for the default level), seated after the people."""
        game, planned, problems = self._game_and_id(game_type, game_id)
        levels = _bot_levels(game, bots, problems)
        names = [name.strip().lower() for name, _ in players] + [name.strip().lower() for name, _ in bots]
        if not game.min_players <= len(names) <= game.max_players:
            problems.append(f"{game.title} takes {game.min_players}-{game.max_players} players, not {len(names)}")
        addresses: list[str] = []
        for name in names[len(players):]:
            problem = self.player_name_problem(planned, name)
            if problem:
                problems.append(problem)
        for (raw, email), name in zip(players, names):
            problem = self.player_name_problem(planned, name, raw)
            if problem:
                problems.append(problem)
            try:
                addresses.append(normalise_email(email))
            except ValueError as exc:
                problems.append(f"bad email address for {raw[:40]}: {exc}")
        zones = _per_player(timezones, names[:len(players)], zone_name, "a time zone", "time zone", problems)
        spoken = _per_player(languages, names, language_code, "a language", "language", problems)
        choices = _per_player(notify, names, lambda spec: Notify.parse(spec).to_json(), "a mail setting",
                              "mail setting", problems)
        game_language = None
        try:
            game_language = language_code(language) if language is not None else None
        except LanguageError as exc:
            problems.append(f"the game's language: {exc}")
        for dup in sorted({n for n in names if names.count(n) > 1}):
            problems.append(f"player name {dup!r} is given more than once (names ignore letter case)")
        options, press = press_checked(options, problems)
        values, rules, loaded = self._settings_checked(game, options, policy, policy_set, components, problems)
        if problems:
            raise BadRequest(problems)
        seed = seed if seed is not None else new_seed()
        try:
            state = game.setup(names, seed, values, loaded)
        except SetupError as exc:
            raise BadRequest([f"setup refused: {exc}"]) from None
        game_id = game_id or self._fresh_id(game.name)
        seats = [{"name": n, "email": e, "token": new_token(), **({"timezone": zones[n]} if n in zones else {}),
                  **({"language": spoken[n]} if n in spoken else {}), **({"notify": choices[n]} if n in choices else {})}
                 for n, e in zip(names, addresses)] + [computer_seat(n, level) for n, level in levels]
        opened = self.clock()
        now = self._now()
        assert rules is not None
        meta = self._new_meta(game, names, seats, values, loaded, components is not None, seed, rules, now)
        if game_language:
            meta["language"] = game_language
        meta["press"] = press.to_meta()
        self.store.create(game_id, meta, state, [{"type": "created", "at": now, "game": game.name, "players": names,
                                                   "policy": rules.preset,
                                                   **({"language": game_language} if game_language else {})}],
                          then=lambda tx: self._opened(tx, game, state, opened))
        self._flush_notices()
        return NewGame(game_id, game.name, seats, meta["commitment"])

    def _opened(self, tx: Any, game: Game, state: State, now: datetime) -> None:
        """The new game's first unit of work: its deadline and everyone's opening mail, which
        says what table talk the game allows."""
        self._add_notices(tx, [PressOptions.from_meta(tx.meta).line()])
        self._notify_reports(tx, game, state, now)
        self._settle_mail(tx, now)

    @staticmethod
    def _new_meta(game: Game, names: list[str], seats: list[dict[str, Any]], values: dict[str, Any], loaded: Any,
                  custom: bool, seed: str, rules: Policy, now: str, status: str = "active") -> dict[str, Any]:
        """A new game's meta: who plays, with what, and its seed committed."""
        return {
            "game": game.name, "title": game.title, "rules_version": game.rules_version,
            "players": names, "seats": seats, "options": values,
            "components": loaded, "components_sha256": components_hash(loaded or {}),
            "components_custom": custom,
            "seed": seed, "commitment": commitment(seed), "seed_revealed": False,
            "created": now, "status": status, "steps": [], "policy": rules.to_meta(),
        }

    def _game_and_id(self, game_type: str, game_id: str | None) -> tuple[Game, str, list[str]]:
        """The game (BadRequest when it is not installed), the id the new game will have, and
        what is wrong with an id given."""
        try:
            game = self._games(game_type)
        except registry.UnknownGame as exc:
            raise BadRequest([str(exc)]) from None
        problems: list[str] = []
        if game_id is not None:
            try:
                check_game_id(game_id)
            except StoreError as exc:
                problems.append(str(exc))
            else:
                if self.store.exists(game_id):
                    problems.append(f"a game {game_id!r} already exists")
                elif game_id in RESERVED_IDS:
                    problems.append(f"{game_id!r} is the referee's own address; choose another game id")
        return game, game_id if game_id is not None else self._fresh_id(game.name), problems

    @staticmethod
    def player_name_problem(game_id: str, name: str, raw: str | None = None) -> str | None:
        """Why `name` cannot be a player's name in game `game_id`; None when it can. The same
        check for `new` and for a sign-up by mail."""
        fault = name_fault(game_id if game_id and GAME_ID.match(game_id) else None, name)
        if fault == INVALID:
            return (f"bad player name {(raw or name)[:40]!r}: use letters, digits, '_' and '-', starting with a "
                    "letter or digit")
        return name_problem(game_id, name) if fault else None

    def _settings_checked(self, game: Game, options: Mapping[str, Any] | None, policy: str | None,
                          policy_set: Sequence[str], components: Mapping[str, Any] | None,
                          problems: list[str]) -> tuple[dict[str, Any], Policy | None, Any]:
        """Options, deadline policy and components checked; what is wrong added to `problems`."""
        values, option_problems = resolve_options(game, options or {})
        problems += option_problems
        rules = None
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
        return values, rules, loaded

    def _fresh_id(self, name: str) -> str:
        prefix = name.split("-")[0][:16]
        n = 1
        while self.store.exists(f"{prefix}-{n}"):
            n += 1
        return f"{prefix}-{n}"

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


def _bot_levels(game: Game, bots: Sequence[tuple[str, str | None]], problems: list[str]) -> list[tuple[str, str]]:
    """The computer players asked for (name, level), their levels checked; what is wrong with
    them added to `problems`."""
    out: list[tuple[str, str]] = []
    if bots and not computer_available(game):
        problems.append(f"{game.title} has no computer player")
        return out
    for raw, level in bots:
        try:
            out.append((raw.strip().lower(), checked_level(level)))
        except BadLevel as exc:
            problems.append(f"computer player {raw[:40]!r}: {exc}")
    return out


def press_checked(options: Mapping[str, Any] | None, problems: list[str]) -> tuple[dict[str, Any], PressOptions]:
    """The table talk options (`press`, `press_in_archive`, `press_after_end`) taken out of a
    moderator's options and checked; the game's own options are left."""
    rest, given = split_options(options)
    try:
        return rest, PressOptions().changed(given)
    except PressOptionError as exc:
        problems += exc.problems
        return rest, PressOptions()


def _per_player(given: Mapping[str, str] | None, names: Sequence[str], check: Callable[[str], Any], what: str,
                label: str, problems: list[str]) -> dict[str, Any]:
    """A setting given per player (time zone, language, mail), each checked; a problem for a name
    that is not a player's and for a value `check` refuses."""
    out: dict[str, str] = {}
    for raw, value in (given or {}).items():
        if raw.strip().lower() not in names:
            problems.append(f"{what} is given for {raw[:40]!r}, who is not a player")
            continue
        try:
            out[raw.strip().lower()] = check(value)
        except (TimeError, LanguageError, NotifyError) as exc:
            problems.append(f"{label} of {raw[:40]}: {exc}")
    return out
