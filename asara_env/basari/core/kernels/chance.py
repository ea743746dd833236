"""The counter-based draws of E4 (`asara_env.basari.chance`) for one event at a time, in
uint64 arithmetic that wraps as numpy's does. Small functions that take no state, called
from many places: compiled on their own (`ENTRY`), not inlined into each caller (inlined,
the step measured a few per cent slower at large batches and compiled no quicker)."""

from __future__ import annotations

import numba
import numpy as np

from asara_env.basari.chance import (
    COIN_BIT,
    COORD_BITS,
    GOLDEN,
    HALF_BITS,
    MIX_M1,
    MIX_M2,
    MIX_SHIFTS,
    Kind,
)
from asara_env.basari.constants import DIE_FACES
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import ENTRY

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

SHIFT_1, SHIFT_2, SHIFT_3 = MIX_SHIFTS
ONE = np.uint64(1)
MOVE, DIE_ACTION, COIN = int(Kind.MOVE), int(Kind.DIE_ACTION), int(Kind.COIN)


@numba.njit(**ENTRY)
def mix64(z: np.uint64) -> np.uint64:
    """The splitmix64 finaliser of `z`."""
    z = (z ^ (z >> SHIFT_1)) * MIX_M1
    z = (z ^ (z >> SHIFT_2)) * MIX_M2
    return z ^ (z >> SHIFT_3)


@numba.njit(**ENTRY)
def draw(seed: np.uint64, round_: int, turn: int, seat: int, kind: int) -> np.uint64:
    """The event's draw: mix64(mix64(seed) + (counter + 1) * golden), the counter the four
    coordinates packed 16 bits each (round highest)."""
    c = np.uint64(round_)
    c = (c << COORD_BITS) | np.uint64(turn)
    c = (c << COORD_BITS) | np.uint64(seat)
    c = (c << COORD_BITS) | np.uint64(kind)
    return mix64(mix64(np.uint64(seed)) + (c + ONE) * GOLDEN)


@numba.njit(**ENTRY)
def die(seed: np.uint64, round_: int, turn: int, seat: int, kind: int) -> int:
    """Die face 1..6 of the event (MOVE or DIE_ACTION)."""
    hi = draw(seed, round_, turn, seat, kind) >> HALF_BITS
    return 1 + int((hi * np.uint64(DIE_FACES)) >> HALF_BITS)


@numba.njit(**ENTRY)
def coin(seed: np.uint64, round_: int, turn: int, low_seat: int) -> int:
    """0 or 1, the top bit of the COIN draw: 0 = the lower seat of the pair opens."""
    return int(draw(seed, round_, turn, low_seat, COIN) >> COIN_BIT)
