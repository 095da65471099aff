"""Submissions through the service: receipts, errors, duplicates, stale phases, resubmission."""

import pytest

from referee.history import effective_events
from referee.service import BadRequest

from ..race import GAME as RACE


def new_race(ref, **kw):
    return ref.new_game("race", [("ann", "ann@example.org"), ("bob", "bob@example.org")],
                        seed="seed-1", options={"target": "6"}, game_id=kw.pop("game_id", "r1"), **kw)


def new_simul(ref, players=("ann", "bob", "cy")):
    return ref.new_game("simul", [(p, f"{p}@example.org") for p in players], seed="s", game_id="s1")


def file_bytes(store, game_id):
    return store.path(game_id).read_bytes()


def test_new_game_records_meta_and_tokens(ref, store):
    made = new_race(ref)
    assert made.id == "r1" and len(made.commitment) == 64
    tokens = [p["token"] for p in made.players]
    assert all(len(t) == 16 and t.isalnum() and t == t.lower() for t in tokens)
    assert len(set(tokens)) == 2
    meta = store.load("r1").meta
    assert meta["options"] == {"target": 6}
    assert meta["rules_version"] == "1" and meta["seed"] == "seed-1"
    assert meta["components"] == {"steps": [1, 2, 3]} and len(meta["components_sha256"]) == 64
    assert [s["email"] for s in meta["seats"]] == ["ann@example.org", "bob@example.org"]
    assert store.load("r1").events[0]["type"] == "created"


def test_generated_ids_count_up(ref):
    a = ref.new_game("race", [("a", "a@x.org"), ("b", "b@x.org")])
    b = ref.new_game("race", [("a", "a@x.org"), ("b", "b@x.org")])
    assert (a.id, b.id) == ("race-1", "race-2")


@pytest.mark.parametrize("game_type, players, options, needle", [
    ("rcae", [("a", "a@x.org"), ("b", "b@x.org")], {}, "Did you mean 'race'"),
    ("race", [("a", "a@x.org")], {}, "2-4 players"),
    ("race", [("Ann", "a@x.org"), ("ann", "b@x.org")], {}, "more than once"),
    ("race", [("a b", "a@x.org"), ("b", "b@x.org")], {}, "bad player name"),
    ("race", [("a", "not-an-address"), ("b", "b@x.org")], {}, "bad email"),
    ("race", [("a", "a@x.org"), ("b", "b@x.org")], {"targte": "5"}, "did you mean 'target'"),
    ("race", [("a", "a@x.org"), ("b", "b@x.org")], {"target": "five"}, "whole number"),
])
def test_bad_new_game_creates_nothing(ref, store, game_type, players, options, needle):
    with pytest.raises(BadRequest) as err:
        ref.new_game(game_type, players, options=options)
    assert needle in str(err.value)
    assert store.list() == [] and not list(store.games_dir.glob("*.json"))


def test_time_zones_given_at_creation_are_kept_from_the_start(ref, store):
    new_race(ref, timezones={"Ann": "Europe/Rome"})
    seats = {s["name"]: s for s in store.load("r1").meta["seats"]}
    assert seats["ann"]["timezone"] == "Europe/Rome" and "timezone" not in seats["bob"]


@pytest.mark.parametrize("zones, needle", [({"ann": "Mars/Olympus"}, "time zone of ann"),
                                           ({"cy": "Europe/Rome"}, "who is not a player")])
def test_bad_time_zones_at_creation_create_nothing(ref, store, zones, needle):
    with pytest.raises(BadRequest) as caught:
        new_race(ref, timezones=zones)
    assert any(needle in p for p in caught.value.problems) and not store.exists("r1")


def test_bad_components_list_every_problem(ref, store):
    with pytest.raises(BadRequest) as err:
        ref.new_game("race", [("a", "a@x.org"), ("b", "b@x.org")], components={"steps": [0]})
    assert "components: steps must be a list of positive whole numbers" in err.value.problems
    assert store.list() == []


