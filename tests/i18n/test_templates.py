"""Every template renders in every language, through the code that renders it for players:
reports (both games' own layouts and the generic one), receipts of every kind (and a receipt
alone), HELP, HISTORY, reminders, reopened notices, notices, the final standings and the
tournament's mail, table and results page. A template missing from this list fails the test, so a new one is rendered
here too; and a template with text to translate must read differently in German and Italian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.reports import help_text, orders_block, render_report, report_context
from referee.contract import Event
from referee.i18n import LANGUAGES
from referee.i18n.messages import msg
from referee.playthrough import play
from referee.receipts import Receipt
from referee.rendering import environment, render, template_dir
from referee.standings import standings_context
from referee.tournament.texts import results_page, standings_mail, standings_text

from ..race import GAME as RACE
from ..tournament.conftest import finish_round, make_services, roster
from ..service.conftest import games  # noqa: F401

PLAYERS = ["ann", "bob", "cid"]


def _positions(game, players):
    seen = []
    pt = play(game, players, f"templates-{game.name}",
              on_step=lambda p: seen.append(p.state) if p.steps % 7 == 3 else None)
    return [*seen[:4], pt.state], pt


def _game_mail(lang: str) -> dict[str, str]:
    """Text of every game-bound template in `lang`, keyed by template name (the last rendering)."""
    out: dict[str, str] = {}
    for game, players in ((CONSTANTINOPOLIS, PLAYERS), (PORTO, PLAYERS), (RACE, PLAYERS[:2])):
        states, pt = _positions(game, players)
        for state in states:
            for player in players:
                ctx = report_context(game, state, game_id="g-1", player=player,
                                     events=[Event("x", "something happened")], deadline="soon",
                                     notices=["a notice"], lang=lang)
                out["report.txt"], out["report.html"] = render_report(ctx)
                out["help.txt"] = help_text(game, state, game_id="g-1", player=player, deadline="soon",
                                            zone="Europe/Rome", lang=lang)
                phase = game.phase(state)
                common = dict(lang=lang, game_id="g-1", title=game.title, player=player,
                              phase={"key": phase.key, "round": phase.round, "name": phase.name, "when": f"round {phase.round}"},
                              deadline="soon", help=game.help(state, player),
                              block=orders_block(game, state, "g-1", player, lang))
                for brief in (True, False):  # as a part of the player's next mail, and as a mail of its own
                    out["reminder.txt"] = render("reminder.txt", prompt="a prompt", left="2h", brief=brief, **common)
                    out["reopened.txt"] = render("reopened.txt", by="bob", lines=["why"],
                                                 cancelled=["take consul"], brief=brief, **common)
        result = game.result(pt.state)
        assert result is not None
        out["standings.txt"] = render("standings.txt", lang=lang, title=game.title,
                                      standings=standings_context(game, result))
    for brief in (True, False):
        out["notice.txt"] = render("notice.txt", lang=lang, game_id="g-1", title="A game", lines=["one", "", "two"],
                                   reason="because", brief=brief, subject="News")
    for receipt in _receipts(lang):
        out["receipt.txt"] = receipt.render()
        out["receipt.txt"] += receipt.render(brief=True) + receipt.render(brief=True, plan_left="spent") + \
            receipt.render(brief=True, plan_left="over")
    footer = dict(setting="NOTIFY turn", footer="mail when asked", language="English")
    out["received.txt"] = "".join(  # a receipt alone: nothing more asked, or asked still
        render("received.txt", lang=lang, game_id="g-1", title="A game", player="ann",
               phase={"round": 1, "name": "Donate goods", "when": "round 1"}, parts=[{"text": "Accepted (Donate goods): pass."}],
               asked=asked, waiting=["bob"], when="when you are asked", plan=plan, **footer)
        for asked, plan in (("", []), ("a prompt", ["donation: pass"])))
    out["plan.txt"] = render("plan.txt", lang=lang, plan=["donation: pass"])
    out["history.txt"] = "".join(
        render("history.txt", lang=lang, game_id="g-1", title="A game", player="ann",
               phase={"round": 1, "name": "Donate goods", "when": "round 1"}, events=events, **footer)
        for events in ([], ["ann passes."]))
    out["history.txt"] += render("history.txt", lang=lang, game_id="g-1", title="A game", player="ann",
                                 phase={"round": 1, "name": "Donate goods", "when": "round 1"}, events=[], talk="Table talk\n", **footer)
    out.update(_press(lang))
    return out


def _press(lang: str) -> dict[str, str]:
    """Table talk to a reader (at once, as a part of the next mail, a moderator's notice), the
    sender's receipt, and the answer to HISTORY."""
    out = {"press.txt": ""}
    for sender, everyone, brief in (("ann", True, False), ("ann", False, True), (None, True, False)):
        out["press.txt"] += render("press.txt", lang=lang, game_id="g-1", sender=sender, reader="bob",
                                   readers=["bob", "cid"], everyone=everyone, text="Hello", attachments=["plan.pdf"],
                                   at="now", answer="g-1+bob+9a@h", answer_all="g-1+bob+9b@h", brief=brief)
    notes = [msg("{where}: table talk to {audience}, sent to {names}.", where=msg("Lines {first}-{last}", first=1,
                                                                               last=3),
                 audience=msg("everyone"), names="bob, cid")]
    out["press-receipt.txt"] = "".join(render("press-receipt.txt", lang=lang, game_id="g-1", player="ann",
                                              notes=notes, sent=sent) for sent in (True, False))
    pieces = [dict(at="now", **piece) for piece in ({"from": "ann", "to": ["bob", "cid"], "all": True, "text": "Hi"},
                                                    {"from": "bob", "to": ["ann"], "all": False, "text": "a\nb"},
                                                    {"from": "ann", "to": ["bob"], "all": False, "text": "c"},
                                                    {"from": "cid", "to": ["ann", "bob"], "all": True, "text": "d"},
                                                    {"from": None, "to": ["ann", "bob"], "all": True, "text": "e"})]
    out["press-history.txt"] = "".join(render("press-history.txt", lang=lang, game_id="g-1", player="ann",
                                              pieces=shown, earlier=earlier)
                                       for shown, earlier in ((pieces, 2), ([], 0)))
    return out


def _receipts(lang: str) -> list[Receipt]:
    phase = {"key": "r1-x-0", "round": 1, "name": "Donate goods", "when": "round 1"}
    base = dict(game="g-1", player="ann", phase=phase, at="2026-03-02T09:00:00Z", language=lang)
    nxt = {"resolved": False, "finished": False, "phase": phase, "waiting_for": ["bob"], "text": "waiting"}
    return [
        Receipt("accepted", echo=["take consul", "pass"], added=["pass"], removed=["bid consul 2"], first_set=False,
                events=["ann takes the consul"], next=nxt, seq=4, deadline="phase r1-x-0: soon", **base),
        Receipt("accepted", echo=["take consul"], first_set=True, next=nxt, seq=3, **base),
        Receipt("accepted", echo=["take consul", "donation: pass"], planned=["", "plan"], first_set=True, next=nxt,
                seq=5, **base),
        Receipt("accepted", echo=["take consul"], first_set=True, next=nxt, seq=3,
                talk=[msg("Line {first} was read as orders.", first=4)], **base),
        Receipt("accepted", echo=["donation: pass"], planned=["plan"], first_set=True, next=nxt, seq=6, **base),
        Receipt("rejected", errors=[{"class": "invalid", "line": 2, "text": "nimmm", "message": "no order",
                                     "suggestion": "did you mean take?"},
                                    {"class": "illegal", "line": None, "text": None, "message": "not now",
                                     "suggestion": None}],
                menu=["take <office>", "pass"], next=nxt, **base),
        Receipt("refused", reason="the game is over", **base),
        Receipt("duplicate", echo=["take consul"], seq=3, **dict(base, phase=None)),
    ]


def _tournament_mail(lang: str, games, data: Path) -> dict[str, str]:  # noqa: F811
    svc = make_services(data)
    org = svc.tournaments
    made = org.create("cup", "race", roster(4), rounds=1, table_size="2", language=lang)
    finish_round(svc, "cup")
    t, table = org.standings("cup")
    assert made and t.complete
    subject, mail = standings_mail(t, table, t.rounds[-1], "ann")
    return {"tournament/mail.txt": mail, "tournament/standings.txt": standings_text(t, table, lang),
            "tournament/results.html": results_page(t, table), "subject": subject}


def test_every_template_renders_in_every_language(games, tmp_path):  # noqa: F811
    by_lang = {}
    for lang in LANGUAGES:
        by_lang[lang] = {**_game_mail(lang), **_tournament_mail(lang, games, tmp_path / lang)}
    # every top-level template is rendered above (partials and macros through them)
    partials = {"view-rows.txt", "view-rows.html"} | {n for n in environment().list_templates()
                                                     if re.match(r"[a-z-]+/(view|macros)\.", n)}
    # the sign-up desk's answers are rendered in tests/signups/test_desk_languages.py
    partials |= {n for n in environment().list_templates() if n.startswith("signup/")}
    # the moderator's tables (`referee show`) are English, rendered in tests/reports/test_moderator_table.py
    partials |= {n for n in environment().list_templates() if n.endswith("/moderator.txt")}
    assert set(environment().list_templates()) - partials <= set(by_lang["en"]), \
        sorted(set(environment().list_templates()) - partials - set(by_lang["en"]))
    marked = {name for name in by_lang["en"] if name != "subject" and
              re.search(r"{%-? *trans|_\(", (template_dir() / name).read_text(encoding="utf-8"))}
    for lang in LANGUAGES:
        if lang == "en":
            continue
        for name in marked:
            assert by_lang[lang][name] != by_lang["en"][name], f"{name} reads the same in {lang} as in English"
    assert by_lang["de"]["subject"] == "[cup] Endstand" and by_lang["it"]["subject"] == "[cup] Classifica finale"
