"""The plain one-game reference engine: the executable specification of RULES.md."""

from ..phases import Phase
from .engine import new_game, step, winners
from .rules import illegal_reason, legal_actions
from .state import State, Tower

__all__ = [
    "new_game",
    "step",
    "winners",
    "legal_actions",
    "illegal_reason",
    "Phase",
    "State",
    "Tower",
]
