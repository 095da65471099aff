"""Porto Carthago: the rules engine (see docs/porto-carthago.md)."""

from .game import GAME, PortoCarthago

__all__ = ["GAME", "PortoCarthago"]
