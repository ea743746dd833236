"""What BASARI's heuristics know how to value (docs/basari/rules.md E6), batched over games.

- `majority_delta`: m_c(d), the change in a seat's majority bonus for colour c if its count
  changes by d against the others' current counts (B9.2 shares: 1 alone on top, 1/t for t
  tied on top, 0 otherwise or with none).
- `card_values`: V_die, V_points, V_gems of every ego seat (E6 `value`).
- `BUNDLES`: every bundle of at most `MAX_BUNDLE` gems, in the B8 order (lowest first), with
  its key; the heuristics pick their offers from it.
"""

from __future__ import annotations

import itertools

import numpy as np

from asara_env.basari.constants import (
    DIE_ACTION_BASE,
    DIE_FACES,
    GEMS_PER_COLOUR,
    LAP_BONUS,
    MAJORITY_BONUS,
    N_COLOURS,
)

from .view import View

MAX_BUNDLE = 12  # the heuristics never offer more gems than this in one bundle
DELTAS = np.arange(-GEMS_PER_COLOUR, GEMS_PER_COLOUR + 1)  # the d axis of majority_delta


def gem_flat_value(view: View) -> np.ndarray:
    """float[B]: the flat value of one gem besides majorities, 2 / (P - 1)^2 points: E6
    says 1; a gem paid is a gem a rival gains, which matters most with one rival (2 in
    2-player games, 0.5 in 3, 0.22 in 4; tuned in tournaments against `points_first`)."""
    return 2.0 / np.maximum(view.players - 1, 1) ** 2


MEAN_DIE_POINTS = DIE_ACTION_BASE - (DIE_FACES + 1) / 2  # 2.5


def bundle_key(x: np.ndarray) -> np.ndarray:
    """int64[...]: B8 order as one number (count, then red, yellow, green)."""
    x = np.asarray(x, np.int64)
    return ((x.sum(-1) * 26 + x[..., 0]) * 26 + x[..., 1]) * 26 + x[..., 2]


def _all_bundles(limit: int) -> np.ndarray:
    rows = [b for b in itertools.product(range(limit + 1), repeat=N_COLOURS) if sum(b) <= limit]
    arr = np.array(rows, np.int64)
    return arr[np.argsort(bundle_key(arr), kind="stable")]


BUNDLES = _all_bundles(MAX_BUNDLE)  # int64[M, 4], ascending in the B8 order
BUNDLE_KEYS = bundle_key(BUNDLES)  # int64[M]
BUNDLE_SIZES = BUNDLES.sum(axis=1)  # int64[M]


def shares(gems: np.ndarray, present: np.ndarray) -> np.ndarray:
    """float[B, S, 4, D]: seat s's majority share of colour c if its count changed by
    DELTAS[d] and the other present seats kept theirs."""
    g = np.where(present[:, :, None], gems, -1)  # absent seats never tie or lead
    s = g.shape[1]
    others = np.stack([np.delete(g, j, axis=1) for j in range(s)], axis=1)  # [B, S, S-1, 4]
    top = others.max(axis=2)  # [B, S, 4]
    tied = (others == top[:, :, None, :]).sum(axis=2)  # [B, S, 4]
    mine = gems[:, :, :, None] + DELTAS  # [B, S, 4, D]
    top, tied = top[..., None], tied[..., None]
    share = np.where(mine > top, 1.0, np.where(mine == top, 1.0 / (1 + tied), 0.0))
    return np.where(mine > 0, share, 0.0)


def majority_delta(view: View) -> np.ndarray:
    """float[B, S, 4, D]: m_c(DELTAS[d]) of every ego seat (0 for absent seats)."""
    sh = shares(view.gems, view.present)
    zero = GEMS_PER_COLOUR  # index of d = 0
    bonus = MAJORITY_BONUS[np.maximum(view.round, 0)][:, None, :, None]
    m = bonus * (sh - sh[..., zero : zero + 1])
    return np.where(view.present[:, :, None, None], m, 0.0)


def take_delta(m: np.ndarray, d: np.ndarray) -> np.ndarray:
    """float[...]: m[..., c, d[..., c]] summed over colours (d = count changes per colour)."""
    idx = np.clip(d + GEMS_PER_COLOUR, 0, len(DELTAS) - 1)[..., None]
    return np.take_along_axis(m, idx, axis=-1)[..., 0].sum(axis=-1)


def gems_taken(view: View) -> np.ndarray:
    """int64[B, S, 4]: what the Gemstones card would give each ego seat (carpet cap, B6.1)."""
    pos = np.maximum(view.position, 0)
    shown = np.take_along_axis(view.board_gems, pos[:, :, None], axis=1)  # [B, S, 4]
    return np.minimum(shown, view.carpets[:, None, :])


def card_values(view: View, m: np.ndarray | None = None) -> np.ndarray:
    """float[B, S, 3]: V_die, V_points, V_gems of every ego seat (E6 `value`)."""
    m = majority_delta(view) if m is None else m
    pos = np.maximum(view.position, 0)
    points = np.take_along_axis(view.board_points, pos, axis=1).astype(float)
    g = gems_taken(view)
    v_gems = take_delta(m, g) + gem_flat_value(view)[:, None] * g.sum(axis=-1)
    left = view.lap_left
    p_lap = np.clip(DIE_FACES + 1 - left, 0, DIE_FACES) / DIE_FACES
    v_die = MEAN_DIE_POINTS + LAP_BONUS * np.where(view.lap_done | (left <= 0), 0.0, p_lap)
    return np.stack([v_die, points, v_gems], axis=-1)


def give_cost(m_mine: np.ndarray, bundles: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """float[R, M]: the cost of giving each bundle: majority lost + a flat value per gem (m_mine
    [R, 4, D] is m of the giver)."""
    zero = GEMS_PER_COLOUR
    lost = sum(-m_mine[:, c][:, zero - bundles[:, c]] for c in range(N_COLOURS))
    return lost + flat[:, None] * bundles.sum(-1)[None]


def fitting(held: np.ndarray, bundles: np.ndarray) -> np.ndarray:
    """bool[R, M]: the non-empty bundles that `held` [R, 4] can pay."""
    fits = bundles.sum(-1)[None] > 0
    for c in range(N_COLOURS):
        fits = fits & (bundles[None, :, c] <= held[:, c, None])
    return fits


def receive_gain(m_mine: np.ndarray, bundle: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """float[R]: the gain from receiving `bundle` [R, 4]: majority won + a flat value per gem."""
    return take_delta(m_mine, bundle) + flat * bundle.sum(-1)
