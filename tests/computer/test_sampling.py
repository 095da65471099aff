"""Worlds sampled from a player's view (Game.sample) are worlds that player cannot tell from
the real one: at positions of random games of both titles, for every player, the sampled
world shows exactly the same view, offers the player the same menu when asked, and is a
sound position (the engine's invariants hold); also with the others' ships open and after a
player left."""

from __future__ import annotations

import random

import pytest

from referee import registry
from referee.contract import canonical_json, sample_world

GAMES = 6  # per title
EVERY = 3  # a position looked at every this many steps
DROP_AT = 10  # in a game with the dropout option, the last player leaves at this step
OPTIONS = {"constantinopolis": [{}, {"free_trade": True}, {"public_gold": True}, {"market_reshuffle": "facedown"},
                                {"ships_public": True}, {"dropout": True}],
           "porto-carthago": [{}, {"final_arrival": "lighthouse"}]}
NAMES = ["ann", "bob", "cid", "dee", "eve"]


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_a_sampled_world_shows_the_same_view_and_menu(name):
    game = registry.get(name)
    components = game.load_components(None)
    looked = 0
    for n in range(GAMES):
        rng = random.Random(f"sampling {name} {n}")
        players = NAMES[:max(game.min_players, 2 + n % 4)][:game.max_players]
        options = OPTIONS[name][n % len(OPTIONS[name])]
        state = game.setup(players, f"sample-{n}", options, components)
        step = 0
        while game.prompts(state):
            step += 1
            if step % EVERY == 0:
                asked = {p.player for p in game.prompts(state)}
                for me in players:
                    view = game.view(state, me)
                    world = sample_world(game, view, components, random.Random(f"{n}/{step}/{me}"))
                    assert canonical_json(game.view(world, me)) == canonical_json(view), (name, n, step, me)
                    assert game.check(world) == [], (name, n, step, me, game.check(world))
                    if me in asked:
                        assert [game.format(o) for o in game.legal_orders(world, me)] == \
                            [game.format(o) for o in game.legal_orders(state, me)], (name, n, step, me)
                    looked += 1
            if options.get("dropout") and step == DROP_AT:  # a leaver, whose pieces go next round
                state, _ = game.drop(state, players[-1])
                continue
            prompts = game.prompts(state)
            prompt = rng.choice(prompts) if prompts[0].simultaneous else prompts[0]
            menu = game.legal_orders(state, prompt.player)
            state, _ = game.apply(state, prompt.player, [rng.choice(menu)])
    assert looked > 300


def test_the_hidden_parts_are_drawn_not_copied():
    """Two draws from one view differ where the view hides something (the deck's order,
    another player's money), so a world is a guess, not the real position."""
    game = registry.get("porto-carthago")
    components = game.load_components(None)
    state = game.setup(NAMES[:4], "guess", {}, components)
    view = game.view(state, "ann")
    one = sample_world(game, view, components, random.Random(1))
    two = sample_world(game, view, components, random.Random(2))
    assert one["deck"] != two["deck"] and sorted(one["deck"]) == sorted(two["deck"]) == sorted(state["deck"])
    assert one["money"][0] == two["money"][0] == state["money"][0]  # her own money she knows
    with pytest.raises(ValueError):
        sample_world(game, game.view(state, None), components, random.Random(3))  # the moderator's view
