"""The completed-Q transform of the Gumbel root (mctx's `qtransforms.py`): `sigma_of`,
and `completed_sigma`, sigma of a root's q completed by the mixed value."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from .base import C_VISIT
from .tree import Node


def sigma_of(
    completed: NDArray[np.floating],
    masks: NDArray[np.bool_],
    max_visits: float | NDArray[np.floating],
    c_scale: float,
) -> NDArray[np.float64]:
    """float[n, A]: sigma(completed q) of each row's legal actions, 0 for the others: q
    as it is where a row's legal values are win shares, else rescaled to [0, 1] over
    them (constant rows to 0), times (C_VISIT + max_visits) * c_scale (max_visits: one
    number, or float[n] per row)."""
    completed = np.asarray(completed, np.float64)
    low = np.min(np.where(masks, completed, np.inf), axis=1, keepdims=True)
    high = np.max(np.where(masks, completed, -np.inf), axis=1, keepdims=True)
    spread = np.where(high > low, high - low, 1.0)
    rescaled = np.where(high > low, (completed - low) / spread, 0.0)
    scaled = np.where((low >= 0) & (high <= 1), completed, rescaled)
    scale = (C_VISIT + np.reshape(np.asarray(max_visits, np.float64), (-1, 1))) * c_scale
    return np.where(masks, scale * scaled, 0.0)


def completed_sigma(
    root: Node,
    seat: int,
    mask: NDArray[np.bool_],
    logits: NDArray[np.float64],
    value: float,
    c_scale: float,
) -> NDArray[np.float64]:
    """sigma(completed q) per action of `seat` at `root`: q of the visited actions, the
    mixed value (of `value`, the network's value of the root, or NaN: the root's mean)
    for the others, through `sigma_of`."""
    edges = root.edges[seat]
    visits = np.zeros(len(mask))
    q = np.zeros(len(mask))
    for key, e in edges.items():
        if e.backed:
            visits[key], q[key] = e.backed, e.total / e.backed
    seen = visits > 0
    raw = root.mean(seat) if math.isnan(value) else value
    if seen.any():
        prior = np.exp(np.where(mask, logits, -np.inf) - np.max(np.where(mask, logits, -np.inf)))
        prior = prior / prior.sum()
        weighted = float((prior[seen] * q[seen]).sum() / max(prior[seen].sum(), 1e-12))
        mixed = (raw + visits.sum() * weighted) / (1 + visits.sum())
    else:
        mixed = raw
    completed = np.where(seen, q, mixed)
    return np.asarray(sigma_of(completed[None], mask[None], visits.max(), c_scale)[0])
