"""Outcomes of finished games, for every game of the package: winners, win shares, places
and the reward schemes, all from the final scores (float or int[..., P], seats last).

Every game's core has one `scores(state)`: the final scores with the game's tie-breaks
folded in, so that the highest score wins and equal scores are true ties (ASARA: the
prestige, R8.5; BASARI: the B10 order as one number). Everything here takes those scores.

The reward schemes turn scores into one reward per seat. Each game declares its own table
(`REWARD_SCHEMES` in its core's `outcome` module), name -> scheme function, as its spec
says; the same name can mean different schemes in different games:

| scheme function            | reward (n seats, k winners)        | sum      | ASARA  | BASARI  |
|----------------------------|------------------------------------|----------|--------|---------|
| `zero_sum_win_rewards`     | winners 1/k, others -1/(n-k)       | 0        | win    |         |
| `win_share_rewards`        | winners 1/k, others 0              | 1        |        | win     |
| `rank_rewards`             | +1 first to -1 last, ties averaged | 0        | rank   | rank    |
| `margin_over_best_rewards` | (own - best other's) / scale       | 0 if n=2 | margin |         |
| `margin_over_mean_rewards` | (own - mean of others') / scale    | 0        |        | margin* |

`zero_sum_win_rewards` gives 0 to every seat when all tie; `scale` is `margin_scale`
(MARGIN_SCALE). *On the points only: BASARI's `margin_over_mean_points` strips the
tie-break keys from its scores first (E5).

Each scheme declares its win-share map (`share_map(scheme, players)`, `SHARE_MAPS`): the
(a, b) with a * reward + b the seat's share on the win-share scale (0 lost, 1 won alone),
exact (`ShareMap.exact`) where that is the win share of every outcome without ties, or
None where the rewards are no such function of the outcome. A search reads a value
head's estimates (of the reward its network was trained on) through it, and self-play
scores on one scale the games it finishes and the values its network gives:

| scheme function            | share map at n seats              | exact      |
|----------------------------|-----------------------------------|------------|
| `zero_sum_win_rewards`     | ((n - 1) / n, 1 / n)              | yes        |
| `win_share_rewards`        | (1, 0)                            | yes        |
| `rank_rewards`             | (1/2, 1/2): 1 - place / (n - 1)   | if n = 2   |
| the margins                | None                              |            |

The environments, the training VecEnvs and the tournaments all take their figures from
here, through their game's table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

MARGIN_SCALE = 50.0  # the `margin` schemes' divisor: a score difference of 50 is reward 1

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


def zero_sum_win_rewards(score: Scores, margin_scale: float = MARGIN_SCALE) -> NDArray[np.float32]:
    """float32[..., P]: with k winners among n, each winner 1/k and every other seat
    -1/(n-k); all 0 when every seat wins (zero-sum)."""
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


def margin_over_best_rewards(
    score: Scores, margin_scale: float = MARGIN_SCALE
) -> NDArray[np.float32]:
    """float32[..., P]: (own score - the best opponent's) / margin_scale. Zero-sum for two
    players; with more, it rewards the leader's lead and every other seat's deficit."""
    p = score.astype(np.float64)
    n = p.shape[-1]
    others = np.where(np.eye(n, dtype=bool), -np.inf, p[..., None, :])  # [.., seat, other]
    return ((p - others.max(axis=-1)) / margin_scale).astype(np.float32)


def win_share_rewards(score: Scores, margin_scale: float = MARGIN_SCALE) -> NDArray[np.float32]:
    """float32[..., P]: each of k winners 1/k, every other seat 0 (not zero-sum)."""
    return win_shares(score).astype(np.float32)


def margin_over_mean_rewards(
    score: Scores, margin_scale: float = MARGIN_SCALE
) -> NDArray[np.float32]:
    """float32[..., P]: (own score - the mean of the other seats') / margin_scale; zero-sum."""
    p = score.astype(np.float64)
    n = p.shape[-1]
    others = (p.sum(axis=-1, keepdims=True) - p) / (n - 1)
    return ((p - others) / margin_scale).astype(np.float32)


RewardScheme = Callable[[Scores, float], NDArray[np.float32]]
RewardSchemes = Mapping[str, RewardScheme]  # a game's table: its `reward=` names -> schemes


@dataclass(frozen=True)
class ShareMap:
    """a * reward + b: a seat's reward on the win-share scale (0 lost, 1 won alone).
    `exact`: it is the seat's win share for every outcome without ties; else a monotone
    reading of the outcome on that scale (`rank` at 3 or more seats: 1 - place / (n - 1))."""

    a: float
    b: float
    exact: bool = True


def _zero_sum_win_share(players: int) -> ShareMap:
    """The winner's 1 to 1 and a loser's -1 / (n - 1) to 0."""
    return ShareMap((players - 1) / players, 1 / players)


def _rank_share(players: int) -> ShareMap:
    """+1 first to -1 last read as 1 - place / (n - 1): the win share heads-up."""
    return ShareMap(0.5, 0.5, exact=players == 2)


# each scheme's declared share map at n seats (None: its rewards are no function of the
# outcome alone, as the margins); a scheme not named here has none
SHARE_MAPS: Mapping[Callable[..., NDArray[np.float32]], Callable[[int], ShareMap | None]] = {
    zero_sum_win_rewards: _zero_sum_win_share,
    win_share_rewards: lambda players: ShareMap(1.0, 0.0),
    rank_rewards: _rank_share,
    margin_over_best_rewards: lambda players: None,
    margin_over_mean_rewards: lambda players: None,
}


def share_map(scheme: Callable[..., NDArray[np.float32]], players: int) -> ShareMap | None:
    """`scheme`'s declared share map at `players` seats (`SHARE_MAPS`), None if it has none."""
    declared = SHARE_MAPS.get(scheme)
    return None if declared is None else declared(players)


def check_scheme(scheme: str, schemes: RewardSchemes) -> str:
    """`scheme` if it names one of `schemes`, else a ValueError naming the choices."""
    if scheme not in schemes:
        raise ValueError(f"reward must be one of {sorted(schemes)}, got {scheme!r}")
    return scheme


def terminal_rewards(
    score: ArrayLike,
    scheme: str,
    schemes: RewardSchemes,
    margin_scale: float = MARGIN_SCALE,
) -> NDArray[np.float32]:
    """float32[..., P] rewards of finished games with final `score`s under `scheme`, one of
    the game's `schemes` (its core's REWARD_SCHEMES)."""
    return schemes[check_scheme(scheme, schemes)](np.asarray(score), margin_scale)
