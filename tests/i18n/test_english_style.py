"""The English every other catalogue is translated from reads well: no capital after a
semicolon (a sentence glued to another), no comma splice where a plan lapses; and the
event lines of whole games keep to it too."""

from __future__ import annotations

import re

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from mailer.outbound.reports import grouped
from referee.i18n.catalogues import load, po_path
from referee.playthrough import play

CAPITAL_AFTER_SEMICOLON = re.compile(r"; [A-Z][a-z]")  # `...; You load` (a command such as `; LIST` is fine)
LAPSE_SPLICE = re.compile(r"\blapses,")  # `Your plan ... lapses, you have nothing to donate`


def english_messages() -> list[str]:
    out = []
    for message in load(po_path("en"), "en"):
        if message.id:
            out += list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
    return out


def test_no_message_puts_a_capital_after_a_semicolon():
    found = [m for m in english_messages() if CAPITAL_AFTER_SEMICOLON.search(m)]
    assert not found, found


def test_no_lapse_sentence_is_a_comma_splice():
    lapses = [m for m in english_messages() if "lapses" in m]
    assert lapses  # the lapse sentences are there to be checked
    found = [m for m in lapses if LAPSE_SPLICE.search(m)]
    assert not found, found


@pytest.mark.parametrize("game, seed", [(CONSTANTINOPOLIS, "style-c"), (PORTO, "style-p")])
def test_the_event_lines_of_a_whole_game_keep_sentences_and_players_apart(game, seed):
    players = ["ann", "bob", "cid", "dee"]
    done = play(game, players, seed)
    for reader in players:
        lines = grouped([(e.kind, str(e.text)) for e in done.events if e.visible_to(reader)], players)
        for line in lines:
            assert not CAPITAL_AFTER_SEMICOLON.search(line), line
            echoes = [p for p in players if re.search(rf"(^|; ){p}: ", line)]
            assert len(echoes) <= 1, line  # one line never holds two players' orders