def test_accepted_receipt_echoes_and_says_what_is_next(ref):
    new_race(ref)
    receipt = ref.submit("r1", "ann", "  add 2   # my move\n")
    assert receipt.status == "accepted"
    assert receipt.echo == ["ADD 2"]
    assert receipt.events == ["ann adds 2; the total is 2."]
    assert receipt.next["resolved"] and receipt.next["waiting_for"] == ["bob"]
    text = receipt.render()
    assert "Understood as:\n  ADD 2" in text and "now open: add (round 1, phase t1)" in text


@pytest.mark.parametrize("text, cls, line, bad, suggestion", [
    ("ADD 2\nJUMP", "invalid", 2, "JUMP", "e.g. ADD 2"),
    ("ADD 9", "illegal", 1, "ADD 9", None),
])
def test_rejected_receipt_has_line_class_and_suggestion_and_changes_nothing(ref, store, text, cls, line, bad,
                                                                            suggestion):
    new_race(ref)
    before = file_bytes(store, "r1")
    receipt = ref.submit("r1", "ann", text)
    assert receipt.status == "rejected"
    err = receipt.errors[0]
    assert (err["class"], err["line"], err["text"], err["suggestion"]) == (cls, line, bad, suggestion)
    assert f"line {line} [{cls}]" in receipt.render()
    assert file_bytes(store, "r1") == before


def test_ambiguous_errors_are_reported_as_such(ref, store, monkeypatch):
    from referee.contract import AmbiguousOrder

    new_race(ref)

    def parse(state, player, text):
        raise AmbiguousOrder("'a' could be ADD or ALL", suggestion="write more of the word").at(1, "a")

    monkeypatch.setattr(RACE, "parse", parse)
    before = file_bytes(store, "r1")
    receipt = ref.submit("r1", "ann", "a")
    assert receipt.errors == [{"class": "ambiguous", "line": 1, "text": "a",
                               "message": "'a' could be ADD or ALL", "suggestion": "write more of the word"}]
    assert file_bytes(store, "r1") == before


def test_empty_submission_is_rejected(ref):
    new_race(ref)
    receipt = ref.submit("r1", "ann", "# nothing\n\n")
    assert receipt.status == "rejected" and receipt.errors[0]["message"] == "no orders found"


def test_same_message_id_is_processed_once(ref, store):
    new_race(ref)
    first = ref.submit("r1", "ann", "ADD 1", message_id="<m1@x>")
    before = file_bytes(store, "r1")
    again = ref.submit("r1", "ann", "ADD 1", message_id="<m1@x>")
    assert again.status == "duplicate" and again.echo == first.echo and again.seq == first.seq
    assert "Already processed" in again.render()
    assert file_bytes(store, "r1") == before
    assert sum(e["type"] == "order" for e in store.load("r1").events) == 1
    other = ref.submit("r1", "bob", "ADD 1", message_id="<m1@x>")
    assert other.status == "refused" and "already used" in other.reason and not other.echo


def test_stale_phase_is_refused_naming_the_open_phase(ref, store):
    new_race(ref)
    ref.submit("r1", "ann", "ADD 1", phase_key="t0")
    before = file_bytes(store, "r1")
    receipt = ref.submit("r1", "bob", "ADD 1", phase_key="t0")
    assert receipt.status == "refused"
    assert "phase t0" in receipt.reason and "now open is add (round 1, phase t1)" in receipt.reason
    assert file_bytes(store, "r1") == before
    assert ref.submit("r1", "bob", "ADD 1", phase_key="t1").status == "accepted"


def test_wrong_token_reveals_nothing(ref, store):
    made = new_race(ref)
    good = made.players[0]["token"]
    before = file_bytes(store, "r1")
    wrong = ref.submit("r1", "ann", "ADD 1", token="aaaaaaaaaaaaaaaa")
    unknown = ref.submit("r1", "zed", "ADD 1", token="aaaaaaaaaaaaaaaa")
    assert wrong.status == unknown.status == "refused" and wrong.reason == unknown.reason
    assert file_bytes(store, "r1") == before
    assert ref.submit("r1", "ann", "ADD 1", token=good.upper()).status == "accepted"


