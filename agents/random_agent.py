"""The uniform random agent."""

from __future__ import annotations

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions; deterministic given its seed."""

    name = "random"

    def scores(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.zeros(masks.shape)
