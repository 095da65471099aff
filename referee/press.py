"""Table talk (press): what players write to each other through the referee, and the rules
the moderator sets for it. Pure: no clock, no store, no mail.

A press record is kept in the game file's `press` table, apart from the events: it is no step
of the game, an undo does not take it back, and it must not move the event numbers that every
player's mail is numbered by (which would tell a player that others were talking in private).

    {"n": 3,                       # its number in the game, from 1
     "at": "2026-03-01T12:00:00Z",
     "from": "ann",                # None for a notice from the moderator
     "to": ["bob", "carla"],       # who got it, in seat order
     "all": False,                 # written to everyone (PRESS ALL, a notice)
     "text": "...",                # as the sender wrote it, cleaned (mailer/daemon/press_lines.py)
     "phase": "r2-auction",        # the phase open when it was sent
     "after": 57,                  # the last event then, for the game record's order
     "attachments": ["plan.pdf"],  # files the sender's mail carried, not passed on
     "message_id": "<...>", "source": "mail"}

The game's options (`referee new --option press=private`, `referee press GAME --set ...`):

    press              none | public (to everyone only) | private (to everyone or to some)
    press_in_archive   none | public (what was written to everyone) | all, in the game record
    press_after_end    true | false: whether players may still write once the game is over
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable, Mapping, Sequence

from .history import effective_events
from .i18n.messages import msg

TABLE = "press"
NONE, PUBLIC, PRIVATE = "none", "public", "private"
MODES = (NONE, PUBLIC, PRIVATE)
ARCHIVE_CHOICES = (NONE, PUBLIC, "all")
KEYS = ("press", "press_in_archive", "press_after_end")
EVERYONE = "*"  # the target of a reply code that answers everyone
REPLY_CODE_MARK = "9"  # never in a token (base32: a-z and 2-7), so a reply code is told apart at once
EACH, DIGEST = "each", "digest"  # when a player gets table talk (`NOTIFY press each|digest`)
# the word after NOTIFY that makes it the choice for table talk, in the players' languages
PRESS_NOTIFY_WORDS = frozenset({"press", "nachricht", "nachrichten", "messaggio", "messaggi"})


class PressOptionError(ValueError):
    """Options that cannot be; `problems` names each."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class PressOptions:
    """What the moderator allows; private press to all and to some is the default."""

    mode: str = PRIVATE
    archive: str = PUBLIC
    after_end: bool = False

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> "PressOptions":
        raw = meta.get("press") or {}
        return cls(raw.get("press", PRIVATE), raw.get("press_in_archive", PUBLIC), bool(raw.get("press_after_end")))

    def to_meta(self) -> dict[str, Any]:
        return {"press": self.mode, "press_in_archive": self.archive, "press_after_end": self.after_end}

    def changed(self, given: Mapping[str, Any]) -> "PressOptions":
        """These options with `given` (KEY: text or value) applied; PressOptionError lists
        every value that cannot be."""
        values = self.to_meta()
        problems = []
        for key, raw in given.items():
            if key not in KEYS:
                problems.append(f"there is no table talk option {key!r}; the options are {', '.join(KEYS)}")
                continue
            if key == "press_after_end":
                value = _flag(raw)
                if value is None:
                    problems.append(f"press_after_end takes true or false, not {str(raw)[:20]!r}")
                    continue
            else:
                value = str(raw).strip().lower()
                choices = MODES if key == "press" else ARCHIVE_CHOICES
                if value not in choices:
                    problems.append(f"{key} must be one of {', '.join(choices)}, not {str(raw)[:20]!r}")
                    continue
            values[key] = value
        if problems:
            raise PressOptionError(problems)
        return PressOptions(values["press"], values["press_in_archive"], values["press_after_end"])

    def line(self) -> dict[str, Any]:
        """What players are told of it, in their first report (a message, read in each
        player's language)."""
        if self.mode == NONE:
            return msg("Table talk: off in this game; players cannot write to each other through the referee.")
        if self.mode == PUBLIC:
            return msg("Table talk: a mail that begins with PRESS ALL goes to every player under your player name, "
                       "never your address. Private messages are off in this game.")
        return msg("Table talk: a mail that begins with PRESS ALL goes to every player, one that begins with "
                   "PRESS and player names (PRESS ann,bob) to those players; under your player name, never your "
                   "address.")

    def short(self) -> dict[str, Any]:
        """The choice in a few words, for LIST."""
        return {NONE: msg("table talk: off"), PUBLIC: msg("table talk: to all only"),
                PRIVATE: msg("table talk: to all and private")}[self.mode]


