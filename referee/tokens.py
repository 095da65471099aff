"""Player secrets and player names.

A token proves who sent a submission (the From address of a mail is no proof). Tokens are
random, short enough to type, and compared in constant time so timing reveals nothing.
"""

from __future__ import annotations

import base64
import hmac
import re
import secrets

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
EMAIL = re.compile(r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+$")
TOKEN_CHARS = 16  # what new_token makes
LOCAL_PART_MAX = 64  # RFC 5321: the most characters before the @ that every mail server takes


def new_token() -> str:
    """About 80 bits of randomness as 16 lower-case base32 characters."""
    return base64.b32encode(secrets.token_bytes(10)).decode("ascii").lower()


def same_token(given: str | None, stored: str | None) -> bool:
    if not given or not stored:
        return False
    return hmac.compare_digest(given.strip().lower().encode(), stored.encode())


# names a player signing up may not take: players would read them as the referee's own words
RESERVED_NAMES = frozenset({"referee", "moderator", "admin", "administrator", "postmaster", "abuse", "root",
                            "system", "mailer-daemon", "noreply", "no-reply", "nobody", "everyone", "all"})


def valid_name(name: str) -> bool:
    return bool(NAME.match(name))


def valid_email(address: str) -> bool:
    return bool(EMAIL.match(address)) and len(address) <= 254


def longest_name(game_id: str) -> int:
    """The longest player name whose reply address (`game+name+token@host`, what players
    answer to) keeps its local part within LOCAL_PART_MAX: a longer one is cut or refused on
    the way, and the player's orders never arrive."""
    return LOCAL_PART_MAX - len(game_id) - 2 - TOKEN_CHARS


INVALID, GAME_ID_TOO_LONG, TOO_LONG = "invalid", "game id too long", "too long"  # what `name_fault` finds


def length_fault(game_id: str, name: str) -> str | None:
    """Whether reply addresses of game `game_id` (`game+name+token@host`) leave `name` room:
    GAME_ID_TOO_LONG when they leave no name any, TOO_LONG when this one does not fit."""
    most = longest_name(game_id)
    if most < 1:
        return GAME_ID_TOO_LONG
    return TOO_LONG if len(name) > most else None


def name_fault(game_id: str | None, name: str) -> str | None:
    """What keeps `name` from being a player's name in game `game_id` by mail: not written
    as a name may be (INVALID), or `length_fault`; None when nothing does. The one check
    behind the moderator's messages (`name_problem`, `player_name_problem`) and the sign-up
    desk's (signing_up.py); without a game id only the spelling is checked."""
    if not valid_name(name):
        return INVALID
    return None if game_id is None else length_fault(game_id, name)


def name_problem(game_id: str, name: str) -> str | None:
    """Why `name` cannot be a player's name in game `game_id` by mail, for its length; None
    when it can."""
    fault = length_fault(game_id, name)
    if fault == GAME_ID_TOO_LONG:
        return (f"the game id {game_id!r} is too long to leave room for player names in reply addresses "
                f"(a game id may have at most {LOCAL_PART_MAX - 3 - TOKEN_CHARS} characters)")
    if fault == TOO_LONG:
        return (f"player name {name[:40] + ('...' if len(name) > 40 else '')!r} is too long: reply addresses "
                f"read {game_id}+NAME+TOKEN@..., whose part before the @ may have at most {LOCAL_PART_MAX} "
                f"characters, so a name in game {game_id} may have at most {longest_name(game_id)}")
    return None


def normalise_email(address: str) -> str:
    """An address as it is stored and mailed to: trimmed, with an internationalised domain in
    its ASCII form (IDNA). ValueError says why an address cannot be used: Referee mails
    without SMTPUTF8, so a local part outside ASCII could not be delivered (docs/cli.md)."""
    text = address.strip()
    local, at, domain = text.rpartition("@")
    if not local.isascii():
        raise ValueError(f"{text!r} has characters outside ASCII before the @; such an address needs SMTPUTF8, "
                         "which Referee's mail does not use: ask the player for an address in plain ASCII")
    if at and not domain.isascii():
        try:
            domain = domain.encode("idna").decode("ascii")
        except UnicodeError:
            raise ValueError(f"{text!r}: its domain cannot be written in ASCII (IDNA)") from None
    text = f"{local}{at}{domain}"
    if not valid_email(text):
        raise ValueError(f"{text!r} is not an email address")
    return text
