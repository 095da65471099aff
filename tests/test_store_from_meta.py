"""Game files keep the game's components once: a state's copy of them is written as a
reference to the meta's, and read back whole (referee/store/from_meta.py)."""

import json

import pytest

from games.porto_carthago import GAME as PORTO
from referee.progress import Position
from referee.service import Referee
from referee.store import TinyDBStore
from referee.store.interface import GameFileBroken
from tests.service.conftest import FakeClock

COMPONENTS = {"ships": {"A": [1, 2], "B": [3, 4]}, "prices": [5, 6]}
META = {"game": "porto-carthago", "players": ["ann", "bob"], "status": "active", "created": "2026-01-01T00:00:00Z",
        "components": COMPONENTS}


@pytest.fixture
def store(tmp_path):
    return TinyDBStore(tmp_path)


def on_disk(store, game_id):
    return json.loads(store.path(game_id).read_text())


def test_a_state_holding_the_components_is_written_without_them_and_read_back_whole(store):
    state = {"round": 1, "comp": json.loads(json.dumps(COMPONENTS)), "docks": {"A": None}}
    store.create("g", META, state)
    with store.transaction("g") as tx:
        tx.snapshot("r1", {**state, "round": 2})
    data = on_disk(store, "g")
    current = data["current"]["1"]
    assert current["state"] == {"round": 1, "comp": "components", "docks": {"A": None}}
    assert current["from_meta"] == {"comp": "components"}
    assert data["snapshots"]["1"]["state"]["comp"] == "components"
    game = store.load("g")
    assert game.state == state and list(game.state) == ["round", "comp", "docks"]  # in its order
    assert game.snapshots == [{"key": "r1", "seq": 0, "state": {**state, "round": 2}}]
    with store.transaction("g") as tx:
        assert tx.state == state
        tx.set_state({**tx.state, "round": 3})
        assert tx.state["round"] == 3 and tx.state["comp"] == COMPONENTS
    assert store.load("g").state == {**state, "round": 3}


def test_values_that_differ_from_the_components_are_kept_as_they_are(store):
    state = {"comp": {"ships": {}}, "other": dict(COMPONENTS, prices=[7])}
    store.create("g", META, state)
    assert on_disk(store, "g")["current"]["1"] == {"state": state}
    store.create("h", {k: v for k, v in META.items() if k != "components"}, {"comp": COMPONENTS})
    assert on_disk(store, "h")["current"]["1"] == {"state": {"comp": COMPONENTS}}


def test_a_file_written_with_whole_states_reads_as_before(store):
    state = {"round": 1, "comp": COMPONENTS}
    store.create("g", META, {"round": 0})
    data = on_disk(store, "g")
    data["current"]["1"] = {"state": state}
    data["snapshots"] = {"1": {"key": "r1", "seq": 1, "state": state}}
    store.path("g").write_text(json.dumps(data))
    game = store.load("g")
    assert game.state == state and game.snapshots[0]["state"] == state


def test_a_reference_to_a_missing_meta_field_stops_the_game_with_its_reason(store):
    store.create("g", META, {"comp": COMPONENTS})
    data = on_disk(store, "g")
    del data["meta"]["1"]["components"]
    store.path("g").write_text(json.dumps(data))
    with pytest.raises(GameFileBroken, match="takes 'comp' from the meta's 'components', which the meta lacks"):
        store.load("g")


def test_a_porto_carthago_game_file_holds_its_components_once(tmp_path):
    """Through the service, turns with phase snapshots: the ship cards are in the file once,
    and the state read back is the state the rules made, key for key."""
    store = TinyDBStore(tmp_path)
    ref = Referee(store, clock=FakeClock())
    made = ref.new_game("porto-carthago", [(p, f"{p}@example.org") for p in ("ann", "bob", "cy")], seed="once")
    pos = Position.start(PORTO, store.load(made.id).state)
    for _ in range(6):
        player = PORTO.prompts(pos.state)[0].player
        text = PORTO.format(PORTO.legal_orders(pos.state, player)[0])
        assert ref.submit(made.id, player, text).ok
        pos.submit(player, PORTO.parse(pos.state, player, text))
    stored = store.load(made.id)
    cards = json.dumps(stored.meta["components"]["ship_cards"], ensure_ascii=False, separators=(",", ":"))
    assert store.path(made.id).read_text().count(cards) == 1  # in the meta's components only
    assert stored.state == pos.state and list(stored.state) == list(pos.state)
    assert len(stored.snapshots) > 1 and all(s["state"]["comp"] == stored.meta["components"] for s in stored.snapshots)
