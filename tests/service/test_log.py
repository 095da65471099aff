"""The game record: `referee log` and `referee replay`."""

import json

from referee import registry
from referee.gamelog import link, replay_log, write_log

from .test_submit import new_race, new_simul


def record(store, game_id, **kw):
    stored = store.load(game_id)
    return write_log(stored.meta, stored.events, stored.state, **kw)


def played_simul(ref):
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 3")
    ref.submit("s1", "ann", "PICK 6")           # replaces PICK 3
    ref.submit("s1", "bob", "PICK 6\nDONE")
    ref.undo("s1", 3, "bob asked to resend")     # discards bob's set
    ref.submit("s1", "bob", "PICK 6\nDONE")
    ref.replace("s1", "cy", "cy2@example.org")
    ref.adjudicate("s1")                        # ann DONE, cy PICK 1 DONE
    ref.submit("s1", "ann", "PICK 2\nDONE")
    ref.submit("s1", "bob", "PICK 9")
    ref.submit("s1", "bob", "PICK 1\nDONE")     # replaces PICK 9
    ref.drop("s1", "cy")                        # ends round 2, and the game
    return ref


def test_a_finished_game_replays(ref, store):
    played_simul(ref)
    assert store.load("s1").meta["status"] == "finished"
    text = record(store, "s1")
    lines = text.splitlines()
    assert lines[0] == "REFEREE-LOG 1" and 'seed: "s"' in lines  # no set cancelled another
    kinds = [l.split("\t")[3] for l in lines if "\t" in l and not l.startswith("end")]
    assert kinds == ["order", "order", "undo", "order", "replace", "adjudicate", "default", "default",
                     "order", "order", "order", "drop"]
    assert lines[-1].startswith("end\t")
    result = replay_log(text, registry.get)
    assert result.ok, result.message
    assert result.steps == 9


def test_undone_events_are_not_in_the_record(ref, store):
    new_race(ref)
    ref.submit("r1", "ann", "ADD 1")
    ref.submit("r1", "bob", "ADD 2")
    ref.undo("r1", 2, "bob's order was late")
    ref.submit("r1", "bob", "ADD 3")
    text = record(store, "r1", reveal_seed=True)
    assert '"ADD 2"' not in text and '"ADD 3"' in text
    assert replay_log(text, registry.get).ok


def test_an_edited_line_fails_at_that_line(ref, store):
    played_simul(ref)
    lines = record(store, "s1").splitlines(keepends=True)
    target = next(i for i, l in enumerate(lines) if '"PICK 2\\nDONE"' in l)
    lines[target] = lines[target].replace("PICK 2", "PICK 8")
    result = replay_log("".join(lines), registry.get)
    assert not result.ok and result.line == target + 1 and "hash mismatch" in result.message


def test_an_edited_header_or_end_fails(ref, store):
    played_simul(ref)
    text = record(store, "s1")
    edited = text.replace('options: {"rounds":2}', 'options: {"rounds":3}')
    result = replay_log(edited, registry.get)
    header_lines = text.split("\n\n")[0].count("\n")
    assert not result.ok and "hash mismatch" in result.message
    assert result.line == next(i for i, l in enumerate(text.splitlines(), 1) if "\t" in l)
    lines = text.splitlines()
    lines[-1] = "end\t" + "0" * 64 + "\t" + lines[-1].split("\t")[2]
    assert not replay_log("\n".join(lines) + "\n", registry.get).ok
    assert header_lines >= 0


def test_a_consistent_but_wrong_record_fails_on_the_final_state(ref, store):
    """Rewriting a line and recomputing every later hash still cannot fake the final state."""
    new_race(ref)
    ref.submit("r1", "ann", "ADD 1")
    ref.submit("r1", "bob", "ADD 2")
    lines = record(store, "r1", reveal_seed=True).splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if "\t" in l)
    previous = link("", "".join(lines[:start]))
    for i in range(start, len(lines)):
        body = lines[i].rstrip("\n").rpartition("\t")[0].replace('"ADD 2"', '"ADD 3"')
        previous = link(previous, body)
        lines[i] = f"{body}\t{previous}\n"
    result = replay_log("".join(lines), registry.get)
    assert not result.ok and result.line == len(lines) and "final state" in result.message


def test_an_unfinished_game_needs_the_seed(ref, store):
    new_race(ref)
    ref.submit("r1", "ann", "ADD 1")
    text = record(store, "r1")
    assert "seed:" not in text
    result = replay_log(text, registry.get)
    assert not result.ok and "--seed" in result.message
    assert not replay_log(text, registry.get, seed="wrong").ok
    assert replay_log(text, registry.get, seed="seed-1").ok


