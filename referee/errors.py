"""The two ways the service refuses an operation, shared by every part of it."""

from __future__ import annotations

from typing import Any, Mapping, Sequence


class ServiceError(Exception):
    """An operation refused for a reason the user can read and fix (exit status 1). The reason
    may be a message (`referee.i18n.messages.msg`): `str()` is then its English, for the
    moderator's command line, and `said(lang)` what a player reads in their language."""

    def __init__(self, message: Any = "") -> None:
        self.message = message
        super().__init__(self.said("en") if isinstance(message, Mapping) else message)

    def said(self, lang: str) -> str:
        from .i18n.messages import say

        return say(self.message, lang) if isinstance(self.message, Mapping) else str(self)


class BadRequest(ServiceError):
    """Arguments that can never work (exit status 2); `problems` lists every one found."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)
