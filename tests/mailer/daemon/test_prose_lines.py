"""Prose around orders is set aside; an order line never is, and a misspelt one refuses the mail.

Property tests over both games' grammars: any mix of the orders a player may give (as the
grammar prints them, in any letter case) and lines of prose is read as exactly those orders,
with the prose set aside; an order whose keyword has one letter wrong is never set aside.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mailer.daemon.prose_lines import set_aside_prose
from mailer.inbound.prose import is_salutation
from referee import registry
from referee.contract import OrderError

PROSE = [
    "Hi all,", "Hello everyone!", "Thanks, Ann", "Thank you!", "Cheers", "Best regards,", "Viele Grüße",
    "Good luck, all", "Take care", "Dear Bob,", "Here are my orders for this round:",
    "I think Carla is bluffing again, watch the consul.", "Bis bald", "Danke!", "Merci", "С уважением,",
    "Grazie mille", "よろしくお願いします。", "Sorry for the late answer, it was a long week.",
    "Anne-Marie", "P.S. see you on Friday.", ":-)", "Hallo zusammen,", "Pozdrawiam,",
]


def games():
    found = registry.games()
    return [(found[name], name) for name in ("constantinopolis", "porto-carthago")]


def position(game, name):
    state = game.setup(["ann", "bob", "cid"], "prose-seed", {o.name: o.default for o in game.options},
                       game.load_components(None))
    player = game.prompts(state)[0].player
    return state, player


@pytest.mark.parametrize("game, name", games(), ids=lambda x: getattr(x, "name", x))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_orders_are_kept_and_prose_set_aside(game, name, data):
    state, player = position(game, name)
    menu = [game.format(o) for o in game.legal_orders(state, player)]
    orders = data.draw(st.lists(st.sampled_from(menu), min_size=1, max_size=2))
    cased = [data.draw(st.sampled_from([o, o.upper(), o.lower(), o.title()])) for o in orders]
    prose = data.draw(st.lists(st.sampled_from(PROSE), max_size=4))
    lines, rest = [], list(prose)
    for line in cased:  # the orders keep their order, prose before, between and after them
        take = data.draw(st.integers(0, len(rest)))
        lines += rest[:take] + [line]
        rest = rest[take:]
    lines += rest
    kept, aside = set_aside_prose(game, state, player, lines)
    assert sorted(aside) == sorted(p.strip() for p in prose), (lines, aside)
    assert [line for line in kept if line.strip()] == cased
    assert game.parse(state, player, "\n".join(kept)) == game.parse(state, player, "\n".join(cased))


def mutations(word):
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = set()
    for i in range(len(word) + 1):
        for c in letters:
            out.add(word[:i] + c + word[i:])
    for i in range(len(word)):
        out.add(word[:i] + word[i + 1:])
        for c in letters:
            out.add(word[:i] + c + word[i + 1:])
        if i + 1 < len(word):
            out.add(word[:i] + word[i + 1] + word[i] + word[i + 2:])
    return out - {word}


@pytest.mark.parametrize("game, name", games(), ids=lambda x: getattr(x, "name", x))
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_misspelt_order_is_never_set_aside(game, name, data):
    state, player = position(game, name)
    menu = [game.format(o) for o in game.legal_orders(state, player)]
    order = data.draw(st.sampled_from(menu))
    keyword, _, rest = order.partition(" ")
    typo = data.draw(st.sampled_from(sorted(mutations(keyword.lower()))))
    line = f"{typo} {rest}".strip()
    try:
        game.parse(state, player, line)
        return  # the typo made another order the game reads: taken as written, not set aside
    except OrderError:
        pass
    kept, aside = set_aside_prose(game, state, player, ["Hi all,", line, "Thanks,", "Bob"])
    assert line not in aside and line in kept, (line, aside)
    assert "Hi all," in aside, (line, aside)


def test_no_greeting_is_one_letter_from_a_keyword():
    for game, _ in games():
        for keyword in game.keywords:
            for typo in mutations(keyword.lower()):
                assert not is_salutation(typo), (keyword, typo)
