"""Non-interference: what the other players see never depends on one player's secrets.

For at least 200 random games of each game and player count: a game is played by bots to a
random position, where one player X's secrets are changed in a way the public record cannot
tell apart (secrets.py: money or gold, contracts loaded in secret, the unseen part of the deck,
a defend limit, a bid's "up to", the Consul's standing list, a queue of orders). From there the
real game and the changed one go on side by side with the same public acts: every other
player picks an order from their menu, the same in both; X picks one that is legal in both
games (there must always be one: a player who cannot pay answers PASS or DONE, and is never
skipped). After every step, for every other player Y: Y's view, the events Y may see, Y's menu
and HELP text, whom the game waits for and on what (the prompts), the phase and its deadline
must be the same in both games, and so must Y's report whenever a phase opens.

This runs on the engines directly (no mail), which keeps it fast enough for every CI run;
tests/leaks/test_reports.py sends one position per game through the real mail path.

The games may part where the rules themselves show the secret (`secrets.revealed`): the
ships sailing with the contracts, a changed card drawn, a proxy answering, gold paid for a
vacant office when it falls short of the price, the end of the game. The comparison stops
there; how often each change was followed to the end or to such a point is counted.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import pytest

from mailer.outbound.reports import report_context
from referee import registry
from referee.contract import Order, OrderError
from referee.policy import Policy
from referee.rendering import render
from referee.schedule import new_schedule

from ..marks import slow
from .secrets import CHANGES, revealed

GAMES = 200
CHUNKS = 4
NAMES = ["ann", "bob", "cid", "dee", "eve"]
OPTIONS = {"constantinopolis": [{}, {"free_trade": True}, {"public_gold": True}, {"market_reshuffle": "facedown"},
                              {"ships_public": True, "free_trade": True}],
           "porto-carthago": [{}, {"final_arrival": "lighthouse"}]}
POLICY = Policy.build("standard", {"deadline.auction": "36h", "deadline": "48h"})
START = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
REPORTS = 0.1  # the share of phase openings at which a report is rendered and compared


def bot_step(asked, rng):
    """Who moves: the one asked, or one of those asked at once (the bots' stream picks)."""
    return asked[rng.randrange(len(asked))].player if asked[0].simultaneous else asked[0].player


@dataclass
class Trail:
    """A whole bot game: every position, whom it asked, and at each step who moved, their
    menu, the order picked from it and the events. Kept so that the real game can be played
    on from any position as it went without working any of that out again (the engines are
    deterministic: the same position and order give the same answer)."""

    seed: int  # of the bots' stream
    states: list = field(default_factory=list)
    asked: list = field(default_factory=list)
    movers: list = field(default_factory=list)
    menus: list = field(default_factory=list)
    picks: list = field(default_factory=list)
    events: list = field(default_factory=list)

    def stream_at(self, at: int) -> random.Random:
        """The bots' stream as it stood at position `at`: the draws of the steps before it
        made again (the same draws leave a stream in the same state)."""
        rng = random.Random(self.seed)
        for asked, menu in zip(self.asked[:at], self.menus):
            if asked[0].simultaneous:
                rng.randrange(len(asked))
            rng.randrange(len(menu))
        return rng


def play_through(game, players, seed, options, stream_seed) -> Trail:
    """A whole bot game, its stream seeded with `stream_seed`."""
    rng = random.Random(stream_seed)
    trail = Trail(stream_seed)
    state = game.setup(players, seed, options, game.load_components(None))
    asked = game.prompts(state)
    trail.states.append(state)
    trail.asked.append(asked)
    while asked:
        player = bot_step(asked, rng)
        menu = game.legal_orders(state, player)
        pick = rng.randrange(len(menu))
        state, events = game.apply(state, player, [menu[pick]])
        asked = game.prompts(state)
        for part, value in ((trail.movers, player), (trail.menus, menu), (trail.picks, pick),
                            (trail.events, events), (trail.states, state), (trail.asked, asked)):
            part.append(value)
    return trail


def change_somewhere(name, trail, x, first, rng):
    """From a random position on (never the end), the first position where a change of one
    of X's secrets applies, kinds tried in the order `first` starts (so each kind comes up
    about as often): (kind, position index, changed state), or None."""
    kinds = list(CHANGES[name])
    kinds = kinds[first % len(kinds):] + kinds[:first % len(kinds)]
    start = rng.randrange(len(trail) - 1)
    for kind in kinds:
        for k in range(len(trail) - 1):
            at = (start + k) % (len(trail) - 1)
            changed = CHANGES[name][kind](trail[at], x, rng, trail[at + 1:])
            if changed is not None:
                return kind, at, changed
    return None


def seen_by(game, state, events, y, prompts, full):
    """Everything player `y` can learn at this point (`full`: their complete menu too, which
    takes longer to work out, so it is compared at every fifth step)."""
    out = {"view": game.view(state, y), "events": [e.text for e in events if e.visible_to(y)]}
    if any(p.player == y for p in prompts):
        out["menu"] = [game.format(o) for o in game.legal_orders(state, y)]
        out["help"] = game.help(state, y)
        if full:
            out["lines"] = [line.text for line in game.menu(state, y)]
    return out


def public(asked, phase, opened):
    return {"prompts": asked, "phase": phase, "deadline": new_schedule(POLICY, phase, opened)}


def lockstep(game, name, a, b, x, kind, rng, stats, changed_cards, pick, trail=None, at=None):
    """Play the real game `a` and the changed one `b` side by side; fail on any difference
    another player could see before the rules reveal the change. With `trail` (the game `a`
    was position `at` of), the real game takes each step from it while it goes as it went."""
    others = [p for p in a["players"] if p != x]
    opened = START
    on = at if trail is not None else None  # a is trail.states[on] while the game goes as it went
    asked_a = trail.asked[at] if on is not None else game.prompts(a)
    asked_b = game.prompts(b)
    phase_a = game.phase(a)
    key = phase_a.key
    for step in range(100_000):
        if not asked_a:
            stats["to the end"] += 1
            return step
        now = START + timedelta(hours=step)
        if phase_a.key != key:
            key, opened = phase_a.key, now
        assert public(asked_a, phase_a, opened) == public(asked_b, game.phase(b), opened), \
            f"step {step}: prompts, phase or deadline differ"
        player = bot_step(asked_a, rng)
        if on is not None and trail.movers[on] == player:
            menu = trail.menus[on]
        else:
            on = None
            menu = game.legal_orders(a, player)
        done_b = None
        if player == x:  # the same public act in both games
            both = [(o, done) for o in menu if (done := _applied(game, b, x, o)) is not None]
            assert both, f"step {step}: {x} has no order legal in both games ({phase_a.key})"
            order, done_b = both[rng.randrange(len(both))]
        else:
            order = menu[rng.randrange(len(menu))]
        if on is not None and order is menu[trail.picks[on]]:
            a2, ev_a, asked_a2 = trail.states[on + 1], trail.events[on], trail.asked[on + 1]
            on += 1
        else:
            on = None
            a2, ev_a = game.apply(a, player, [order])
            asked_a2 = game.prompts(a2)
        if done_b is not None:
            b2, ev_b = done_b
        else:
            try:
                b2, ev_b = game.apply(b, player, [order])
            except OrderError as exc:
                raise AssertionError(f"step {step}: {player}'s {game.format(order)!r} is refused in the changed "
                                     f"game: {exc}") from None
        if revealed(name, kind, x, player, (ev_a, ev_b), (a, b), (a2, b2), changed_cards):
            stats["revealed by the rules"] += 1
            return step
        asked_b2 = game.prompts(b2)
        if not asked_a2 or not asked_b2:
            stats["to the end"] += 1
            return step
        for y in others:
            seen_a = seen_by(game, a2, ev_a, y, asked_a2, step % 5 == 0)
            seen_b = seen_by(game, b2, ev_b, y, asked_b2, step % 5 == 0)
            assert seen_a == seen_b, _diff(step, y, x, kind, game.format(order), player, seen_a, seen_b)
        phase_a2 = game.phase(a2)
        if phase_a2.key != phase_a.key and pick.random() < REPORTS:
            # a phase opened and reports go out: the text report of one of the others (it is
            # made of what was compared above; rendering every one would cost most of the time)
            y = pick.choice(others)
            reports = [render("report.txt", **report_context(game, s, game_id="g", player=y, events=ev))
                       for s, ev in ((a2, ev_a), (b2, ev_b))]
            assert reports[0] == reports[1], f"step {step}: {y}'s report differs after {x}'s {kind} changed"
        a, b, asked_a, asked_b, phase_a = a2, b2, asked_a2, asked_b2, phase_a2
    raise AssertionError("no end")


def _applied(game, state, player, order: Order):
    """`apply`'s answer to the order alone, or None when it is refused."""
    try:
        return game.apply(state, player, [order])
    except OrderError:
        return None


def _diff(step, y, x, kind, text, player, one, two):
    parts = [k for k in one if one[k] != two.get(k)]
    detail = {k: (one[k], two.get(k)) for k in parts if k != "view"}
    if "view" in parts:
        detail["view"] = {k: (v, two["view"].get(k)) for k, v in one["view"].items() if two["view"].get(k) != v}
    return f"step {step} ({player}: {text}): {y} can tell {x}'s {kind} apart: {detail}"


CASES = [(name, count, chunk) for name in sorted(CHANGES)
         for count in range(registry.get(name).min_players, registry.get(name).max_players + 1)
         for chunk in range(CHUNKS)]


@pytest.mark.parametrize("name,count,chunk", [pytest.param(*case, marks=() if case[2] == 0 else slow) for case in CASES],
                         ids=[f"{n}-{c}p-{k}" for n, c, k in CASES])
def test_others_see_nothing_of_one_players_secrets(name, count, chunk):
    game = registry.get(name)
    stats: Counter = Counter()
    kinds: Counter = Counter()
    compared = 0
    for n in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        rng = random.Random(f"non-interference {name} {count} {n}")
        players = NAMES[:count]
        options = rng.choice(OPTIONS[name])
        seed = f"ni-{name}-{count}-{n}"
        trail = play_through(game, players, seed, options, rng.getrandbits(64))
        x = rng.choice(players)
        found = change_somewhere(name, trail.states, x, n, rng)
        if found is None:
            stats["no secret to change"] += 1
            continue
        kind, at, changed = found
        state = trail.states[at]
        bots = trail.stream_at(at)
        assert game.view(changed, None) != game.view(state, None), f"{kind}: the change must alter the position"
        cards = {c for c, d in zip(state["deck"], changed["deck"]) if c != d}
        kinds[kind] += 1
        compared += lockstep(game, name, state, changed, x, kind, bots, stats, cards, rng, trail, at)
    print(f"{name} {count}p chunk {chunk}: {sum(kinds.values())} games ({dict(kinds)}), {compared} steps "
          f"compared, {dict(stats)}")
    assert sum(kinds.values()) >= GAMES // CHUNKS - 3
    assert compared >= 20 * (GAMES // CHUNKS)


def end_of_porto_carthago(players):
    """The last action turn of decade 5 done, goods in docks, everyone with 7 trade points:
    the final arrival and the 20-talent seat follow (random games seldom get there)."""
    from tests.porto_carthago.helpers import at_actions, free_all_docks, give, own_dock, run, settle

    s = run(at_actions(players), lambda x: x["decade"] == 5 and x["stage"] == "actions", limit=5000)
    s = own_dock(free_all_docks(s), players[1], "C2-I", good="G2")
    s["act"]["r"] = 6
    for i, name in enumerate(players):
        s = give(s, name, tp=7, money=[25, 3, 19, 20, 40][i])
    return settle(s)[0]


@pytest.mark.parametrize("count", [3, 4, 5])
def test_the_final_seat_asks_on_open_facts(count):
    """Every player with 6 trade points and a servant is asked about the 20-talent seat, the
    ones who cannot pay too; so nobody's money shows in whom the game waits for."""
    from tests.porto_carthago.helpers import P5

    game = registry.get("porto-carthago")
    players = P5[:count]
    start = end_of_porto_carthago(players)
    stats: Counter = Counter()
    for x in players:
        for delta in (-20, -2, 2, 20):
            changed = copy.deepcopy(start)
            seat = players.index(x)
            changed["money"][seat] = max(0, changed["money"][seat] + delta)
            if changed["money"][seat] == start["money"][seat]:
                continue
            rng = random.Random(f"{x} {delta}")
            lockstep(game, "porto-carthago", start, changed, x, "money", rng, stats, set(), rng)
    asked = []
    state = start
    while game.prompts(state):
        p = game.prompts(state)[0]
        asked.append((p.player, p.decision))
        state, _ = game.apply(state, p.player, game.default_orders(state, p.player))
    assert [p for p, d in asked if d == "end.final_seat"] == list(players[players.index(game.view(start, None)[
        "start_player"]):] + players[:players.index(game.view(start, None)["start_player"])])
