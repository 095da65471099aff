import pytest

from referee import registry

from .referee_cli import keep_every_sent_record, with_test_games


@pytest.fixture(autouse=True)
def every_sent_record_kept(monkeypatch):
    """Here every Message-ID delivered is compared with every one queued, so no sent record
    may be forgotten, in this process or in the daemons it starts; forgetting them is tested
    in tests/mailer/daemon/test_game_file_bounds.py."""
    from mailer.daemon import wiring

    monkeypatch.setattr(wiring, "KEEP_SENT_RECORDS", wiring.KEEP_SENT_RECORDS)  # put back afterwards
    keep_every_sent_record()
    monkeypatch.setenv("REFEREE_TEST_KEEP_SENT", "all")


@pytest.fixture
def test_games(monkeypatch):
    """The race and simultaneous-phase test games installed next to the real ones, as the
    daemon started by these tests has them."""
    table = with_test_games()
    monkeypatch.setattr(registry, "games", lambda: dict(table))
    return table
