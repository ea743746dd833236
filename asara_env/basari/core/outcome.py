"""Outcome of finished games: the B10 order folded into one number per seat, the winners
and the reward schemes of `asara_env.common.outcome`."""

from __future__ import annotations

import numpy as np

from asara_env.basari.core.state import BasariState
from asara_env.basari.phases import Phase
from asara_env.common import outcome

TIE_BASE = 101  # > every gem total (100) and count (25): each key fits under the previous one


def ranking_score(score: np.ndarray, gems: np.ndarray) -> np.ndarray:
    """int64[..., P]: score, then total gems, then red, yellow, green, blue (B10.1-B10.2),
    as one number: ((((score*101 + total)*101 + R)*101 + Y)*101 + G)*101 + B."""
    g = gems.astype(np.int64)
    key = score.astype(np.int64) * TIE_BASE + g.sum(axis=-1)
    for c in range(g.shape[-1]):
        key = key * TIE_BASE + g[..., c]
    return key


def state_ranking(state: BasariState) -> np.ndarray:
    """int64[B, P]: every game's `ranking_score` now."""
    return ranking_score(state.score, state.gems)


def is_terminal(state: BasariState) -> np.ndarray:
    """bool[B]: the games that are over (B10)."""
    return state.phase == Phase.OVER


def winners(state: BasariState) -> np.ndarray:
    """bool[B, P]: the seats first in the B10 order (players still tied share, B10.3)."""
    return outcome.winners(state_ranking(state))


# E5's schemes: `win` 1/k to each of k co-winners and 0 to the others; `rank` linear in the
# place, +1 for a sole winner to -1 for a sole last; `margin` own score minus the mean of
# the others', / MARGIN_SCALE
REWARD_SCHEMES: dict[str, outcome.RewardScheme] = {
    "win": outcome.share_rewards,
    "rank": outcome.rank_rewards,
    "margin": outcome.mean_margin_rewards,
}
MARGIN_SCALE = 50.0


def terminal_rewards(state: BasariState, scheme: str = "win") -> np.ndarray:
    """float32[B, P] rewards under `scheme` from the current position (E5; meaningful once
    a game is over): `win` and `rank` follow the B10 order, `margin` the raw scores."""
    outcome.check_scheme(scheme, REWARD_SCHEMES)
    score = state.score if scheme == "margin" else state_ranking(state)
    return outcome.terminal_rewards(score, scheme, MARGIN_SCALE, REWARD_SCHEMES)
