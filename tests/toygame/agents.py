"""DICE AUCTION's agents table for the shared registry (agents.registry.register_game)."""

from __future__ import annotations

import numpy as np

from agents.base import RandomAgent, ScoringAgent
from agents.registry import GameAgents


class HighBidder(ScoringAgent):
    """Bids as much as it may."""

    name = "high"

    def scores(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.broadcast_to(np.arange(masks.shape[1], dtype=np.float64), masks.shape).copy()


GAME_AGENTS = GameAgents(baselines={"random": RandomAgent, "high": HighBidder})
