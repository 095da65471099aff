"""The policy as data: presets, overrides, validation, time rules; and `referee policy`."""

import json
from datetime import datetime, timedelta, timezone

import pytest

from referee.policy import PRESETS, Policy, PolicyError, parse_rule
from referee.timekeeping import TimeError, format_duration, parse_duration, show_moment

from .conftest import events, mails, race, text

UTC = timezone.utc


@pytest.mark.parametrize("raw, minutes", [("90m", 90), ("36h", 36 * 60), ("2d", 2880), ("1d12h", 2160),
                                          ("1w", 7 * 1440), ("0m", 0), (" 1D 2H ", 26 * 60)])
def test_durations(raw, minutes):
    assert parse_duration(raw) == timedelta(minutes=minutes)


@pytest.mark.parametrize("raw", ["2x", "", "h", "12", "1h1d", "-2h", "1.5h", "400d"])
def test_bad_durations_say_how_to_write_one(raw):
    with pytest.raises(TimeError) as info:
        parse_duration(raw)
    assert "duration" in str(info.value) or "year" in str(info.value)


def test_canonical_durations_round_trip():
    for minutes in (0, 1, 59, 60, 61, 1440, 2160, 10081):
        value = timedelta(minutes=minutes)
        assert parse_duration(format_duration(value)) == value


def test_presets_hold_every_key_and_differ():
    for name, values in PRESETS.items():
        policy = Policy.build(name)
        assert policy.preset == name and dict(policy.values) == values and policy.overrides == ()
    assert Policy.build("tournament").early is False and Policy.build("standard").early is True
    assert Policy.build("standard").reminders == (timedelta(hours=24), timedelta(hours=2))
    assert Policy.build("casual").grace == timedelta(days=1)


def test_overrides_are_canonical_and_remembered():
    policy = Policy.build("standard", {"deadline.auction": "36h", "reminders": "2h, 1d", "grace": "60m",
                                       "escalation.action": "DROP", "early": "no", "vacation.quota": "336h",
                                       "deadline.accept": "20:00 europe/berlin"})
    assert policy.values["reminders"] == "1d,2h" and policy.values["grace"] == "1h"
    assert policy.values["escalation.action"] == "drop" and policy.values["early"] == "false"
    assert policy.values["vacation.quota"] == "14d"
    assert policy.values["deadline.accept"] == "20:00 Europe/Berlin"
    assert policy.rule("auction").length == timedelta(hours=36)
    assert policy.rule("move").length == timedelta(days=2)  # no override: the default deadline
    assert set(policy.overrides) == {"deadline.auction", "deadline.accept", "reminders", "grace",
                                     "escalation.action", "early", "vacation.quota"}
    back, _ = policy.changed({"grace": "", "deadline.auction": ""})
    assert back.values["grace"] == "1h" and "deadline.auction" not in back.values
    assert "grace" not in back.overrides


def test_every_problem_is_listed_with_a_hint():
    with pytest.raises(PolicyError) as info:
        Policy.build("standard", {"grase": "1h", "deadline.auction": "2x", "deadline.accept": "20:00 Europe/Berln",
                                  "escalation.action": "shoot", "early": "maybe", "escalation.after": "-1",
                                  "deadline.Bad Kind": "1h", "moderator": "not-an-address"})
    problems = "\n".join(info.value.problems)
    assert len(info.value.problems) == 8
    assert "unknown policy key 'grase' (did you mean 'grace'?)" in problems
    assert "deadline.auction=2x: '2x' is not a duration" in problems
    assert "unknown time zone 'Europe/Berln' (did you mean Europe/Berlin?)" in problems
    assert "must be one of alert, replace, drop" in problems
    assert "true or false" in problems and "whole number" in problems
    assert "a phase kind is lower-case" in problems and "not an email address" in problems
    with pytest.raises(PolicyError, match="did you mean 'casual'"):
        Policy.build("casul")


