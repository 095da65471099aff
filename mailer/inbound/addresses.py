"""Tokenised reply addresses: which game, which player, which secret a recipient names.

Grammar of the local part (matched case-insensitively; the result is lowercased)::

    local-part = [ base sep ] game sep player "+" token
    sep        = "+" / "-"
    base       = the configured local_base (omitted when local_base is empty)
    game       = name
    player     = name
    name       = [a-z0-9] *[a-z0-9._-]          ; at most 64 characters
    token      = 1*128[a-z0-9]

The canonical form is ``game+player+token@host``. Some MTAs and mail forms refuse ``+``, so the
separator after the base and after the game may also be ``-``. Names may themselves contain
``-``, so ``g-42-anne-marie+tok`` can be split more than one way: the split is only accepted
when it is unique, either because just one ``-`` is there or because ``games`` (ids the caller
knows) leaves one candidate. Otherwise the address is refused rather than guessed. The domain
is not checked here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from mailer.own_address import REFEREE_LOCAL

__all__ = ["REFEREE_LOCAL", "KnownGames", "is_game_address", "parse_plus_address", "referee_code"]


_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")
_TOKEN = re.compile(r"[a-z0-9]{1,128}\Z")


def _local_part(addr: str) -> str | None:
    text = addr.strip()
    if "<" in text and text.endswith(">"):
        text = text[text.rfind("<") + 1 : -1]
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain or any(ch.isspace() for ch in text):
        return None
    return local.lower()


def parse_plus_address(
    addr: str, local_base: str = "", games: Container[str] | None = None
) -> tuple[str, str, str] | None:
    """``(game, player, token)`` from a tokenised reply address, or None when it is not one."""
    if not isinstance(addr, str) or len(addr) > 512:
        return None
    local = _local_part(addr)
    if local is None:
        return None
    base = (local_base or "").strip().lower()
    if base:
        if not local.startswith(base) or local[len(base) : len(base) + 1] not in ("+", "-"):
            return None
        local = local[len(base) + 1 :]
    head, plus, token = local.rpartition("+")
    if not plus or not _TOKEN.match(token):
        return None
    if "+" in head:
        game, _, player = head.partition("+")
        if _NAME.match(game) and _NAME.match(player):
            return game, player, token
        return None
    candidates = []
    for index, char in enumerate(head):
        if char == "-":
            game, player = head[:index], head[index + 1 :]
            if _NAME.match(game) and _NAME.match(player):
                candidates.append((game, player))
    if games is not None:
        candidates = [pair for pair in candidates if pair[0] in games]
    if len(candidates) != 1:
        return None
    game, player = candidates[0]
    return game, player, token


def referee_code(address: str, hostname: str) -> str | None:
    """For an address of the referee itself: "" for the plain one, the code after `+` for a
    confirmation reply; None for any other address."""
    local, _, domain = address.strip().lower().rpartition("@")
    if domain != hostname.lower():
        return None
    if local == REFEREE_LOCAL:
        return ""
    head, plus, code = local.partition("+")
    return code if head == REFEREE_LOCAL and plus and _TOKEN.match(code) else None


def is_game_address(address: str, hostname: str, exists: Callable[[str], bool]) -> bool:
    """Whether `address` may name a game here (the SMTP server's RCPT check): the right
    domain and a local part that starts with an existing game's id, or the referee's own
    address. Cheap: no mail is parsed and only file names are looked at."""
    local, _, domain = address.strip().lower().rpartition("@")
    if domain != hostname.lower() or not local:
        return False
    if referee_code(address, hostname) is not None:
        return True
    head = local.split("+")[0]
    candidates = [head] + [local[:i] for i, ch in enumerate(local) if ch == "-"]
    for game_id in candidates:
        try:
            if game_id and exists(game_id):
                return True
        except Exception:  # a malformed id is simply not a game
            continue
    return False


class KnownGames:
    """`in` against the store's `exists`, for splitting `game-player` addresses unambiguously;
    an id the store cannot even look up is simply not a game."""

    def __init__(self, exists: Callable[[str], bool]) -> None:
        self.exists = exists

    def __contains__(self, game_id: object) -> bool:
        try:
            return isinstance(game_id, str) and self.exists(game_id)
        except Exception:
            return False
