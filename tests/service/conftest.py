import pytest
from click.testing import CliRunner

from commands.main import cli
from referee import registry
from referee.service import Referee
from referee.store import TinyDBStore
from referee.timekeeping import StepClock

from ..race import GAME as RACE
from .simul import GAME as SIMUL


FakeClock = StepClock  # starts at a fixed moment and moves a minute each time it is read


@pytest.fixture
def games(monkeypatch):
    """The race and simul test games installed next to whatever real games load."""
    real = registry.games()
    table = {**real, "race": RACE, "simul": SIMUL}
    monkeypatch.setattr(registry, "games", lambda: table)
    return table


@pytest.fixture
def store(tmp_path):
    return TinyDBStore(tmp_path / "data")


@pytest.fixture
def ref(store, games):
    return Referee(store, clock=FakeClock())


@pytest.fixture
def run(tmp_path, games):
    """Invoke the CLI on a data directory in tmp_path with a fake clock."""
    runner = CliRunner()
    data = tmp_path / "data"

    def invoke(*args, input=None):
        return runner.invoke(cli, ["--data-dir", str(data), *args], input=input,
                             obj=None, catch_exceptions=False)

    invoke.data = data
    return invoke


def each_mail(store, game_id: str) -> None:
    """Every player of the game chooses `NOTIFY each` (a mail for everything as it happens),
    set in the seats without an event so the log reads as before: for tests that read each
    notice, reminder and report as a mail of its own. tests/mailer/outbound/test_one_mail.py checks
    the default, where the same news reaches the player folded into their next mail."""
    with store.transaction(game_id) as tx:
        tx.set_meta(seats=[dict(s, notify={"mode": "each"}) for s in tx.meta["seats"]])
