"""Reading a game: its status, a player's view, its history, a seat by its token; and a
player's STATUS or HELP answered by mail."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..bouncing import bouncing_seats
from ..history import effective_events
from ..progress import phase_json
from ..i18n import DEFAULT_LANGUAGE, recipient_language
from ..i18n.messages import msg
from ..i18n.terms import localised_phase
from ..schedule import deadline_info, deadline_text, seat_zone
from ..errors import ServiceError
from ..signups import OPEN, start_rule, start_rule_text
from ..standings import standings_context
from ..store import StoreError
from ..tokens import same_token
from .glance import Glance


class Queries(Glance):
    """Part of `Referee`: reading games, and answering STATUS and HELP."""

    def seat(self, game_id: str, player: str, token: str | None) -> dict[str, Any] | None:
        """The player's seat when `token` is theirs (compared in constant time), else None;
        `language` is the one they read (theirs, else the game's), for answers made outside
        the game's unit of work."""
        try:
            meta = self.store.load(game_id).meta
        except StoreError:
            return None
        seat = self._seat(meta, player)
        if seat is None or token is None or not same_token(token, seat["token"]):
            return None
        return dict(seat, language=recipient_language(meta, seat["name"]))

    def request(self, game_id: str, player: str, what: str, *, token: str | None,
                in_reply_to: str | None, serial: str) -> str:
        """A player's STATUS, HELP or HISTORY by mail: the answer is queued in the game's outbox
        (one per `serial`, so a mail processed twice is answered once). Returns the player's name."""
        if what not in ("status", "help", "history"):
            raise ValueError(f"unknown request {what!r}")
        with self.store.transaction(game_id) as tx:
            seat = self._checked_seat(tx, player, token)
            if tx.meta.get("status") == OPEN:
                raise ServiceError(f"{game_id} has not started yet: {len(tx.meta['seats'])} of "
                                   f"{tx.meta['signup']['max']} seats are taken, and the game "
                                   f"{start_rule_text(tx.meta['signup'])}")
            game = self.game_of(tx.meta)
            if self.notifier is not None:
                answer = {"status": self.notifier.status_answer, "help": self.notifier.help_answer,
                          "history": self.notifier.history_answer}[what]
                answer(tx, game, tx.meta, tx.state, seat["name"], in_reply_to, serial)
        self._flush_notices()
        return seat["name"]

    def list(self) -> list[dict[str, Any]]:
        return self.store.list()

    def status(self, game_id: str) -> dict[str, Any]:
        """The game's status, with its facts for the moderator under `glance` (glance.py)."""
        stored = self.store.load(game_id)
        return {**self._status(game_id, stored), "glance": self._facts(game_id, stored)}

    def _status(self, game_id: str, stored: Any) -> dict[str, Any]:
        if stored.meta.get("status") == OPEN:
            record = stored.meta["signup"]
            return {"id": game_id, "game": stored.meta["game"], "title": stored.meta.get("title"), "status": OPEN,
                    "phase": None, "waiting_for": [], "deadline": None, "paused": None, "offered": [],
                    "players": stored.meta["players"], "result": None, "commitment": stored.meta["commitment"],
                    "seed": None, "signup": {"min": record["min"], "max": record["max"],
                                             "start": start_rule_text(record), "approve": record["approve"]}}
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
            "standings": standings_context(game, result),
            "commitment": stored.meta["commitment"],
            "seed": stored.meta["seed"] if stored.meta.get("seed_revealed") else None,
            "bouncing": bouncing_seats(stored.meta),
        }

    def games_of(self, email: str, lang: str | None = None) -> tuple[str, list[dict[str, Any]]]:
        """Every game not over in which `email` holds a seat: the phase, whether the player is
        asked now and the deadline in their time zone (GAMES by mail); and the language all of
        it is told in: `lang`, else the one most of the address's seats are played in."""
        address = email.strip().lower()
        seats = []
        for row in self.store.list():
            if row.get("status") in ("finished", "broken"):
                continue
            try:
                stored = self.store.load(row["id"])
            except StoreError:
                continue
            seats += [(row["id"], stored, seat) for seat in stored.meta["seats"] if seat["email"].lower() == address]
        spoken = Counter(recipient_language(stored.meta, seat["name"]) for _, stored, seat in seats)
        lang = lang or (spoken.most_common(1)[0][0] if spoken else DEFAULT_LANGUAGE)
        found = []
        for game_id, stored, seat in seats:
            meta = stored.meta
            item = {"id": game_id, "title": meta.get("title") or meta["game"], "player": seat["name"],
                    "email": seat["email"], "token": seat["token"]}
            if meta.get("status") == OPEN:
                record = meta["signup"]
                item.update(status=OPEN, phase=None, asked=False, deadline="",
                            waiting=msg("{taken} of {max} seats taken; the game {rule}", taken=len(meta["seats"]),
                                        max=record["max"], rule=start_rule(record)))
            else:
                game = self.game_of(meta)
                asked = {p.player for p in game.prompts(stored.state)}
                item.update(status=meta.get("status"),
                            phase=localised_phase(game, lang, phase_json(game, stored.state)),
                            asked=seat["name"] in asked,
                            deadline=deadline_text(meta, seat.get("timezone"), lang) if asked else "",
                            waiting="")
            found.append(item)
        return lang, found

    def deadline_for(self, game_id: str, player: str | None = None) -> str:
        """The open deadline as a person reads it (in the player's time zone, if one is given)."""
        meta = self.store.load(game_id).meta
        return deadline_text(meta, seat_zone(meta, player) if player else None)

    def show(self, game_id: str, player: str | None = None) -> dict[str, Any]:
        stored = self.store.load(game_id)
        if stored.meta.get("status") == OPEN:
            raise ServiceError(f"{game_id} has not started yet: there is no position to show")
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
