"""The moderator's and players' levers on the clock: extend, pause and resume, vacation
within and beyond the quota, early resolution off, time zones; and `referee tick`."""

import json
import pytest

from referee.service import BadRequest, ServiceError

from .conftest import events, flat, mails, race, simul, text


def tick(svc, **advance):
    if advance:
        svc.clock.advance(**advance)
    return [(a.action, a.players) for a in svc.tick()]


def due(svc, game_id="race-1"):
    return svc.referee.status(game_id)["deadline"]["due"]


def test_extend_moves_the_deadline_is_announced_and_rearms_reminders(svc, clock):
    race(svc)
    assert tick(svc, hours=46) == [("reminder", ("ann",))]  # 2h before
    clock.advance(minutes=30)
    done = svc.referee.extend("race-1", "1d", "ann's mail server is down")
    assert done["due"] == "2026-03-05T09:00:00Z" and due(svc) == "2026-03-05T09:00:00Z"
    for player in ("ann", "bob"):
        notice = mails(svc, to=f"{player}@players.test", kind="notice")[-1]
        assert notice["Subject"] == "[race-1] Deadline extended"
        assert "New deadline: Thu 5 Mar 2026 09:00 UTC" in text(notice)
        assert "Reason given: ann's mail server is down" in text(notice)
    assert tick(svc, hours=1, minutes=30) == [("reminder", ("ann",))]  # 24h before the new deadline
    assert tick(svc, hours=22) == [("reminder", ("ann",))]  # 2h before it
    assert tick(svc, hours=2, minutes=59) == []
    assert tick(svc, minutes=1) == [("defaults", ("ann",))]
    [event] = events(svc, "race-1", "extend")
    assert event["by"] == "1d" and event["reason"] == "ann's mail server is down"
    for bad in (("2x", "r"), ("0m", "r"), ("1d", "")):
        with pytest.raises(BadRequest):
            svc.referee.extend("race-1", *bad)


def test_pause_stops_the_clock_and_resume_moves_the_deadline(svc, clock):
    race(svc)
    clock.advance(hours=10)
    svc.referee.pause("race-1", "the moderator is travelling")
    with pytest.raises(ServiceError, match="already paused"):
        svc.referee.pause("race-1", "again")
    assert tick(svc, days=3) == []  # no reminder, no deadline while paused
    assert svc.referee.status("race-1")["phase"]["key"] == "t0"
    receipt = svc.referee.submit("race-1", "ann", "ADD 1")
    assert receipt.status == "accepted"
    assert "none while the game is paused" in receipt.render()
    report = mails(svc, to="bob@players.test", kind="report")[-1]
    assert "Deadline: none while the game is paused" in text(report)
    clock.advance(days=1)  # t1 opened three days into the pause, one day before the resume
    done = svc.referee.resume("race-1", "back home")
    assert done["moved"] == "1d"
    assert due(svc) == "2026-03-08T19:00:00Z"  # opened Thu 19:00 + 2d + 1d standing still
    notice = mails(svc, to="bob@players.test", kind="notice")[-1]
    assert notice["Subject"] == "[race-1] Game resumed" and "moved by 1d" in text(notice)
    assert "New deadline: Sun 8 Mar 2026 19:00 UTC" in text(notice)
    with pytest.raises(ServiceError, match="not paused"):
        svc.referee.resume("race-1")
    assert tick(svc, hours=1) == []
    assert [e["type"] for e in events(svc, "race-1") if e["type"] in ("pause", "resume")] == ["pause", "resume"]


def test_resume_moves_the_open_deadline_by_the_whole_pause(svc, clock):
    race(svc)
    clock.advance(hours=10)
    svc.referee.pause("race-1", "holiday")
    clock.advance(hours=62)
    svc.referee.resume("race-1")
    assert due(svc) == "2026-03-06T23:00:00Z"  # 48h + 62h
    assert tick(svc, hours=13) == []  # the 24h reminder's time (86h) has not come
    assert tick(svc, hours=1) == [("reminder", ("ann",))]


