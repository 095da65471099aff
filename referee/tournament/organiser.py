"""The organiser: runs tournaments over the games of the service.

Everything a tournament does to a game goes through the service's public operations
(`Referee.new_game`, `status`, `drop`, `load`); the tournament's own record
is kept in its file (store.py). Checks come first and every problem is listed; nothing is
written until all of them pass.

A tournament learns that a game is over from the service's hook (`game_finished`, which
`mailer.wiring` registers), and catches up at the start of every tournament command
(`_sync`) in case a hook was missed (a crash between the game's write and the hook): it
reads each unfinished table's game, records the results, mails the standings once a round is
over, and reveals the tournament's seed once the last round is. A round is made in two
steps, so a crash between them loses nothing: the tables are written to the tournament file
first, then each game is created; a game still missing is created by the next command, with
the same seed (it is derived from the tournament's).
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timezone
from typing import Any, Callable, Iterator, Sequence

from .. import registry
from ..contract import Game, phase_kinds
from ..errors import BadRequest, ServiceError
from ..i18n import LanguageError, language_code
from ..options import resolve_options
from ..policy import PolicyError, kind_problems
from ..press import PressOptionError, PressOptions, split_options
from ..rng import commitment, new_seed
from ..service import Referee
from ..store import GameNotFound, StoreError
from ..tokens import name_problem
from .model import DEFAULT_POLICY, Player, Round, Tournament, check_name, game_id, game_seed
from .pairing import PairingError, parse_sizes, table_sizes
from .ratings import START_MU, START_SIGMA
from .roster import Entry, duplicates
from .rounds import make_round
from .scoring import ScoringError, parse_scheme
from .standings import Standings, compute
from .store import RatingBook, TournamentNotFound, TournamentStore, Unit
from .texts import standings_mail

log = logging.getLogger("referee.tournament")

MAX_ROUNDS = 50

Mailer = Callable[[str, str, str, str], None]  # to, subject, text, serial


@dataclass
class Made:
    """What `create` and `next_round` made, for the command to print."""

    tournament: Tournament
    round: Round
    warnings: list[str]


class Organiser:
    def __init__(self, referee: Referee, store: TournamentStore, mail: Mailer | None = None,
                 games: Callable[[str], Game] = registry.get) -> None:
        self.referee = referee
        self.store = store
        self.mail = mail
        self.games = games
        self.ratings = RatingBook(store)
        self._local = threading.local()

    def _now(self) -> str:
        return self.referee.clock().astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    # -- creating

    def create(self, name: str, game_type: str, roster: Sequence[Entry], *, rounds: int, table_size: str | None,
               policy: str | None = None, policy_set: Sequence[str] = (), options: dict[str, Any] | None = None,
               seed: str | None = None, scoring: str = "scaled", language: str | None = None) -> Made:
        """A new tournament with its first round's games; BadRequest lists every problem.
        `language` is every game's language (each player may still choose their own)."""
        problems: list[str] = []
        try:
            language = language_code(language) if language is not None else None
        except LanguageError as exc:
            problems.append(f"--language: {exc}")
        given, name = name, name.strip().lower()
        problem = check_name(name)
        if problem:
            problems.append(check_name(given) or problem)
        elif self.store.exists(name):
            problems.append(f"a tournament {name!r} already exists")
        try:
            game = self.games(game_type)
        except registry.UnknownGame as exc:
            raise BadRequest([*problems, str(exc)]) from None
        if not 1 <= rounds <= MAX_ROUNDS:
            problems.append(f"--rounds must be from 1 to {MAX_ROUNDS}, not {rounds}")
        sizes = _default_sizes(game)
        try:
            sizes = parse_sizes(table_size, game.min_players, game.max_players) if table_size else sizes
        except PairingError as exc:
            problems.append(str(exc))
        else:
            try:
                table_sizes(len(roster), *sizes)
            except PairingError as exc:
                problems.append(f"the roster has {len(roster)} player(s): {exc}")
        problems += duplicates(roster)
        if not problem:
            longest = game_id(name, max(rounds, 1), max(len(roster) // max(sizes[0], 1), 1))
            problems += sorted({p for e in roster if (p := name_problem(longest, e.name))})
        try:
            parse_scheme(scoring)
        except ScoringError as exc:
            problems.append(str(exc))
        own, press = split_options(options)  # table talk options go to each game as they are
        values, option_problems = resolve_options(game, own)
        problems += option_problems
        try:
            PressOptions().changed(press)
        except PressOptionError as exc:
            problems += exc.problems
        try:
            rules = self.referee.build_policy(policy or DEFAULT_POLICY, list(policy_set))
            problems += kind_problems(rules, phase_kinds(game))
        except PolicyError as exc:
            problems += exc.problems
        if not problem and not problems:
            taken = [g for i in range(1, len(roster) + 1) if self.referee.store.exists(g := game_id(name, 1, i))]
            problems += [f"a game {g!r} already exists; choose another tournament name" for g in taken]
        if problems:
            raise BadRequest(problems)
        seed = seed if seed is not None else new_seed()
        book = self.ratings.get()
        players = [self._player(entry, book) for entry in roster]
        t = Tournament(name, game.name, game.title, game.rules_version, self._now(), seed, commitment(seed),
                       rounds, sizes, parse_scheme(scoring).name, rules.preset, list(policy_set), {**values, **press},
                       players,
                       language=language)
        made = make_round(t, players_per_game=(game.min_players, game.max_players))
        t.rounds.append(made)
        with self._unit(name, create=True) as unit:
            unit.log({"type": "created", "at": t.created, "players": [p.name for p in players]})
            unit.log({"type": "round", "at": t.created, "round": 1, "games": [x.game for x in made.tables]})
            unit.save(t)
            self._open_games(unit, t)
        return Made(t, t.rounds[-1], self._warnings(t))

    def _player(self, entry: Entry, book: dict[str, dict[str, Any]]) -> Player:
        known = book.get(entry.email.lower())
        if known:
            return Player(entry.name, entry.email, entry.rating, entry.timezone, known["mu"], known["sigma"], "history")
        if entry.rating is not None:
            return Player(entry.name, entry.email, entry.rating, entry.timezone, entry.rating, START_SIGMA, "roster")
        return Player(entry.name, entry.email, None, entry.timezone, START_MU, START_SIGMA, "default")

    def _open_games(self, unit: Unit, t: Tournament) -> None:
        """Create every game of the current round that does not exist yet, and note each
        game's seed commitment (published: `tournament status` and the archive show it)."""
        rnd = t.current
        assert rnd is not None
        by_name = {p.name: p for p in t.players}
        for table in rnd.tables:
            if not self.referee.store.exists(table.game):
                made = self.referee.new_game(
                    t.game, [(p, by_name[p].email) for p in table.seats], seed=game_seed(t.seed, table.game),
                    options=t.options, game_id=table.game, policy=t.policy, policy_set=t.policy_set,
                    timezones={p: by_name[p].timezone for p in table.seats if by_name[p].timezone},
                    language=t.language)
                table.commitment = made.commitment
            elif not table.commitment:
                table.commitment = self.referee.status(table.game)["commitment"]
            unit.save(t)

    def _warnings(self, t: Tournament) -> list[str]:
        rnd = t.current
        if rnd is None or not rnd.repeats:
            return []
        return [f"round {rnd.number}: {rnd.repeats} pair(s) of players meet again; with these players and table "
                "sizes the pairing found no seating that avoids it"]

    # -- the next round

    def next_round(self, name: str, *, final: int | None = None, table_size: str | None = None) -> Made:
        with self._unit(name) as unit:
            t = self._sync(unit)
            game = self.games(t.game)
            rnd = t.current
            assert rnd is not None
            if not rnd.finished:
                running = [self._running(x.game) for x in rnd.tables if x.result is None]
                raise ServiceError(f"round {rnd.number} of {name} is still being played: {'; '.join(running)}. "
                                   "The next round is made from its results once every game is over")
            if t.complete:
                raise ServiceError(f"{name} is over: all its rounds have been played "
                                   f"(`referee tournament standings {name}`)")
            number = len(t.rounds) + 1
            if final is not None and number != t.planned:
                raise BadRequest([f"a final is the tournament's last round, round {t.planned}; "
                                  f"the next round is round {number}"])
            sizes = None
            if table_size:
                try:
                    sizes = parse_sizes(table_size, game.min_players, game.max_players)
                except PairingError as exc:
                    raise BadRequest([str(exc)]) from None
            try:
                made = make_round(t, top=final, sizes=sizes, players_per_game=(game.min_players, game.max_players))
            except PairingError as exc:
                raise BadRequest([f"round {number}: {exc}"]) from None
            warnings = self._cut(t, final) if final is not None else []
            t.rounds.append(made)
            unit.log({"type": "round", "at": self._now(), "round": number, "kind": made.kind, "top": final,
                      "games": [x.game for x in made.tables]})
            unit.save(t)
            self._open_games(unit, t)
        return Made(t, made, warnings + self._warnings(t))

    def _cut(self, t: Tournament, top: int) -> list[str]:
        """A warning when players share the place where the final's cut falls."""
        rows = [r for r in compute(t).rows if r.name in set(t.active())]
        if len(rows) > top and rows[top - 1].rank == rows[top].rank:
            level = [r.name for r in rows if r.rank == rows[top].rank]
            return [f"{', '.join(level)} share place {rows[top].rank} where the final's cut falls; the order "
                    "drawn from the tournament's seed decided who plays the final"]
        return []

    def _running(self, game: str) -> str:
        try:
            status = self.referee.status(game)
        except GameNotFound:
            return f"{game} (not created yet; run the command again)"
        waiting = sorted({w["player"] for w in status["waiting_for"]})
        phase = status["phase"]
        return f"{game} (round {phase['round']}, {phase['name']}; waiting for {', '.join(waiting) or 'nobody'})"

    # -- dropping out

    def drop(self, name: str, player: str) -> dict[str, Any]:
        """A player leaves the tournament: from their game under way by the game's own drop
        rule where it has one (`referee drop`); where it has none their seat stays and plays
        default orders at each deadline. They are not seated in later rounds."""
        with self._unit(name) as unit:
            t = self._sync(unit)
            who = t.player(player)
            if who is None:
                raise ServiceError(f"{name} has no player {player!r}; players: {', '.join(p.name for p in t.players)}")
            if who.dropped is not None:
                raise ServiceError(f"{who.name} already dropped out of {name}")
            if t.complete:
                raise ServiceError(f"{name} is over; nobody can drop out any more")
            rnd = t.current
            table = next((x for x in rnd.tables if who.name in x.seats and x.result is None), None) if rnd else None
            how, note = "between rounds", f"{who.name} will not be seated in later rounds"
            if table is not None:
                try:
                    self.referee.drop(table.game, who.name)
                    how = "left"
                    note = f"{who.name} left {table.game} under the game's own rule and scores nothing for it"
                except ServiceError as exc:
                    how = "defaults"
                    policy = self.referee.policy_show(table.game)["policy"] or {}
                    waits = policy.get("values", {}).get("missed") == "wait"
                    then = ("the game waits at each deadline (the policy says missed=wait): close its phases with "
                            f"`referee adjudicate {table.game}`" if waits else
                            "it plays default orders at each deadline until the game ends")
                    note = f"{table.game} keeps {who.name}'s seat ({exc}); {then}, and its result counts"
            who.dropped = {"after": len(t.rounds), "game": table.game if table else None, "how": how}
            unit.log({"type": "drop", "at": self._now(), "player": who.name, **who.dropped})
            unit.save(t)
            t = self._sync(unit)
        return {"tournament": name, "player": who.name, "how": how, "note": note, "game": who.dropped["game"]}

    # -- reading

    def list(self) -> list[dict[str, Any]]:
        out = []
        for name in self.store.names():
            try:
                t = self.store.load(name)
            except (TournamentNotFound, ServiceError, StoreError) as exc:  # one broken file, listed as such
                out.append({"name": name, "problem": str(exc)})
                continue
            out.append({"name": name, "game": t.game, "players": len(t.players), "rounds_made": len(t.rounds),
                        "rounds": t.planned, "complete": t.complete})
        return out

    def standings(self, name: str) -> tuple[Tournament, Standings]:
        with self._unit(name) as unit:
            t = self._sync(unit)
        return t, compute(t)

    def tournament(self, name: str) -> Tournament:
        with self._unit(name) as unit:
            return self._sync(unit)

    def archive(self, name: str, path: str, progress: Callable[[int], None] | None = None) -> tuple[Tournament, str]:
        """Write the tournament's archive (archive.py); the manifest's SHA-256. Every game must
        be over: a running game has no seed to reveal and no result to check. The archive's
        module (zip, tar) is imported here: every process that builds the services has an
        organiser, and only this command writes an archive."""
        from .archive import write_archive

        t = self.tournament(name)
        running = [self._running(x.game) for r in t.rounds for x in r.tables if x.result is None]
        if running:
            raise ServiceError(f"{name} has games still being played, so it cannot be archived yet: "
                               f"{'; '.join(running)}")
        logs = {}
        for rnd in t.rounds:
            for table in rnd.tables:
                logs[table.game] = self.game_log(table.game)
                if progress:
                    progress(1)
        return t, write_archive(path, t, logs)

    def game_log(self, game: str) -> str:
        """A game's record, as `referee log` writes it (with the table talk its options show)."""
        return self.referee.game_record(game)

    # -- keeping up with the games

    def game_finished(self, game: str) -> None:
        """The service's hook: a game is over. Its tournament (if it has one) records the
        result and, when that ends a round, mails the standings. Never raises: the game's own
        work is already written, and the next tournament command catches up."""
        if getattr(self._local, "busy", False):
            return  # a tournament command of this thread is in charge; it syncs at its end
        try:
            for name in self.store.names():
                if game.startswith(f"{name}-r"):
                    with self._unit(name) as unit:
                        self._sync(unit)
        except Exception:  # reported, never passed to the player whose orders ended the game
            log.exception("tournament bookkeeping after %s ended failed; the next tournament command catches up",
                          game)

    @contextmanager
    def _unit(self, name: str, *, create: bool = False) -> Iterator[Unit]:
        """The tournament's unit of work; the service's hook stays quiet meanwhile in this
        thread (the command syncs itself, and the hook would wait for the lock it holds)."""
        was = getattr(self._local, "busy", False)
        with self.store.unit(name, create=create) as unit:
            self._local.busy = True
            try:
                yield unit
            finally:
                self._local.busy = was

    def _sync(self, unit: Unit) -> Tournament:
        """Bring the tournament up to date with its games (see the module's docstring)."""
        t = unit.load()
        rnd = t.current
        if rnd is not None and any(not self.referee.store.exists(x.game) for x in rnd.tables):
            self._open_games(unit, t)
        for r in t.rounds:
            for table in r.tables:
                if table.result is None or r is rnd:  # the current round's too: an undo may reopen a game
                    table.result = self._result(table.game)
        unit.save(t)
        if t.complete and not t.seed_revealed:
            t.seed_revealed = True  # before the last round's mail, which tells the seed
            final = compute(t)
            self.ratings.record(t.name, {r.name: (r.mu, r.sigma) for r in final.rows},
                                {p.name: p.email for p in t.players}, {r.name: r.games for r in final.rows})
            unit.log({"type": "complete", "at": self._now(), "seed": t.seed})
            unit.save(t)
        for r in t.rounds:
            if r.finished and not r.mailed:
                self._mail_standings(t, r)
                r.mailed = True
                unit.log({"type": "mailed", "at": self._now(), "round": r.number})
                unit.save(t)
        return t

    def _result(self, game: str) -> dict[str, Any] | None:
        try:
            status = self.referee.status(game)
        except GameNotFound:
            return None
        if status["status"] != "finished" or not status["result"]:
            return None
        return {"ranking": status["result"]["ranking"], "scores": status["result"]["scores"]}

    def _mail_standings(self, t: Tournament, rnd: Round) -> None:
        if self.mail is None:
            return
        shown = t.before(rnd.number + 1)
        standings = compute(shown)
        for player in t.players:
            subject, text = standings_mail(shown, standings, rnd, player.name)
            self.mail(player.email, subject, text, f"tournament-{t.name}-round-{rnd.number}-{player.name}")


def _default_sizes(game: Game) -> tuple[int, int]:
    """Without --table-size: four a table where the game takes four, else its most."""
    size = 4 if game.min_players <= 4 <= game.max_players else game.max_players
    return size, size
