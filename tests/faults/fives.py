"""The simultaneous-phase test game for five players, for the concurrency test."""

from ..service.simul import Simul


class Fives(Simul):
    name = "fives"
    title = "Secret Numbers for five"
    max_players = 5


FIVES = Fives()
