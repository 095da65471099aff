"""Constantinopolis (Fioretti, 2010) for the referee: the rules engine behind `GAME`."""

from .engine import GAME, Constantinopolis

__all__ = ["GAME", "Constantinopolis"]
