"""Parts of the HTML report rendered once and used again (referee/fragments.py): a game's
reports read exactly the same whether each part is rendered afresh or taken from what earlier
reports of the game rendered, for every player, in every language; and the parts are used
again, mail after mail."""

from __future__ import annotations

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.reports import report_context
from referee import rendering
from referee.i18n import LANGUAGES
from referee.playthrough import play


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", [CONSTANTINOPOLIS, PORTO], ids=lambda g: g.name)
def test_a_report_reads_the_same_with_parts_used_again(game, lang):
    states = []
    pt = play(game, ["ann", "bob", "cid"], f"parts-{lang}", on_step=lambda p: states.append(p.state))
    env = rendering.environment(lang)
    parts = env.cached_parts  # type: ignore[attr-defined]
    hits = parts.hits
    for state in states[::3] + [pt.state]:
        for player in ("ann", "bob", "cid"):
            ctx = report_context(game, state, game_id="g-1", player=player, events=[], deadline="soon", lang=lang)
            with_kept = env.get_template("report.html").render(**ctx)  # parts of earlier reports used
            kept = dict(parts._kept)
            parts._kept.clear()
            assert env.get_template("report.html").render(**ctx) == with_kept
            parts._kept.clear()  # back as it was, oldest first, as if never looked behind
            parts._kept.update(kept)
    assert parts.hits > hits
