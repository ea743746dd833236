"""The observation of `asara_env.basari.core.observation.observe` (E3), written entry by
entry for every seat of every game; the offsets come from its slice tables (`Layout`)."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numba
import numpy as np

from asara_env.basari.constants import MAX_PLAYERS, N_CARDS, N_COLOURS, ROUNDS
from asara_env.basari.core.kernels.arrays import Arrays, Rules
from asara_env.basari.core.observation import (
    GEM_SCALE,
    POINTS_SCALE,
    RAISES_SCALE,
    SCORE_SCALE,
    obs_index,
    seat_index,
)
from asara_env.basari.phases import N_PHASES


class Layout(NamedTuple):
    """The first entry of every slice of the observation of a board of N archways (the
    `seat_*` ones within a seat's block) and the block's size."""

    phase: int
    round: int
    turn_in_round: int
    carpets: int
    board: int
    seats: int
    barter_card: int
    offer: int
    offer_by: int
    offer_exists: int
    raises: int
    queued_card: int
    pending: int
    seat_size: int
    seat_present: int
    seat_score: int
    seat_gems: int
    seat_position: int
    seat_lap_left: int
    seat_lap_done: int
    seat_archway: int
    seat_card: int
    seat_barter_role: int


@lru_cache(maxsize=16)
def layout(n: int) -> Layout:
    """The offsets of the observation of a board of `n` archways."""
    top, seat = obs_index(n), seat_index(n)
    size = seat["barter_role"].stop
    assert (top["seats"].stop - top["seats"].start) == MAX_PLAYERS * size
    firsts = {name: top[name].start for name in Layout._fields if name in top}
    firsts |= {f"seat_{name}": sl.start for name, sl in seat.items()}
    return Layout(seat_size=size, **firsts)


@numba.njit(cache=True)
def observe_games(s: Arrays, k: Rules, o: Layout, out: np.ndarray) -> None:
    """Write every seat's ego-centric observation of every game into `out`
    float32[B, P, OBS_SIZE] (all zeros on entry)."""
    p = s.score.shape[1]
    for g in range(s.phase.shape[0]):
        public(s, k, o, g, out[g, 0])
        for viewer in range(1, p):
            for i in range(out.shape[2]):
                out[g, viewer, i] = out[g, 0, i]
        for viewer in range(p):
            private(s, k, o, g, viewer, out[g, viewer])


@numba.njit(cache=True)
def one_hot(row: np.ndarray, at: int, index: int, size: int) -> None:
    """row[at + index] = 1 where 0 <= index < size (no entry otherwise, as for -1)."""
    if 0 <= index < size:
        row[at + index] = 1.0


@numba.njit(cache=True)
def public(s: Arrays, k: Rules, o: Layout, g: int, row: np.ndarray) -> None:
    """The entries that are the same for every viewer of game g."""
    n = k.n_archways
    one_hot(row, o.phase, int(s.phase[g]), N_PHASES)
    one_hot(row, o.round, int(s.round[g]), ROUNDS)
    row[o.turn_in_round] = s.turn[g] / n
    for c in range(N_COLOURS):
        row[o.carpets + c] = s.carpet[g, c] / GEM_SCALE
        row[o.offer + c] = s.offer[g, c] / GEM_SCALE
    features = 1 + N_COLOURS
    for a in range(n):
        row[o.board + a * features] = k.points[a] / POINTS_SCALE
        for c in range(N_COLOURS):
            row[o.board + a * features + 1 + c] = k.board_gems[a, c] / GEM_SCALE
    one_hot(row, o.barter_card, int(s.barter_card[g]), N_CARDS)
    row[o.offer_exists] = s.offer_by[g] >= 0
    row[o.raises] = max(s.offers[g] - 1, 0) / RAISES_SCALE
    one_hot(row, o.queued_card, int(s.queued_card[g]), N_CARDS)


@numba.njit(cache=True)
def private(s: Arrays, k: Rules, o: Layout, g: int, viewer: int, row: np.ndarray) -> None:
    """The entries that depend on the viewer: the seat blocks in ego order, the offerer
    as an ego seat and the bundle being built (the acting seat's alone)."""
    p = s.score.shape[1]
    for ego in range(p):
        seat_block(s, k, o, g, (viewer + ego) % p, row, o.seats + ego * o.seat_size)
    by = int(s.offer_by[g])
    if by >= 0:
        one_hot(row, o.offer_by, (by - viewer) % p, p)
    if viewer == s.to_act[g]:
        for c in range(N_COLOURS):
            row[o.pending + c] = s.pending[g, c] / GEM_SCALE


@numba.njit(cache=True)
def seat_block(s: Arrays, k: Rules, o: Layout, g: int, seat: int, row: np.ndarray, at: int) -> None:
    """Seat `seat`'s public block of game g, written from `row[at]` on."""
    n = k.n_archways
    row[at + o.seat_present] = 1.0
    row[at + o.seat_score] = s.score[g, seat] / SCORE_SCALE
    for c in range(N_COLOURS):
        row[at + o.seat_gems + c] = s.gems[g, seat, c] / GEM_SCALE
    pos = s.position[g, seat]
    if 0 <= pos < n:
        row[at + o.seat_position + pos] = 1.0
        row[at + o.seat_archway] = k.points[pos] / POINTS_SCALE
        for c in range(N_COLOURS):
            row[at + o.seat_archway + 1 + c] = k.board_gems[pos, c] / GEM_SCALE
    progress = s.progress[g, seat]
    row[at + o.seat_lap_left] = max(n - progress, 0) / n
    row[at + o.seat_lap_done] = progress >= n
    one_hot(row, at + o.seat_card, 1 + int(s.revealed[g, seat]), 1 + N_CARDS)
    role = at + o.seat_barter_role
    row[role] = seat == s.opener[g] or seat == s.responder[g]
    row[role + 1] = seat == s.opener[g]
    row[role + 2] = seat == s.to_act[g]
