import re

from .helpers import at_actions, decision, di, do, free_all_docks, give, set_row1, settle, store, who


def test_queued_actions_run_when_the_turn_comes():
    s = at_actions()
    s, _ = do(s, "MERCHANT 4 G3\nTALENTS", "Bob") if "G3" in s["market"] else do(s, f"MERCHANT 4 {s['market'][0]}\nTALENTS", "Bob")
    assert who(s) == "Ann" and len(s["queue"]["Bob"]) == 2
    money = s["money"][1]
    s, events = do(s, "TALENTS")
    assert s["money"][1] == money - 4 and who(s) == "Cid"
    # told to Bob alone that it was queued; everyone reads what it did in words, never the order as sent
    step = next(i for i, e in enumerate(events) if e.kind == "queue.used")
    assert "queued order is carried out" in events[step].text and events[step].to == ("Bob",) \
        and events[step].data["order"].startswith("MERCHANT")
    assert events[step + 1].to is None and events[step + 1].text.startswith("Bob ")
    assert not any(e.text.startswith("Bob: ") or "MERCHANT" in e.text for e in events)
    assert not any("queue" in e.text.lower() for e in events if e.visible_to("Ann"))
    s, _ = do(s, "TALENTS")
    s, _ = do(s, "TALENTS")
    s, _ = do(s, "TALENTS")  # Ann, round 2
    assert who(s) == "Cid" and s["queue"]["Bob"] == []


def test_a_queued_action_no_longer_legal_drops_the_queue_and_asks():
    s = give(at_actions(), "Bob", money=0)
    s, _ = do(s, f"MERCHANT 4 {s['market'][0]}\nTALENTS", "Bob")
    s, events = do(s, "TALENTS")
    assert who(s) == "Bob" and decision(s) == "action.main" and s["queue"]["Bob"] == []
    private = [e for e in events if e.kind == "queue" and e.to == ("Bob",)]
    assert private and private[0].text == (f"Your queued order no longer fits (MERCHANT 4 {s['market'][0]}: the next "
                                           "good costs 4 talents and you have 0); the rest of your queue is dropped "
                                           "and you are asked.")


def test_a_queued_side_action_then_the_next_turn():
    s = at_actions()
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE +1\nEXPAND\nTALENTS", "Bob")
    s, _ = do(s, "TALENTS")
    assert s["blocked"][1] == 1 and s["light"][1] == 1 and who(s) == "Cid"
    assert len(s["queue"]["Bob"]) == 1


def test_a_new_mail_replaces_the_queue():
    s = at_actions()
    s, _ = do(s, "TALENTS\nTALENTS", "Bob")
    s, _ = do(s, "REFILL", "Bob")
    assert [q["kind"] for q in s["queue"]["Bob"]] == ["refill"]


def test_lighthouse_preferences_given_in_advance_skip_ships_already_taken():
    s = free_all_docks(at_actions())
    s = give(give(s, "Ann", light=3), "Bob", light=1)
    s = set_row1(s, ["S01", "S06", "S11", "S16", "S21"])
    s["stage"], s["act"] = "arrival", None
    s, _ = settle(s)
    assert who(s) == "Ann"
    s, _ = do(s, "DOCK S11\nDOCK S06\nDOCK S16", "Bob")
    s, _ = do(s, "DOCK S11")
    s, events = do(s, "DOCK S01")
    assert s["dock_s"][di(s, "C2-I")] == "S06" and s["dock_s"][di(s, "C4-I")] == "S16"
    assert any("skipped" in e.text for e in events if e.to == ("Bob",))
    assert s["stage"] == "actions"


def test_a_decision_not_in_the_queue_keeps_the_queue_and_asks():
    from .helpers import own_dock
    s = store(free_all_docks(at_actions()), "Ann", "G1")
    s = own_dock(s, "Ann", "C1-I", ship="S01")
    s, _ = do(s, "PORTER 5 STORAGE G1 TO C1-I\nTALENTS")
    assert decision(s) == "intrigue.reward" and len(s["queue"]["Ann"]) == 1


def test_a_main_action_sent_while_the_turn_is_open_ends_it_and_waits():
    s = at_actions()
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE +1")
    assert decision(s) == "action.after"
    s, _ = do(s, "TALENTS", "Ann")
    assert who(s) == "Bob" and [q["kind"] for q in s["queue"]["Ann"]] == ["talents"]


def test_every_order_is_told_in_words_and_done_ends_the_turn_in_words():
    """No history line echoes an order as sent (`Bob: TALENTS`); DONE, which changes nothing
    on the board, says so in a sentence, so a queued DONE is a line of its own."""
    s = at_actions()
    s, _ = do(s, "ARISTOCRAT 2 LIGHTHOUSE +1\nDONE\nTALENTS", "Bob")
    s, events = do(s, "TALENTS")
    assert not any(e.kind == "order" or re.match(r"\w+: [A-Z]{2,}", str(e.text)) for e in events)
    assert any(e.kind == "done" and e.text == "Bob ends the action turn." and e.to is None for e in events)
    steps = [i for i, e in enumerate(events) if e.kind == "queue.used"]
    assert steps and all(events[i + 1].text.startswith("Bob ") for i in steps)
