"""`referee status` and `referee list` in the moderator's words: whom a game waits for and for
what, since when and until when, the seats to know about, and a mark on every game that
needs the moderator, on a clock that moves only when told."""

from __future__ import annotations

import json

from referee.seat_flags import seat_flags

from .conftest import START


def new(run, gid: str, game: str = "race", players=("ann", "bob"), *extra: str) -> None:
    made = run("new", game, *[f"--player={p}:{p}@example.org" for p in players], "--id", gid, "--seed", gid, *extra)
    assert made.exit_code == 0, made.output


def rows(output: str) -> dict[str, str]:
    """The lines of `referee list` by game id, the attention mark kept."""
    lines = output.splitlines()
    assert lines[0].split()[:2] == ["GAME", "TYPE"]
    return {line[1:].split()[0]: line for line in lines[1:-1]}


def test_status_says_whom_for_what_since_and_until_in_the_moderators_words(cli_run):
    new(cli_run, "c1", "constantinopolis", ("ann", "bob", "carla"))
    cli_run.clock.advance(hours=5)
    out = cli_run("status", "c1").output
    assert "Round 1, Auction of public offices (phase r1-auction-2)" in out
    assert "Open since Mon 2 Mar 2026 09:00 UTC (5h ago)" in out
    assert "Waiting for ann: auction: stay, take a vacant office or bid on an occupied one\n" in out
    assert "Deadline: Wed 4 Mar 2026 09:00 UTC (in 1d 19h); grace until 10:00" in out
    assert "your" not in out  # never the asked player's own prompt
    assert "Seats to know about" not in out and "Needs attention" not in out


def test_status_flags_vacations_misses_and_a_late_deadline(cli_run):
    new(cli_run, "g1", "simul", ("ann", "bob", "cat"))
    assert cli_run("vacation", "g1", "bob", "3d").exit_code == 0
    cli_run.clock.advance(days=5, minutes=30)  # the deadline moved by the vacation, and passed
    out = cli_run("status", "g1").output
    assert "Waiting for ann, bob, cat: pick (at the same time, each on their own)" in out
    assert "the deadline has passed, the grace period runs" in out
    assert "Needs attention: deadline passed, in its grace" in out
    assert "bob: on vacation until Thu 5 Mar 2026 09:00 UTC" not in out  # over: no longer a flag
    cli_run.clock.advance(hours=1)
    assert cli_run("tick").exit_code == 0  # grace over: default orders, a miss each
    cli_run("vacation", "g1", "cat", "2d")
    out = cli_run("status", "g1").output
    assert "Seats to know about:\n  ann: missed 1 deadline in a row\n  bob: missed 1 deadline in a row\n" \
           "  cat: on vacation until" in out
    info = json.loads(cli_run("status", "g1", "--json").output)["glance"]
    assert [f["flag"] for f in info["flags"]["cat"]] == ["vacation", "missed"]
    assert info["attention"] == ["ann missed 1 deadline", "bob missed 1 deadline", "cat missed 1 deadline"]


def test_list_marks_the_games_that_need_the_moderator(cli_run):
    new(cli_run, "calm", "race", ("ann", "bob"))
    new(cli_run, "late", "race", ("ann", "bob"))
    new(cli_run, "still", "race", ("ann", "bob"))
    new(cli_run, "long-phase", "porto-carthago", ("ann", "bob", "cat"))
    assert cli_run("new", "race", "--open", "--seats", "2..3", "--approve", "--id", "signup").exit_code == 0
    assert cli_run("pause", "still", "--reason", "a rules question").exit_code == 0
    cli_run.clock.advance(days=1, hours=23)
    assert cli_run("extend", "calm", "--by", "1d", "--reason", "a holiday").exit_code == 0
    assert cli_run("vacation", "calm", "bob", "5d").exit_code == 0
    cli_run.clock.advance(hours=1, minutes=30)
    listed = cli_run("list")
    assert listed.exit_code == 0
    by_id = rows(listed.output)
    assert set(by_id) == {"calm", "late", "still", "long-phase", "signup"}
    assert by_id["calm"].startswith(" ") and "in 23h 30m" in by_id["calm"] and "bob on vacation until" in by_id["calm"]
    assert by_id["late"].startswith("!") and "late 30m, grace" in by_id["late"] and "deadline passed" in by_id["late"]
    assert by_id["still"].startswith("!") and "paused: a rules question" in by_id["still"]
    assert by_id["signup"].startswith(" ") and "sign-ups, 0 of 3 seats" in by_id["signup"]
    assert "ship arrival" not in by_id["long-phase"] and "r1 setup: optional dock" in by_id["long-phase"]
    assert listed.output.splitlines()[-1] == "3 of 5 games need attention (!); `referee status GAME` says why"
    header = listed.output.splitlines()[0]
    for line in by_id.values():  # the columns line up under the header
        assert line[header.index("WAITING FOR"):][:1] != " " and line[header.index("WAITING FOR") - 1] == " "
    games = {g["id"]: g for g in json.loads(cli_run("list", "--json").output)}
    assert games["late"]["late"] == "grace" and games["late"]["waiting"][0]["players"] == ["ann"]
    assert games["calm"]["late"] is None and games["signup"]["signup"]["taken"] == 0


def test_a_finished_game_names_its_winners_and_an_empty_directory_says_what_to_do(cli_run):
    assert cli_run("list").output == "No games yet; `referee new` creates one.\n"
    new(cli_run, "g1", "race", ("ann", "bob"), "--option", "target=2")
    assert cli_run("adjudicate", "g1").exit_code == 0  # ann's default adds 1
    assert cli_run("adjudicate", "g1").exit_code == 0  # bob's reaches 2
    line = rows(cli_run("list").output)["g1"]
    assert line.split()[:4] == ["g1", "race", "over", "won"] and "by bob" in line
    assert "The game is over." in cli_run("status", "g1").output


def test_seat_flags_leave_room_for_other_kinds():
    meta = {"seats": [{"name": "ann"}, {"name": "bob"}],
            "vacations": {"ann": {"start": "2026-03-01T09:00:00Z", "until": "2026-03-09T09:00:00Z"},
                          "bob": {"start": "2026-02-01T09:00:00Z", "until": "2026-02-09T09:00:00Z"}},
            "misses": {"bob": 2}, "offered": ["bob"]}
    flags = seat_flags(meta, START)
    assert [f["flag"] for f in flags["ann"]] == ["vacation"] and not flags["ann"][0]["attention"]
    assert [f["flag"] for f in flags["bob"]] == ["missed", "offered"]
    assert all({"flag", "text", "short", "attention"} <= set(f) for f in flags["bob"])
