"""A line near an order word is a misspelt order only when its words fit that order's shape.

Property tests over each game's order words, in English, German and Italian, at positions of a
random game: a near spelling of an order word followed by ordinary words is prose, set aside,
while the orders around it are read; the same near spelling followed by the arguments of a
legal order is kept, and the game refuses it with a suggestion; an order as the game writes it
is read among greetings, names and sign-offs in the languages players write in.
"""

from contextlib import suppress
import functools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mailer.daemon.line_shapes import LineShapes
from mailer.daemon.prose_lines import set_aside_prose
from referee import registry
from referee.contract import OrderError, OrderErrors, menu_lines, order_keywords, order_shapes
from referee.i18n.terms import in_language, localise
from referee.orderlines import fold, folded_names, keyword_match
from referee.playthrough import play

from .test_prose_lines import mutations

NAMES = ("constantinopolis", "porto-carthago")
LANGUAGES = ("en", "de", "it")
# Words of everyday sentences in the languages players write in: none is a name or small word
# of any order (test_ordinary_words_are_no_arguments checks it).
ORDINARY = ["under", "this", "another", "reply", "tomorrow", "weekend", "kids", "coffee", "weather", "really",
            "think", "maybe", "about", "bullets", "heute", "morgen", "Wetter", "Kinder", "vielleicht", "oggi",
            "domani", "bambini", "demain", "enfants", "peut-être", "mañana", "niños", "quizás",
            "morgon", "barnen", "kanske", "jutro", "dzieci", "może", "завтра", "дети", "может", "hilsen", "venlig",
            "Sonya", "Johnson", "Director", "Freight", "Baltic"]
# What follows the orders of a letter, in the languages the referee reads: sign-offs, names, a
# sign-off and a name on one line, a job title under a name.
ENDINGS = [
    ["Best regards,", "Peter"], ["Kh", "Peter"], ["Med venlig hilsen", "Peter Hansen"], ["Viele Grüße", "Dieter"],
    ["Cordiali saluti,", "Paola Rossi"], ["Bien cordialement,", "Pierre"], ["Saludos cordiales,", "Paco"],
    ["Met vriendelijke groet,", "Daan de Vries"], ["Med vänliga hälsningar", "Per"], ["Pozdrawiam,", "Jan"],
    ["С уважением,", "Пётр Иванов"], ["Doei,", "Daan"], ["Con affetto", "Paola"], ["Peter"], ["Stan"],
    ["Sonya Johnson"], ["Groetjes, Pieter"], ["Thanks,", "Bob Miller", "Trade Manager | Example Shipping Ltd"],
]
OPENINGS = [["Thank you,", "Sonya Johnson"], ["Sonya Johnson", "Sales Director, Baltic Freight", "+44 20 7946 0000"],
            ["Peter Miller", "Trade Manager | Example Shipping Ltd"], ["Hi all,"], []]


class _Enough(Exception):
    """Enough lines collected: the game need not be played to its end."""


@functools.lru_cache(maxsize=None)
def positions(name, count=12):
    """States along a random game, a few steps apart, and the player asked in each."""
    game = registry.get(name)
    found = []

    def keep(pt):
        if pt.steps % 7 == 1:
            prompts = game.prompts(pt.state)
            if prompts:
                found.append((pt.state, prompts[0].player))
        if len(found) >= count:
            raise _Enough

    with suppress(_Enough):
        play(game, ["ann", "bob", "cid"], f"prose-shapes-{name}", on_step=keep)
    return game, found


def menu(game, state, player):
    return [game.format(o) for line in menu_lines(game, state, player)[0] for o in line.orders[:4]]


def written(game, lang, line):
    return localise(game, lang, line) if lang != "en" else line


def errors_of(game, state, player, text):
    try:
        game.parse(state, player, text)
    except OrderErrors as exc:
        return list(exc.errors)
    except OrderError as exc:
        return [exc]
    return []


@functools.lru_cache(maxsize=None)
def slips_of(name, lang, keyword):
    """The one-letter slips of *keyword* that read as near an order word, not as one."""
    keywords = folded_names(order_keywords(in_language(registry.get(name), lang)))
    return [s for s in sorted(mutations(fold(keyword))) if keyword_match(s, keywords)[0] in ("close", "prefix")]


def near_spelling(data, name, lang, keyword):
    slips = slips_of(name, lang, keyword)
    assume(slips)
    return data.draw(st.sampled_from(slips))


