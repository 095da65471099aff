"""Time passing through whole games on a fake clock: reminders, grace, default orders,
escalation, late orders; and `tick` never doing anything twice."""

import threading
import pytest

from mailer.daemon.wiring import build

from .conftest import ManualClock, events, mails, race, simul, text


def tick(svc, **advance):
    if advance:
        svc.clock.advance(**advance)
    return [(a.action, a.players) for a in svc.tick()]


def test_reminders_go_only_to_missing_players_at_their_times_and_once(svc, clock):
    race(svc)  # standard: a 2d deadline, reminders 24h and 2h before, 1h of grace
    assert tick(svc, hours=23, minutes=59) == []
    assert tick(svc, minutes=1) == [("reminder", ("ann",))]
    assert tick(svc) == [] and tick(svc, minutes=30) == []
    [reminder] = mails(svc, kind="reminder")
    assert reminder["To"] == "ann@players.test"
    assert reminder["Subject"] == "[race-1] Your move (reminder, 1d left): round 0, add (by Wed 4 Mar 09:00 UTC)"
    body = text(reminder)
    assert "Deadline: Wed 4 Mar 2026 09:00 UTC" in body and "ORDERS race-1 t0" in body and "add to the total" in body
    assert reminder["Reply-To"].startswith("race-1+ann+")
    assert tick(svc, hours=21, minutes=29) == []  # 2h 01m before the deadline
    assert tick(svc, minutes=1) == [("reminder", ("ann",))]
    assert len(mails(svc, kind="reminder")) == 2 and not mails(svc, to="bob@players.test", kind="reminder")
    assert [e["before"] for e in events(svc, "race-1", "reminder")] == ["1d", "2h"]


def test_a_late_tick_sends_only_the_nearest_reminder(svc, clock):
    race(svc)
    assert tick(svc, hours=47) == [("reminder", ("ann",))]
    [reminder] = mails(svc, kind="reminder")
    assert "(reminder, 1h left)" in reminder["Subject"]
    assert tick(svc) == []


def test_a_deadline_that_is_already_close_starts_without_reminders(svc, clock):
    race(svc, sets=["deadline=3h"])  # 24h and 2h before: the 24h time lies before the opening
    assert tick(svc, minutes=59) == []
    assert tick(svc, minutes=1) == [("reminder", ("ann",))]


def test_grace_then_default_orders_then_the_next_phase(svc, clock):
    race(svc, target="5")
    tick(svc, hours=47, minutes=59)
    assert tick(svc, minutes=1) == []  # the deadline: grace runs for an hour
    assert svc.referee.status("race-1")["phase"]["key"] == "t0"
    late = svc.referee.submit("race-1", "ann", "ADD 3")  # in the grace period orders still count
    assert late.status == "accepted" and svc.referee.status("race-1")["phase"]["key"] == "t1"
    assert "Deadline for phase t1: Fri 6 Mar 2026 09:00 UTC; grace until 10:00" in late.render()
    clock.advance(days=2, hours=1)
    assert tick(svc) == [("defaults", ("bob",))]
    assert tick(svc) == []
    [default] = events(svc, "race-1", "default")
    assert default["player"] == "bob" and default["text"] == "ADD 1" and default["source"] == "deadline"
    status = svc.referee.status("race-1")
    assert status["phase"]["key"] == "t2" and status["deadline"]["opened"] == "2026-03-06T10:00:00Z"
    assert svc.store.load("race-1").meta["misses"] == {"bob": 1}
    bob_report = mails(svc, to="bob@players.test", kind="report")[-1]
    assert "bob adds 1; the total is 4." in text(bob_report)


def test_orders_for_a_phase_the_deadline_closed_are_refused_naming_the_open_phase(svc, clock):
    tokens = race(svc)
    tick(svc, hours=49)
    receipt = svc.referee.submit("race-1", "ann", "ADD 2", token=tokens["ann"], phase_key="t0", source="mail")
    assert receipt.status == "refused"
    assert receipt.reason == ("these orders are for phase t0, which closed at its deadline (your default orders "
                              "were played); the phase now open is add (round 1, phase t1)")
    untagged = svc.referee.submit("race-1", "ann", "ADD 2", token=tokens["ann"])
    assert untagged.status == "refused" and "phase t1" in untagged.reason


