"""The menus players read (HELP, the report's ORDERS block, the receipt of a rejected set)
list every legal order, and nothing else.

At positions of random games of both games and every player count, for the player asked:
each candidate order of a broad, independent universe (tests/fuzz/universes.py) is legal
(its text parses back to it and `apply` takes it) exactly when a menu line covers it; every
order a line stands for is legal; and each order of the bots' short menu (`legal_orders`)
is covered too. `apply` is the judge, not the engines' own checks.
"""

from __future__ import annotations

import random

import pytest

from referee import registry
from referee.contract import OrderError, menu_lines
from referee.playthrough import play
from referee.storage import fingerprint

from ..marks import slow
from .universes import UNIVERSES

NAMES = ["ann", "bob", "cid", "dee", "eve"]
GAMES_PER_COUNT = 4
EVERY = 9  # every 9th position of each game, and every one of the rarer decisions
COMMON = ("action.main", "action.after", "arrival.lighthouse", "accept.contracts", "construct.turn", "auction.choose",
          "auction.duel", "store")
OPTIONS = {"constantinopolis": [{}, {"free_trade": True}, {"public_gold": True, "taberna_one_type": True}],
           "porto-carthago": [{}, {"final_arrival": "lighthouse"}, {"sixth_action": "merchant"}]}


def legal(game, state, player, order) -> bool:
    try:
        if game.parse(state, player, game.format(order)) != [order]:
            return False
        game.apply(state, player, [order])
    except OrderError:
        return False
    return True


def positions(name: str, count: int):
    game = registry.get(name)
    found = []
    for n in range(GAMES_PER_COUNT):
        options = OPTIONS[name][n % len(OPTIONS[name])]

        def keep(pt, options=options):
            asked = game.prompts(pt.state)
            if asked and (pt.steps % EVERY == 0 or asked[0].decision not in COMMON):
                found.extend((pt.state, p.player, options) for p in asked)
        play(game, NAMES[:count], f"menus-{name}-{count}-{n}", options, on_step=keep)
    return found


def made_positions():
    """Porto Carthago decisions random games seldom reach: held P2, P3, P4, P7, P8 cards with
    servants about, the arrangement after P2, and the final seat."""
    from tests.porto_carthago.helpers import (at_actions, do, free_all_docks, give, hold, own_dock, run, set_row1,
                                              store, who)
    s = store(free_all_docks(at_actions()), "Ann", "G1", "G2")
    for cid in ("S05", "S07", "S19", "S02", "S16"):
        s = hold(s, "Ann", cid)
    s = give(give(give(s, "Bob", temple=2, light=1), "Cid", light=3), "Ann", temple=1, money=40, tp=3)
    s = own_dock(own_dock(s, "Ann", "C1-I", good="G3", ship="S03"), "Ann", "C2-II", good="G1")
    s = set_row1(s, ["S01", "S04", "S06"])
    out = [(s, "Ann")]
    arranged, _ = do(s, "USE S05")
    out.append((arranged, "Ann"))
    after, _ = do(s, "SIDE 4")
    out.append((after, "Ann"))
    end = run(at_actions(), lambda x: x["decade"] == 5 and x["stage"] == "actions", limit=5000)
    end = own_dock(free_all_docks(end), "Bob", "C2-I", good="G2")
    end["act"]["r"] = 6
    for name in ("Ann", "Bob", "Cid"):
        end = give(end, name, tp=7, money=25 if name != "Bob" else 3)
    end = run(end, lambda x: x["stage"] == "final_buy", limit=100)
    out.append((end, who(end)))
    return out


def test_menus_of_rare_porto_carthago_decisions():
    game = registry.get("porto-carthago")
    rng = random.Random("made")
    seen = set()
    for state, player in made_positions():
        lines, _ = menu_lines(game, state, player)
        seen.add(game.prompts(state)[0].decision)
        for line in lines:
            assert all(legal(game, state, player, o) for o in line.orders), line.text
        for order in UNIVERSES["porto-carthago"](state, player, rng):
            assert any(line.covers(order) for line in lines) == legal(game, state, player, order), game.format(order)
    assert seen == {"action.main", "privilege.arrange", "action.after", "end.final_seat"}


CASES = [(name, count) for name in sorted(UNIVERSES)
         for count in range(registry.get(name).min_players, registry.get(name).max_players + 1)]


@pytest.mark.parametrize("name,count", [pytest.param(*case, marks=() if case == CASES[0] else slow) for case in CASES],
                         ids=[f"{n}-{c}p" for n, c in CASES])
def test_menus_show_every_legal_order_and_only_legal_ones(name, count):
    game = registry.get(name)
    rng = random.Random(f"{name}-{count}")
    checked = candidates = 0
    for state, player, options in positions(name, count):
        before = fingerprint(state)
        lines, complete = menu_lines(game, state, player)
        assert complete and lines, (game.phase(state), player)
        where = f"{game.phase(state).key} ({game.prompts(state)[0].decision}) for {player}"
        for line in lines:
            for order in line.orders:
                assert legal(game, state, player, order), f"{where}: {line.text!r} shows illegal {game.format(order)!r}"
        for order in UNIVERSES[name](state, player, rng):
            shown = any(line.covers(order) for line in lines)
            ok = legal(game, state, player, order)
            assert shown == ok, (f"{where}: {game.format(order)!r} is {'legal' if ok else 'illegal'} but "
                                 f"{'shown' if shown else 'not shown'}; menu: {[line.text for line in lines]}")
            candidates += 1
        for order in game.legal_orders(state, player):
            assert any(line.covers(order) for line in lines), f"{where}: {game.format(order)!r} not on the menu"
        assert fingerprint(state) == before
        checked += 1
    assert checked >= 20, checked
    print(f"{name} {count}p: {checked} positions, {candidates} candidate orders")
