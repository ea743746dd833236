"""What every recipe of examples/ shares: its `--game` and `--players` options, and the
checks it ends with: no illegal action was taken, games
finished, and their returns are those of the game's `win` reward (each in [-1, 1], and
for every seat's returns of a game, summing as the game's `win` scheme does: 0 for ASARA's
zero-sum one, 1 for BASARI's shares)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from asara_env import games
from asara_env.common.outcome import MARGIN_SCALE


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """`--game` (a registered game, default asara) and `--players` (2 unless told; the
    counts the games' cards allow)."""
    parser.add_argument("--game", default="asara", choices=games.available_games())
    counts = sorted({n for card in games.GAMES.values() for n in card.player_counts})
    parser.add_argument("--players", type=int, default=2, choices=counts)


def win_reward_sum(game: str) -> float:
    """What the `win` rewards of one game of `game` sum to over its seats."""
    scheme = games.reward_schemes(game)["win"]
    return float(np.sum(scheme(np.array([[2, 1, 0]]), MARGIN_SCALE)))


def check_games(
    illegal: int,
    returns: Sequence[float] | Sequence[Sequence[float]],
    what: str = "game",
    game: str = "asara",
) -> np.ndarray:
    """`returns` (float[games], one seat's, or float[games, seats], every seat's) as an
    array; AssertionError if an illegal action was taken, no `what` finished, a return
    lies outside [-1, 1], or (every seat's) a game's returns do not sum as `game`'s `win`
    reward does."""
    assert illegal == 0, f"{illegal} illegal actions were taken"
    array = np.asarray(returns, np.float64)
    assert len(array), f"no {what} finished: train for more steps"
    assert np.all(np.abs(array) <= 1.0), f"returns outside [-1, 1]: {array}"
    if array.ndim == 2:
        total = win_reward_sum(game)
        assert np.allclose(array.sum(axis=1), total, atol=1e-6), f"not summing to {total}: {array}"
    return array
