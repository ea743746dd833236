"""All chance of the game. Each item drawn consumes exactly one `rng.random()` double.

Drawing from a multiset of counts: with u = rng.random() and T the total count, the item
drawn is the one at flat position floor(u * T) of the counts in C order. A vectorised
engine that holds the same doubles reproduces every draw.
"""

from __future__ import annotations

import numpy as np


def draw_one(rng: np.random.Generator, counts: np.ndarray) -> tuple[int, ...]:
    """Remove one item uniformly at random from `counts` (in place); return its index."""
    flat = counts.reshape(-1)
    total = int(flat.sum())
    if total <= 0:
        raise ValueError("cannot draw from an empty pile")
    position = int(rng.random() * total)
    index = int(np.searchsorted(np.cumsum(flat), position, side="right"))
    flat[index] -= 1
    return tuple(int(i) for i in np.unravel_index(index, counts.shape))


def draw_many(rng: np.random.Generator, counts: np.ndarray, k: int) -> np.ndarray:
    """Remove min(k, total) items from `counts` (in place); return the counts drawn."""
    drawn = np.zeros_like(counts)
    for _ in range(min(k, int(counts.sum()))):
        drawn[draw_one(rng, counts)] += 1
    return drawn


def shuffled_order(rng: np.random.Generator, counts: np.ndarray) -> list[int]:
    """Every item of a 1-d multiset in random order (a shuffled stack, top first)."""
    pool = counts.copy()
    return [draw_one(rng, pool)[0] for _ in range(int(counts.sum()))]
