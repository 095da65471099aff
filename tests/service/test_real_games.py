"""Smoke test of each real game through the service: orders, adjudication, record, replay."""

import pytest

from referee import registry
from referee.gamelog import replay_log, write_log
from referee.service import Referee
from referee.store import TinyDBStore

from .conftest import FakeClock

REAL = ("constantinopolis", "porto-carthago")


@pytest.mark.parametrize("name", REAL)
def test_real_game_through_the_service(name, tmp_path):
    game = registry.games().get(name)
    if game is None:
        pytest.skip(f"{name} is not installed or does not load yet")
    store = TinyDBStore(tmp_path)
    ref = Referee(store, clock=FakeClock())
    count = max(game.min_players, 3)
    players = [(p, f"{p}@example.org") for p in ("ann", "bob", "cy", "dee", "eve")[:count]]
    made = ref.new_game(name, players, seed="smoke")
    for _ in range(25):
        stored = store.load(made.id)
        prompts = game.prompts(stored.state)
        if not prompts:
            break
        player = prompts[0].player
        menu = game.legal_orders(stored.state, player)
        assert menu, f"{player} is asked but has no legal order"
        receipt = ref.submit(made.id, player, game.format(menu[0]))
        assert receipt.status == "accepted", receipt.render()
    if game.prompts(store.load(made.id).state):
        ref.adjudicate(made.id)
    stored = store.load(made.id)
    text = write_log(stored.meta, stored.events, stored.state, reveal_seed=True)
    result = replay_log(text, registry.get)
    assert result.ok, result.message


@pytest.mark.parametrize("name", REAL)
def test_undo_in_a_real_game(name, tmp_path):
    """Undo rebuilds from setup with the stored components, which are in the loaded form."""
    game = registry.games()[name]
    store = TinyDBStore(tmp_path)
    ref = Referee(store, clock=FakeClock())
    made = ref.new_game(name, [(p, f"{p}@example.org") for p in ("ann", "bob", "cy")], seed="undo")
    before = store.load(made.id).state
    for _ in range(2):
        stored = store.load(made.id)
        player = game.prompts(stored.state)[0].player
        assert ref.submit(made.id, player, game.format(game.legal_orders(stored.state, player)[0])).ok
    ref.undo(made.id, 1, "back to the start")
    assert store.load(made.id).state == before


def test_a_second_set_in_a_sequential_turn_drops_nothing(tmp_path):
    """In Constantinopolis's construction phase each set is carried out as it comes: a second
    set adds to the first, which stands (the building is bought). The receipt says nothing was
    replaced or dropped, which it once did, for every order carried out earlier in the turn."""
    game = registry.games()["constantinopolis"]
    store = TinyDBStore(tmp_path)
    ref = Referee(store, clock=FakeClock())
    made = ref.new_game("constantinopolis", [(p, f"{p}@example.org") for p in ("ann", "bob", "cy")],
                        seed="smoke")
    for _ in range(40):
        state = store.load(made.id).state
        player = game.prompts(state)[0].player
        if game.phase(state).name == "Construct buildings":
            break
        assert ref.submit(made.id, player, game.format(game.legal_orders(state, player)[0])).ok
    else:
        pytest.fail("no construction phase reached")
    first = next(o for o in game.legal_orders(state, player) if o.kind == "build")
    assert ref.submit(made.id, player, game.format(first)).ok
    state = store.load(made.id).state
    second = next(o for o in game.legal_orders(state, player) if o.kind not in ("done", "build"))
    receipt = ref.submit(made.id, player, game.format(second))
    assert receipt.status == "accepted" and receipt.first_set
    assert receipt.removed == []
    text = receipt.render(brief=True) + receipt.render()
    assert "dropped" not in text and "replaces" not in text and "Changes since" not in text
    assert first.args["building"] in store.load(made.id).state["p"][player]["buildings"]
