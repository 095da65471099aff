import pytest

from referee import registry

from .referee_cli import with_test_games


@pytest.fixture(autouse=True)
def every_sent_record_kept(monkeypatch):
    """Here every Message-ID delivered is compared with every one queued, so no sent record
    may be forgotten, in this process or in the daemons it starts; forgetting them is tested
    in tests/mailer/daemon/test_game_file_bounds.py."""
    monkeypatch.setenv("REFEREE_LIMITS_SENT_RECORDS_PER_GAME", "0")  # every process the daemon starts reads it


@pytest.fixture
def test_games(monkeypatch):
    """The race and simultaneous-phase test games installed next to the real ones, as the
    daemon started by these tests has them."""
    table = with_test_games()
    monkeypatch.setattr(registry, "games", lambda: dict(table))
    return table
