"""The core's chance: each game consumes its own tape of doubles exactly as the reference
engine consumes its generator (reference/chance.py): shuffles sort one double per item,
single draws take the item at flat position floor(u * total)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.core.state import TAPE_LENGTH, CoreState


def make_tapes(seeds: np.ndarray) -> NDArray[np.float64]:
    """float64[B, TAPE_LENGTH]: the doubles `numpy.random.default_rng(seed)` yields first."""
    return np.stack([np.random.default_rng(int(s)).random(TAPE_LENGTH) for s in seeds])


def _doubles(
    state: CoreState, rows: np.ndarray, start: np.ndarray, count: np.ndarray
) -> NDArray[np.float64]:
    """float64[n, max(count)]: `count` doubles of game rows[i] from tape position start[i],
    2.0 past its count (so that they sort last)."""
    width = int(count.max(initial=0))
    j = np.arange(width)
    position = start[:, None] + j
    if position.size and position.max() >= TAPE_LENGTH:
        raise RuntimeError("a game used more chance than TAPE_LENGTH provides")
    flat = rows[:, None] * TAPE_LENGTH + np.minimum(position, TAPE_LENGTH - 1)
    return np.where(j < count[:, None], np.take(state.tape, flat), 2.0)


def _shuffled_piles(
    state: CoreState, rows: np.ndarray, counts: np.ndarray, use: bool | np.ndarray
) -> np.ndarray:
    """int[n, m, T]: each game's m piles (counts [n, m, K]) shuffled one after the other,
    items as indices into K, -1 past each pile's size; piles with use=False draw nothing."""
    n, m, k = counts.shape
    total = np.where(use, counts.sum(axis=2), 0)  # [n, m]
    start = state.tape_pos[rows][:, None] + np.cumsum(total, axis=1) - total
    state.tape_pos[rows] += total.sum(axis=1).astype(np.int32)
    flat_counts, flat_total = counts.reshape(n * m, k), total.reshape(-1)
    width = int(flat_total.max(initial=0))
    j = np.arange(width)
    items = _items(np.cumsum(flat_counts, axis=1), width)  # [n*m, T] item at position j
    u = _doubles(state, np.repeat(rows, m), start.reshape(-1), flat_total)
    order = np.argsort(u, axis=1, kind="stable") + (np.arange(n * m) * width)[:, None]
    items = np.where(j < flat_total[:, None], np.take(items, order), -1)
    return items.reshape(n, m, width)


def _items(edges: np.ndarray, width: int) -> np.ndarray:
    """int[R, width]: the item at each position of piles laid out item by item, from their
    cumulative counts edges [R, K] (K past the end): how many edges are <= the position.
    One searchsorted over all rows, each shifted past the previous one's values."""
    r, k = edges.shape
    stride = max(width, int(edges[:, -1].max(initial=0))) + 1  # past every edge and position
    shift = np.arange(r)[:, None] * stride
    found = np.searchsorted((edges + shift).ravel(), (np.arange(width) + shift).ravel(), "right")
    return found.reshape(r, width) - np.arange(r)[:, None] * k


def shuffled(
    state: CoreState, rows: np.ndarray, counts: np.ndarray, use: bool | np.ndarray = True
) -> np.ndarray:
    """int[n, T]: the items (flat indices of `counts` [n, K]) of each game's pile in random
    order, -1 past its size; games with use=False draw nothing."""
    return _shuffled_piles(state, rows, counts[:, None, :], np.asarray(use)[..., None])[:, 0]


def count_items(items: np.ndarray, size: int) -> np.ndarray:
    """int[n, size]: how often each item appears per row (-1 entries ignored)."""
    return (items[:, :, None] == np.arange(size)).sum(axis=1)


def take_top(state: CoreState, rows: np.ndarray, counts: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Shuffle each of the m piles of each game (counts [n, m, K], in order) and remove
    its top min(k, total) items (in place); return the counts taken. Piles with k <= 0
    draw nothing."""
    items = _shuffled_piles(state, rows, counts, k > 0)
    top = np.where(np.arange(items.shape[2]) < k[..., None], items, -1)
    taken = (top[..., None] == np.arange(counts.shape[2])).sum(axis=2)
    counts -= taken
    return taken


def deal(
    state: CoreState, rows: np.ndarray, deck: np.ndarray, players: int, hand: int
) -> np.ndarray:
    """Shuffle each deck [n, colour] and deal `hand` cards per seat, seat 0 first; remove
    them from `deck` (in place) and return int[n, players, colour]."""
    items = shuffled(state, rows, deck)
    hands = np.stack(
        [count_items(items[:, s * hand : (s + 1) * hand], deck.shape[1]) for s in range(players)],
        axis=1,
    )
    deck -= hands.sum(axis=1)
    return hands


def draw_one(state: CoreState, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Draw one item for each game in `rows` from `counts` (int[n, K], every row
    non-empty), decrementing it in place; return the flat indices drawn."""
    u = state.tape[rows, state.tape_pos[rows]]
    state.tape_pos[rows] += 1
    position = (u * counts.sum(axis=1)).astype(np.int64)
    index = np.argmax(np.cumsum(counts, axis=1) > position[:, None], axis=1)
    counts[np.arange(len(rows)), index] -= 1
    return index


def draw_many(state: CoreState, rows: np.ndarray, counts: np.ndarray, k: int) -> np.ndarray:
    """Draw min(k, total) items per game one by one; return the counts drawn."""
    drawn = np.zeros_like(counts)
    want = np.minimum(k, counts.sum(axis=1))
    for i in range(int(want.max(initial=0))):
        active = (want > i).nonzero()[0]
        sub = counts[active]
        index = draw_one(state, rows[active], sub)
        counts[active] = sub
        drawn[active, index] += 1
    return drawn
