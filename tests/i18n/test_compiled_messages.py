"""Messages translated when a template is compiled (referee/i18n/compiled.py), constant or
with values, read exactly as Jinja's own gettext would write them at each rendering: reports
of both games in every language, text and HTML, the same with the extension and without it,
values escaped in HTML as gettext escapes them."""

from __future__ import annotations

import pytest
from jinja2 import Environment, StrictUndefined

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.reports import report_context
from referee import rendering
from referee.fragments import CachedParts
from referee.i18n import LANGUAGES, translations
from referee.playthrough import play


def _plain(lang: str) -> Environment:
    fast = rendering.environment(lang)
    env = Environment(loader=fast.loader, undefined=StrictUndefined, autoescape=fast.autoescape,
                      keep_trailing_newline=True, extensions=["jinja2.ext.do", "jinja2.ext.i18n", CachedParts])
    env.globals["lang"] = lang
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters.update(fast.filters)
    return env


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", [CONSTANTINOPOLIS, PORTO], ids=lambda g: g.name)
def test_reports_read_the_same_with_messages_translated_at_compile_time(game, lang):
    states = []
    pt = play(game, ["ann", "bob", "cid"], f"compiled-{lang}",
              on_step=lambda p: states.append(p.state) if p.steps % 17 == 5 else None)
    fast, plain = rendering.environment(lang), _plain(lang)
    for state in states[:6] + [pt.state]:
        for player in ("ann", "bob", "cid"):
            ctx = report_context(game, state, game_id="g-1", player=player, events=pt.events[:5],
                                 deadline="soon", lang=lang)
            for name in ("report.txt", "report.html"):
                assert fast.get_template(name).render(**ctx) == plain.get_template(name).render(**ctx), name


def test_a_constant_message_is_a_string_in_the_compiled_template():
    env = rendering.environment("de")
    source = env.compile(env.loader.get_source(env, "report.txt")[0], "report.txt", raw=True)
    assert "Seit deiner letzten Mail:" in source  # no gettext call left for it


def test_a_message_with_values_is_the_translation_formatted_in_place():
    env = rendering.environment("de")
    source = env.compile(env.loader.get_source(env, "porto-carthago/view.html")[0], "porto-carthago/view.html",
                         raw=True)
    assert "Markup('Intrigepfad: %(path)s.') %" in source  # translated once, formatted at each rendering


@pytest.mark.parametrize("escaped", [True, False])
def test_values_are_escaped_as_gettext_escapes_them(escaped):
    text = '{{ _("Unchanged, not shown: %(parts)s.", parts=x | join(", ")) }}|{{ _("Talents") }}|{{ _("100%% sure") }}'
    outputs = []
    for fast in (True, False):
        env = rendering.environment("de") if fast else _plain("de")
        env = env.overlay(autoescape=escaped)
        outputs.append(env.from_string(text).render(x=["<a>", "b&c"]))
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("Unverändert, nicht gezeigt: " + ("&lt;a&gt;, b&amp;c." if escaped else "<a>, b&c."))