def test_vacation_within_the_quota_moves_deadlines_and_is_counted(svc, clock):
    race(svc)  # standard: 2d deadlines, 14d vacation quota
    done = svc.referee.vacation("race-1", "bob", "until 2026-03-10")
    assert done["until"] == "2026-03-10T00:00:00Z" and done["quota_left"] == "14d"
    # ann's phase is not bob's: nothing moves
    assert due(svc) == "2026-03-04T09:00:00Z"
    svc.referee.submit("race-1", "ann", "ADD 1")  # bob's turn opens, due Wed 09:00, bob is away
    assert due(svc) == "2026-03-12T00:00:00Z"  # back on the 10th, then two normal days
    [moved] = events(svc, "race-1", "vacation_moved")
    assert moved["player"] == "bob" and moved["by"] == "7d15h"
    notice = mails(svc, to="ann@players.test", kind="notice")[-1]
    assert notice["Subject"] == "[race-1] Deadline moved for a vacation"
    assert "bob has 6d9h of vacation quota left" in text(notice)
    assert tick(svc, days=3) == []  # no reminders for a deadline ten days away yet
    assert tick(svc, days=5, hours=15) == [("reminder", ("bob",))]
    assert svc.referee.policy_show("race-1")["vacation_used"] == {"bob": "7d15h"}


def test_vacation_beyond_the_quota_then_normal_rules(svc, clock):
    race(svc, policy="tournament")  # 1d deadlines, no grace, a 3d quota, drop after 2 misses
    svc.referee.vacation("race-1", "ann", "10d")
    assert due(svc) == "2026-03-06T09:00:00Z"  # moved by the whole quota: 3d
    assert tick(svc, hours=1) == []
    assert tick(svc, days=3, hours=23) == [("defaults", ("ann",))]
    subjects = [m["Subject"] for m in mails(svc, to="bob@players.test", kind="notice")]
    assert subjects[:2] == ["[race-1] ann is on vacation", "[race-1] Deadline moved for a vacation"]
    svc.referee.submit("race-1", "bob", "ADD 1")  # ann's turn again; the quota is used up
    assert "[race-1] Vacation quota of ann used up" in [m["Subject"] for m in mails(svc, to="bob@players.test")]
    assert due(svc) == "2026-03-07T09:00:00Z"
    assert tick(svc, days=1) == [("defaults", ("ann",)), ("escalation", ("ann",))]
    assert len(events(svc, "race-1", "vacation_quota")) == 1


def test_vacation_off_and_bad_requests(svc, clock):
    race(svc)
    with pytest.raises(ServiceError, match="not on vacation"):
        svc.referee.vacation("race-1", "ann", "off")
    for spec in ("until yesterday", "soon", "until 2020-01-01", ""):
        with pytest.raises(BadRequest):
            svc.referee.vacation("race-1", "ann", spec)
    with pytest.raises(ServiceError, match="no player"):
        svc.referee.vacation("race-1", "zed", "2d")
    svc.referee.vacation("race-1", "ann", "2d")
    assert due(svc) == "2026-03-06T09:00:00Z"
    svc.referee.vacation("race-1", "ann", "off")
    assert svc.referee.policy_show("race-1")["vacations"] == {}


def test_a_vacation_date_is_read_in_the_players_time_zone(svc, clock):
    race(svc)
    svc.referee.set_timezone("race-1", "ann", "Asia/Tokyo")
    done = svc.referee.vacation("race-1", "ann", "until 2026-03-05")
    assert done["until"] == "2026-03-04T15:00:00Z"  # midnight in Tokyo


