"""The two ways the service refuses an operation, shared by every part of it."""

from __future__ import annotations

from typing import Sequence


class ServiceError(Exception):
    """An operation refused for a reason the user can read and fix (exit status 1)."""


class BadRequest(ServiceError):
    """Arguments that can never work (exit status 2); `problems` lists every one found."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)
