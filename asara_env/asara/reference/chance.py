"""All chance of the game, from the game's `numpy.random.Generator`.

Two primitives, each consuming a fixed number of `rng.random()` doubles:
- shuffling a pile (deals, display refills, the lighted-window stack): one double per
  item, the items (in C order of their counts) sorted by their doubles, stable;
- drawing one item (recruiting): one double u, the item at flat position floor(u * total)
  of the counts in C order.
A vectorised engine that holds the same doubles reproduces every outcome.
"""

from __future__ import annotations

import numpy as np


def shuffled(rng: np.random.Generator, counts: np.ndarray) -> np.ndarray:
    """The flat indices of every item of `counts`, in random order (top first)."""
    flat = counts.reshape(-1)
    items = np.repeat(np.arange(flat.size), flat)
    if items.size == 0:
        return items
    return items[np.argsort(rng.random(items.size), kind="stable")]


def take_top(rng: np.random.Generator, counts: np.ndarray, k: int) -> np.ndarray:
    """Shuffle `counts` and remove its top min(k, total) items (in place); return the counts
    taken. Nothing is drawn when k <= 0."""
    if k <= 0:
        return np.zeros_like(counts)
    top = shuffled(rng, counts)[:k]
    taken = np.bincount(top, minlength=counts.size).reshape(counts.shape)
    counts -= taken
    return taken


def deal(rng: np.random.Generator, deck: np.ndarray, players: int, hand: int) -> np.ndarray:
    """Shuffle `deck` (int[colour]) and deal `hand` cards to each seat from the top, seat 0
    first; remove them from `deck` (in place) and return int[players, colour]."""
    order = shuffled(rng, deck)
    hands = np.stack(
        [np.bincount(order[s * hand : (s + 1) * hand], minlength=deck.size) for s in range(players)]
    )
    deck -= hands.sum(axis=0)
    return hands


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
    """Remove min(k, total) items one by one (in place); return the counts drawn."""
    drawn = np.zeros_like(counts)
    for _ in range(min(k, int(counts.sum()))):
        drawn[draw_one(rng, counts)] += 1
    return drawn
