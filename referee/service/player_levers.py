"""A player's levers, by mail or from the command line: a vacation, which moves deadlines
within the game's quota, a time zone for the deadlines they are shown, and the language
everything they are sent is written in."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any, Callable

from ..errors import BadRequest, ServiceError
from ..i18n import NAMES, LanguageError, language_code, recipient_language, translations
from ..i18n.messages import moment, msg
from ..notify import Notify, NotifyError, read_mode
from ..policy import Policy
from ..press import DIGEST, EACH, PRESS_NOTIFY_WORDS
from ..schedule import deadline_info, deadline_text
from ..timekeeping import (TimeError, UTC, check_moment, format_duration, get_zone, parse_duration, show_moment,
                           to_iso, zone_name)
from .openings import Openings

MAX_VACATION = timedelta(days=366)


class PlayerLevers(Openings):
    """Part of `Referee`: a player's levers on the clock."""

    def vacation(self, game_id: str, player: str, spec: str, *, token: str | None = None,
                 source: str = "cli", message_id: str | None = None) -> dict[str, Any]:
        """`5d`, `until 2026-12-01` (a date in the player's zone, or a date-time), or `off`.
        A mail (`message_id`) already processed changes nothing the second time."""
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            seat, repeated = self._command_seat(tx, game_id, player, token, message_id)
            if repeated:
                return repeated
            name = seat["name"]
            if tx.meta.get("status") == "finished":
                raise ServiceError(f"{game_id} is over")
            policy = Policy.from_meta(tx.meta.get("policy"))
            if policy is None:
                raise ServiceError(f"{game_id} has no deadlines, so a vacation changes nothing")
            try:
                until = vacation_end(spec, now, seat.get("timezone"))
            except TimeError as exc:
                raise BadRequest([str(exc)]) from None
            vacations = dict(tx.meta.get("vacations", {}))
            used = timedelta(seconds=tx.meta.get("vacation_used", {}).get(name, 0))
            left = max(policy.vacation_quota - used, timedelta(0))
            if until is None:
                if name not in vacations:
                    raise ServiceError(f"{name} is not on vacation in {game_id}")
                vacations.pop(name)
                tx.set_meta(vacations=vacations)
                seq = tx.append({"type": "vacation", "at": to_iso(now), "player": name, "until": None,
                                 "source": source})
                self._announce(tx, msg("{player} is back", player=name),
                               [msg("{player}'s vacation is over; deadlines run as usual.", player=name)],
                               "", f"vacation-{seq}")
                result = {"game": game_id, "player": name, "until": None, "quota_left": format_duration(left)}
            else:
                vacations[name] = {"start": to_iso(now), "until": to_iso(until)}
                tx.set_meta(vacations=vacations)
                seq = tx.append({"type": "vacation", "at": to_iso(now), "player": name, "until": to_iso(until),
                                 "source": source})
                quota_note = msg("Deadlines that fall while {player} is away move to give {player} a normal "
                                 "deadline after coming back, within the vacation quota: {left} left of {quota}.",
                                 player=name, left=format_duration(left), quota=format_duration(policy.vacation_quota))
                if left <= timedelta(0):
                    quota_note = msg("{player}'s vacation quota in this game ({quota}) is used up, so deadlines do "
                                     "not move; default orders apply as usual.", player=name,
                                     quota=format_duration(policy.vacation_quota))
                self._announce(tx, msg("{player} is on vacation", player=name), [
                    msg("{player} is on vacation until {until}.", player=name, until=moment(until)), "", quota_note],
                    "", f"vacation-{seq}")
                game = self.game_of(tx.meta)
                pos = self._position(tx, game)
                if not tx.meta.get("paused"):
                    self._vacation_moves(tx, policy, pos.waiting_for(), now)
                result = {"game": game_id, "player": name, "until": to_iso(until), "quota_left": format_duration(left)}
            result["deadline"] = deadline_info(tx.meta)
            self._settle_mail(tx, now)
        self._flush_notices()
        return result

    def set_timezone(self, game_id: str, player: str, zone: str, *, token: str | None = None,
                     source: str = "cli", in_reply_to: str | None = None, serial: str | None = None,
                     message_id: str | None = None) -> dict[str, Any]:
        """A player's time zone, for the deadlines in their reports, receipts and reminders."""
        shown: dict[str, str] = {}

        def answer(tx: Any, name: str, zone_now: str) -> tuple[str, str]:
            shown["deadline"] = deadline_text(tx.meta, zone_now)
            lang = recipient_language(tx.meta, name)
            t = translations(lang)
            return (t.gettext("[{game}] Time zone set: {zone}").format(game=game_id, zone=zone_now),
                    t.gettext("Your time zone in {game} is now {zone}. Reports, receipts and reminders show "
                              "deadlines in it, with UTC beside.").format(game=game_id, zone=zone_now) + "\n\n"
                    + t.gettext("The current deadline: {deadline}").format(
                        deadline=deadline_text(tx.meta, zone_now, lang)) + "\n")

        done = self._seat_setting(game_id, player, "timezone", zone, zone_name, answer, token=token, source=source,
                                  in_reply_to=in_reply_to, serial=serial, message_id=message_id)
        if "duplicate" not in done:
            done["deadline"] = shown["deadline"]
        return done

    def set_language(self, game_id: str, player: str, language: str, *, token: str | None = None,
                     source: str = "cli", in_reply_to: str | None = None, serial: str | None = None,
                     message_id: str | None = None) -> dict[str, Any]:
        """The language a player's reports, receipts, notices and HELP are written in, and
        accepted for their orders beside English. It is kept in the seat and in the game's
        history (an event), so it holds after a restart and a replay."""

        def answer(tx: Any, name: str, code: str) -> tuple[str, str]:
            t = translations(code)
            return (t.gettext("[{game}] Language set: {language}").format(game=game_id, language=NAMES[code]),
                    t.gettext("From now on everything the referee sends you in {game} is written in {language}: "
                              "reports, receipts, reminders, notices and HELP. You may write your orders in "
                              "{language} or in English.").format(game=game_id, language=NAMES[code]) + "\n")

        return self._seat_setting(game_id, player, "language", language, language_code, answer, token=token,
                                  source=source, in_reply_to=in_reply_to, serial=serial, message_id=message_id)

    def _seat_setting(self, game_id: str, player: str, setting: str, given: str, check: Callable[[str], str],
                      answer: Callable[[Any, str, str], tuple[str, str]], *, token: str | None, source: str,
                      in_reply_to: str | None, serial: str | None, message_id: str | None) -> dict[str, Any]:
        """A setting of one player's seat (`timezone`, `language`) checked and changed, the
        change recorded in the game's history, and, for a mail command, confirmed by mail
        (`answer` gives its subject and text). A mail done before changes nothing again."""
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            seat, repeated = self._command_seat(tx, game_id, player, token, message_id)
            if repeated:
                return repeated
            name = seat["name"]
            try:
                value = check(given)
            except (TimeError, LanguageError) as exc:
                raise BadRequest([str(exc)]) from None
            self._set_seat(tx, name, **{setting: value})
            key = "zone" if setting == "timezone" else setting
            seq = tx.append({"type": setting, "at": to_iso(now), "player": name, key: value, "source": source})
            subject, text = answer(tx, name, value)
            if self.notifier is not None and source == "mail":
                self.notifier.to_player(tx, tx.meta, name, subject, text, serial or f"{setting}-{seq}", in_reply_to,
                                        "answer")
        self._flush_notices()
        return {"game": game_id, "player": name, setting: value}

    def set_notify(self, game_id: str, player: str, spec: str, *, token: str | None = None,
                   source: str = "cli", in_reply_to: str | None = None, serial: str | None = None,
                   message_id: str | None = None) -> dict[str, Any]:
        """A player's choice of mail: `each`, `turn` or `digest [HH:MM]` (referee/notify.py).
        Mail that waits under the old choice is sent now if the new one says it is due.
        `press each|digest` is the choice for table talk (`set_press_notify`)."""
        words = spec.split()
        if words and words[0].lower() in PRESS_NOTIFY_WORDS:
            return self.set_press_notify(game_id, player, " ".join(words[1:]), token=token, source=source,
                                         in_reply_to=in_reply_to, serial=serial, message_id=message_id)
        try:
            choice = Notify.parse(spec)
        except NotifyError as exc:
            raise BadRequest([str(exc)]) from None
        now = self.clock()
        with self.store.transaction(game_id) as tx:
            seat, repeated = self._command_seat(tx, game_id, player, token, message_id)
            if repeated:
                return repeated
            name = seat["name"]
            self._set_seat(tx, name, notify=choice.to_json())
            # the digest's hour goes under its own key: `at` is when the event happened
            seq = tx.append({"type": "notify", "at": to_iso(now), "player": name, "mode": choice.mode,
                             **({"digest_at": choice.at} if choice.at else {}), "source": source})
            lang = recipient_language(tx.meta, name)
            t = translations(lang)
            text = choice.describe(seat.get("timezone"))
            if self.notifier is not None and source == "mail":
                self.notifier.to_player(
                    tx, tx.meta, name, t.gettext("[{game}] Mail setting: {setting}").format(
                        game=game_id, setting=choice.command(lang)),
                    t.gettext("Your mail setting in {game} is now {setting}.").format(
                        game=game_id, setting=choice.command(lang)) + "\n\n"
                    + choice.describe(seat.get("timezone"), lang) + ".\n\n"
                    + t.gettext("The mail commands NOTIFY each, NOTIFY turn and NOTIFY digest 08:00 change it "
                                "again.") + "\n", serial or f"notify-{seq}", in_reply_to, "answer")
            self._settle_mail(tx, now)
        self._flush_notices()
        return {"game": game_id, "player": name, "notify": choice.to_json(), "text": text}

    def set_press_notify(self, game_id: str, player: str, mode: str, *, token: str | None = None,
                         source: str = "cli", in_reply_to: str | None = None, serial: str | None = None,
                         message_id: str | None = None) -> dict[str, Any]:
        """When a player gets table talk: `each` (a mail for each, at once) or `digest` (it
        waits for their next mail)."""
        mode = read_mode(mode)  # `jede`, `sammel` ... as German and Italian players write them
        if mode not in (EACH, DIGEST):
            raise BadRequest([f"write NOTIFY press each (a mail for each at once) or NOTIFY press digest (with your "
                              f"next mail), not {mode[:20]!r}"])
        with self.store.transaction(game_id) as tx:
            seat, repeated = self._command_seat(tx, game_id, player, token, message_id)
            if repeated:
                return repeated
            name = seat["name"]
            self._set_seat(tx, name, press_notify=mode)
            seq = tx.append({"type": "press_notify", "at": self._now(), "player": name, "mode": mode,
                             "source": source})
            if self.notifier is not None and source == "mail":
                self.notifier.press_notify_answer(tx, tx.meta, name, mode, serial or f"press-notify-{seq}",
                                                  in_reply_to)
        self._flush_notices()
        return {"game": game_id, "player": name, "press_notify": mode}

    @staticmethod
    def _set_seat(tx: Any, name: str, **fields: Any) -> None:
        """Change fields of one player's seat (their time zone, language, mail setting)."""
        tx.set_meta(seats=[dict(s, **fields) if s["name"] == name else s for s in tx.meta["seats"]])

    def _command_seat(self, tx: Any, game_id: str, player: str, token: str | None,
                      message_id: str | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The seat a player's lever acts on, and the answer to give instead when this mail
        was done before (None when it is new)."""
        seat = self._checked_seat(tx, player, token)
        if self._seen_command(tx, message_id):
            return seat, {"game": game_id, "player": seat["name"], "duplicate": True}
        return seat, None

    def _seen_command(self, tx: Any, message_id: str | None) -> bool:
        """Whether this mail command was done before; if not, remember it (same unit of work)."""
        if not message_id:
            return False
        if any(r.get("message_id") == message_id for r in tx.records("commands")):
            return True
        tx.add_record("commands", {"message_id": message_id})
        return False


def vacation_end(spec: str, now: datetime, zone: str | None) -> datetime | None:
    """When a vacation given as `5d`, `until 2026-12-01[ 18:00]` or `off` ends (None: off)."""
    words = spec.strip().split()
    if not words:
        raise TimeError("say how long: VACATION 5d, VACATION until 2026-12-01, or VACATION off")
    if words[0].lower() in ("off", "end", "stop", "back", "aus", "zurück", "no", "fine"):  # also German, Italian
        return None
    if words[0].lower() in ("until", "bis", "fino"):
        raw = " ".join(words[1:])
        if not raw:
            raise TimeError("until when? e.g. VACATION until 2026-12-01")
        shown = repr(raw if len(raw) <= 40 else raw[:40] + "...")
        try:
            if len(raw) <= 10:
                day = date.fromisoformat(raw)
                until = datetime.combine(day, time(0, 0), tzinfo=get_zone(zone or "UTC")).astimezone(UTC)
            else:
                value = datetime.fromisoformat(raw.replace("Z", "+00:00").replace(" ", "T"))
                if value.tzinfo is None:
                    value = value.replace(tzinfo=get_zone(zone or "UTC"))
                until = value.astimezone(UTC)
        except ValueError:
            raise TimeError(f"{shown} is not a date; write it like 2026-12-01 (or 2026-12-01 18:00)") from None
        except OverflowError:  # year 1 or 9999 moved by a time zone
            raise TimeError(f"{shown} is not a day a vacation can end on: it must be within a year from now") from None
        check_moment(until, shown)
    else:
        until = now + parse_duration(" ".join(words))
    if until <= now:
        raise TimeError(f"the vacation would end in the past ({show_moment(until, zone)})")
    if until - now > MAX_VACATION:
        raise TimeError("a vacation may last at most a year")
    return until
