"""BASARI's chance, as counter-based draws of the game seed (E4).

Every chance value is `draw(seed, round, turn, seat, kind)`: a splitmix64 hash of the
64-bit game seed and the event's coordinates, mapped to a die face, a coin or an archway.
No draw depends on another or on any decision, so the dice are the same whatever the
players do (common random numbers), whatever the batch holds, and in every engine. Every
function takes ints or numpy arrays (broadcast together) and works in uint64.

Coordinates: `round` 0..ROUNDS-1; `turn` the 0-based turn within the round; `seat` the
seat concerned (for the opener coin, the lower seat of the pair); `kind` one of `Kind`.
The start archways (C4) use round 0, turn 0.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numpy.typing import NDArray

from asara_env.basari.constants import DIE_FACES
from asara_env.common import validate

IntLike = int | np.integer | NDArray[np.integer]

# splitmix64's constants: the stream's increment, the finaliser's multipliers and shifts
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX_M1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_M2 = np.uint64(0x94D049BB133111EB)
MIX_SHIFTS = (np.uint64(30), np.uint64(27), np.uint64(31))
COORD_BITS = np.uint64(16)  # each coordinate takes 16 bits of the counter
HALF_BITS = np.uint64(32)  # uniform_int scales the draw's top half
COIN_BIT = np.uint64(63)  # the coin is the draw's top bit


class Kind(IntEnum):
    """The chance events of E4."""

    MOVE = 0  # C1: a seat's movement die
    DIE_ACTION = 1  # C2: the Die action's roll
    COIN = 2  # C3: who opens a barter between tied scores
    START = 3  # C4: a random start archway


def mix64(z: IntLike) -> NDArray[np.uint64]:
    """The splitmix64 finaliser of `z` (uint64, wrapping)."""
    z = np.asarray(z, np.uint64)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> MIX_SHIFTS[0])) * MIX_M1
        z = (z ^ (z >> MIX_SHIFTS[1])) * MIX_M2
    return z ^ (z >> MIX_SHIFTS[2])


def counter(round_: IntLike, turn: IntLike, seat: IntLike, kind: IntLike) -> NDArray[np.uint64]:
    """The event's counter: the four coordinates packed 16 bits each (round highest)."""
    c = np.asarray(round_, np.uint64)
    for part in (turn, seat, kind):
        c = (c << COORD_BITS) | np.asarray(part, np.uint64)
    return c


def draw(
    seed: IntLike, round_: IntLike, turn: IntLike, seat: IntLike, kind: IntLike
) -> NDArray[np.uint64]:
    """uint64: the event's draw, splitmix64's output number `counter + 1` of the stream
    keyed by `mix64(seed)`: mix64(mix64(seed) + (counter + 1) * golden)."""
    with np.errstate(over="ignore"):
        key = mix64(np.asarray(seed, np.uint64))
        return mix64(key + (counter(round_, turn, seat, kind) + np.uint64(1)) * GOLDEN)


def uniform_int(u: IntLike, n: IntLike) -> NDArray[np.int64]:
    """int64 in 0..n-1 from a uint64 draw: the top 32 bits times n, shifted down 32."""
    hi = np.asarray(u, np.uint64) >> HALF_BITS
    return ((hi * np.asarray(n, np.uint64)) >> HALF_BITS).astype(np.int64)


def die(
    seed: IntLike, round_: IntLike, turn: IntLike, seat: IntLike, kind: IntLike
) -> NDArray[np.int64]:
    """int64 die face 1..6 of the event (MOVE or DIE_ACTION)."""
    return 1 + uniform_int(draw(seed, round_, turn, seat, kind), DIE_FACES)


def coin(seed: IntLike, round_: IntLike, turn: IntLike, low_seat: IntLike) -> NDArray[np.int64]:
    """int64 0 or 1 (the top bit of the COIN draw): 0 = the lower seat of the pair opens."""
    return (draw(seed, round_, turn, low_seat, Kind.COIN) >> COIN_BIT).astype(np.int64)


def start_archway(seed: IntLike, seat: IntLike, n_archways: IntLike) -> NDArray[np.int64]:
    """int64 random start archway 0..n_archways-1 of a seat (C4)."""
    return uniform_int(draw(seed, 0, 0, seat, Kind.START), n_archways)


def check_seed(seed: object) -> int:
    """`seed` as an int in [0, 2**64), or a ValueError naming it (the package's one seed
    check, `asara_env.common.validate.check_seed`)."""
    return validate.check_seed("seed", seed)