def test_a_time_of_day_deadline_is_the_next_one_at_least_the_wait_away():
    rule = parse_rule("20:00 Europe/Berlin")  # CET in March before the 29th: UTC+1
    opened = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # 10:00 in Berlin: today 20:00 is only 10 h away
    assert rule.due(opened) == datetime(2026, 3, 3, 19, 0, tzinfo=UTC)
    early = parse_rule("20:00 Europe/Berlin after 6h")
    assert early.due(opened) == datetime(2026, 3, 2, 19, 0, tzinfo=UTC)
    assert early.text() == "20:00 Europe/Berlin after 6h" and rule.text() == "20:00 Europe/Berlin"
    # across the change to summer time (29 March 2026) the wall-clock time stays 20:00
    assert rule.due(datetime(2026, 3, 29, 6, 0, tzinfo=UTC)) == datetime(2026, 3, 29, 18, 0, tzinfo=UTC)  # CEST
    assert parse_rule("18:30").due(opened) == datetime(2026, 3, 3, 18, 30, tzinfo=UTC)
    assert parse_rule("none").due(opened) is None
    for bad in ("25:00 UTC", "20:00 Mars/Olympus", "20:00 Europe/Berlin soon"):
        with pytest.raises(TimeError):
            parse_rule(bad)


def test_moments_show_in_the_readers_zone_with_utc_beside():
    moment = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    assert show_moment(moment) == "Tue 1 Dec 2026 18:00 UTC"
    assert show_moment(moment, "Europe/Berlin") == "Tue 1 Dec 2026 19:00 CET (18:00 UTC)"
    assert show_moment(moment, "Pacific/Auckland") == "Wed 2 Dec 2026 07:00 NZDT (Tue 1 Dec 2026 18:00 UTC)"


# ----------------------------------------------------------------------------- the service


def test_a_new_game_stores_its_policy_and_a_deadline_for_the_open_phase(svc, clock):
    race(svc, policy="tournament", sets=["deadline.move=36h"])
    meta = svc.store.load("race-1").meta
    assert meta["policy"]["preset"] == "tournament" and meta["policy"]["values"]["deadline.move"] == "1d12h"
    assert meta["schedule"]["phase"] == "t0" and meta["schedule"]["due"] == "2026-03-03T21:00:00Z"
    assert svc.referee.status("race-1")["deadline"]["due"] == "2026-03-03T21:00:00Z"
    report = text(mails(svc, to="ann@players.test", kind="report")[-1])
    assert "Deadline: Tue 3 Mar 2026 21:00 UTC" in report


def test_a_bad_policy_creates_nothing(svc):
    from referee.service import BadRequest

    with pytest.raises(BadRequest) as info:
        race(svc, policy="standard", sets=["grace=soon", "colour=red"])
    assert len(info.value.problems) == 2 and not svc.store.exists("race-1")


def test_policy_set_is_logged_announced_and_applies_from_the_next_phase(svc, clock):
    race(svc)
    before = svc.store.load("race-1").meta["schedule"]
    done = svc.referee.policy_set("race-1", ["deadline=1d", "grace=2h"], "the club prefers shorter turns")
    assert done["changes"] == ["deadline: 2d -> 1d", "grace: 1h -> 2h"]
    assert svc.store.load("race-1").meta["schedule"] == before  # the open deadline stays
    [event] = events(svc, "race-1", "policy")
    assert event["reason"] == "the club prefers shorter turns" and event["changes"] == done["changes"]
    for player in ("ann", "bob"):
        [notice] = mails(svc, to=f"{player}@players.test", kind="notice")
        body = text(notice)
        assert notice["Subject"] == "[race-1] Deadline rules changed"
        assert "deadline: 2d -> 1d" in body and "Reason given: the club prefers shorter turns" in body
    svc.referee.submit("race-1", "ann", "ADD 1")
    assert svc.store.load("race-1").meta["schedule"]["due"] == "2026-03-03T09:00:00Z"
    # the same values again change nothing and announce nothing
    assert svc.referee.policy_set("race-1", ["grace=2h"], "again")["changes"] == []
    assert len(events(svc, "race-1", "policy")) == 1


