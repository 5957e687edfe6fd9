"""The AI player (player.py), its hand value model (value.py, completions.py) and its
defence (defence.py): see player.py for the levels."""

from .player import LEVELS, AIPlayer, Level

__all__ = ["LEVELS", "AIPlayer", "Level"]
