"""Moderator actions: adjudicate, undo, replace, drop, history."""

import pytest

from referee.service import BadRequest, ServiceError

from .test_submit import file_bytes, new_race, new_simul


def test_adjudicate_applies_defaults_for_everyone_still_asked(ref, store):
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 8\nDONE")
    ref.submit("s1", "bob", "PICK 3")
    report = ref.adjudicate("s1")
    assert report.closed["key"] == "r1" and report.opened["key"] == "r2"
    assert report.applied == [{"player": "bob", "text": "DONE"}, {"player": "cy", "text": "PICK 1\nDONE"}]
    stored = store.load("s1")
    assert stored.state["score"]["ann"] == 1
    kinds = [e["type"] for e in stored.events]
    assert kinds[-3:] == ["adjudicate", "default", "default"]
    assert stored.events[-1]["opened"] == "r2"


def test_adjudicate_in_turn_order_and_at_the_end(ref):
    new_race(ref)
    report = ref.adjudicate("r1")
    assert report.applied == [{"player": "ann", "text": "ADD 1"}] and report.opened["key"] == "t1"
    for _ in range(5):
        report = ref.adjudicate("r1")
    assert report.finished
    with pytest.raises(ServiceError, match="is over"):
        ref.adjudicate("r1")


def test_undo_restores_the_position_and_is_logged(ref, store):
    new_race(ref)
    ref.submit("r1", "ann", "ADD 2")           # seq 2
    opened = store.load("r1").state
    ref.submit("r1", "bob", "ADD 1")           # seq 3
    ref.submit("r1", "ann", "ADD 1")           # seq 4
    done = ref.undo("r1", 2, "bob mistyped")
    assert done["discarded"] == [3, 4] and done["phase"]["key"] == "t1"
    stored = store.load("r1")
    assert stored.state == opened
    assert stored.events[-1]["type"] == "undo" and stored.events[-1]["reason"] == "bob mistyped"
    assert len(stored.events) == 5  # nothing removed
    history = ref.history("r1")
    assert [e["effective"] for e in history] == [True, True, False, False, True]
    # play goes on from the restored position, with the same phase keys as before
    assert ref.submit("r1", "bob", "ADD 3", phase_key="t1").status == "accepted"
    assert store.load("r1").state["total"] == 5


def test_undo_in_a_simultaneous_phase_restores_the_sets(ref, store):
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 2")                 # 2
    ref.submit("s1", "bob", "PICK 3")                 # 3
    ref.submit("s1", "ann", "PICK 9\nDONE")           # 4
    ref.undo("s1", 3, "ann asked to take it back")
    assert store.load("s1").state["picks"] == {"ann": 2, "bob": 3}
    receipt = ref.submit("s1", "ann", "PICK 4")
    assert receipt.removed == ["PICK 2"]
    assert store.load("s1").state["picks"] == {"ann": 4, "bob": 3}


def test_undo_of_a_finished_game_reopens_it(ref, store):
    new_race(ref)
    ref.submit("r1", "ann", "ADD 3")
    ref.submit("r1", "bob", "ADD 3")
    ref.undo("r1", 2, "the last order was sent by mistake")
    assert store.load("r1").meta["status"] == "active"
    assert ref.submit("r1", "bob", "ADD 1").status == "accepted"


def test_undo_refuses_bad_targets(ref, store):
    new_race(ref)
    ref.submit("r1", "ann", "ADD 2")
    ref.submit("r1", "bob", "ADD 1")
    before = file_bytes(store, "r1")
    with pytest.raises(ServiceError, match="not in the effective history"):
        ref.undo("r1", 99, "x")
    with pytest.raises(ServiceError, match="nothing to undo"):
        ref.undo("r1", 3, "x")
    with pytest.raises(BadRequest, match="reason"):
        ref.undo("r1", 2, " ")
    ref.undo("r1", 1, "restart")
    with pytest.raises(ServiceError, match="not in the effective history"):
        ref.undo("r1", 3, "a discarded event")
    assert before != file_bytes(store, "r1")


def test_replace_issues_a_new_token_and_the_old_one_stops_working(ref, store):
    made = new_race(ref)
    old = made.players[0]["token"]
    done = ref.replace("r1", "ANN", "new@example.org")
    assert done["token"] != old
    assert ref.submit("r1", "ann", "ADD 1", token=old).status == "refused"
    assert ref.submit("r1", "ann", "ADD 1", token=done["token"]).status == "accepted"
    event = [e for e in store.load("r1").events if e["type"] == "replace"][0]
    assert event["player"] == "ann" and "token" not in event
    with pytest.raises(ServiceError, match="no player 'zed'"):
        ref.replace("r1", "zed", "z@example.org")
    with pytest.raises(BadRequest, match="bad email"):
        ref.replace("r1", "ann", "nope")


def test_drop_is_refused_where_the_game_does_not_allow_it(ref, store):
    new_race(ref)
    before = file_bytes(store, "r1")
    with pytest.raises(ServiceError, match="players cannot leave a race"):
        ref.drop("r1", "bob")
    assert file_bytes(store, "r1") == before


def test_drop_where_allowed_can_resolve_the_phase(ref, store):
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 5\nDONE")
    ref.submit("s1", "bob", "PICK 2\nDONE")
    done = ref.drop("s1", "cy")
    assert "cy leaves the game." in done["events"] and done["phase"]["key"] == "r2"
    assert store.load("s1").state["dropped"] == ["cy"]
    assert ref.status("s1")["waiting_for"][0]["player"] == "ann"
    assert [w["player"] for w in ref.status("s1")["waiting_for"]] == ["ann", "bob"]
