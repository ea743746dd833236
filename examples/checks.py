"""The checks every recipe of examples/ ends with: no illegal action was taken, games
finished, and their returns are those of the `win` reward (each in [-1, 1], and for every
seat's returns of a game, zero-sum)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def check_games(
    illegal: int, returns: Sequence[float] | Sequence[Sequence[float]], what: str = "game"
) -> np.ndarray:
    """`returns` (float[games], one seat's, or float[games, seats], every seat's) as an
    array; AssertionError if an illegal action was taken, no `what` finished, a return
    lies outside [-1, 1], or (every seat's) a game's returns do not sum to zero."""
    assert illegal == 0, f"{illegal} illegal actions were taken"
    array = np.asarray(returns, np.float64)
    assert len(array), f"no {what} finished: train for more steps"
    assert np.all(np.abs(array) <= 1.0), f"returns outside [-1, 1]: {array}"
    if array.ndim == 2:
        assert np.allclose(array.sum(axis=1), 0.0), f"not zero-sum: {array}"
    return array
