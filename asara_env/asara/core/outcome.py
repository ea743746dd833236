"""Who is to move, which games are over, their final scores and ASARA's reward schemes.
R8.5 decides winners by prestige alone, so `scores` is the prestige (the final scoring
included once a game is over); winners, places and the scheme functions are the shared
ones of `asara_env.common.outcome`, which take these scores.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asara_env.asara.core.state import CoreState
from asara_env.asara.phases import Phase
from asara_env.common import outcome
from asara_env.common.outcome import MARGIN_SCALE, winners

__all__ = [
    "MARGIN_SCALE",
    "REWARD_SCHEMES",
    "current_seat",
    "is_terminal",
    "scores",
    "terminal_rewards",
    "winners",
]

GAME_OVER = int(Phase.GAME_OVER)

# the env's `reward=` names (docs: asara_env.asara.env): `win` is zero-sum, the winners
# sharing +1 and the others -1; `margin` is measured against the best opponent
REWARD_SCHEMES: outcome.RewardSchemes = {
    "win": outcome.zero_sum_win_rewards,
    "rank": outcome.rank_rewards,
    "margin": outcome.margin_over_best_rewards,
}


def current_seat(state: CoreState) -> NDArray[np.int8]:
    """int8[B]: the seat to decide (in a finished game, the seat that decided last)."""
    return state.seat


def is_terminal(state: CoreState) -> NDArray[np.bool_]:
    """bool[B]: the game is over and scored."""
    return np.asarray(state.phase == GAME_OVER)


def scores(state: CoreState) -> NDArray[np.int32]:
    """int32[B, P]: the prestige, the final scoring included; final where terminal. The
    winners are the seats with the highest score (R8.5: ties share the victory)."""
    return state.prestige


def terminal_rewards(score: ArrayLike, scheme: str = "win") -> NDArray[np.float32]:
    """float32[..., P] rewards of finished games with final `score`s (from `scores`) under
    one of ASARA's REWARD_SCHEMES."""
    return outcome.terminal_rewards(score, scheme, REWARD_SCHEMES)
