"""Marks the test suite's runs go by (pyproject.toml names them):

- `long`: takes minutes; started first, so that a parallel run does not end on it.
- `slow`: the bulk of a property test over many random games, a whole game by mail or a
  whole game of computer players;
  `make test-quick` leaves these out, `make test` and CI run them.
"""

from __future__ import annotations

import pytest

slow = pytest.mark.slow


def chunks(count: int) -> list:
    """The chunks of a property test: the first one in the quick run too, the others slow."""
    return [pytest.param(n, marks=() if n == 0 else slow) for n in range(count)]
