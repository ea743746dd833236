"""Outcomes of finished games, for every game of the package: winners, win shares, places
and the reward schemes, all from the final scores (float or int[..., P], seats last).

Every game decides its winners by the highest score after its own tie-breaks have been
folded into the score (a game with a tie-break passes a score that already orders ties).
The schemes turn scores into one reward per seat, zero-sum for `win` and `rank` (and for
`margin` with two players). The environments, the training VecEnvs and the tournament
all take their figures from here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

MARGIN_SCALE = 50.0  # default `margin` reward = score difference / MARGIN_SCALE

Scores = NDArray[np.integer] | NDArray[np.floating]


def winners(score: Scores) -> NDArray[np.bool_]:
    """bool[..., P]: the seats with the highest score (ties all win)."""
    return np.asarray(score == score.max(axis=-1, keepdims=True))


def win_shares(score: Scores) -> NDArray[np.float64]:
    """float[..., P]: 1/k for each of a game's k winners, else 0."""
    won = winners(score)
    return np.asarray(won / won.sum(axis=-1, keepdims=True), np.float64)


def places(score: Scores) -> NDArray[np.float64]:
    """float[..., P]: 0-based finishing place; tied seats share the mean of their places."""
    above = (score[..., None, :] > score[..., :, None]).sum(axis=-1)  # seats ahead
    tied = (score[..., None, :] == score[..., :, None]).sum(axis=-1)  # incl. itself
    return np.asarray(above + (tied - 1) / 2.0, np.float64)


def ranks(score: Scores) -> NDArray[np.float64]:
    """float[..., P]: finishing place, 1 = first; tied seats share the mean of their places."""
    return 1.0 + places(score)


def win_rewards(score: Scores, margin_scale: float = MARGIN_SCALE) -> NDArray[np.float32]:
    """float32[..., P]: with k winners among n, each winner 1/k and every other seat
    -1/(n-k); all 0 when every seat wins."""
    won = winners(score)
    k = won.sum(axis=-1, keepdims=True)
    n = score.shape[-1]
    lose = -1.0 / np.maximum(n - k, 1)
    return np.where(k == n, 0.0, np.where(won, 1.0 / k, lose)).astype(np.float32)


def rank_rewards(score: Scores, margin_scale: float = MARGIN_SCALE) -> NDArray[np.float32]:
    """float32[..., P]: linear in the finishing place, +1 for first down to -1 for last;
    tied seats share the mean of their places' values."""
    n = score.shape[-1]
    return (1.0 - 2.0 * places(score) / (n - 1)).astype(np.float32)


def margin_rewards(score: Scores, margin_scale: float = MARGIN_SCALE) -> NDArray[np.float32]:
    """float32[..., P]: (own score - the best opponent's) / margin_scale. Zero-sum for two
    players; with more, it rewards the leader's lead and every other seat's deficit."""
    p = score.astype(np.float64)
    n = p.shape[-1]
    others = np.where(np.eye(n, dtype=bool), -np.inf, p[..., None, :])  # [.., seat, other]
    return ((p - others.max(axis=-1)) / margin_scale).astype(np.float32)


def share_rewards(score: Scores, margin_scale: float = MARGIN_SCALE) -> NDArray[np.float32]:
    """float32[..., P]: each of k winners 1/k, every other seat 0 (not zero-sum)."""
    return win_shares(score).astype(np.float32)


def mean_margin_rewards(score: Scores, margin_scale: float = MARGIN_SCALE) -> NDArray[np.float32]:
    """float32[..., P]: (own score - the mean of the other seats') / margin_scale; zero-sum."""
    p = score.astype(np.float64)
    n = p.shape[-1]
    others = (p.sum(axis=-1, keepdims=True) - p) / (n - 1)
    return ((p - others) / margin_scale).astype(np.float32)


RewardScheme = Callable[[Scores, float], NDArray[np.float32]]
REWARD_SCHEMES: dict[str, RewardScheme] = {
    "win": win_rewards,
    "rank": rank_rewards,
    "margin": margin_rewards,
}


def check_scheme(scheme: str, schemes: dict[str, RewardScheme] | None = None) -> str:
    """`scheme` if it names a reward scheme, else a ValueError naming the choices."""
    known = REWARD_SCHEMES if schemes is None else schemes
    if scheme not in known:
        raise ValueError(f"reward must be one of {sorted(known)}, got {scheme!r}")
    return scheme


def terminal_rewards(
    score: ArrayLike,
    scheme: str = "win",
    margin_scale: float = MARGIN_SCALE,
    schemes: dict[str, RewardScheme] | None = None,
) -> NDArray[np.float32]:
    """float32[..., P] rewards of finished games under `scheme`, one of `schemes` (default:
    REWARD_SCHEMES, ASARA's zero-sum schemes)."""
    known = REWARD_SCHEMES if schemes is None else schemes
    return known[check_scheme(scheme, known)](np.asarray(score), margin_scale)
