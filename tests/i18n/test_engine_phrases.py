"""What the games write to players is written as phrases (`referee.wording`), so that every
player reads it in their language: the events of a report, the question of a prompt, HELP,
the menu lines and the errors of wrong orders, over random games of both titles. A text an
engine writes as a plain English string would reach a German or Italian player in English;
it fails here with the place it came from. The catalogue test then holds each phrase's
template to a translation in every language."""

from __future__ import annotations

import random

import pytest

from games.constantinopolis import GAME as CONSTANTINOPOLIS
from games.porto_carthago import GAME as PORTO
from referee.contract import OrderError, menu_lines
from referee.i18n import LANGUAGES
from referee.i18n.messages import say
from referee.playthrough import play
from referee.wording import Phrase

NAMES = ["ann", "bob", "cid", "dee", "eve"]
WRONG = ["bid", "take", "build", "build Nothing", "buy 99 green", "sell 0 red", "load 999 on ship 9", "raise 99",
         "CAPTAIN 9", "ARISTOCRAT 1 LIGHTHOUSE +9", "LOADMASTER 6 OCCUPY C9-I", "MERCHANT 5 G9", "DOCK S99",
         "PORTER 2 STORAGE G1 TO C1-I", "INTRIGUE 9", "donate purple", "keep 9 green", "accept 99", "ship huge",
         "offer bob give 1 green get 1 blue", "preempt", "allow", "redraw 1", "post", "save 1", "use Nothing",
         "exchange green for green", "trade green green green", "good purple", "stay", "done", "PASS", "REFILL",
         "SIDE 1", "TALENTS", "USE S01", "ARRANGE S01 S02", "REJECT S01", "PALACE", "EXPAND", "DECLINE"]


def _not_phrases(game, players: int, seed: str) -> list[str]:
    found: list[str] = []
    rnd = random.Random(seed)

    def look(pt) -> None:
        state = pt.state
        for event in pt.events[-4:]:
            if not isinstance(event.text, Phrase):
                found.append(f"event {event.kind}: {event.text}")
        for prompt in game.prompts(state):
            if not isinstance(prompt.text, Phrase):
                found.append(f"prompt {prompt.decision}: {prompt.text}")
            if not isinstance(game.help(state, prompt.player), Phrase):
                found.append(f"help {prompt.decision}: {game.help(state, prompt.player)}")
            for line in menu_lines(game, state, prompt.player)[0]:
                if not isinstance(line.text, Phrase):
                    found.append(f"menu {prompt.decision}: {line.text}")
            for wrong in rnd.sample(WRONG, 3):
                try:
                    game.apply(state, prompt.player, game.parse(state, prompt.player, wrong))
                except OrderError as exc:
                    for err in getattr(exc, "errors", [exc]):
                        if not isinstance(err.message, Phrase) and "message" not in err.templates:
                            found.append(f"error {prompt.decision} {wrong!r}: {err.message}")
                        if err.suggestion and not isinstance(err.suggestion, Phrase) \
                                and "suggestion" not in err.templates:
                            found.append(f"suggestion {prompt.decision} {wrong!r}: {err.suggestion}")

    play(game, NAMES[:players], seed, on_step=look)
    return found


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("game", [CONSTANTINOPOLIS, PORTO], ids=lambda g: g.name)
def test_every_text_a_game_writes_is_a_phrase(game, players):
    found = _not_phrases(game, players, f"phrases-{players}")
    assert not found, sorted(set(found))[:12]


@pytest.mark.parametrize("game", [CONSTANTINOPOLIS, PORTO], ids=lambda g: g.name)
def test_a_phrase_reads_the_same_in_english_after_a_trip_through_the_game_file(game):
    """What a report shows an English reader is the game's own text, before and after the
    event is stored and read back."""
    from referee.contract import Event

    pt = play(game, NAMES[:4], "phrases-trip")
    for event in pt.events:
        back = Event.from_json(event.to_json())
        assert back.text == event.text
        for lang in LANGUAGES:
            assert say(back.text, lang, game) == say(event.text, lang, game)
