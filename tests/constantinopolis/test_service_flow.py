"""The engine under the core's submission mechanism (`referee.progress.Position`): sets
replaced in simultaneous phases, sequential steps, and the ship priority report."""

from games.constantinopolis import GAME
from referee.progress import Position

from .util import at_accept, card, give_cards, give_goods, new, seat


def test_phase_six_sets_replace_earlier_ones_and_priority_reopens_a_player():
    st = at_accept(seat(new(("jen", "kay", "greg")), {"magister": "jen", "pretorio": "kay", "comes": "greg"}))
    st["ships"]["medium"] = 1
    c = card("green")
    give_cards(st, "greg", [c])
    give_goods(st, "greg", green=1)
    pos = Position.start(GAME, st)
    pos.submit("greg", pos.read("greg", "post"))
    pos.submit("greg", pos.read("greg", f"ship medium\nload {c} on ship 2\ndone"))  # replaces 'post'
    assert pos.state["p"]["greg"]["posts"] == 0 and "greg" not in pos.waiting_for()
    out = pos.submit("jen", pos.read("jen", "ship medium"))
    assert any(e.kind == "ship.lost" and e.to == ("greg",) for e in out.events)
    assert "greg" in pos.waiting_for() and out.reopened == ["greg"] and out.cancelled == []
    pos.submit("greg", pos.read("greg", f"ship small\nload {c} on ship 2\ndone"))
    pos.submit("jen", pos.read("jen", "ship medium\ndone"))
    out = pos.submit("kay", pos.read("kay", "done"))
    assert out.resolved
    sizes = {n: [s["size"] for s in pos.state["p"][n]["ships"]] for n in ("jen", "greg")}
    assert sizes == {"jen": ["small", "medium"], "greg": ["small", "small"]}
    assert GAME.check(pos.state) == []


def test_auction_answers_are_sequential_steps():
    st = new(("a", "b"))
    pos = Position.start(GAME, st)
    first = pos.waiting_for()[0]
    other = "b" if first == "a" else "a"
    office = next(o for o, h in pos.state["offices"].items() if h == other)
    pos.submit(first, pos.read(first, f"bid {office} 1"))
    assert pos.waiting_for() == [other]
    pos.submit(other, pos.read(other, "raise 2"))
    pos.submit(first, pos.read(first, "pass"))
    assert pos.state["offices"][office] == other


def test_a_new_set_that_changes_the_draw_cancels_a_set_that_relied_on_it():
    """Trading posts draw from the shared deck in the order the sets stand. kay's set saves the
    card she drew after jen's post; when jen sends a new set it goes after kay's, so kay's post
    would draw jen's card instead and her `save` no longer applies: kay's set is cancelled and
    she is asked again, and jen's new set goes through (the case of the bot seed replay-6)."""
    st = at_accept(seat(new(("jen", "kay", "greg")), {"magister": "jen", "pretorio": "kay", "comes": "greg"}))
    for name in ("jen", "kay"):
        st["p"][name]["gold"] = 20
    first, second = st["deck"][-1], st["deck"][-2]
    pos = Position.start(GAME, st)
    pos.submit("jen", pos.read("jen", "post"))
    pos.submit("kay", pos.read("kay", f"post\nsave {second}\ndone"))
    assert "kay" not in pos.waiting_for()
    out = pos.submit("jen", pos.read("jen", "post\nship small"))
    assert [(c.player, c.reason) for c in out.cancelled] == [("kay", f"contract {second} is not in your hand")]
    assert "kay" in pos.waiting_for()
    assert [e.to for e in out.events if e.kind == "orders.cancelled.reason"] == [("kay",)]
    kay = pos.state["p"]["kay"]
    assert first in pos.state["p"]["jen"]["hand"] and kay["posts"] == 0 and kay["saved"] == []
    assert pos.state["deck"][-1] == second  # kay's card is back on top of the deck, where it was
    pos.submit("kay", pos.read("kay", f"post\nsave {second}\ndone"))
    assert second in pos.state["p"]["kay"]["saved"]
    assert GAME.check(pos.state) == []
