"""The order shapes the games describe fit every order a player may give, so that an order
whose keyword is misspelt is always answered as an order; and lines of ordinary words fit none."""

import pytest

from mailer.daemon.line_shapes import MAX_WORDS, LineShapes
from referee import registry
from referee.contract import menu_lines, order_keywords, order_shapes, plan_template, standing_plan
from referee.i18n.terms import in_language, localise
from referee.orderlines import fold, folded_names, section_of
from referee.playthrough import play

NAMES = ("constantinopolis", "porto-carthago")


def shapes_of(game, state):
    return LineShapes(order_shapes(game, state), folded_names(order_keywords(game)))


def lines_of_a_game(name, seed, players=3):
    """Every line a player could send at every step of a random game: the menu's orders, the
    plan lines offered and those standing, as the game writes them."""
    game = registry.get(name)
    seen: list[tuple[dict, str]] = []

    def collect(pt):
        for prompt in game.prompts(pt.state):
            player = prompt.player
            texts = [game.format(o) for line in menu_lines(game, pt.state, player)[0] for o in line.orders[:6]]
            texts += [line.lstrip("# ").strip() for line in plan_template(game, pt.state, player)]
            texts += standing_plan(game, pt.state, player)
            seen.extend((pt.state, text) for text in texts if text and "<" not in text)

    play(game, ["ann", "bob", "cid", "dee"][:players], seed, on_step=collect, max_steps=400 if name == "porto-carthago"
         else 100_000)
    return game, seen


@pytest.mark.parametrize("name", NAMES)
def test_every_order_a_player_may_give_fits_its_shape(name):
    game, seen = lines_of_a_game(name, "shapes-1")
    assert len(seen) > 200
    checked = 0
    for state, text in seen:
        shapes = shapes_of(game, state)
        head, rest = section_of(text)
        if head is not None:
            assert shapes.keywords.get(fold(head)) and shapes.fits_order(rest.split()), text
        else:
            words = text.split()
            keyword = shapes.keywords.get(fold(words[0]))
            assert keyword is not None and shapes.fits(keyword, words[1:]), (keyword, text)
        checked += 1
    assert checked == len(seen)


@pytest.mark.parametrize("lang", ["de", "it"])
@pytest.mark.parametrize("name", NAMES)
def test_an_order_in_the_players_words_fits_its_shape(name, lang):
    game, seen = lines_of_a_game(name, "shapes-2")
    local = in_language(game, lang)
    for state, text in seen[:300]:
        shapes = shapes_of(local, state)
        written = localise(game, lang, text)
        if section_of(written)[0] is not None:
            continue
        words = written.split()
        keyword = shapes.keywords.get(fold(words[0]))
        assert keyword is not None and shapes.fits(keyword, words[1:]), (text, written)


PROSE_AFTER = ["under this.", "another reply!", "venlig hilsen", "how about bullets", "is coming tomorrow",
               "Director, Baltic Freight", "and the kids say hello", "mir geht es gut", "tutto bene qui"]


@pytest.mark.parametrize("name", NAMES)
def test_ordinary_words_fit_no_order(name):
    game = registry.get(name)
    state = game.setup(["ann", "bob", "cid"], "shapes", {}, game.load_components(None))
    shapes = shapes_of(game, state)
    for keyword in set(shapes.keywords.values()):
        for words in PROSE_AFTER:
            assert not shapes.fits(keyword, words.split()), (keyword, words)


def test_a_line_of_too_many_words_is_no_order():
    game = registry.get("constantinopolis")
    state = game.setup(["ann", "bob", "cid"], "shapes", {}, game.load_components(None))
    shapes = shapes_of(game, state)
    assert shapes.fits("keep", ["green"] * MAX_WORDS)
    assert not shapes.fits("keep", ["green"] * (MAX_WORDS + 1))


@pytest.mark.parametrize("name", NAMES)
def test_every_order_keyword_has_a_shape(name):
    """A keyword without a shape fits any words, so prose beginning with it ("withdraw under
    this") would be answered as an order gone wrong: each keyword a game reads has one."""
    game = registry.get(name)
    state = game.setup(["ann", "bob", "cid"], "shapes", {}, game.load_components(None))
    shapes = order_shapes(game, state)
    missing = sorted(set(order_keywords(game).values()) - set(shapes))
    assert not missing
