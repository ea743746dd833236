"""Outcome of finished games: the B10 order folded into one score per seat (`scores`),
BASARI's reward schemes (E5), and the shared winners of `asara_env.common.outcome`,
which take those scores."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asara_env.basari.constants import N_COLOURS
from asara_env.basari.core.state import BasariState
from asara_env.basari.phases import Phase
from asara_env.common import outcome
from asara_env.common.outcome import MARGIN_SCALE, winners

OVER = int(Phase.OVER)  # read once: an enum member's lookup is slow in a hot loop

__all__ = [
    "MARGIN_SCALE",
    "REWARD_SCHEMES",
    "TIE_BASE",
    "is_terminal",
    "margin_over_mean_points",
    "points",
    "ranking_score",
    "scores",
    "terminal_rewards",
    "winners",
]

TIE_BASE = 101  # > every gem total (100) and count (25): each key fits under the previous one
TIE_KEYS = 1 + N_COLOURS  # the keys below the points: total gems, then red, yellow, green, blue


def ranking_score(score: np.ndarray, gems: np.ndarray) -> np.ndarray:
    """int64[..., P]: score, then total gems, then red, yellow, green, blue (B10.1-B10.2),
    as one number: ((((score*101 + total)*101 + R)*101 + Y)*101 + G)*101 + B."""
    g = gems.astype(np.int64)
    key = score.astype(np.int64) * TIE_BASE + g.sum(axis=-1)
    for c in range(g.shape[-1]):
        key = key * TIE_BASE + g[..., c]
    return key


def points(ranking: ArrayLike) -> NDArray[np.int64]:
    """int64[..., P]: the points inside `ranking_score`s, their tie-break keys stripped."""
    return np.asarray(ranking, np.int64) // TIE_BASE**TIE_KEYS


def scores(state: BasariState) -> NDArray[np.int64]:
    """int64[B, P]: every game's `ranking_score` now (final where terminal): the highest
    wins, and equal scores are the players still tied after B10.2 (B10.3)."""
    return ranking_score(state.score, state.gems)


def is_terminal(state: BasariState) -> np.ndarray:
    """bool[B]: the games that are over (B10)."""
    return state.phase == OVER


def margin_over_mean_points(
    ranking: outcome.Scores, margin_scale: float = MARGIN_SCALE
) -> NDArray[np.float32]:
    """E5's `margin`: (own points - the mean of the others' points) / margin_scale, on the
    points of `ranking` scores (the tie-break keys play no part)."""
    return outcome.margin_over_mean_rewards(points(ranking), margin_scale)


# E5's schemes: `win` 1/k to each of k co-winners and 0 to the others (not zero-sum);
# `rank` linear in the place, +1 for a sole winner to -1 for a sole last; `margin` own
# points minus the mean of the others', / MARGIN_SCALE
REWARD_SCHEMES: outcome.RewardSchemes = {
    "win": outcome.win_share_rewards,
    "rank": outcome.rank_rewards,
    "margin": margin_over_mean_points,
}


def terminal_rewards(score: ArrayLike, scheme: str = "win") -> NDArray[np.float32]:
    """float32[..., P] rewards of finished games with final `score`s (from `scores`) under
    one of BASARI's REWARD_SCHEMES (E5)."""
    return outcome.terminal_rewards(score, scheme, REWARD_SCHEMES)
