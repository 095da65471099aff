import pytest

from referee import registry

from .race import GAME as RACE


@pytest.fixture
def race_registered(monkeypatch):
    """Make the test game `race` installed, alongside whatever real games there are."""
    real = registry.games()
    monkeypatch.setattr(registry, "games", lambda: {**real, "race": RACE})
    return RACE


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked `long` first, then those marked `slow` (each costing seconds where most
    cost milliseconds): with several workers the short ones fill the remaining workers
    meanwhile and at the end, instead of one worker running a long test alone at the end."""
    items.sort(key=lambda item: (item.get_closest_marker("long") is None, item.get_closest_marker("slow") is None))
