"""The core's chance: each game consumes its own tape of doubles exactly as the reference
engine consumes its generator (reference/chance.py): one double per item drawn, the item
at flat position floor(u * total) of the counts in C order."""

from __future__ import annotations

import numpy as np

from .state import TAPE_LENGTH, CoreState


def make_tapes(seeds: np.ndarray) -> np.ndarray:
    """float64[B, TAPE_LENGTH]: the doubles `numpy.random.default_rng(seed)` yields first."""
    return np.stack([np.random.default_rng(int(s)).random(TAPE_LENGTH) for s in seeds])


def draw_one(state: CoreState, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Draw one item for each game in `rows` from `counts` (int[len(rows), K], every row
    non-empty), decrementing it in place; return the flat indices drawn."""
    u = state.tape[rows, state.tape_pos[rows]]
    state.tape_pos[rows] += 1
    position = (u * counts.sum(axis=1)).astype(np.int64)
    index = np.argmax(np.cumsum(counts, axis=1) > position[:, None], axis=1)
    counts[np.arange(len(rows)), index] -= 1
    return index


def draw_many(state: CoreState, rows: np.ndarray, counts: np.ndarray, k) -> np.ndarray:
    """Draw min(k, total) items per game (k an int or int[len(rows)]); return the counts drawn."""
    drawn = np.zeros_like(counts)
    want = np.minimum(np.broadcast_to(k, rows.shape), counts.sum(axis=1))
    for i in range(int(want.max(initial=0))):
        active = np.flatnonzero(want > i)
        sub = counts[active]
        index = draw_one(state, rows[active], sub)
        counts[active] = sub
        drawn[active, index] += 1
    return drawn