def test_a_player_who_plays_again_starts_a_new_count(svc, clock):
    race(svc, sets=["escalation.after=3"])
    for _ in range(2):  # ann misses, bob plays
        tick(svc, hours=49)
        svc.referee.submit("race-1", "bob", "ADD 1")
    assert svc.store.load("race-1").meta["misses"] == {"ann": 2}
    svc.referee.submit("race-1", "ann", "ADD 1")
    assert svc.store.load("race-1").meta["misses"] == {}


def test_escalation_offers_the_seat_after_two_misses(svc, clock):
    race(svc)  # standard: after 2 misses a replacement is offered
    tick(svc, hours=49)
    svc.referee.submit("race-1", "bob", "ADD 1")
    assert tick(svc, hours=49) == [("defaults", ("ann",)), ("escalation", ("ann",))]
    assert svc.referee.status("race-1")["offered"] == ["ann"]
    [alert] = mails(svc, to="mod@club.test")
    assert alert["Subject"] == "[race-1] ann missed 2 deadlines in race-1"
    assert "referee replace race-1 ann --email NEW-ADDRESS" in text(alert)
    [offer] = mails(svc, to="ann@players.test", kind="notice")
    assert "offered to a replacement" in text(offer)
    [event] = events(svc, "race-1", "escalation")
    assert event["action"] == "replace" and event["misses"] == 2
    # a third miss does not escalate again; playing clears the offer
    svc.referee.submit("race-1", "bob", "ADD 1")
    assert tick(svc, hours=49) == [("defaults", ("ann",))]
    svc.referee.submit("race-1", "bob", "ADD 1")
    svc.referee.submit("race-1", "ann", "ADD 1")
    assert svc.referee.status("race-1")["offered"] == []


def test_escalation_alerts_the_games_own_moderator(svc, clock):
    race(svc, sets=["escalation.after=1", "escalation.action=alert", "moderator=ref@league.test"])
    assert tick(svc, hours=49) == [("defaults", ("ann",)), ("escalation", ("ann",))]
    [alert] = mails(svc, to="ref@league.test")
    assert "ann has missed 1 deadlines in a row" in text(alert) and not mails(svc, to="mod@club.test")


def test_escalation_drops_where_the_game_allows_it(svc, clock):
    simul(svc, policy="tournament", sets=["escalation.after=1"])  # 1d, no grace, drop
    svc.referee.submit("simul-1", "ann", "PICK 5\nDONE")
    svc.referee.submit("simul-1", "bob", "PICK 4\nDONE")
    assert tick(svc, days=1) == [("defaults", ("cid",)), ("escalation", ("cid",))]
    assert [e["player"] for e in events(svc, "simul-1", "drop")] == ["cid"]
    state = svc.store.load("simul-1").state
    assert state["dropped"] == ["cid"] and state["round"] == 2
    assert [p["player"] for p in svc.referee.status("simul-1")["waiting_for"]] == ["ann", "bob"]
    notices = mails(svc, to="ann@players.test", kind="notice")
    assert notices and notices[-1]["Subject"] == "[simul-1] cid dropped after 1 missed deadlines"


def test_drop_falls_back_to_an_alert_where_the_game_does_not_allow_it(svc, clock):
    race(svc, policy="tournament", sets=["escalation.after=1"])
    assert tick(svc, days=1) == [("defaults", ("ann",)), ("escalation", ("ann",))]
    [event] = events(svc, "race-1", "escalation")
    assert event["action"] == "alert" and "does not allow dropping ann" in event["note"]
    [alert] = mails(svc, to="mod@club.test")
    assert "The policy says drop, but Race to the Target does not allow dropping ann" in text(alert)


def test_missed_wait_alerts_once_and_applies_nothing(svc, clock):
    race(svc, sets=["missed=wait"])
    assert tick(svc, hours=49) == [("waiting", ("ann",))]
    assert tick(svc, hours=5) == []
    assert svc.referee.status("race-1")["phase"]["key"] == "t0" and not events(svc, "race-1", "default")
    [alert] = mails(svc, to="mod@club.test")
    assert "referee adjudicate race-1" in text(alert)
    svc.referee.extend("race-1", "1d", "ann asked")
    assert tick(svc, days=1, hours=1) == [("waiting", ("ann",))]  # a new deadline, a new alert