def test_early_resolution_off_holds_a_complete_simultaneous_phase_until_its_deadline(svc, clock):
    simul(svc, policy="tournament")  # early=false, 1d deadlines, no grace
    svc.referee.submit("simul-1", "ann", "PICK 5\nDONE")
    svc.referee.submit("simul-1", "bob", "PICK 3\nDONE")
    held = svc.referee.submit("simul-1", "cid", "PICK 9\nDONE")
    assert held.status == "accepted" and "Early resolution is off" in held.render()
    status = svc.referee.status("simul-1")
    assert status["phase"]["key"] == "r1" and status["deadline"]["held"] is True
    again = svc.referee.submit("simul-1", "cid", "PICK 2\nDONE")  # cid changes his mind
    assert again.status == "accepted" and again.added == ["PICK 2"] and again.removed == ["PICK 9"]
    assert tick(svc, hours=12) == []  # no reminder: everyone is in
    assert tick(svc, hours=12) == [("released", ("cid",))]
    state = svc.store.load("simul-1").state
    assert state["round"] == 2 and state["score"] == {"ann": 1, "bob": 0, "cid": 0}
    assert [e["source"] for e in events(svc, "simul-1", "order") if e["player"] == "cid"] == ["held"]
    assert len(events(svc, "simul-1", "held")) == 2
    # a sequential decision is never held
    race(svc, policy="tournament")
    svc.referee.submit("race-1", "ann", "ADD 1")
    assert svc.referee.status("race-1")["phase"]["key"] == "t1"


def test_adjudicate_plays_a_held_set_before_any_default(svc, clock):
    simul(svc, policy="tournament")
    svc.referee.submit("simul-1", "ann", "PICK 5\nDONE")
    svc.referee.submit("simul-1", "bob", "PICK 3\nDONE")
    svc.referee.submit("simul-1", "cid", "PICK 9\nDONE")
    report = svc.referee.adjudicate("simul-1")
    assert report.applied == [] and report.opened["key"] == "r2"
    assert svc.store.load("simul-1").state["score"]["cid"] == 1


def test_reports_and_reminders_show_each_players_own_zone(svc, clock):
    race(svc, sets=["deadline.move=20:00 Europe/Berlin"])
    svc.referee.set_timezone("race-1", "bob", "Europe/Berlin")
    svc.referee.submit("race-1", "ann", "ADD 1")
    report = flat(mails(svc, to="bob@players.test", kind="report")[-1])
    assert "Deadline: Tue 3 Mar 2026 20:00 CET (19:00 UTC); grace until 21:00" in report
    ann_report = text(mails(svc, to="ann@players.test", kind="report")[-1])
    assert "Nothing is asked of you now; waiting for bob." in ann_report
    with pytest.raises(BadRequest, match="did you mean Europe/Berlin"):
        svc.referee.set_timezone("race-1", "bob", "Europe/Berln")


def test_the_tick_command_for_cron(cli_run):
    run = cli_run
    data = cli_run.data
    assert run("new", "race", "--player", "ann:ann@p.test", "--player", "bob:bob@p.test", "--id", "r1").exit_code == 0
    assert run("tick").output == "Nothing due.\n"
    first = run("tick", "--now", "2026-03-03T09:30:00Z")
    assert first.exit_code == 0 and first.output == "r1: reminder: 1d before the deadline of phase t0 [ann]\n"
    assert run("tick", "--now", "2026-03-03T09:31:00Z").output == "Nothing due.\n"
    late = run("tick", "--now", "2026-03-04T10:00:00+00:00", "--json")
    assert json.loads(late.output) == [{"game": "r1", "action": "defaults", "players": ["ann"],
                                        "detail": "deadline of phase t0 passed; default orders applied"}]
    bad = run("tick", "--now", "tomorrow")
    assert bad.exit_code == 2 and "--now" in bad.output
    relay = sorted((data / "relay" / "new").iterdir())
    assert any("Reminder" in p.read_text() for p in relay)  # tick sends what it queued
    assert run("extend", "r1", "--by", "1d", "--reason", "r").exit_code == 0
    assert "Deadline of phase t1 in r1 moved by 1d" in run("extend", "r1", "--by", "1d", "--reason", "r").output
    assert run("pause", "r1", "--reason", "holiday").exit_code == 0
    assert run("resume", "r1").output.startswith("r1 runs again")
    assert "on vacation in r1 until" in run("vacation", "r1", "bob", "5d").output
    assert "bob in r1 sees deadlines in Europe/Berlin" in run("timezone", "r1", "bob", "europe/berlin").output
    assert run("timezone", "r1", "bob", "Nowhere").exit_code == 2
    history = run("history", "r1").output
    for line in ("reminder 1d before the deadline of t0 to ann", "deadline of t0 passed; missing: ann",
                 "game paused: holiday", "bob time zone set to Europe/Berlin"):
        assert line in history
