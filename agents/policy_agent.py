"""A trained MaskablePPO policy as an agent (needs the `train` extra: torch, sb3-contrib).

`PolicyAgent(model)` takes a `sb3_contrib.MaskablePPO` (or the path of a saved one) and
acts on observations and masks like every agent: `deterministic=True` plays the most
probable legal action; otherwise it samples from the policy's masked distribution with one
double of its own generator per decision (inverse CDF), so it stays deterministic given
its seed and batched play equals single play.

A model trained before the observation grew (slices are only ever appended, see
asara_env/asara/core/observation.py) reads the first entries it knows: the shipped models were
trained on the first 1,907 (everything before the gifts).
"""

from __future__ import annotations

import numpy as np

from .base import Agent


class PolicyAgent(Agent):
    """A MaskablePPO policy acting on observation and mask; see the module docstring."""

    name = "policy"

    def __init__(self, model, seed: int | None = None, deterministic: bool = True):
        super().__init__(seed)
        if isinstance(model, str) or hasattr(model, "__fspath__"):
            from sb3_contrib import MaskablePPO

            model = MaskablePPO.load(model, device="cpu")
        self.model, self.deterministic = model, deterministic

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float[B, NUM_ACTIONS]: the policy's masked action probabilities."""
        import torch

        policy = self.model.policy
        known = policy.observation_space.shape[0]
        with torch.no_grad():
            obs = np.asarray(observations, np.float32)[:, :known]
            obs = torch.as_tensor(obs, device=policy.device)
            dist = policy.get_distribution(obs, action_masks=np.asarray(masks, bool))
            return dist.distribution.probs.cpu().numpy().astype(np.float64)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(action_masks).astype(bool)
        empty = ~masks.any(axis=1)
        if empty.any():
            raise ValueError(f"action mask of row {int(np.flatnonzero(empty)[0])} is empty")
        probs = np.where(masks, self.probabilities(observations, masks), 0.0)
        u = self.rng.random(len(masks))
        if self.deterministic:
            return np.argmax(probs, axis=1).astype(np.int64)
        cdf = np.cumsum(probs, axis=1)
        k = np.argmax(cdf > (u * cdf[:, -1])[:, None], axis=1)
        return np.where(masks[np.arange(len(k)), k], k, np.argmax(probs, axis=1)).astype(np.int64)
