"""Every line of the order form says what its order does, in the reader's words: a player
who reads `CAPTAIN <slot>: 6` or `ARISTOCRAT 2 LIGHTHOUSE <+n|-n>` cannot tell what to write
or what happens."""

from __future__ import annotations

import re

import pytest

from games.porto_carthago import GAME
from referee.contract import menu_lines
from referee.i18n.messages import say
from referee.rendering import menu_text

from ..reports.util import positions
from .helpers import at_actions, hold, own_dock, store

ORDER_HEAD = re.compile(r"^[A-Z][A-Z0-9 <>|±+\-]*")


def forms(seed: str, lang: str = "en") -> list[str]:
    """Every menu line asked of anyone over a random game, each as one line of text."""
    out = []
    for state in positions(GAME, 4, seed, every=1):
        for prompt in GAME.prompts(state):
            for line in menu_lines(GAME, state, prompt.player)[0]:
                out.append(" ".join(say(line.text, lang, GAME).split()))
    return out


@pytest.fixture(scope="module")
def english() -> list[str]:
    return forms("menu-words")


def test_no_line_is_a_bare_order(english):
    """Each line says something beyond its order: a line of nothing but the order (`TALENTS`,
    `DONE`, `USE S10`) or of the order and the values it takes (`CAPTAIN <slot>: 6`) leaves
    the player guessing."""
    bare = {line for line in english if ":" not in line}
    assert not bare, sorted(bare)[:5]
    captains = [line for line in english if line.startswith("CAPTAIN")]
    assert captains and all("charter ship" in line for line in captains), captains[:2]
    talents = {line for line in english if line.startswith("TALENTS")}
    assert talents == {"TALENTS: take 3 talents instead of an action card"}, talents  # the component value
    for word, says in (("MERCHANT", "into your storage"), ("PORTER", "carry one good"), ("LOADMASTER", "dock")):
        lines = [line for line in english if line.startswith(word)]
        assert lines and all(says in line.split(":", 1)[0] for line in lines), (word, lines[:2])


def test_the_aristocrat_line_explains_its_signs_with_a_legal_example(english):
    lines = [line for line in english if line.startswith("ARISTOCRAT")]
    assert lines and not [line for line in english if "<+n|-n>" in line]
    for line in lines:
        assert "LIGHTHOUSE <±n> TEMPLE <±n>: +n more of your servants there, -n fewer" in line, line
        example = re.search(r"e\.g\. (ARISTOCRAT \d (?:LIGHTHOUSE [+-]\d)? ?(?:TEMPLE [+-]\d)?);", line)
        assert example, line


def test_a_privilege_kept_for_later_says_what_it_does():
    """USE S05 (P2) and USE S13 (P7) take no more words: the line says the privilege."""
    state = hold(hold(own_dock(store(at_actions(), "Ann", "G1"), "Ann", "C1-I"), "Ann", "S05"), "Ann", "S13")
    state["money"][0] = 40
    text = [" ".join(say(line.text, "en", GAME).split()) for line in menu_lines(GAME, state, "Ann")[0]]
    assert "USE S05: look at the top 3 ship cards and put them back in any order" in text, text
    assert any(line.startswith("USE S13: buy a palace seat ignoring the trade-point minimum") for line in text), text


def test_the_german_form_says_what_the_captain_and_the_aristocrat_do():
    state = at_actions()
    lines = menu_text(GAME, state, GAME.prompts(state)[0].player, width=400, lang="de").now
    captain = next(line for line in lines if line.startswith("KAPITÄN"))
    assert captain.startswith("KAPITÄN <Feld> (ein weiterer deiner Diener besetzt ein freies Charterschiff): ")
    aristocrat = next(line for line in lines if line.startswith("ARISTOKRAT"))
    assert "LEUCHTTURM <±Zahl> TEMPEL <±Zahl>: +n heißt n deiner Diener mehr dort" in aristocrat
    assert re.search(r"z\. B\. ARISTOKRAT \d (?:LEUCHTTURM|TEMPEL) [+-]\d", aristocrat), aristocrat
    assert "<+n|-n>" not in " ".join(lines)
