"""The referee's own address, beside the games' addresses: `referee@host` takes LIST, JOIN,
GAMES and CONFIRM, and `referee+CODE@host` is the reply address of a sign-up's confirmation
mail. Below both directions of mail: the SMTP server accepts it, the worker reads it, the
notifier writes it. No game may take this id (referee/service/creating.py)."""

from __future__ import annotations

REFEREE_LOCAL = "referee"


def referee_address(host: str, code: str | None = None) -> str:
    """The referee's own address, or with a sign-up's one-time code."""
    return f"{REFEREE_LOCAL}+{code}@{host}" if code else f"{REFEREE_LOCAL}@{host}"
