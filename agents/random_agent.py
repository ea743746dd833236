"""The uniform random agent."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    """Chooses uniformly among the legal actions; deterministic given its seed."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask has no legal action")
        return int(self.rng.choice(legal))
