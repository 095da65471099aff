"""What holds for every game's layout: short, narrow, plain text unescaped, HTML escaped."""

from __future__ import annotations

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO_CARTHAGO
from mailer.outbound.reports import render_report, report_context, view_text
from referee.contract import Event, State
from referee.i18n import LANGUAGES
from referee.playthrough import play

from .util import NAMES, check_html, positions

GAMES = [CONSTANTINOPOLIS, PORTO_CARTHAGO]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_five_player_report_stays_short_and_narrow(game):
    longest = 0
    for seed in ("short-1", "short-2"):
        for state in positions(game, 5, seed, 7):
            for player in state["players"]:
                lines = view_text(game, game.view(state, player), player).splitlines()
                longest = max(longest, len(lines))
                assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert 40 < longest < 120


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_line_of_a_whole_report_fits_78_columns_in_every_language(game, lang):
    """The whole text part, not only the view: what happened (the game's own events), what is
    asked, the ORDERS block with its menu and plan template, and the footer, in German and
    Italian too, whose words run longer."""
    seen: list[tuple[State, list[Event]]] = []
    pt = play(game, NAMES[:5], f"narrow-{lang}",
              on_step=lambda p: seen.append((p.state, p.events[-12:])) if p.steps % 9 == 4 else None)
    wide = []
    for state, events in [*seen, (pt.state, pt.events[-12:])]:
        for player in state["players"]:
            text, _ = render_report(report_context(game, state, game_id="g-1", player=player, events=events,
                                                   deadline="Tue 1 Dec 2026 19:00 UTC; grace until 20:00",
                                                   lang=lang, players=state["players"]))
            wide += [line for line in text.splitlines() if len(line) > 78]
    assert not wide, sorted(set(wide), key=len)[-3:]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_text_stays_plain_and_html_escapes(game):
    state = game.setup(["<ann>", "bob&co", "cid"], "esc", {}, game.load_components(None))
    ctx = report_context(game, state, game_id="g-1", player="<ann>", events=[Event("x", "bob&co bids <5>")])
    text, html = render_report(ctx)
    assert ctx["view_partial"] == f"{game.name}/view"
    assert "Your position (<ann>)" in text and "bob&co" in text and "&amp;" not in text
    assert "&lt;ann&gt;" in html and "bob&amp;co" in html and "<ann>" not in html
    assert "bob&amp;co bids &lt;5&gt;" in html
    assert "Your position (<ann>)" in check_html(html)
