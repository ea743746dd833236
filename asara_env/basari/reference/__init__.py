"""BASARI's plain one-game reference engine: the oracle the vectorised core is checked
against move by move. Seats, not players; chance only from the E4 draws of the seed."""

from asara_env.basari.reference.engine import carry_out, check_actions, new_game, step
from asara_env.basari.reference.invariants import transition_violations, violations
from asara_env.basari.reference.record import GameRecord, replay
from asara_env.basari.reference.rules import (
    acting_seats,
    bundle_key,
    higher,
    illegal_reason,
    legal_actions,
)
from asara_env.basari.reference.scoring import ranking_score, ranks, tie_break_key, winners
from asara_env.basari.reference.serialize import state_from_dict, state_to_dict
from asara_env.basari.reference.state import State
from asara_env.basari.reference.view import public_view

__all__ = [
    "GameRecord",
    "State",
    "acting_seats",
    "bundle_key",
    "carry_out",
    "check_actions",
    "higher",
    "illegal_reason",
    "legal_actions",
    "new_game",
    "public_view",
    "ranking_score",
    "ranks",
    "replay",
    "state_from_dict",
    "state_to_dict",
    "step",
    "tie_break_key",
    "transition_violations",
    "violations",
    "winners",
]
