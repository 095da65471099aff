"""Open games: made without players and listed for LIST, their sign-up record read by the
moderator, and the unit of work that refuses a game not open in words a player reads."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Sequence

from ..errors import BadRequest, ServiceError
from ..i18n import LanguageError, language_code, language_or_default
from ..rng import new_seed
from ..i18n.messages import msg
from ..computer import available as computer_available
from ..computer_seats import BadLevel, checked_level
from ..signups import (FULL, OPEN, SignupError, SignupLimits, forget_old, new_record, parse_seats, parse_start,
                       start_rule, start_rule_text)
from ..store import GAME_ID, GameNotFound, StoreError
from ..press import PressOptions
from .creating import Creating, NewGame, press_checked


class OpenGames(Creating):
    """Part of `Referee`: open games made, listed and looked at."""

    signup_limits = SignupLimits()

    def open_game(self, game_type: str, seats: str, *, starts_when: str | None = None, approve: bool = False,
                  language: str = "English", seed: str | None = None, options: Mapping[str, Any] | None = None,
                  components: Mapping[str, Any] | None = None, game_id: str | None = None,
                  policy: str | None = None, policy_set: Sequence[str] = (), fill: str | None = None) -> NewGame:
        """A game that waits for players: checked like `new_game`, stored without seats. The
        seed is drawn now and its commitment stored, so the seat order it will give is fixed
        before anyone joins. `fill`: the level of the computer players that take the seats
        still empty at the start date (which it needs)."""
        game, planned, problems = self._game_and_id(game_type, game_id)
        if fill is not None:
            try:
                fill = checked_level(fill)
            except BadLevel as exc:
                problems.append(f"--fill-with-bots: {exc}")
            if not computer_available(game):
                problems.append(f"{game.title} has no computer player to fill empty seats")
        now = self.clock()
        try:
            low, high = parse_seats(seats)
            if low < game.min_players or high > game.max_players:
                problems.append(f"{game.title} takes {game.min_players}-{game.max_players} players, "
                                f"not {low}..{high}")
        except SignupError as exc:
            problems.append(str(exc))
            low = high = 0
        try:
            start = parse_start(starts_when, now)
        except SignupError as exc:
            problems.append(str(exc))
            start = ""
        if fill is not None and start == FULL:
            problems.append("computer players fill the empty seats at a start date: give --starts-when DATE")
        options, press = press_checked(options, problems)
        if not language.isprintable() or len(language.strip()) > 40:
            problems.append(f"--language {language[:40]!r}: what LIST says the table speaks is a few words on one "
                            "line (at most 40 characters, no line breaks or control characters)")
        values, rules, loaded = self._settings_checked(game, options, policy, policy_set, components, problems)
        if problems:
            raise BadRequest(problems)
        assert rules is not None
        seed = seed if seed is not None else new_seed()
        meta = self._new_meta(game, [], [], values, loaded, components is not None, seed, rules, self._now(),
                              status=OPEN)
        meta["press"] = press.to_meta()
        meta["signup"] = new_record((low, high), start, approve, language.strip() or "English", fill)
        try:  # a language Referee writes in becomes the game's: its players' mail is in it
            meta["language"] = language_code(language)
        except LanguageError:
            pass  # other words only tell LIST's readers what the table speaks
        self.store.create(planned, meta, {}, [{"type": "created", "at": meta["created"], "game": game.name,
                                               "players": [], "policy": rules.preset, "open": meta["signup"]}])
        return NewGame(planned, game.name, [], meta["commitment"])

    def open_games(self) -> list[dict[str, Any]]:
        """Every game that waits for players, as LIST and `list --open` show it."""
        out = []
        for game_id, meta in self._open_metas():
            record = meta["signup"]
            out.append({"id": game_id, "game": meta["game"], "title": meta.get("title") or meta["game"],
                        "taken": len(meta["seats"]), "free": record["max"] - len(meta["seats"]),
                        "min": record["min"], "max": record["max"], "start": start_rule_text(record),
                        "rule": start_rule(record),
                        "starts_when": record["starts_when"], "approve": record["approve"],
                        "preset": (meta.get("policy") or {}).get("preset"), "language": record["language"],
                        "press": PressOptions.from_meta(meta).mode, "press_line": PressOptions.from_meta(meta).short(),
                        "players": list(meta["players"]), "commitment": meta["commitment"]})
        return out

    def open_game_language(self, game_id: str) -> str | None:
        """The language an open game is played in (what JOIN and LEAVE are answered in); None
        for an id that names no open game here."""
        if not GAME_ID.match(game_id or ""):
            return None
        try:
            meta = self.store.load(game_id).meta
        except StoreError:
            return None
        return language_or_default(meta.get("language")) if meta.get("status") == OPEN else None

    def _open_metas(self) -> list[tuple[str, dict[str, Any]]]:
        found = []
        for row in self.store.list():
            if row.get("status") != OPEN:
                continue
            try:
                meta = self.store.load(row["id"]).meta
            except StoreError:
                continue  # a broken or vanished game is simply not open
            if meta.get("status") == OPEN and meta.get("signup"):
                found.append((row["id"], meta))
        return found

    def signups(self, game_id: str) -> dict[str, Any]:
        """An open game's seats and the sign-ups that wait, for the moderator."""
        meta = self.store.load(game_id).meta
        if meta.get("status") != OPEN:
            raise ServiceError(f"{game_id} is not open for sign-ups")
        record = forget_old(meta["signup"], self.clock())
        return {"id": game_id, "seats": [{"name": s["name"], "email": s["email"]} for s in meta["seats"]],
                "pending": [{"name": p["name"], "email": p["email"], "at": p["at"]} for p in record["pending"]],
                "approve": record["approve"], "start": start_rule_text(record)}

    @contextmanager
    def _open_tx(self, game_id: str) -> Iterator[Any]:
        """The unit of work of an open game, refusing in words a player reads a game that does
        not exist or is not open (nothing is written then)."""
        unknown = ServiceError(msg("there is no game {game!r} here; LIST shows the open games", game=game_id[:64]))
        if not GAME_ID.match(game_id or "") or not self.store.exists(game_id):
            raise unknown
        try:
            with self.store.transaction(game_id) as tx:
                meta = tx.meta
                if meta.get("status") != OPEN or not meta.get("signup"):
                    if meta.get("signup") and len(meta["seats"]) >= meta["signup"]["max"]:
                        raise ServiceError(msg("{game} is full: all {max} seats were taken and the game has "
                                               "started; LIST shows the games open now", game=game_id,
                                               max=meta["signup"]["max"]))
                    raise ServiceError(msg("{game} has already started, so it takes no more players; LIST shows "
                                           "the games open now", game=game_id))
                yield tx
        except GameNotFound:
            raise unknown from None