def test_a_whole_simultaneous_game_on_defaults(svc, clock):
    simul(svc)
    svc.referee.submit("simul-1", "ann", "PICK 7")  # a set without DONE is still missing
    assert tick(svc, hours=24) == [("reminder", ("ann", "bob", "cid"))]
    svc.referee.submit("simul-1", "bob", "PICK 3\nDONE")
    assert tick(svc, hours=22) == [("reminder", ("ann", "cid"))]
    assert tick(svc, hours=3) == [("defaults", ("ann", "cid"))]
    state = svc.store.load("simul-1").state
    assert state["round"] == 2 and state["score"] == {"ann": 1, "bob": 0, "cid": 0}  # ann's PICK 7 stood
    tick(svc, hours=49)
    assert tick(svc, hours=49) == []
    status = svc.referee.status("simul-1")
    assert status["result"] is not None and status["deadline"] is None
    assert svc.store.load("simul-1").meta["misses"] == {"ann": 2, "bob": 1, "cid": 2}
    assert [e["action"] for e in events(svc, "simul-1", "escalation")] == ["replace", "replace"]


def test_a_real_game_runs_on_default_orders_to_its_end(svc, clock, games):
    name = "constantinopolis"
    game = games[name]
    made = svc.referee.new_game(name, [(f"p{i}", f"p{i}@players.test") for i in range(2)], seed="deadline",
                                game_id="c-1", policy="tournament", policy_set=["escalation.after=0"])
    assert made.id == "c-1"
    for _ in range(3000):
        if svc.referee.status("c-1")["result"] is not None:
            break
        actions = tick(svc, days=1)
        assert [a for a, _ in actions] == ["defaults"], actions
    else:
        pytest.fail("the game did not end on default orders")
    kinds = {e["type"] for e in events(svc, "c-1")}
    assert "finished" in kinds and "deadline" in kinds
    assert game.result(svc.store.load("c-1").state) is not None


def test_ticks_from_two_services_on_one_data_directory_never_repeat_anything(tmp_path, games):
    clock_a, clock_b = ManualClock(), ManualClock()
    settings_dir = tmp_path / "var"
    from referee.config import Settings

    a = build(Settings(hostname="games.test", data_dir=settings_dir), clock=clock_a)
    b = build(Settings(hostname="games.test", data_dir=settings_dir), clock=clock_b)
    race(a, target="100")
    simul(a, rounds="30")
    for hour in range(1, 24 * 12):
        clock_a.advance(hours=1)
        clock_b.advance(hours=1)
        a.tick()
        b.tick()
        if hour % 7 == 0:
            b.tick()
    for game_id in ("race-1", "simul-1"):
        evs = events(a, game_id)
        closed = [e["phase"] for e in evs if e["type"] == "deadline"]
        assert closed and len(closed) == len(set(closed)), closed
        reminders = [(e["phase"], e["before"]) for e in evs if e["type"] == "reminder"]
        assert len(reminders) == len(set(reminders))
    ids = [m["Message-ID"] for m in mails(a)]
    assert len(ids) == len(set(ids))


def test_concurrent_ticks_in_threads_resolve_each_deadline_once(tmp_path, games):
    from referee.config import Settings

    clock = ManualClock()
    services = [build(Settings(hostname="games.test", data_dir=tmp_path / "var"), clock=clock) for _ in range(4)]
    for n in range(3):
        race(services[0], game_id=f"race-{n}")
    clock.advance(hours=49)
    results: list = []
    barrier = threading.Barrier(4)

    def run(svc):
        barrier.wait()
        results.extend(svc.tick())

    threads = [threading.Thread(target=run, args=(s,)) for s in services]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted((a.game, a.action) for a in results) == [(f"race-{n}", "defaults") for n in range(3)]
    for n in range(3):
        assert len(events(services[0], f"race-{n}", "default")) == 1
