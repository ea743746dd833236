"""Per-game seeds derived from one batch seed (splitmix64), shared by every game's core.

Game i of a batch seeded s is the reference game seeded `derived_seed(s, i)`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def derived_seeds(
    seed: int | NDArray[np.integer], game: int | NDArray[np.integer]
) -> NDArray[np.uint64]:
    """uint64 reference seeds of games `game` of a batch seeded `seed` (arrays or ints):
    splitmix64 of seed * golden ratio + game, shifted to 63 bits."""
    with np.errstate(over="ignore"):
        z = np.asarray(seed, np.uint64) * _GOLDEN + np.asarray(game, np.uint64)
        z = z + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return np.asarray((z ^ (z >> np.uint64(31))) >> np.uint64(1), np.uint64)


def derived_seed(seed: int, game: int) -> int:
    """The reference-engine seed of game `game` of a batch seeded `seed`."""
    return int(derived_seeds(seed % 2**64, game))
