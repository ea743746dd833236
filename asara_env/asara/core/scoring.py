"""End-of-year scoring (R6.2) and final scoring (R8, R7.3) for a batch."""

from __future__ import annotations

import numpy as np

from asara_env.asara.constants import (
    ASARI_PER_PRESTIGE,
    COLOUR_AWARDS,
    MAX_TOWERS_PER_COLOUR,
    MOST_TOWERS_AWARD,
    N_TILE_COLOURS,
    TALLEST_AWARD,
)
from asara_env.asara.core.state import CoreState


def year_end_points(state: CoreState, rows: np.ndarray) -> np.ndarray:
    """int[len(rows), P]: towers, visible gold tiles, lighted windows, the Caliph (R6.2)."""
    parts, lit = state.tower_parts[rows], state.tower_lit[rows]
    towers = state.n_towers[rows].sum(axis=2)
    gold = parts[..., 1].sum(axis=(2, 3, 4)) - lit[..., 1].sum(axis=(2, 3))
    caliph = np.arange(state.config.num_players) == state.caliph[rows, None]
    return towers + gold + lit.sum(axis=(2, 3, 4)) + caliph


def ranking_award(keys: np.ndarray, award: tuple[int | np.ndarray, int | np.ndarray]) -> np.ndarray:
    """R8.2 per ranked entry; keys int[n, E], higher is better, -1 = not ranked; award
    (first, second) as ints or as int[n, 1] columns."""
    first, second = award
    ranked = keys >= 0
    best = keys.max(axis=1, keepdims=True)
    is_first = ranked & (keys == best)
    n_first = is_first.sum(axis=1, keepdims=True)
    shared = -(-(first + second) // np.maximum(n_first, 1))
    points = np.where(is_first, np.where(n_first >= 2, shared, first), 0)
    rest = np.where(is_first, -1, keys)
    runner = rest.max(axis=1, keepdims=True)
    is_second = (rest >= 0) & (rest == runner) & (n_first == 1)
    n_second = np.maximum(is_second.sum(axis=1, keepdims=True), 1)
    return points + np.where(is_second, -(-second // n_second), 0)


def final_points(state: CoreState, rows: np.ndarray) -> np.ndarray:
    """int[len(rows), P, 8]: colour awards x5, tallest, most towers, Asari (R8)."""
    n, p = len(rows), state.config.num_players
    parts, lit = state.tower_parts[rows], state.tower_lit[rows]
    exists = np.arange(MAX_TOWERS_PER_COLOUR) < state.n_towers[rows][..., None]  # [n, P, C, 4]
    lit_count = lit.sum(axis=-1)
    key = parts.sum(axis=(-1, -2)).astype(np.int64)
    if state.config.pro:  # R7.3: lighted windows break ties
        key = key * 64 + lit_count
    key = np.where(exists, key, -1)
    out = np.zeros((n, p, 8), np.int64)
    by_colour = key.transpose(0, 2, 1, 3).reshape(n * N_TILE_COLOURS, -1)  # [n*C, P*4]
    awards = np.tile(np.array(COLOUR_AWARDS), (n, 1))  # [n*C, 2]
    points = ranking_award(by_colour, (awards[:, :1], awards[:, 1:]))
    out[:, :, :N_TILE_COLOURS] = (
        points.reshape(n, N_TILE_COLOURS, p, -1).sum(axis=3).transpose(0, 2, 1)
    )
    tallest = ranking_award(key.reshape(n, -1), TALLEST_AWARD)
    out[:, :, 5] = tallest.reshape(n, p, -1).sum(axis=2)
    count = state.n_towers[rows].sum(axis=2).astype(np.int64)
    most = count
    if state.config.pro:  # R7.3
        most = count * 64 + np.where(exists, lit_count, 0).sum(axis=(2, 3))
    out[:, :, 6] = ranking_award(np.where(count > 0, most, -1), MOST_TOWERS_AWARD)
    out[:, :, 7] = state.money[rows] // ASARI_PER_PRESTIGE
    return out