def test_policy_set_refuses_bad_input_without_writing(svc):
    from referee.service import BadRequest

    race(svc)
    before = svc.store.path("race-1").read_bytes()
    for args, reason in ((["grace=2x"], "r"), (["grace"], "r"), (["grace=1h"], " ")):
        with pytest.raises(BadRequest):
            svc.referee.policy_set("race-1", args, reason)
    assert svc.store.path("race-1").read_bytes() == before


def test_the_policy_commands(cli_run):
    run = cli_run
    made = run("new", "race", "--player", "ann:ann@p.test", "--player", "bob:bob@p.test", "--id", "r1",
               "--policy", "casual", "--set", "grace=3h", "--set", "deadline.move=20:00 Europe/Berlin")
    assert made.exit_code == 0, made.output
    shown = run("policy", "show", "r1")
    assert "preset casual" in shown.output
    assert "grace                3h" in shown.output and "set for this game" in shown.output
    assert "deadline.move        20:00 Europe/Berlin" in shown.output
    assert "Open phase t0 (move): deadline Tue 3 Mar 2026 19:00 UTC" in shown.output
    info = json.loads(run("policy", "show", "r1", "--json").output)
    assert info["policy"]["values"]["grace"] == "3h" and info["deadline"]["due"] == "2026-03-03T19:00:00Z"
    changed = run("policy", "set", "r1", "reminders=6h", "escalation.after=1", "--reason", "short game")
    assert changed.exit_code == 0 and "reminders: 24h -> 6h" in changed.output
    bad = run("policy", "set", "r1", "reminders=6x", "--reason", "oops")
    assert bad.exit_code == 2 and "reminders=6x: '6x' is not a duration" in bad.output
    missing = run("policy", "set", "r1", "grace=1h")
    assert missing.exit_code == 2 and "--reason" in missing.output
    wrong = run("new", "race", "--player", "ann:ann@p.test", "--player", "bob:bob@p.test", "--policy", "fast")
    assert wrong.exit_code == 2 and "unknown policy preset 'fast'" in wrong.output
    status = run("status", "r1")
    assert "Deadline: Tue 3 Mar 2026 19:00 UTC (in 1d 10h); grace until 22:00" in status.output
    history = run("history", "r1")
    assert "policy changed: escalation.after: 3 -> 1; reminders: 24h -> 6h (reason: short game)" in history.output


def test_a_deadline_for_a_phase_kind_the_game_does_not_have_is_refused(svc):
    from referee.errors import BadRequest

    players = [(p, f"{p}@players.test") for p in ("ann", "bob")]
    with pytest.raises(BadRequest) as info:
        svc.referee.new_game("constantinopolis", players, seed="s", game_id="c1",
                             policy_set=["deadline.construction=1d"])
    assert "did you mean 'deadline.construct'" in str(info.value)
    assert not svc.store.exists("c1")
    svc.referee.new_game("constantinopolis", players, seed="s", game_id="c1", policy_set=["deadline.construct=1d"])
    before = svc.store.path("c1").read_bytes()
    with pytest.raises(BadRequest) as info:
        svc.referee.policy_set("c1", ["deadline.bidding=3d"], reason="typo")
    assert "no phase kind 'bidding'" in str(info.value) and "auction" in str(info.value)
    assert svc.store.path("c1").read_bytes() == before


def test_games_without_a_list_of_phase_kinds_take_any_kind(svc):
    race(svc, sets=["deadline.whatever=3d"])
    assert svc.referee.policy_show("race-1")["policy"]["values"]["deadline.whatever"] == "3d"


@pytest.mark.parametrize("name, players", [("constantinopolis", ("a", "b", "c")),
                                           ("porto-carthago", ("a", "b", "c"))])
def test_the_listed_phase_kinds_are_the_kinds_a_game_reaches(name, players):
    from referee import registry
    from referee.contract import phase_kinds
    from referee.playthrough import play

    game = registry.get(name)
    seen: set[str] = set()
    play(game, players, "kinds", on_step=lambda pt: seen.add(game.phase(pt.state).kind))
    assert seen - {"over"} <= set(phase_kinds(game))
