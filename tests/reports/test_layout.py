"""Choosing a game's view layout, the generic rows for games without one, the text filters,
and `referee show --as` printing the same text as the report."""

from __future__ import annotations

import random
import textwrap

from click.testing import CliRunner

from commands.main import cli
from games.constantinopolis import GAME as CONSTANTINOPOLIS
from mailer.outbound.reports import GENERIC_VIEW, render_report, report_context, view_partial, view_text
from referee.rendering import columns, nobreak, plural, wrap

from ..race import GAME as RACE
from .util import check_html


class Renamed:
    """A game that is the race game under another name."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attr):
        return getattr(RACE, attr)


def race_state():
    return RACE.setup(["ann", "bob"], "seed", {}, RACE.load_components(None))


def test_a_game_without_its_own_layout_gets_the_generic_rows():
    ctx = report_context(RACE, race_state(), game_id="race-1", player="ann", events=[])
    assert ctx["view_partial"] == GENERIC_VIEW and ctx["rows"]
    text, html = render_report(ctx)
    assert "What you see:\n  players: ann, bob\n" in text and "    ann: " in text
    assert "bob:" not in text.split("Your move")[0]
    assert "<h3>What you see</h3>" in html
    check_html(html)
    assert view_text(RACE, RACE.view(race_state(), "ann"), "ann").startswith("What you see:\n  players: ann, bob\n")


def test_layouts_are_looked_up_by_a_plain_game_name_only():
    assert view_partial(CONSTANTINOPOLIS) == "constantinopolis/view"
    assert view_partial(Renamed("porto-carthago")) == "porto-carthago/view"
    for name in ("../templates/constantinopolis", "constantinopolis/../porto-carthago", "Constantinopolis", "", "race"):
        assert view_partial(Renamed(name)) is None, name


def test_columns_align_text_left_and_figures_right():
    assert columns([["", "gold", "name"], ["ann", 5, "x"], ["bobby", "?", "longer"]], indent=1).splitlines() == [
        "        gold  name",
        " ann       5  x",
        " bobby     ?  longer",
    ]
    assert columns([]) == ""


def test_a_last_cell_that_fits_is_written_as_textwrap_would_write_it():
    """`columns` skips textwrap for a last cell that fits and has no whitespace to change."""
    rng = random.Random(7)
    alphabet = "abcXYZ  -,./()äé\t"
    for _ in range(3000):
        cells = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24))) for _ in range(3)]
        rows = [["head", "last"], *[["x" * rng.randint(1, 30), cell] for cell in cells]]
        width = rng.randint(20, 60)
        with_textwrap = _columns_through_textwrap(rows, width)
        assert columns(rows, width=width) == with_textwrap, (rows, width)


def _columns_through_textwrap(rows, width):
    """`columns` as it was, wrapping every last cell with textwrap."""
    cells = [[str(c) for c in row] for row in rows]
    sizes = [max(len(row[i]) for row in cells) for i in range(2)]
    head = 2 + sizes[0] + 2
    if head + sizes[1] > width:
        sizes[1] = max(width - head, 12)
    lines = []
    for row in cells:
        last = textwrap.wrap(row[1], sizes[1], break_long_words=False) or [""]
        lines.append(("  " + row[0].ljust(sizes[0]) + "  " + last[0]).rstrip())
        lines += [" " * head + more for more in last[1:]]
    return "\n".join(lines)


def test_wrap_keeps_marked_groups_together_and_indents_continuations():
    text = "Buildings: " + ", ".join(nobreak(f"Domus Regia {n} (3 fame)") for n in range(20, 26))
    lines = wrap(text, 2, 4, 40).splitlines()
    assert lines[0] == "  Buildings: Domus Regia 20 (3 fame),"
    assert all(line.startswith("    Domus Regia") for line in lines[1:])
    assert all(len(line) <= 40 for line in lines) and "\u00a0" not in "".join(lines)


def test_plural():
    assert plural(1, "contract") == "1 contract" and plural(0, "card") == "0 cards"
    assert plural(2, "good", "goods") == "2 goods"


def test_show_as_a_player_prints_the_report_layout(tmp_path, race_registered):
    runner = CliRunner()

    def run(*args):
        return runner.invoke(cli, ["--data-dir", str(tmp_path / "data"), *args], catch_exceptions=False)

    made = run("new", "constantinopolis", "--player", "ann:a@x.org", "--player", "bob:b@x.org",
               "--player", "cid:c@x.org", "--id", "c1", "--seed", "s1")
    assert made.exit_code == 0, made.output
    shown = run("show", "c1", "--as", "Bob").output
    assert shown.startswith("c1 as seen by bob:\n\nYour position (bob): ")
    assert "The table\n" in shown
    assert "Players (in turn order; ? = hidden; saved = contracts kept on a trading post)" in shown
    assert "sha256" not in shown and "catalogue" not in shown
    assert run("new", "race", "--player", "ann:a@x.org", "--player", "bob:b@x.org", "--id", "r1").exit_code == 0
    assert "What you see:\n  players: ann, bob\n" in run("show", "r1", "--as", "ann").output
    assert "as seen by the moderator" in run("show", "c1").output
