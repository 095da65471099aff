import pytest

from referee import registry

from .referee_cli import with_test_games


@pytest.fixture
def test_games(monkeypatch):
    """The race and simultaneous-phase test games installed next to the real ones, as the
    daemon started by these tests has them."""
    table = with_test_games()
    monkeypatch.setattr(registry, "games", lambda: dict(table))
    return table
