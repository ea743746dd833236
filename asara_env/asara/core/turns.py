"""The core as the shared opponents' loop sees it (`asara_env.common.opponents`)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.core.observation import observe
from asara_env.asara.core.outcome import current_seat, is_terminal
from asara_env.asara.core.state import CoreState, take
from asara_env.asara.core.step import step
from asara_env.common.opponents import TurnBased


def observe_games(
    state: CoreState, games: NDArray[np.int64], seats: NDArray[np.int64]
) -> NDArray[np.float32]:
    """float32[n, OBS_DIM]: game games[j]'s observation for seat seats[j]."""
    batch = len(state.phase)
    if 2 * len(games) >= batch:  # most games: observe them all, keep the rows asked for
        everyone = state.seat.astype(np.int64)
        everyone[games] = seats
        return observe(state, everyone)[games]
    return observe(take(state, games), seats)


def _mask(state: CoreState, games: NDArray[np.int64]) -> NDArray[np.bool_]:
    return state.legal[games]


def _step(state: CoreState, actions: NDArray[np.int64], games: NDArray[np.int64]) -> None:
    step(state, actions, games=games)


TURNS: TurnBased[CoreState] = TurnBased(
    seat=current_seat, is_terminal=is_terminal, observe=observe_games, mask=_mask, step=_step
)
