"""The observation of `asara_env.basari.core.observation.observe` (E3), written entry by
entry for every seat of every game; the offsets come from its slice tables (`Layout`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

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
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import ENTRY, INLINED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads


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
def layout(n: int) -> tuple[int, ...]:
    """The offsets of the observation of a board of `n` archways (a `Layout` as a plain
    tuple)."""
    top, seat = obs_index(n), seat_index(n)
    size = seat["barter_role"].stop
    assert (top["seats"].stop - top["seats"].start) == MAX_PLAYERS * size
    firsts = {name: top[name].start for name in Layout._fields if name in top}
    firsts |= {f"seat_{name}": sl.start for name, sl in seat.items()}
    return tuple(Layout(seat_size=size, **firsts))


@numba.njit(**ENTRY)
def observe_games(
    state: tuple[np.ndarray, ...],
    rules: tuple[Any, ...],
    offsets: tuple[int, ...],
    out: np.ndarray,
) -> None:
    """Write every seat's ego-centric observation of every game of `state` (the `Arrays`
    as a plain tuple; `rules` the `Rules`, `offsets` the `Layout`) into `out`
    float32[B, P, OBS_SIZE] (all zeros on entry)."""
    s, k, o = Arrays(*state), Rules(*rules), Layout(*offsets)
    p, size = s.score.shape[1], out.shape[2]
    for g in range(s.phase.shape[0]):
        write_shared(s, k, o, out, g)
        for viewer in range(1, p):
            for i in range(size):
                out[g, viewer, i] = out[g, 0, i]
        for viewer in range(p):
            write_own(s, k, o, out, g, viewer)


@numba.njit(**INLINED)
def write_shared(s: Arrays, k: Rules, o: Layout, out: np.ndarray, g: int) -> None:
    """The entries every viewer of game g shares, written for viewer 0."""
    carpet, offer, offer_by = s.carpet, s.offer, s.offer_by
    n, points, board_gems = k.n_archways, k.points, k.board_gems
    one_hot(out, g, 0, o.phase, int(s.phase[g]), N_PHASES)
    one_hot(out, g, 0, o.round, int(s.round[g]), ROUNDS)
    out[g, 0, o.turn_in_round] = s.turn[g] / n
    for c in range(N_COLOURS):
        out[g, 0, o.carpets + c] = carpet[g, c] / GEM_SCALE
        out[g, 0, o.offer + c] = offer[g, c] / GEM_SCALE
    for a in range(n):
        at = o.board + a * (1 + N_COLOURS)
        out[g, 0, at] = points[a] / POINTS_SCALE
        for c in range(N_COLOURS):
            out[g, 0, at + 1 + c] = board_gems[a, c] / GEM_SCALE
    one_hot(out, g, 0, o.barter_card, int(s.barter_card[g]), N_CARDS)
    out[g, 0, o.offer_exists] = offer_by[g] >= 0
    out[g, 0, o.raises] = max(s.offers[g] - 1, 0) / RAISES_SCALE
    one_hot(out, g, 0, o.queued_card, int(s.queued_card[g]), N_CARDS)


@numba.njit(**INLINED)
def write_own(s: Arrays, k: Rules, o: Layout, out: np.ndarray, g: int, viewer: int) -> None:
    """The entries of game g that depend on `viewer`: the seat blocks in ego order, the
    offerer as an ego seat, the bundle being built (the acting seat's alone)."""
    score, gems, position, progress, revealed = s.score, s.gems, s.position, s.progress, s.revealed
    opener, responder, to_act = s.opener[g], s.responder[g], s.to_act[g]
    n, points, board_gems = k.n_archways, k.points, k.board_gems
    p = score.shape[1]
    for ego in range(p):
        seat = (viewer + ego) % p
        at = o.seats + ego * o.seat_size
        out[g, viewer, at + o.seat_present] = 1.0
        out[g, viewer, at + o.seat_score] = score[g, seat] / SCORE_SCALE
        for c in range(N_COLOURS):
            out[g, viewer, at + o.seat_gems + c] = gems[g, seat, c] / GEM_SCALE
        pos = position[g, seat]
        if 0 <= pos < n:
            out[g, viewer, at + o.seat_position + pos] = 1.0
            out[g, viewer, at + o.seat_archway] = points[pos] / POINTS_SCALE
            for c in range(N_COLOURS):
                out[g, viewer, at + o.seat_archway + 1 + c] = board_gems[pos, c] / GEM_SCALE
        out[g, viewer, at + o.seat_lap_left] = max(n - progress[g, seat], 0) / n
        out[g, viewer, at + o.seat_lap_done] = progress[g, seat] >= n
        one_hot(out, g, viewer, at + o.seat_card, 1 + int(revealed[g, seat]), 1 + N_CARDS)
        role = at + o.seat_barter_role
        out[g, viewer, role] = seat in (opener, responder)
        out[g, viewer, role + 1] = seat == opener
        out[g, viewer, role + 2] = seat == to_act
    by = int(s.offer_by[g])
    if by >= 0:
        one_hot(out, g, viewer, o.offer_by, (by - viewer) % p, p)
    if viewer == to_act:
        for c in range(N_COLOURS):
            out[g, viewer, o.pending + c] = s.pending[g, c] / GEM_SCALE


@numba.njit(**INLINED)
def one_hot(out: np.ndarray, g: int, viewer: int, at: int, index: int, size: int) -> None:
    """out[g, viewer, at + index] = 1 where 0 <= index < size (nothing otherwise, as for
    the -1 of an absent item)."""
    if 0 <= index < size:
        out[g, viewer, at + index] = 1.0
