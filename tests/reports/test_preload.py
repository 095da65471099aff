"""Templates are compiled when the daemon starts, and a broken one is named, not fatal."""

from __future__ import annotations

import jinja2

from mailer.daemon.wiring import build
from referee import rendering
from referee.config import Settings
from referee.i18n import LANGUAGES


def test_every_shipped_template_is_compiled_ahead(monkeypatch):
    assert rendering.preload() == []
    env = rendering.environment()
    assert set(env.list_templates()) >= {"receipt.txt", "report.txt", "report.html"}

    def no_more_reading(*args, **kwargs):
        raise AssertionError("a template was read again after preloading")

    monkeypatch.setattr(env.loader, "get_source", no_more_reading)
    for name in env.list_templates():
        env.get_template(name)


def test_a_broken_template_is_reported_by_name(monkeypatch, tmp_path):
    env = jinja2.Environment(loader=jinja2.DictLoader({"good.txt": "{{ x }}", "bad.txt": "{% if %}"}))
    monkeypatch.setattr(rendering, "environment", lambda lang="en": env)
    broken = rendering.preload()
    assert [b.split(":")[0] for b in broken] == [f"bad.txt ({lang})" for lang in LANGUAGES]
    problems = build(Settings(data_dir=tmp_path)).warm_up()
    assert [p for p in problems if p.startswith("template ")] == [f"template {b}" for b in broken]
