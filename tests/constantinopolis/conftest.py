"""Every `apply` and `drop` made by any Constantinopolis test is checked not to change the
state it was given. The engine copies only the parts of a position an order changes, so a
forgotten copy would show up as a changed input somewhere in these tests."""

import pytest

from games.constantinopolis.engine import Constantinopolis
from referee.storage import encode


def _guarded(method):
    def run(self, state, *args):
        before = encode(state)  # orjson, keys unsorted: a sorted spelling took a sixth of a playthrough
        try:
            return method(self, state, *args)
        finally:
            assert encode(state) == before, f"{method.__name__} changed the state it was given"
    return run


@pytest.fixture(autouse=True)
def input_state_never_changes(monkeypatch):
    for name in ("apply", "drop"):
        monkeypatch.setattr(Constantinopolis, name, _guarded(getattr(Constantinopolis, name)))
