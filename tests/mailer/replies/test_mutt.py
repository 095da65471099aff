"""Replies composed by mutt (tests/mailer/replies/mutt/, written by mutt_replies.py) are read
exactly; where mutt is installed they are composed again and must read the same."""

import json

import pytest

from . import mutt_replies
from .mutt_replies import EXPECTED, HERE, VARIANTS

CORPUS = json.loads(EXPECTED.read_text(encoding="utf-8"))


def test_the_committed_corpus_is_every_variant():
    assert sorted(CORPUS) == sorted(f"{variant.name}.eml" for variant in VARIANTS)
    assert all(b"User-Agent: Mutt/" in (HERE / name).read_bytes() for name in CORPUS)


def check(world, raw: bytes, taken: list[str]) -> None:
    report = world.report("c")
    handled = world.read(raw, report.reply_to)
    assert world.taken("c") == taken, (handled, world.answers())
    assert handled.outcome == ("accepted" if taken else "rejected")


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_reply_mutt_composed_is_read_exactly(world, name):
    check(world, (HERE / name).read_bytes(), CORPUS[name])


@pytest.mark.skipif(not mutt_replies.available(), reason="mutt is not installed (make test installs it where it can)")
@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.name for variant in VARIANTS])
def test_mutt_composes_the_same_replies_again(world, variant):
    raw = mutt_replies.compose(mutt_replies.report_raw(world), variant)
    assert b"User-Agent: Mutt/" in raw
    check(world, raw, list(variant.taken))
