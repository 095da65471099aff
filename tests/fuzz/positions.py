"""Positions of the real games to fuzz their order parsers at: states met in random complete
games, with every player (asked or not), and the words their orders are made of."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from referee import registry
from referee.contract import Game, State
from referee.playthrough import play

REAL = ("constantinopolis", "porto-carthago")
PLAYERS = ["ann", "bob", "cid", "dee", "eve"]


@dataclass(frozen=True)
class Spot:
    state: State
    player: str
    asked: bool


@lru_cache(maxsize=None)
def spots(name: str) -> tuple[Spot, ...]:
    """Every 9th position of four games with 2 to 5 players (the game's own limits), each
    with every player in it."""
    game = registry.get(name)
    found: list[Spot] = []

    def keep(pt) -> None:
        if pt.steps % 9 == 0:
            asked = {p.player for p in game.prompts(pt.state)}
            found.extend(Spot(pt.state, p, p in asked) for p in pt.players)

    for i, count in enumerate(range(max(2, game.min_players), min(5, game.max_players) + 1)):
        play(game, PLAYERS[:count], f"fuzz-{name}-{i}", on_step=keep)
    return tuple(found)


@lru_cache(maxsize=None)
def words(name: str) -> tuple[str, ...]:
    """The words of canonical orders met at those positions, plus numbers and punctuation."""
    game = registry.get(name)
    seen: set[str] = set()
    for spot in spots(name)[::5]:
        for order in game.legal_orders(spot.state, spot.player):
            seen.update(game.format(order).replace(",", " ").split())
    seen.update(["0", "1", "2", "-1", "99", "999999999999", "#", "->", ",", "to", "on", "+", "x"])
    return tuple(sorted(seen))


def game(name: str) -> Game:
    return registry.get(name)
