"""Random batched BASARI games for the core's differential and conformance tests."""

from __future__ import annotations

import numpy as np

from asara_env.basari.actions import Group
from asara_env.basari.config import BasariConfig

CONFIGS = [
    BasariConfig(num_players=p, start_mode=m) for p in (2, 3, 4) for m in ("choose", "random")
]
IDS = [f"{c.num_players}p-{c.start_mode}" for c in CONFIGS]
# a small user board (B2.4 replaced): 10 archways, every colour on some archway
SMALL_BOARD = np.array(
    [[4, 1, 1, 0, 0], [5, 0, 2, 0, 1], [6, 0, 0, 3, 0], [7, 0, 0, 0, 2], [4, 2, 0, 1, 1],
     [5, 1, 0, 0, 1], [6, 0, 1, 1, 0], [7, 1, 0, 0, 0], [4, 0, 0, 2, 2], [5, 1, 1, 1, 1]]
)  # fmt: skip


def closing_weights(config: BasariConfig, closing: np.ndarray) -> np.ndarray:
    """float[B, A]: per game, weight `closing[b]` on ACCEPT, FORFEIT and SUBMIT and 1 on
    every other id (closing = 1 is uniform over the legal ids; more ends barters sooner)."""
    lay = config.actions
    w = np.ones((len(closing), lay.n_actions))
    for g in (Group.ACCEPT, Group.FORFEIT, Group.SUBMIT):
        w[:, lay.offset(g)] = closing
    return w


def sample(mask: np.ndarray, weights: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int64[B, P]: one legal id per seat, drawn with probability proportional to
    `weights[b]` among the legal ids (mask bool[B, P, A])."""
    w = np.where(mask, weights[:, None, :], 0.0)
    u = rng.random(mask.shape[:2])[..., None] * w.sum(axis=2, keepdims=True)
    return (w.cumsum(axis=2) <= u).sum(axis=2).clip(max=mask.shape[2] - 1)
