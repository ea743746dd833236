"""Who is to move, which games are over, who won, and the terminal rewards of a batch.

The reward schemes turn final prestige into one reward per seat, zero-sum for `win` and
`rank` (and for `margin` with two players); R8.5 decides winners by prestige alone. The
AEC env and the vectorised training env both take their rewards from `terminal_rewards`.
"""

from __future__ import annotations

import numpy as np

from ..phases import Phase
from .state import CoreState

GAME_OVER = int(Phase.GAME_OVER)
MARGIN_SCALE = 50.0  # `margin` reward = prestige difference / MARGIN_SCALE


def current_seat(state: CoreState) -> np.ndarray:
    """int8[B]: the seat to decide (in a finished game, the seat that decided last)."""
    return state.seat


def is_terminal(state: CoreState) -> np.ndarray:
    """bool[B]: the game is over and scored."""
    return state.phase == GAME_OVER


def final_prestige(state: CoreState) -> np.ndarray:
    """int32[B, P]: prestige including the final scoring; only meaningful where terminal."""
    return state.prestige


def winners(prestige: np.ndarray) -> np.ndarray:
    """bool[B, P]: the seats with the highest prestige (R8.5: ties all win)."""
    return prestige == prestige.max(axis=-1, keepdims=True)


def win_rewards(prestige: np.ndarray) -> np.ndarray:
    """float32[B, P]: with k winners among n, each winner 1/k and every other seat
    -1/(n-k); all 0 when every seat wins."""
    won = winners(prestige)
    k = won.sum(axis=-1, keepdims=True)
    n = prestige.shape[-1]
    lose = -1.0 / np.maximum(n - k, 1)
    return np.where(k == n, 0.0, np.where(won, 1.0 / k, lose)).astype(np.float32)


def rank_rewards(prestige: np.ndarray) -> np.ndarray:
    """float32[B, P]: linear in the finishing place, +1 for first down to -1 for last;
    seats tied on prestige share the mean of their places' values."""
    n = prestige.shape[-1]
    above = (prestige[..., None, :] > prestige[..., :, None]).sum(axis=-1)  # places ahead
    tied = (prestige[..., None, :] == prestige[..., :, None]).sum(axis=-1)  # incl. itself
    mean_place = above + (tied - 1) / 2.0
    return (1.0 - 2.0 * mean_place / (n - 1)).astype(np.float32)


def margin_rewards(prestige: np.ndarray) -> np.ndarray:
    """float32[B, P]: (own prestige - the best opponent's) / MARGIN_SCALE. Zero-sum for two
    players; with more, it rewards the leader's lead and every other seat's deficit."""
    p = prestige.astype(np.float64)
    n = p.shape[-1]
    others = np.where(np.eye(n, dtype=bool), -np.inf, p[..., None, :])  # [.., seat, other]
    return ((p - others.max(axis=-1)) / MARGIN_SCALE).astype(np.float32)


REWARD_SCHEMES = {"win": win_rewards, "rank": rank_rewards, "margin": margin_rewards}


def terminal_rewards(prestige: np.ndarray, scheme: str = "win") -> np.ndarray:
    """float32[B, P] rewards of finished games under `scheme` (see REWARD_SCHEMES)."""
    if scheme not in REWARD_SCHEMES:
        raise ValueError(f"reward must be one of {sorted(REWARD_SCHEMES)}, got {scheme!r}")
    return REWARD_SCHEMES[scheme](np.asarray(prestige))
