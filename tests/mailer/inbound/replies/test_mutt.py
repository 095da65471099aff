"""Replies composed by mutt (tests/mailer/inbound/replies/mutt/, written by mutt_replies.py) are read
exactly; where mutt is installed they are composed again and must read the same."""

import json
import os

import pytest

from . import mutt_replies
from .mutt_replies import EXPECTED, HERE, VARIANTS

CORPUS = json.loads(EXPECTED.read_text(encoding="utf-8"))


def test_the_committed_corpus_is_every_variant():
    assert sorted(CORPUS) == sorted(f"{variant.name}.eml" for variant in VARIANTS)
    assert all(b"User-Agent: Mutt/" in (HERE / name).read_bytes() for name in CORPUS)


# What the receipt, or the answer to a mail refused, must say besides the orders taken.
SAYS = {
    "en-top": ("Not read as orders: Hi all, Thanks, Bob",),
    "en-block-and-top": ("Your own text holds orders", "take Consul; defend 4"),
    "en-in-block": ("Read from the ORDERS block you edited",),
    "en-untouched": ("Not read as orders: Hi all, I will send my orders tomorrow. Bob", "No orders were found",
                     "the ORDERS block quoted from the referee's mail (as it was sent)"),
}


def check(world, raw: bytes, taken: list[str], name: str) -> None:
    report = world.report("c")
    handled = world.read(raw, report.reply_to)
    assert world.taken("c") == taken, (handled, world.answers())
    assert handled.outcome == ("accepted" if taken else "rejected")
    text = " ".join((world.receipt("c") if taken else world.answers()[-1]).split())
    for part in SAYS.get(name, ()):
        assert part in text, text


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_reply_mutt_composed_is_read_exactly(world, name):
    check(world, (HERE / name).read_bytes(), CORPUS[name], name.removesuffix(".eml"))


def in_ci() -> bool:
    """CI sets CI (.ci/run does); there a missing mail program is a failure, not a skip."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.name for variant in VARIANTS])
def test_mutt_composes_the_same_replies_again(world, variant):
    if not mutt_replies.available():
        message = "mutt is not installed (make install installs it with apt-get as root or through sudo)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    raw = mutt_replies.compose(mutt_replies.report_raw(world), variant)
    assert b"User-Agent: Mutt/" in raw
    check(world, raw, list(variant.taken), variant.name)
