"""Case files: the shipped examples pass, and a wrong case fails with a readable diff."""

from pathlib import Path

import pytest

from referee import registry
from referee.cases import deep_merge, run_case

CASES = sorted((Path(__file__).parent.parent / "cases").glob("*.toml"))

WRONG = '''
game = "race"
players = ["ann", "bob"]
seed = "x"
[[step]]
player = "ann"
orders = "ADD 2"
expect = { total = 3, "lucky.zed" = 1 }
expect_events = ["won"]
expect_phase = "t0"
[[step]]
player = "bob"
orders = "ADD 1"
expect_error = "illegal"
'''


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_shipped_cases_pass(path, games):
    result = run_case(path.read_text(), registry.get, str(path))
    assert result.ok, "\n".join(result.failures)


def test_a_wrong_case_fails_with_a_diff(games):
    result = run_case(WRONG, registry.get)
    assert not result.ok
    text = "\n".join(result.failures)
    assert "total\n    expected: 3\n    actual:   2" in text
    assert "lucky.zed\n    expected: 1\n    actual:   (missing)" in text
    assert 'events\n    expected: ["won"]\n    actual:   ["added"]' in text
    assert 'phase\n    expected: "t0"\n    actual:   "t1"' in text
    assert "expected an illegal error, but the orders were accepted" in text


@pytest.mark.parametrize("text, needle", [
    ("game = 'race'\nplayers = ['a', 'b']\nseed = 'x'\nexpekt = 1\n", "unknown key(s) expekt"),
    ("game = 'race'\nplayers = ['a', 'b']\n", "needs 'seed'"),
    ("game = 'race'\nplayers = ['a','b']\nseed='x'\n[[step]]\nplayer='a'\norders='ADD 1'\nexpect_eror='x'\n",
     "unknown key(s) expect_eror"),
    ("game = 'rcae'\nplayers = ['a', 'b']\nseed = 'x'\n", "Did you mean 'race'"),
    ("game = [", "not valid TOML"),
])
def test_malformed_cases_are_reported(games, text, needle):
    result = run_case(text, registry.get)
    assert not result.ok and needle in result.failures[0]


def test_state_overrides_merge_deeply():
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 0}
    assert deep_merge(base, {"a": {"b": 5}, "a.c.1": 9, "e": {"f": 1}}) == {
        "a": {"b": 5, "c": [1, 9]}, "d": 0, "e": {"f": 1}}
    assert base["a"]["b"] == 1


def test_simultaneous_cases(games, tmp_path):
    case = '''
game = "simul"
players = ["ann", "bob"]
seed = "x"
[[step]]
player = "ann"
orders = "PICK 3"
[[step]]
player = "ann"
orders = "PICK 7\\nDONE"
expect = { "picks.ann" = 7 }
[[step]]
player = "ann"
orders = "PICK 1"
expect_error = "refused"
expect_message = "your part"
[[step]]
player = "bob"
orders = "PICK 5\\nDONE"
expect = { "score.ann" = 1, round = 2 }
expect_events = ["revealed", "scored"]
[[step]]
player = "bob"
drop = true
expect = { dropped = ["bob"] }
'''
    result = run_case(case, registry.get)
    assert result.ok, result.failures


def test_case_run_command(run, tmp_path):
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(WRONG)
    good = run("case", "run", *map(str, CASES))
    assert good.exit_code == 0, good.output
    assert all(f"PASS {p}" in good.output for p in CASES)
    result = run("case", "run", str(CASES[0]), str(wrong))
    assert result.exit_code == 1
    assert f"PASS {CASES[0]}" in result.output and f"FAIL {wrong}" in result.output
    assert "expected: 3" in result.output and "1 passed, 1 failed" in result.output


SEEN = '''
game = "race"
players = ["ann", "bob", "cy"]
seed = "x"
[[step]]
player = "ann"
orders = "ADD 2"
expect_view = { bob = { total = 2, "lucky.ann" = 1 } }
expect_seen = { bob = ["ann adds 2"] }
expect_unseen = { cy = ["ann adds"] }
expect_menu = { bob = ["ADD 1", "ADD 7"] }
'''


def test_expectations_about_what_a_player_sees(games):
    result = run_case(SEEN, registry.get)
    text = "\n".join(result.failures)
    assert not result.ok and len(result.failures) == 3, text
    assert "bob sees lucky.ann\n    expected: 1\n    actual:   (missing)" in text  # others' luck is hidden
    assert "cy should not see 'ann adds'" in text
    assert "bob's menu lacks 'ADD 7'" in text
    ok = SEEN.replace(', "lucky.ann" = 1', "").replace('expect_unseen = { cy = ["ann adds"] }', "")
    ok = ok.replace('"ADD 1", "ADD 7"', '"ADD 1"')
    assert run_case(ok, registry.get).ok, run_case(ok, registry.get).failures
