"""Who is to move, which games are over, and their final prestige. Winners, ranks and the
reward schemes are game-agnostic and live in `asara_env.common.outcome` (R8.5 decides
winners by prestige alone, so the final prestige is the score they take).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.core.state import CoreState
from asara_env.asara.phases import Phase
from asara_env.common.outcome import MARGIN_SCALE, REWARD_SCHEMES, terminal_rewards, winners

__all__ = [
    "MARGIN_SCALE",
    "REWARD_SCHEMES",
    "current_seat",
    "final_prestige",
    "is_terminal",
    "terminal_rewards",
    "winners",
]

GAME_OVER = int(Phase.GAME_OVER)


def current_seat(state: CoreState) -> NDArray[np.int8]:
    """int8[B]: the seat to decide (in a finished game, the seat that decided last)."""
    return state.seat


def is_terminal(state: CoreState) -> NDArray[np.bool_]:
    """bool[B]: the game is over and scored."""
    return np.asarray(state.phase == GAME_OVER)


def final_prestige(state: CoreState) -> NDArray[np.int32]:
    """int32[B, P]: prestige including the final scoring; only meaningful where terminal."""
    return state.prestige
