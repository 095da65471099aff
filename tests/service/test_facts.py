"""Facts of the phase (referee/progress.py): orders an engine names in `final_kinds` stand once
applied, whatever their player or the other players send afterwards.

The test game is tests/service/simul.py with `MATCH <player>` made an agreement: once bob has
matched ann's pick, that match is a fact. Without facts, ann's next set would cancel bob's
(tests/service/test_resubmission.py); here ann's earlier pick stays, because the match needs it,
and ann's new set goes after it.
"""

from __future__ import annotations

from referee.history import rebuild
from referee.progress import FACT, ORDER, Position

from .simul import Simul


class Agreed(Simul):
    """Secret Numbers where a match, once made, is agreed for good."""

    name = "agreed"
    final_kinds = frozenset({"match"})


GAME = Agreed()


def position(players=("ann", "bob", "cid")) -> Position:
    return Position.start(GAME, GAME.setup(list(players), "s", {}, GAME.load_components(None)))


def send(pos: Position, player: str, orders: str):
    return pos.submit(player, pos.read(player, orders))


def fold(pos: Position):
    state = pos.opening
    for step in pos.steps:
        state, _ = GAME.apply(state, step.player, step.orders)
    return state


def test_a_set_is_split_around_a_fact():
    pos = position()
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "PICK 2\nMATCH ann\nDONE")
    assert [(s.kind, s.player, s.text) for s in pos.steps] == [
        (ORDER, "ann", "PICK 5"), (ORDER, "bob", "PICK 2"), (FACT, "bob", "MATCH ann"), (ORDER, "bob", "DONE")]
    assert pos.last_set("bob").text == "PICK 2\nDONE"  # the set a new one replaces: the facts are not in it
    assert pos.facts_of("bob") == pos.read("bob", "MATCH ann")
    assert fold(pos) == pos.state


def test_a_fact_keeps_what_it_needs_of_the_earlier_set_and_nothing_more():
    pos = position()
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann\nDONE")
    out = send(pos, "ann", "PICK 7")
    assert out.cancelled == []  # without facts bob's set would be cancelled here
    assert pos.read("ann", "PICK 5") == out.kept
    assert pos.state["picks"] == {"ann": 7, "bob": 5} and pos.state["done"] == ["bob"]
    assert [(s.kind, s.player, s.text) for s in pos.steps] == [
        (FACT, "ann", "PICK 5"), (FACT, "bob", "MATCH ann"), (ORDER, "bob", "DONE"), (ORDER, "ann", "PICK 7")]
    told = [e for e in out.events if e.kind == "orders.kept"]
    assert [e.to for e in told] == [("ann",)] and "Kept: PICK 5." in told[0].text
    assert fold(pos) == pos.state


def test_an_order_no_fact_needs_is_replaced_as_usual():
    pos = position()
    send(pos, "ann", "PICK 3\nPICK 5")  # only the last pick is what bob matched
    send(pos, "bob", "MATCH ann")
    out = send(pos, "ann", "PICK 8")
    assert pos.read("ann", "PICK 5") == out.kept
    assert pos.state["picks"] == {"ann": 8, "bob": 5}


def test_a_set_without_anything_a_fact_needs_replaces_the_earlier_one_whole():
    pos = position()
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "PICK 4\nDONE")
    out = send(pos, "ann", "PICK 6")
    assert out.kept == [] and [e for e in out.events if e.kind == "orders.kept"] == []
    assert pos.state["picks"] == {"ann": 6, "bob": 4}


def test_lines_that_repeat_a_fact_are_not_carried_out_twice_and_the_player_is_told():
    pos = position()
    send(pos, "ann", "PICK 5")
    send(pos, "bob", "MATCH ann")
    out = send(pos, "bob", "MATCH ann\nDONE")  # the whole set again
    assert out.repeated == pos.read("bob", "MATCH ann")
    assert [(s.kind, s.player) for s in pos.steps].count((FACT, "bob")) == 1
    told = [e for e in out.events if e.kind == "orders.repeated"]
    assert [e.to for e in told] == [("bob",)]
    assert told[0].text == "Already done in this phase, so not carried out again: MATCH ann."
    assert pos.state["done"] == ["bob"]


def test_a_fact_is_never_cancelled_with_its_players_part():
    pos = position()
    send(pos, "ann", "PICK 5")
    send(pos, "cid", "PICK 1")
    send(pos, "bob", "MATCH cid\nMATCH ann")  # his second match relies on ann's set
    out = send(pos, "cid", "PICK 2")
    assert out.kept == pos.read("cid", "PICK 1")  # bob's first match needs cid's pick
    assert pos.state["picks"]["bob"] == 5


def test_the_facts_follow_from_the_steps_so_a_rebuild_and_a_replay_of_the_text_agree():
    pos = position(("ann", "bob"))
    sent = [("ann", "PICK 5"), ("bob", "MATCH ann\nDONE"), ("ann", "PICK 7"), ("ann", "PICK 5\nPICK 9\nDONE")]
    events = []
    for n, (player, text) in enumerate(sent, start=1):
        key, orders = pos.key, pos.read(player, text)
        pos.submit(player, orders)
        events.append({"seq": n, "type": ORDER, "phase": key, "player": player, "text": text,
                       "orders": [o.to_json() for o in orders]})
    assert pos.state["score"] == {"ann": 1, "bob": 0} and pos.state["round"] == 2
    meta = {"seed": "s", "players": ["ann", "bob"], "options": {}}
    for parse_text in (False, True):
        rebuilt, _ = rebuild(GAME, meta, events, parse_text=parse_text)
        assert rebuilt.state == pos.state
