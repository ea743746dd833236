"""The plain one-game reference engine: the executable specification of docs/asara/rules.md."""

from asara_env.asara.phases import Phase
from asara_env.asara.reference.engine import new_game, step, winners
from asara_env.asara.reference.rules import illegal_reason, legal_actions
from asara_env.asara.reference.state import State, Tower

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
