"""Referee: the game-agnostic core. Games are reached only through the registry."""

__version__ = "0.1.0"
