import pytest

from referee import registry

from .race import GAME as RACE


@pytest.fixture
def race_registered(monkeypatch):
    """Make the test game `race` installed, alongside whatever real games there are."""
    real = registry.games()
    monkeypatch.setattr(registry, "games", lambda: {**real, "race": RACE})
    return RACE
