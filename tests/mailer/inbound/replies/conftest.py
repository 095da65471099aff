import pytest

from .world import World, prepared


@pytest.fixture(scope="session")
def template(tmp_path_factory):
    """Both games created once, their first reports queued; each test works on a copy."""
    root = tmp_path_factory.mktemp("replies-template")
    world = World(root)
    world.start("c")
    world.start("p")
    return root


@pytest.fixture
def world(template, tmp_path):
    return prepared(template, tmp_path / "world")
