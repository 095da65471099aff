"""Orders sent ahead of time by players the engine is not waiting for: the service lets an
engine that opts in (`accepts_unprompted`) take them, and still refuses for engines that don't."""

from referee import registry
from referee.service import Referee
from referee.store import TinyDBStore

from .conftest import FakeClock


def start(tmp_path, name, players=("ann", "bob", "cy")):
    store = TinyDBStore(tmp_path)
    ref = Referee(store, clock=FakeClock())
    made = ref.new_game(name, [(p, f"{p}@example.org") for p in players], seed="standing")
    return ref, store, registry.get(name), made.id


def idle_player(game, state):
    asked = {p.player for p in game.prompts(state)}
    return next(p for p in state["players"] if p not in asked)


def test_a_defend_limit_is_taken_from_a_player_not_being_asked(tmp_path):
    ref, store, game, gid = start(tmp_path, "constantinopolis")
    state = store.load(gid).state
    assert state["phase"] == "auction"
    idle = idle_player(game, state)
    receipt = ref.submit(gid, idle, "defend 5")
    assert receipt.status == "accepted", receipt.render()
    assert receipt.echo == ["defend 5"]
    after = store.load(gid)
    assert game.view(after.state, idle)["your_defend_limit"] == 5
    assert after.events[-1]["player"] == idle and after.events[-1]["text"] == "defend 5"
    assert game.phase(after.state).key == game.phase(state).key  # nothing was decided


def test_an_unprompted_player_gets_a_clear_rejection_for_anything_but_a_standing_order(tmp_path):
    ref, store, game, gid = start(tmp_path, "constantinopolis")
    before = store.path(gid).read_bytes()
    idle = idle_player(game, store.load(gid).state)
    receipt = ref.submit(gid, idle, "stay")
    assert receipt.status == "rejected"
    assert "nothing to decide now" in receipt.render() and "defend" in receipt.render()
    assert store.path(gid).read_bytes() == before


def test_porto_carthago_queues_a_turn_sent_early(tmp_path):
    ref, store, game, gid = start(tmp_path, "porto-carthago")
    state = store.load(gid).state
    idle = idle_player(game, state)
    receipt = ref.submit(gid, idle, "TALENTS")
    assert receipt.status == "accepted", receipt.render()
    assert store.load(gid).state["queue"][idle]


def test_the_replayed_log_includes_standing_orders(tmp_path):
    from referee.gamelog import replay_log, write_log

    ref, store, game, gid = start(tmp_path, "constantinopolis")
    idle = idle_player(game, store.load(gid).state)
    ref.submit(gid, idle, "defend 3")
    stored = store.load(gid)
    result = replay_log(write_log(stored.meta, stored.events, stored.state, reveal_seed=True), registry.get)
    assert result.ok, result.message
