"""The moderator's command line on a real data directory."""

import json

import pytest


def new(run, *extra, players=("ann", "bob"), game="race", gid="g1"):
    args = ["new", game, *[f"--player={p}:{p}@example.org" for p in players], "--id", gid, "--seed", "s1", *extra]
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result


def tokens(output):
    return dict(line.split()[:2] for line in output.splitlines() if line.startswith("  "))


def test_new_prints_id_tokens_and_commitment(run):
    result = new(run, "--option", "target=5")
    assert "Created game g1 (race)." in result.output
    assert "Seed commitment (SHA-256): " in result.output and "s1" not in result.output.replace("g1", "")
    assert set(tokens(result.output)) == {"ann", "bob"}
    data = json.loads(run("new", "race", "--player", "a:a@x.org", "--player", "b:b@x.org", "--json").output)
    assert data["id"] == "race-1" and len(data["players"][0]["token"]) == 16


@pytest.mark.parametrize("args, needle", [
    (["new", "rcae", "--player", "a:a@x.org", "--player", "b:b@x.org"], "Did you mean 'race'"),
    (["new", "race", "--player", "a:a@x.org"], "2-4 players"),
    (["new", "race", "--player", "a:a@x.org", "--player", "A:b@x.org"], "more than once"),
    (["new", "race", "--player", "a:a@x.org", "--player", "b:b@x.org", "--option", "goal=3"], "no option 'goal'"),
    (["new", "race", "--player", "a:a@x.org", "--player", "b:b@x.org", "--option", "target"], "KEY=VALUE"),
    (["new", "race", "--player", "a", "--player", "b:b@x.org"], "NAME:EMAIL"),
])
def test_new_refuses_bad_input_and_creates_nothing(run, args, needle):
    result = run(*args)
    assert result.exit_code == 2 and needle in result.output
    assert "Traceback" not in result.output
    assert json.loads(run("list", "--json").output) == []


def test_new_with_a_component_file(run, tmp_path):
    good = tmp_path / "steps.json"
    good.write_text('{"steps": [2, 4]}')
    bad = tmp_path / "bad.toml"
    bad.write_text("steps = [0]\n")
    result = run("new", "race", "--player", "a:a@x.org", "--player", "b:b@x.org", "--components", str(bad))
    assert result.exit_code == 2 and "components: steps must be" in result.output
    new(run, "--components", str(good))
    assert json.loads(run("show", "g1", "--json").output)["steps"] == [2, 4]


def test_orders_status_show_list_and_history(run):
    made = new(run)
    token = tokens(made.output)["ann"]
    result = run("orders", "g1", "ann", "--token", token, input="ADD 2\n")
    assert result.exit_code == 0 and "Understood as:\n  ADD 2" in result.output
    status = run("status", "g1")
    assert "Round 1, add (phase t1)" in status.output and "Waiting for bob" in status.output
    assert "Deadline: " in status.output and " UTC" in status.output  # the standard preset: two days
    info = json.loads(run("status", "g1", "--json").output)
    assert info["waiting_for"][0]["player"] == "bob" and info["deadline"]["phase"] == "t1" and info["seed"] is None
    mine = json.loads(run("show", "g1", "--as", "ann", "--json").output)
    assert list(mine["lucky"]) == ["ann"]
    assert set(json.loads(run("show", "g1", "--json").output)["lucky"]) == {"ann", "bob"}
    assert "as seen by the moderator" in run("show", "g1").output
    assert run("show", "g1", "--as", "zed").exit_code == 1
    rows = json.loads(run("list", "--json").output)
    assert [r["id"] for r in rows] == ["g1"]
    assert "g1" in run("list").output
    history = run("history", "g1")
    assert "ann orders in t0: ADD 2, opened t1" in history.output
    assert [e["type"] for e in json.loads(run("history", "g1", "--json").output)] == ["created", "order"]


def test_orders_from_a_file_and_json_receipt(run, tmp_path):
    new(run)
    path = tmp_path / "orders.txt"
    path.write_text("ADD 3\n")
    result = run("orders", "g1", "ann", "--file", str(path), "--json")
    assert result.exit_code == 0 and json.loads(result.output)["echo"] == ["ADD 3"]


def test_rejected_and_refused_orders_exit_1(run):
    new(run)
    data = run.data / "games" / "g1.json"
    before = data.read_bytes()
    bad = run("orders", "g1", "ann", input="ADD 5\nhop\n")
    assert bad.exit_code == 1 and "line 2 [invalid]" in bad.output and "suggestion: e.g. ADD 2" in bad.output
    wrong = run("orders", "g1", "ann", "--token", "x", input="ADD 1\n")
    assert wrong.exit_code == 1 and "not right" in wrong.output
    stale = run("orders", "g1", "ann", "--phase", "t7", input="ADD 1\n")
    assert stale.exit_code == 1 and "now open is add (round 0, phase t0)" in stale.output
    assert data.read_bytes() == before
    first = run("orders", "g1", "ann", "--message-id", "m1", input="ADD 1\n")
    again = run("orders", "g1", "ann", "--message-id", "m1", input="ADD 1\n")
    assert first.exit_code == again.exit_code == 0 and "Already processed" in again.output


def test_unknown_game_is_a_clear_error(run):
    for args in (["status", "nope"], ["orders", "nope", "ann"], ["history", "nope"], ["undo", "nope", "--to", "1",
                                                                                       "--reason", "x"]):
        result = run(*args, input="")
        assert result.exit_code == 1 and "no game 'nope'" in result.output, args
        assert "Traceback" not in result.output


def test_adjudicate_undo_replace_drop(run):
    new(run, players=("ann", "bob", "cy"), game="simul")
    run("orders", "g1", "ann", input="PICK 4\nDONE\n")
    result = run("adjudicate", "g1")
    assert result.exit_code == 0
    assert "default for bob: PICK 1 | DONE" in result.output and "Now open: pick (round 2, phase r2)" in result.output
    undo = run("undo", "g1", "--to", "2", "--reason", "too early")
    assert undo.exit_code == 0 and "Now open: pick (round 1, phase r1)" in undo.output
    assert "undo to event 2: too early" in run("history", "g1").output
    assert run("undo", "g1", "--to", "50", "--reason", "x").exit_code == 1
    replaced = run("replace", "g1", "bob", "--email", "bobby@example.org")
    assert replaced.exit_code == 0 and "new token:" in replaced.output
    dropped = run("drop", "g1", "cy")
    assert dropped.exit_code == 0 and "cy leaves the game." in dropped.output


def test_drop_refused_by_the_game(run):
    new(run)
    result = run("drop", "g1", "bob")
    assert result.exit_code == 1 and "players cannot leave a race" in result.output


def test_store_busy_exits_75(run, monkeypatch):
    from referee.store import StoreBusy, TinyDBStore

    new(run)

    def busy(self, game_id):
        raise StoreBusy("g1.json is locked by another process; try again")

    monkeypatch.setattr(TinyDBStore, "load", busy)
    result = run("status", "g1")
    assert result.exit_code == 75 and "locked" in result.output


def test_an_unexpected_failure_is_one_line(run, monkeypatch):
    from referee.service import Referee

    new(run)

    def broken(self, game_id):
        raise KeyError("turn")

    monkeypatch.setattr(Referee, "status", broken)
    result = run("status", "g1")
    assert result.exit_code == 70 and "unexpected failure while working on game g1 (KeyError" in result.output
    assert "Traceback" not in result.output