def each_game_and_language(test):
    """A property test run for each game and language, its cases drawn with `data`."""
    test = given(data=st.data())(test)
    test = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])(test)
    return pytest.mark.parametrize("lang", LANGUAGES)(pytest.mark.parametrize("name", NAMES)(test))


def drawn(data, name, lang):
    """The game as a player of *lang* writes to it, a position, its player asked, the orders
    of their menu in their words, and one of them."""
    game, found = positions(name)
    state, player = data.draw(st.sampled_from(found))
    orders = [written(game, lang, line) for line in menu(game, state, player)]
    assume(orders)
    return in_language(game, lang), state, player, orders, data.draw(st.sampled_from(orders))


@each_game_and_language
def test_a_near_word_and_ordinary_words_is_prose(name, lang, data):
    local, state, player, orders, order = drawn(data, name, lang)
    keyword = data.draw(st.sampled_from(sorted({w.split()[0] for w in orders})))
    slip = near_spelling(data, name, lang, keyword)
    words = data.draw(st.lists(st.sampled_from(ORDINARY), min_size=1, max_size=4))
    line = " ".join([slip.capitalize() if data.draw(st.booleans()) else slip] + words)
    assume(errors_of(local, state, player, line))
    lines = data.draw(st.permutations([order, line]))
    kept, aside = set_aside_prose(local, state, player, ["Hi all,", *lines, "", "Thanks,", "Ann"])
    assert line in aside, (line, kept)
    assert order in kept, (order, aside)


@each_game_and_language
def test_a_near_word_with_the_orders_arguments_is_refused_with_a_suggestion(name, lang, data):
    local, state, player, orders, order = drawn(data, name, lang)
    keyword, _, rest = order.partition(" ")
    slip = near_spelling(data, name, lang, keyword)
    line = f"{slip.upper() if keyword.isupper() else slip} {rest}".strip()
    assume(errors_of(local, state, player, line))  # a slip that makes another order is read as that
    ending = data.draw(st.sampled_from(ENDINGS))
    kept, aside = set_aside_prose(local, state, player, ["Hi all,", line, "", *ending])
    assert line in kept and line not in aside, (line, aside)
    errors = errors_of(local, state, player, "\n".join(kept))
    mine = [e for e in errors if e.line == kept.index(line) + 1]
    assert mine and mine[0].suggestion, (line, [str(e) for e in errors])


@each_game_and_language
def test_an_order_among_greetings_names_and_sign_offs_is_read(name, lang, data):
    local, state, player, orders, order = drawn(data, name, lang)
    opening, ending = data.draw(st.sampled_from(OPENINGS)), data.draw(st.sampled_from(ENDINGS))
    bullet = data.draw(st.sampled_from(["", "- ", "* ", "• "]))
    lines = [*opening, *([""] if opening else []), bullet + order, "", *ending]
    kept, aside = set_aside_prose(local, state, player, lines)
    assert [line for line in kept if line.strip()] == [order], (lines, kept)
    assert aside == [line for line in opening + ending], (lines, aside)
    assert local.parse(state, player, "\n".join(kept)) == local.parse(state, player, order)


@pytest.mark.parametrize("name", NAMES)
def test_ordinary_words_are_no_arguments(name):
    game, found = positions(name)
    for lang in LANGUAGES:
        local = in_language(game, lang)
        state = found[0][0]
        shapes = LineShapes(order_shapes(local, state), folded_names(order_keywords(local)))
        for keyword in set(shapes.keywords.values()):
            for word in ORDINARY:
                assert not shapes.fits(keyword, [word]) or shapes.fits(keyword, []), (lang, keyword, word)


def test_a_slip_that_also_begins_another_order_word_is_refused_with_a_suggestion():
    """"dona" begins "donate", whose goods it lacks, and is one letter off "done", which takes
    none: the line tries to be an order, so the game answers it instead of setting it aside."""
    game, found = positions("constantinopolis")
    state, player = next((s, p) for s, p in found if "done" in menu(game, s, p))
    kept, aside = set_aside_prose(game, state, player, ["Hi all,", "dona", "", "Best regards,", "Peter"])
    assert "dona" in kept and aside == ["Hi all,", "Best regards,", "Peter"], (kept, aside)
    errors = errors_of(game, state, player, "\n".join(kept))
    assert [e.line for e in errors] == [2] and errors[0].suggestion, [str(e) for e in errors]
