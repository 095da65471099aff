"""Positions from random playthroughs and a strict-enough HTML check for the report tests."""

from __future__ import annotations

from html.parser import HTMLParser

from mailer.outbound.reports import render_report, report_context
from referee.contract import Game, State
from referee.playthrough import play

NAMES = ["ann", "bob", "cid", "dee", "eve"]
VOID = {"br", "meta", "hr", "img"}


def positions(game: Game, players: int, seed: str, every: int, options: dict | None = None) -> list[State]:
    """Every `every`-th position of one random game, and its last."""
    seen: list[State] = []
    pt = play(game, NAMES[:players], seed, options,
              on_step=lambda p: seen.append(p.state) if p.steps % every == 0 else None)
    return [*seen, pt.state]


class _Balance(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1] if self.open else 'nothing'}")
        else:
            self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def check_html(html: str) -> str:
    """Asserts every tag is closed in order; returns the text a reader sees."""
    parser = _Balance()
    parser.feed(html)
    parser.close()
    assert not parser.problems, parser.problems[:5]
    assert not parser.open, parser.open
    return "".join(parser.text)


def mail(game: Game, state: State, player: str) -> tuple[str, str]:
    """The text and HTML parts of `player`'s report on `state`."""
    return render_report(report_context(game, state, game_id="g-1", player=player, events=[]))


def laid_out(game: Game, state: State, player: str) -> tuple[str, str]:
    """The report's text and the HTML's visible text, checked to come from the game's own
    layout (not the generic rows), HTML well formed, no wrapping marks left in the text."""
    ctx = report_context(game, state, game_id="g-1", player=player, events=[])
    assert ctx["view_partial"] == f"{game.name}/view" and ctx["rows"] == []
    text, html = render_report(ctx)
    assert "What you see:" not in text and "\u00a0" not in text
    shown = check_html(html)
    assert f"Your position ({player})" in shown
    return text, shown


def section(text: str, start: str, end: str | None = None) -> str:
    """The lines of `text` from the line starting with `start` up to the one starting with `end`."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    last = next((i for i, line in enumerate(lines) if end and i > first and line.startswith(end)), len(lines))
    return "\n".join(lines[first:last])


def service_at(data_dir, state: State, clock):
    """The service (as the daemon wires it) of a Constantinopolis game `c1` of greg, jen and
    kay, put in `state`, for what a submission's receipt says there."""
    from mailer.daemon.wiring import build
    from referee.config import Settings

    svc = build(Settings(hostname="games.test", data_dir=data_dir), clock=clock)
    svc.referee.new_game("constantinopolis", [(p, f"{p}@players.test") for p in ("greg", "jen", "kay")],
                         seed="case", game_id="c1")
    with svc.store.transaction("c1") as tx:
        tx.set_state(state)
        tx.set_meta(steps=[])
    return svc