def test_custom_components_travel_in_the_header(ref, store):
    ref.new_game("race", [("a", "a@x.org"), ("b", "b@x.org")], seed="q", components={"steps": [5]}, game_id="c1")
    ref.submit("c1", "a", "ADD 5")
    text = record(store, "c1", reveal_seed=True)
    assert 'components: {"steps":[5]}' in text
    assert replay_log(text, registry.get).ok
    stripped = "\n".join(l for l in text.splitlines() if not l.startswith("components:")) + "\n"
    result = replay_log(stripped, registry.get)
    assert not result.ok and "component set" in result.message


def test_log_and_replay_commands(run, tmp_path):
    run("new", "race", "--player", "a:a@x.org", "--player", "b:b@x.org", "--id", "g1", "--seed", "z",
        "--option", "target=3")
    run("orders", "g1", "a", input="ADD 2\n")
    run("orders", "g1", "b", input="ADD 1\n")
    result = run("log", "g1")
    assert result.exit_code == 0
    path = tmp_path / "g1.log"
    path.write_text(result.output)
    ok = run("replay", str(path))
    assert ok.exit_code == 0 and ok.output.startswith("OK:")
    lines = result.output.splitlines(keepends=True)
    n = next(i for i, l in enumerate(lines) if '"ADD 1"' in l)
    lines[n] = lines[n].replace('"ADD 1"', '"ADD 2"')
    path.write_text("".join(lines))
    bad = run("replay", str(path))
    assert bad.exit_code == 1 and f"FAILED: line {n + 1}: hash mismatch" in bad.output
    assert json.loads(run("status", "g1", "--json").output)["status"] == "finished"


def rechain(text: str, first: str) -> str:
    """The record with another first line and every hash recomputed, as a writer would."""
    lines = text.splitlines(keepends=True)
    lines[0] = first + "\n"
    start = next(i for i, l in enumerate(lines) if "\t" in l)
    previous = link("", "".join(lines[:start]))
    for i in range(start, len(lines)):
        body = lines[i].rstrip("\n").rpartition("\t")[0]
        previous = link(previous, body)
        lines[i] = f"{body}\t{previous}\n"
    return "".join(lines)


def cancelling(ref):
    """bob's MATCH relied on ann's pick; her new pick cancels his set."""
    new_simul(ref)
    ref.submit("s1", "ann", "PICK 5")
    ref.submit("s1", "bob", "MATCH ann\nDONE")
    return ref.submit("s1", "ann", "PICK 7").seq


def test_a_record_with_a_cancellation_is_version_2_and_replays(ref, store):
    """A referee that knows only version 1 would refuse ann's new set; the version tells it so
    before it tries."""
    cancelling(ref)
    text = record(store, "s1", reveal_seed=True)
    assert text.startswith("REFEREE-LOG 2\n")
    result = replay_log(text, registry.get)
    assert result.ok and result.steps == 3, result.message


def test_an_undone_cancellation_leaves_the_record_at_version_1(ref, store):
    seq = cancelling(ref)
    ref.undo("s1", seq - 1, "ann sent her change by mistake")
    text = record(store, "s1", reveal_seed=True)
    assert text.startswith("REFEREE-LOG 1\n") and replay_log(text, registry.get).ok


def test_a_version_1_record_with_a_cancellation_still_replays(ref, store):
    """Records written before version 2 existed said 1 whatever they held."""
    cancelling(ref)
    old = rechain(record(store, "s1", reveal_seed=True), "REFEREE-LOG 1")
    result = replay_log(old, registry.get)
    assert result.ok, result.message


def test_an_unknown_version_or_first_line_is_refused_clearly(ref, store):
    cancelling(ref)
    text = record(store, "s1", reveal_seed=True)
    newer = replay_log(rechain(text, "REFEREE-LOG 3"), registry.get)
    assert not newer.ok and newer.line == 1
    assert newer.message.startswith("the record is in format version 3, which this referee cannot read "
                                    "(it reads versions 1 and 2)")
    for first in ("REFEREE-LOG", "REFEREE-LOG two", "GAME-LOG 1"):
        result = replay_log(rechain(text, first), registry.get)
        assert not result.ok and result.line == 1 and result.message.startswith("not a Referee game record")
    assert not replay_log("", registry.get).ok
