"""ASARA's core with numba kernels: the verbs of `asara_env.asara.core` over the same
`CoreState` arrays, `step`, the legal mask it keeps and `observe` compiled (the kernels in
`asara_env.asara.core.kernels`); `load_core("asara", "numba")` takes every other name
from the numpy core.

    from asara_env import games
    core = games.load_core("asara", backend="numba")   # this module
    state = core.init(config, batch=1, seeds=0)
    core.step(state, actions); core.observe(state)     # the same bytes as the numpy core

Games played here are bit-identical to the numpy core's (and so to the reference
engine's): every field after every step, the masks and the observations of every seat.
The end of a year (its scoring and the next year's deal, drawing the same doubles from
each game's tape) is compiled too. The kernels loop over the games one by
one on one thread, at every batch size: a game's step, mask and observation touch only
that game's entries, and the kernels that allocate nothing are compiled without reference
counting, so a game costs less than its share of the numpy core's vectorised verbs even at
thousands of games (benchmarks/asara/bench_core.py measures both). The kernels compile on
first use in a process and are cached on disk (numba's `cache=True`, beside the sources or
in $NUMBA_CACHE_DIR), so later processes load them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asara_env.asara.config import GameConfig
from asara_env.asara.core import (
    CoreState,
    current_seat,
    init,
    is_terminal,
)
from asara_env.asara.core.kernels import mask as mask_kernels
from asara_env.asara.core.kernels import observe as observe_kernels
from asara_env.asara.core.kernels import step as step_kernels
from asara_env.asara.core.kernels.arrays import arrays, rules_of
from asara_env.asara.core.kernels.mask import N_SCRATCH
from asara_env.asara.core.observation import OBS_DIM, output_buffer, viewers_of
from asara_env.asara.core.step import illegal_error, step_arguments
from asara_env.common.opponents import TurnBased

__all__ = ["TURNS", "observe", "observe_games", "step", "warm_up"]  # the rest: the numpy core's


def step(
    state: CoreState,
    actions: ArrayLike,
    on_illegal: str = "raise",
    games: ArrayLike | None = None,
) -> NDArray[np.bool_]:
    """As `asara_env.asara.core.step` (the same checks, errors and results), compiled."""
    batch = len(state.phase)
    if _plain(actions, batch) and games is None and on_illegal == "raise":
        rows = np.arange(batch)  # the common call, whose checks of form are these
        actions = np.asarray(actions)
    else:
        rows, actions = step_arguments(state, actions, on_illegal, games)
    wide = actions.astype(np.int64)
    if actions.dtype == np.uint64:  # ids past int64's range are simply illegal
        wide[actions > np.iinfo(np.int64).max] = -1
    rules, work = rules_of(state.config), np.empty(N_SCRATCH, np.int64)
    ok, applies = np.empty(len(rows), bool), np.empty(len(rows), bool)
    strict = on_illegal == "raise"
    step_kernels.apply_actions(arrays(state), rules, rows, wide, strict, ok, applies, work)
    if on_illegal == "raise" and not ok.all():
        raise illegal_error(state, rows, actions, int(np.flatnonzero(~ok)[0]))
    return ~ok


def _plain(actions: object, batch: int) -> bool:
    """`actions` is an integer array of shape (batch,)."""
    return (
        isinstance(actions, np.ndarray) and actions.dtype.kind in "iu" and actions.shape == (batch,)
    )


def observe(
    state: CoreState,
    seat: int | np.integer[Any] | NDArray[np.integer[Any]] | None = None,
    out: NDArray[np.float32] | None = None,
) -> NDArray[np.float32]:
    """As `asara_env.asara.core.observe` (float32[B, OBS_DIM] for `seat`, by default the
    seat to decide, written into `out` when given), compiled."""
    batch = len(state.phase)
    viewer = viewers_of(state, state.seat if seat is None else seat)
    out = output_buffer(out, batch)
    if isinstance(viewer, int):
        viewers = np.full(batch, viewer, np.int64)
    else:
        viewers = np.ascontiguousarray(viewer, np.int64)
    _observe_into(out, state, np.arange(batch), viewers)
    return out


def _observe_into(
    out: NDArray[np.float32],
    state: CoreState,
    games: NDArray[np.int64],
    viewers: NDArray[np.int64],
) -> None:
    rules = rules_of(state.config)
    observe_kernels.observe_games(arrays(state), rules, games, viewers, out)


def observe_games(
    state: CoreState, games: NDArray[np.int64], seats: NDArray[np.int64]
) -> NDArray[np.float32]:
    """float32[n, OBS_DIM]: game games[j]'s observation for seat seats[j]."""
    p = state.config.num_players
    games, seats = np.asarray(games, np.int64), np.asarray(seats, np.int64)
    if len(seats) and (seats.min() < 0 or seats.max() >= p):
        raise ValueError(f"seats must be in 0..{p - 1}, got {np.unique(seats).tolist()}")
    out = np.empty((len(games), OBS_DIM), np.float32)
    _observe_into(out, state, games, seats)
    return out


def _mask(state: CoreState, games: NDArray[np.int64]) -> NDArray[np.bool_]:
    return state.legal[games]


def _step(state: CoreState, actions: NDArray[np.int64], games: NDArray[np.int64]) -> None:
    step(state, actions, games=games)


TURNS = TurnBased(  # the compiled core's own, over its step and observe
    seat=current_seat, is_terminal=is_terminal, observe=observe_games, mask=_mask, step=_step
)


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel now rather than at first use."""
    config = GameConfig(num_players=2, variant="pro", expansions=("gifts",))
    state = init(config, 1, seeds=0)
    step(state, [int(np.flatnonzero(state.legal[0])[0])])
    observe(state)
    work = np.empty(N_SCRATCH, np.int64)
    mask_kernels.write_masks(arrays(state), rules_of(config), np.arange(1), work)
