"""What one seat of a BASARI game cannot know, redrawn: the determinisations of a search
(and of OpenSpiel's `resample_from_infostate`) on the core's arrays.

A seat sees the whole board, every holding and every revealed card; what it does not see is

- the future chance (E4): every die, coin and draw still to come is a function of the game
  `seed`, which no observation shows, so a world gets a fresh seed from the generator (the
  chance already drawn, this turn's rolls included, is in the state and stays);
- the bundle another seat is building in a barter (`pending`, E2: only the acting seat
  sees it): its size is public (one step per gem added) but not its colours, so a world
  redraws them gem by gem, each uniform among the colours the builder could still add
  (it holds more of them than the bundle has);
- the other seats' choices of this step (their cards at SELECT, their archways at SETUP):
  they are not in the state at all (the search chooses them; see `agents/search`).

`determinise(state, games, seats, rng)` returns one world per entry of `games`: game
games[i] of the batch as seats[i] may imagine it. Every world takes the same count of
random numbers from `rng` (`N_UNIFORMS` doubles and one seed), and what it redraws depends
only on what the seat sees, so two games the seat cannot tell apart give the same worlds.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from asara_env.basari.constants import GEMS_PER_COLOUR, N_COLOURS
from asara_env.basari.core.mask import write_mask
from asara_env.basari.core.state import BasariState, take

N_UNIFORMS = N_COLOURS * GEMS_PER_COLOUR  # doubles per world: one per gem a bundle may hold
SEED_HIGH = np.iinfo(np.uint64).max


def determinise(
    state: BasariState,
    games: NDArray[np.integer],
    seats: NDArray[np.integer],
    rng: np.random.Generator,
) -> BasariState:
    """One world per entry of `games`: game games[i] of `state` with what seats[i] cannot
    know (the seed, another seat's bundle in progress) drawn from `rng`."""
    games, seats = np.asarray(games, np.int64), np.asarray(seats, np.int64)
    if games.shape != seats.shape or games.ndim != 1:
        raise ValueError(f"games and seats must be int[n] alike, got {games.shape}, {seats.shape}")
    players = state.config.num_players
    if len(seats) and (seats.min() < 0 or seats.max() >= players):
        raise ValueError(f"seats must be in 0..{players - 1}, got {seats.tolist()}")
    worlds = take(state, games)
    n = len(games)
    worlds.seed[:] = rng.integers(0, SEED_HIGH, n, dtype=np.uint64, endpoint=True)
    u = rng.random((n, N_UNIFORMS))
    hidden = (worlds.to_act >= 0) & (worlds.to_act != seats) & worlds.pending.any(axis=1)
    rows = np.flatnonzero(hidden)
    if rows.size:
        _redraw_bundles(worlds, rows, u[rows])
        write_mask(worlds, rows)
    return worlds


def _redraw_bundles(worlds: BasariState, rows: NDArray[np.int64], u: NDArray[np.float64]) -> None:
    """The bundles in progress of games `rows`, redrawn gem by gem (their sizes kept), each
    gem uniform among the colours of which the builder holds more than the bundle has."""
    held = worlds.gems[rows, worlds.to_act[rows].astype(np.int64)].astype(np.int64)  # [n, C]
    size = worlds.pending[rows].sum(axis=1, dtype=np.int64)
    bundle = np.zeros_like(held)
    for k in range(int(size.max())):
        growing = k < size
        room = held > bundle
        count = room.sum(axis=1)
        pick = np.minimum((u[:, k] * count).astype(np.int64), np.maximum(count - 1, 0))
        colour = np.argmax(np.cumsum(room, axis=1) > pick[:, None], axis=1)
        bundle[np.flatnonzero(growing), colour[growing]] += 1
    worlds.pending[rows] = bundle.astype(worlds.pending.dtype)
