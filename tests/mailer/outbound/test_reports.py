"""Reports: one context for text and HTML, only what the player may see, a block to reply with."""

from mailer.outbound.reports import orders_block, render_report, report_context, report_subject, view_rows
from referee.contract import Event

from ...race import GAME


def state():
    return GAME.setup(["ann", "bob"], "seed", {}, GAME.load_components(None))


def test_report_shows_own_view_events_and_a_prefilled_block():
    ctx = report_context(GAME, state(), game_id="race-1", player="ann",
                         events=[Event("added", "bob adds <2>"), Event("secret", "only bob", to=("bob",))])
    text, html = render_report(ctx)
    assert "bob adds <2>" in text and "only bob" not in text
    assert "bob adds &lt;2&gt;" in html and "only bob" not in html
    assert "ORDERS race-1 t0" in text and "\nEND\n" in text
    assert "# ADD 1" in text
    assert report_subject(ctx) == "[race-1] Your move: round 0, add"  # no deadline set: none in the subject
    assert report_subject(dict(ctx, due="Sat 28 Nov 17:05 UTC")) == \
        "[race-1] Your move: round 0, add (by Sat 28 Nov 17:05 UTC)"
    assert report_subject(dict(ctx, due="Sat 28 Nov 17:05 UTC"), reminder="5h") == \
        "[race-1] Your move (reminder, 5h left): round 0, add (by Sat 28 Nov 17:05 UTC)"
    assert report_subject(dict(ctx, prompt=None)) == "[race-1] Round 0 – add"  # a mail that asks nothing


def test_another_players_secret_does_not_reach_the_report():
    s1, s2 = state(), state()
    s2["lucky"]["bob"] = (s1["lucky"]["bob"] % 9) + 1
    a = render_report(report_context(GAME, s1, game_id="g", player="ann", events=[]))
    b = render_report(report_context(GAME, s2, game_id="g", player="ann", events=[]))
    assert a == b


def test_player_not_asked_gets_no_block():
    ctx = report_context(GAME, state(), game_id="race-1", player="bob", events=[])
    text, _ = render_report(ctx)
    assert "ORDERS" not in text and "waiting for ann" in text
    assert orders_block(GAME, state(), "race-1", "bob") == ["ORDERS race-1 t0", "END"]


def test_view_rows_flatten_nested_values():
    rows = view_rows({"gold": 3, "hand": [1, 2], "ships": [{"size": "small"}], "none": None, "flag": True})
    assert [(r.depth, r.label, r.value) for r in rows] == [
        (0, "gold", "3"), (0, "hand", "1, 2"), (0, "ships", ""), (1, "#1", ""), (2, "size", "small"),
        (0, "none", "-"), (0, "flag", "yes"),
    ]
