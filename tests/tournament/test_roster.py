"""Rosters: CSV and TOML, every problem listed at once."""

from __future__ import annotations

import pytest

from referee.tournament.roster import Entry, RosterError, read_roster


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_csv_roster_with_ratings_and_time_zones(tmp_path):
    path = write(tmp_path, "r.csv", "Name,E-mail,Rating,Time zone\nAnn,ann@club.test,31.5,europe/rome\n"
                 "bob, bob@club.test ,,\n\n")
    assert read_roster(path) == [Entry("ann", "ann@club.test", 31.5, "Europe/Rome"), Entry("bob", "bob@club.test")]


def test_a_toml_roster(tmp_path):
    path = write(tmp_path, "r.toml", '[[player]]\nname = "ann"\nemail = "ann@club.test"\nrating = 20\n'
                 '[[player]]\nname = "bob"\nemail = "bob@club.test"\ntimezone = "UTC"\n')
    assert read_roster(path) == [Entry("ann", "ann@club.test", 20.0), Entry("bob", "bob@club.test", None, "UTC")]


def test_every_problem_is_listed_with_its_line(tmp_path):
    path = write(tmp_path, "r.csv", "name,email,rating,timezone\nann,ann@club.test,,\nAnn,other@club.test,,\n"
                 "bob,ANN@club.test,,\ncid,not-an-address,,\nd e,dee@club.test,,\neve,eve@club.test,lots,\n"
                 "fay,fay@club.test,,Mars/Olympus\n")
    with pytest.raises(RosterError) as caught:
        read_roster(path)
    problems = caught.value.problems
    assert "line 5: bad email address: 'not-an-address' is not an email address" in problems
    assert any(p.startswith("line 6: bad player name 'd e'") for p in problems)
    assert "line 7: rating 'lots' is not a number from 0 to 1000" in problems
    assert any(p.startswith("line 8: ") and "Mars/Olympus" in p for p in problems)
    assert "player name 'ann' is given 2 times in the roster (letter case is ignored)" in problems
    assert "email address 'ann@club.test' is given 2 times in the roster (letter case is ignored)" in problems


@pytest.mark.parametrize("name, text, expected", [
    ("r.csv", "", "is empty"),
    ("r.csv", "name,rating\nann,3\n", "the header has no 'email' column"),
    ("r.csv", "name,email,colour\nann,a@b.test,red\n", "unknown column(s) 'colour'"),
    ("r.csv", "name,email\nann,a@b.test,extra\n", "line 2: 3 cells, but the header names 2 columns"),
    ("r.toml", "[[team]]\nname = 'x'\n", "needs its players as [[player]] tables"),
    ("r.toml", "[[player]\n", "is not valid TOML"),
    ("r.toml", "[[player]]\nname = 'ann'\nemail = 'a@b.test'\nage = 3\n", "unknown key 'age'"),
])
def test_unusable_files_say_why(tmp_path, name, text, expected):
    with pytest.raises(RosterError) as caught:
        read_roster(write(tmp_path, name, text))
    assert expected in str(caught.value)


def test_a_missing_file(tmp_path):
    with pytest.raises(RosterError, match="cannot read the roster"):
        read_roster(tmp_path / "nope.csv")