def _flag(raw: Any) -> bool | None:
    if isinstance(raw, bool):
        return raw
    low = str(raw).strip().lower()
    if low in ("true", "yes", "on", "1"):
        return True
    if low in ("false", "no", "off", "0"):
        return False
    return None


def split_options(given: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """A moderator's `--option`s split into the game's own and the table talk options."""
    game, press = {}, {}
    for key, value in (given or {}).items():
        (press if key in KEYS else game)[key] = value
    return game, press


@dataclass(frozen=True)
class PressLimits:
    """How much one player may write (settings: `limits.press_per_player_per_hour`,
    `limits.press_max_bytes`)."""

    per_player_per_hour: int = 20
    max_bytes: int = 8000
    per_mail: int = 5  # PRESS lines one mail may hold; the ones after are not sent


# -- reply addresses: `game+bob+CODE@host` answers the players CODE stands for, as bob


def reply_code(token: str, audience: Iterable[str] | None) -> str:
    """The code that, in place of a player's token in their reply address, makes their mail
    table talk to `audience` (names; None: everyone). Derived from the token, so it needs no
    record, dies with the token (a seat handed over), and tells nothing of it."""
    target = EVERYONE if audience is None else ",".join(sorted(audience))
    digest = hmac.new(token.encode("utf-8"), f"press-reply:{target}".encode("utf-8"), hashlib.sha256).digest()
    return REPLY_CODE_MARK + base64.b32encode(digest).decode("ascii").lower()[:15]


def is_reply_code(token: str | None) -> bool:
    return bool(token) and len(token or "") == 16 and (token or "").startswith(REPLY_CODE_MARK)


def code_audience(code: str, token: str, player: str, players: Sequence[str]) -> tuple[str, ...] | None:
    """Who a reply code of `player`'s stands for: () for everyone, else the names; None when
    it is no code of this seat's. The few sets of other players are tried in turn."""
    if not is_reply_code(code):
        return None
    code = code.strip().lower()
    if hmac.compare_digest(code, reply_code(token, None)):
        return ()
    others = [p for p in players if p != player]
    for size in range(1, len(others) + 1):
        for audience in combinations(others, size):
            if hmac.compare_digest(code, reply_code(token, audience)):
                return tuple(audience)
    return None


# -- records


def visible_to(record: Mapping[str, Any], player: str | None) -> bool:
    """Whether a player may read a record: its sender and its receivers (None: the moderator)."""
    return player is None or record.get("from") == player or player in record.get("to", ())


def seen_by(records: Sequence[Mapping[str, Any]], player: str) -> list[dict[str, Any]]:
    """The table talk a player may read (they sent it or got it), as they may read it: without
    its number in the game, which would tell how much others wrote in private."""
    return [{key: record.get(key) for key in ("at", "phase", "from", "to", "all", "text", "attachments")}
            for record in records if visible_to(record, player)]


def for_archive(records: Sequence[Mapping[str, Any]], choice: str) -> list[dict[str, Any]]:
    """The records a game record shows under `press_in_archive`."""
    if choice == "all":
        return [dict(r) for r in records]
    if choice == PUBLIC:
        return [dict(r) for r in records if r.get("all")]
    return []


def sent_within(records: Sequence[Mapping[str, Any]], player: str, since: str) -> int:
    """How many records `player` sent at `since` (ISO, UTC) or later."""
    return sum(1 for r in records if r.get("from") == player and r.get("at", "") >= since)


def dropped(events: Sequence[Mapping[str, Any]]) -> set[str]:
    """The players whose seat was dropped and not given back by an undo."""
    return {e["player"] for e in effective_events(events) if e["type"] == "drop" and e.get("player")}


def resolve_names(written: Sequence[str], players: Sequence[str]) -> tuple[list[str], list[str]]:
    """Player names as a mail writes them (any case, a unique beginning): the names, in seat
    order, and what names nobody."""
    found, unknown = [], []
    for word in written:
        low = word.strip().lower()
        if not low:
            continue
        exact = [p for p in players if p == low]
        begun = exact or [p for p in players if p.startswith(low)]
        if len(begun) == 1:
            found.append(begun[0])
        else:
            unknown.append(word.strip())
    return [p for p in players if p in found], unknown


def with_talk(events: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A game's history with its table talk, each piece after the event that came before it,
    as `{"type": "press"|"notice", "effective": True, ...record}` (a notice from the moderator)."""
    out: list[dict[str, Any]] = []
    pending = sorted(records, key=lambda r: r["n"])
    for event in events:
        while pending and pending[0].get("after", 0) < event["seq"]:
            out.append(_talk_item(pending.pop(0)))
        out.append(dict(event))
    return out + [_talk_item(r) for r in pending]


def _talk_item(record: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "press" if record.get("from") else "notice", "effective": True, **record}
