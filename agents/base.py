"""The agent interface: an observation and an action mask in, a legal action id out.

An agent sees one seat's observation (`float32[OBS_DIM]`, asara_env.asara.core.observation) and
its action mask (`int8`/`bool[NUM_ACTIONS]`), never the hidden state. `act_batch` does the
same for `[B, ...]` arrays and returns exactly what B calls of `act` in row order would
(same choices, same random numbers used), so single-game and batched play agree. Every
agent is deterministic given its seed: each decision uses one double of its generator to
break ties.
"""

from __future__ import annotations

import numpy as np

LOWEST = -1e9  # the score of a legal action the agent finds worthless (-inf)


class Agent:
    """Base class: subclasses implement `scores` (or override `act_batch`)."""

    name = "agent"

    def __init__(self, seed: int | None = None):
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the agent's random generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for one decision."""
        return int(self.act_batch(observation[None], np.asarray(action_mask)[None])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """int64[B]: one action per row; rows without a legal action are an error."""
        masks = np.asarray(action_masks).astype(bool)
        empty = ~masks.any(axis=1)
        if empty.any():
            raise ValueError(f"action mask of row {int(np.flatnonzero(empty)[0])} is empty")
        floor = np.maximum(self.scores(observations, masks), LOWEST)  # legal beats illegal
        scores = np.where(masks, floor, -np.inf)
        return pick_best(scores, self.rng.random(len(masks)))

    def scores(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float[B, NUM_ACTIONS]: how much the agent likes each legal action (higher is
        better); ties are broken uniformly at random."""
        raise NotImplementedError


def pick_best(scores: np.ndarray, u: np.ndarray) -> np.ndarray:
    """int64[B]: per row, the k-th of the best-scoring actions with k = floor(u * count)."""
    best = scores == scores.max(axis=1, keepdims=True)
    ranks = np.cumsum(best, axis=1)
    k = (u * ranks[:, -1]).astype(np.int64)
    return np.argmax(ranks > k[:, None], axis=1).astype(np.int64)
