"""Every reply shape of the corpus is read exactly: the orders it holds and nothing else, the
quoted report never, and where nothing is taken, an answer that says why."""

import pytest

from .shapes import SHAPES

LANGUAGES = {shape.language for shape in SHAPES}
CLIENTS = {shape.client for shape in SHAPES}


def test_the_corpus_covers_the_languages_and_clients():
    assert {"en", "de", "it", "fr", "es", "nl", "pl", "sv", "da", "ru", "ja"} <= LANGUAGES
    assert {"gmail", "outlook", "outlook-web", "apple", "ios", "samsung", "thunderbird", "yahoo", "windows-mail",
            "mailru", "yandex"} <= CLIENTS
    assert len({shape.id for shape in SHAPES}) == len(SHAPES)


@pytest.mark.parametrize("shape", SHAPES, ids=[shape.id for shape in SHAPES])
def test_shape_is_read_exactly(world, shape):
    report = world.report(shape.game)
    handled = world.read(shape.build(report), report.reply_to)
    assert world.taken(shape.game) == list(shape.taken), (handled, world.answers())
    if shape.taken:
        assert handled.outcome == "accepted"
        text = world.receipt(shape.game)
    else:
        assert handled.outcome == "rejected", handled
        text = world.answers()[-1]
    for part in shape.answer:
        assert part in " ".join(text.split()), text