def test_not_your_turn_and_finished_game_are_refused(ref):
    new_race(ref)
    receipt = ref.submit("r1", "bob", "ADD 1")
    assert receipt.status == "refused" and "waiting for ann" in receipt.reason
    for player, text in [("ann", "ADD 3"), ("bob", "ADD 3")]:
        assert ref.submit("r1", player, text).status == "accepted"
    last = ref.submit("r1", "ann", "ADD 1")
    assert last.status == "refused" and "is over" in last.reason


def test_the_end_reveals_the_seed(ref, store):
    new_race(ref)
    ref.submit("r1", "ann", "ADD 3")
    receipt = ref.submit("r1", "bob", "ADD 3")
    assert receipt.next["finished"] and "Winner(s): bob" in receipt.next["text"]
    stored = store.load("r1")
    assert stored.meta["status"] == "finished"
    assert stored.events[-1]["type"] == "finished" and stored.events[-1]["seed"] == "seed-1"
    assert ref.status("r1")["seed"] == "seed-1"


def test_simultaneous_resubmission_replaces_the_earlier_set(ref, store):
    new_simul(ref)
    assert ref.submit("s1", "ann", "PICK 3").status == "accepted"
    ref.submit("s1", "bob", "PICK 7")
    second = ref.submit("s1", "ann", "PICK 5")
    assert second.added == ["PICK 5"] and second.removed == ["PICK 3"] and not second.first_set
    assert "+ PICK 5" in second.render() and "- PICK 3" in second.render()
    assert store.load("s1").state["picks"] == {"ann": 5, "bob": 7}
    assert ref.status("s1")["status"] == "active"
    # the hidden pick is shown only to its owner
    assert "picks 5" in second.events[0]
    assert ref.show("s1", "bob")["picks"] == {"bob": 7}


def test_a_player_who_ended_their_part_is_frozen(ref, store):
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 4\nDONE")
    before = file_bytes(store, "s1")
    receipt = ref.submit("s1", "ann", "PICK 9")
    assert receipt.status == "refused" and "your part" in receipt.reason and "finished" in receipt.reason
    assert file_bytes(store, "s1") == before


def test_a_rejected_resubmission_keeps_the_earlier_set(ref, store):
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 4")
    receipt = ref.submit("s1", "ann", "PICK 12")
    assert receipt.status == "rejected" and receipt.errors[0]["suggestion"] == "PICK 9"
    assert "waiting for ann, bob, cy" in receipt.render()
    assert store.load("s1").state["picks"] == {"ann": 4}


def test_phase_resolves_when_everyone_is_done_and_snapshots_it(ref, store):
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 4\nDONE")
    ref.submit("s1", "bob", "PICK 6\nDONE")
    last = ref.submit("s1", "cy", "PICK 6")
    last = ref.submit("s1", "cy", "PICK 2\nDONE")
    assert last.next["resolved"] and last.next["phase"]["key"] == "r2"
    stored = store.load("s1")
    assert stored.state["score"] == {"ann": 0, "bob": 1, "cy": 0}
    assert stored.snapshots[-1]["key"] == "r2" and stored.snapshots[-1]["state"] == stored.state
    assert stored.meta["steps"] == []
    assert "bob scores with 6." in last.events


def test_effective_events_apply_undos_in_order():
    events = [{"seq": i, "type": "order"} for i in range(1, 6)]
    events += [{"seq": 6, "type": "undo", "to": 3}, {"seq": 7, "type": "order"},
               {"seq": 8, "type": "undo", "to": 6}]
    assert [e["seq"] for e in effective_events(events)] == [1, 2, 3, 6, 8]
