"""Joining an open game by mail; the game then starts by itself (starting.py).

A JOIN is only a request: the seat is taken when the address it came from answers the
confirmation mail (whose reply address carries a one-time code), or when the moderator
approves it in a game made with `approve`. So nobody can sign up someone else's address, and
a forged From is never seated. Each change is one unit of work on the game's file, written
with the mail it causes, so a crash loses neither a sign-up nor its answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..errors import ServiceError
from ..i18n import language_or_default, recipient_language
from ..i18n.messages import msg, say
from ..rendering import paragraphs
from ..signup_codes import FOLDER as CODES_FOLDER, SignupCodes
from ..signups import OPEN, forget_old, limit_problem, start_rule, with_pending
from ..store import StoreError
from ..timekeeping import to_iso
from ..tokens import (INVALID, RESERVED_NAMES, TOKEN_CHARS, longest_name, name_fault, new_token, normalise_email,
                      same_token)
from .open_games import OpenGames
from .starting import Starting


class SigningUp(OpenGames, Starting):
    """Part of `Referee`: JOIN, its confirmation or approval, LEAVE."""

    signup_codes: SignupCodes | None = None  # made for the store's data directory when first needed

    def join(self, game_id: str, email: str, name: str | None = None, *, message_id: str | None = None,
             in_reply_to: str | None = None) -> dict[str, Any]:
        """A JOIN request: refused with a ServiceError that says why (unknown game, started,
        full, name taken, limits), else recorded as pending and answered with a confirmation
        mail to `email` (or, where the moderator approves, a note that they will decide)."""
        try:
            address = normalise_email(email)
        except ValueError as exc:
            raise ServiceError(msg("{address!r} cannot be mailed: {why}", address=email[:80], why=str(exc))) from None
        wanted = (name or address.split("@")[0]).strip().lower()
        others = [meta["signup"] for gid, meta in self._open_metas() if gid != game_id]
        codes = self._signup_codes()  # outside the game's lock: its first use reads the open games
        now = self.clock()
        with self._open_tx(game_id) as tx:
            meta = tx.meta
            record = forget_old(meta["signup"], now)
            if message_id and any(p.get("message_id") == message_id for p in record["pending"]):
                return {"game": game_id, "name": wanted, "email": address, "duplicate": True}
            if any(s["email"].lower() == address.lower() for s in meta["seats"]):
                raise ServiceError(msg("this address already has a seat in {game}, and an address holds one seat "
                                       "a game", game=game_id))
            if len(meta["seats"]) >= record["max"]:
                raise ServiceError(msg("{game} is full: all {max} seats are taken", game=game_id, max=record["max"]))
            problem = _name_refusal(game_id, wanted, named=bool(name))
            if problem:
                raise ServiceError(problem)
            if any(s["name"] == wanted for s in meta["seats"]):
                raise ServiceError(msg("the name {name!r} is taken in {game}; choose another: JOIN {game} NAME",
                                       name=wanted, game=game_id))
            mine = [p for p in record["pending"] if p["email"].lower() == address.lower()]
            problem = limit_problem(address.lower(), [dict(record, pending=[p for p in record["pending"]
                                                                            if p not in mine]), *others],
                                    self.signup_limits, now)
            if problem:
                raise ServiceError(problem)
            code = new_token()
            entry = {"name": wanted, "email": address, "code": code, "at": to_iso(now), "message_id": message_id}
            record = with_pending(record, entry, {"email": address.lower(), "at": to_iso(now)}, self.signup_limits)
            codes.add(code, game_id)  # before the sign-up is written: a CONFIRM must find it
            # a request is no event of the game: anyone may send one under any address, and the
            # log must not grow with them; what changes the table (seated, declined, left) is one
            tx.set_meta(signup=record)
            if self.notifier is not None:
                self.notifier.signup_mail(tx, address, *self._join_answer(tx.game_id, meta, record, wanted),
                                          serial=f"join-{code}", code=None if record["approve"] else code,
                                          in_reply_to=in_reply_to)
        self._flush_notices()
        return {"game": game_id, "name": wanted, "email": address, "approve": record["approve"]}

    @staticmethod
    def _join_answer(game_id: str, meta: Mapping[str, Any], record: Mapping[str, Any],
                     name: str) -> tuple[Any, list[Any]]:
        """The subject and lines answering a JOIN, as messages in the game's language; `{referee}`
        and `{code}` are filled in when the mail is made."""
        head = [msg("You asked to join {title}, game {game}, as {name}. {taken} of {max} seats are taken; the game "
                    "{rule}.", title=meta.get("title") or meta["game"], game=game_id, name=name,
                    taken=len(meta["seats"]), max=record["max"], rule=start_rule(record))]
        if record["approve"]:
            return msg("[{game}] Sign-up received: the moderator decides", game=game_id), head + [
                "", msg("In this game the moderator approves every player. You will hear from the referee when they "
                        "have decided; until then nothing more is needed from you.")]
        return msg("[{game}] Confirm your sign-up as {name}", game=game_id, name=name), head + [
            "", msg("To take the seat, reply to this mail (its reply address carries a one-time code), or send a mail "
                    "to {{referee}} whose first line is:"), "", "    CONFIRM {code}", "",
            msg("If you did not ask for this, ignore this mail: nobody is seated without the reply, and the request "
                "lapses in two days.")]

    def confirm(self, code: str, *, in_reply_to: str | None = None) -> dict[str, Any]:
        """The reply to a confirmation mail: the seat is taken for the address the code was
        mailed to. A code seen before changes nothing; an unknown one is a ServiceError. The
        game is found through the code index (referee/signup_codes.py), never by reading
        every game: anyone may send a made-up code."""
        code = code.strip().lower()
        game_id = self._signup_codes().find(code) if _plausible_code(code) else None
        meta = None
        if game_id is not None:
            try:
                meta = self.store.load(game_id).meta
            except StoreError:
                meta = None
        unknown = msg("no sign-up waits for this code: it was used, it lapsed, or the game has started")
        if meta is None or not meta.get("signup"):
            raise ServiceError(unknown)
        if any(same_token(code, s.get("code")) for s in meta["seats"]):
            return {"game": game_id, "duplicate": True}
        # still waiting, or the game filled or started meanwhile: its unit of work says which
        return self._seat_pending(game_id, lambda p: same_token(code, p["code"]), "reply", in_reply_to=in_reply_to,
                                  missing=unknown)

    def _signup_codes(self) -> SignupCodes:
        """The code index of this data directory, with the sign-ups of older versions added."""
        codes = self.signup_codes
        if codes is None:
            codes = self.signup_codes = SignupCodes(Path(getattr(self.store, "root")) / CODES_FOLDER)
        codes.adopt(lambda: [(p["code"], game_id) for game_id, meta in self._open_metas()
                             for p in meta["signup"]["pending"]])
        return codes

    def approve(self, game_id: str, name: str) -> dict[str, Any]:
        """The moderator seats a pending sign-up (a game made with `approve`)."""
        name = name.strip().lower()
        with self._open_tx(game_id) as tx:
            if not tx.meta["signup"]["approve"]:
                raise ServiceError(msg("{game} takes players who confirm by mail; there is nothing to approve",
                                       game=game_id))
        return self._seat_pending(game_id, lambda p: p["name"] == name, "moderator")

    def decline(self, game_id: str, name: str, reason: str = "") -> dict[str, Any]:
        """The moderator turns a pending sign-up down; its address is told."""
        name = name.strip().lower()
        with self._open_tx(game_id) as tx:
            record = dict(tx.meta["signup"])
            found = [p for p in record["pending"] if p["name"] == name]
            if not found:
                raise ServiceError(msg("no sign-up as {name!r} waits in {game}", name=name, game=game_id))
            record["pending"] = [p for p in record["pending"] if p["name"] != name]
            tx.set_meta(signup=record)
            tx.append({"type": "declined", "at": self._now(), "name": name, "email": found[0]["email"]})
            if self.notifier is not None:
                said = msg("The moderator did not accept your sign-up as {name} for game {game}.", name=name,
                           game=game_id)
                self.notifier.signup_mail(tx, found[0]["email"], msg("[{game}] Sign-up not accepted", game=game_id), [
                    msg("{said} Reason given: {reason}", said=said, reason=reason) if reason else said],
                    serial=f"declined-{found[0]['code']}")
        self._flush_notices()
        return {"game": game_id, "name": name}

    def _seat_pending(self, game_id: str, which: Any, how: str, *, in_reply_to: str | None = None,
                      missing: dict[str, Any] | None = None) -> dict[str, Any]:
        """Seat the pending sign-up `which` picks, refusing in a player's words a game that
        filled or started meanwhile; `missing`: what to say when no such sign-up waits."""
        now = self.clock()
        with self._open_tx(game_id) as tx:
            meta = tx.meta
            record = forget_old(meta["signup"], now)
            found = [p for p in record["pending"] if which(p)]
            if not found:
                raise ServiceError(missing or msg("no such sign-up waits in {game}", game=game_id))
            entry = found[0]
            if len(meta["seats"]) >= record["max"]:
                raise ServiceError(msg("{game} is full: all {max} seats were taken before this reply", game=game_id,
                                       max=record["max"]))
            if any(s["name"] == entry["name"] for s in meta["seats"]):
                raise ServiceError(msg("the name {name!r} was taken in {game} meanwhile; send JOIN {game} with another "
                                       "name", name=entry["name"], game=game_id))
            if any(s["email"].lower() == entry["email"].lower() for s in meta["seats"]):
                raise ServiceError(msg("this address already has a seat in {game}, and an address holds one seat "
                                       "a game", game=game_id))
            seat = {"name": entry["name"], "email": entry["email"], "token": new_token(), "code": entry["code"]}
            record["pending"] = [p for p in record["pending"] if p is not entry]
            tx.set_meta(seats=[*meta["seats"], seat], players=[*meta["players"], seat["name"]], signup=record)
            tx.append({"type": "seated", "at": to_iso(now), "name": seat["name"], "email": seat["email"], "by": how})
            if not self._start_if_due(tx, now) and self.notifier is not None:
                lang = language_or_default(meta.get("language"))
                text = paragraphs(
                    say(msg("Your seat in game {game} is taken: you play as {name}. {taken} of {max} seats are "
                            "taken; the game {rule}.", game=game_id, name=seat["name"],
                            taken=len(meta["seats"]) + 1, max=record["max"], rule=start_rule(record)), lang),
                    say(msg("When it starts you get your first report. Until then you may reply to this mail with "
                            "LEAVE to give the seat up (its reply address carries your secret token)."), lang))
                self.notifier.to_player(tx, tx.meta, seat["name"], say(msg("[{game}] You have a seat as {name}",
                                                                           game=game_id, name=seat["name"]), lang),
                                        text, f"seated-{seat['code']}", in_reply_to, kind="signup")
            started = tx.meta["status"] != OPEN
        self._flush_notices()
        return {"game": game_id, "name": seat["name"], "email": seat["email"], "started": started}

    def leave(self, game_id: str, player: str, *, token: str | None = None) -> dict[str, Any]:
        """A seated player gives their seat up before the game starts."""
        with self.store.transaction(game_id) as tx:
            seat = self._checked_seat(tx, player, token)
            if tx.meta.get("status") != OPEN:
                raise ServiceError(msg("{game} has started; a seat can only be left before the start (the moderator "
                                       "can drop a player)", game=game_id))
            name = seat["name"]
            if self.notifier is not None:
                lang = recipient_language(tx.meta, name)
                self.notifier.to_player(tx, tx.meta, name, say(msg("[{game}] You left the game", game=game_id), lang),
                                        paragraphs(say(msg("You gave up your seat as {name} in game {game}. To play "
                                                           "after all, send JOIN {game} again.", name=name,
                                                           game=game_id), lang)),
                                        f"left-{seat.get('code') or seat['token']}", None, kind="signup")
            tx.set_meta(seats=[s for s in tx.meta["seats"] if s["name"] != name],
                        players=[p for p in tx.meta["players"] if p != name])
            tx.append({"type": "left", "at": self._now(), "name": name})
        self._flush_notices()
        return {"game": game_id, "name": name}

    def leave_request(self, game_id: str, email: str, *, serial: str, in_reply_to: str | None = None) -> None:
        """LEAVE sent to the referee's address, where From proves nothing: the seat's
        registered address is mailed how to leave (reply to that mail, whose reply address
        carries the seat's token), so only its owner can give the seat up."""
        with self._open_tx(game_id) as tx:
            seat = next((s for s in tx.meta["seats"] if s["email"].lower() == email.strip().lower()), None)
            if seat is None:
                raise ServiceError(msg("this address holds no seat in {game} (a sign-up that is not confirmed lapses "
                                       "by itself)", game=game_id))
            if self.notifier is not None:
                lang = recipient_language(tx.meta, seat["name"])
                self.notifier.to_player(tx, tx.meta, seat["name"], say(msg("[{game}] To leave, reply LEAVE",
                                                                           game=game_id), lang),
                                        paragraphs(say(msg("Someone asked, from this address, to give up your seat as "
                                                           "{name} in game {game}. To leave, reply to this mail with "
                                                           "LEAVE as its first line. To stay, do nothing.",
                                                           name=seat["name"], game=game_id), lang)),
                                        serial, in_reply_to, kind="signup")
        self._flush_notices()


def _name_refusal(game_id: str, name: str, *, named: bool) -> dict[str, Any] | None:
    """Why a JOIN's name cannot be a player's name in the game, for the address to read; None
    when it can. `named`: the name was given (else it was taken from the address)."""
    most = longest_name(game_id)
    fault = name_fault(game_id, name)
    if fault == INVALID:
        said = msg("the name {name!r} cannot be a player's: a name is one word of letters, digits, '_' and '-', "
                   "starting with a letter or digit, of at most {most} characters", name=name[:40], most=most)
    elif fault:
        said = msg("the name {name!r} is too long: a name in game {game} may have at most {most} characters",
                   name=name[:40], game=game_id, most=most)
    elif name in RESERVED_NAMES:
        said = msg("the name {name!r} is kept for the referee's own mail; choose another: JOIN {game} NAME",
                   name=name, game=game_id)
    else:
        return None
    return said if named else msg("{said} (no name was given, so the part of your address before the @ was tried; "
                                  "add a name after the game id)", said=said)


def _plausible_code(code: str) -> bool:
    """Whether `code` could be one the referee made (new_token): anything else needs no look-up."""
    return len(code) == TOKEN_CHARS and code.isalnum() and code.isascii()
