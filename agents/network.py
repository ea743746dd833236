"""A trained policy/value network read for search, for any game (needs the `train` extra:
torch, sb3-contrib).

`PolicyValueNet(model)` wraps a `sb3_contrib.MaskablePPO` and answers for a batch of
observations, each head computed alone: `priors`, the policy's masked action probabilities
(a search's priors), and `values`, the value head's estimate of the reward to come for the
seat the observation belongs to (a search's leaf value). `load_net(game,
name)` builds one for a shipped model (`agents.models.MODELS`), once per process.

The value head estimates what the model was trained for: for ASARA's shipped models the
`win` reward (the seat's win share, 0 to 1, undiscounted), so a search that uses it scores
finished games with the same scheme.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .models import _load, model_path
from .policy_agent import _observation_size

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO


class PolicyValueNet:
    """A MaskablePPO's policy and value heads over flat observations; see the module
    docstring. Identical observations in a batch are evaluated once."""

    def __init__(self, model: MaskablePPO, name: str = "net") -> None:
        self.model, self.name = model, name
        self.known = _observation_size(model.policy.observation_space.shape)
        self.evaluations = 0  # distinct observations evaluated so far (for rates)

    def priors(
        self, observations: NDArray[np.float32], masks: NDArray[np.bool_]
    ) -> NDArray[np.float64]:
        """float[B, A]: the policy's probabilities over each row's legal actions (0 on the
        others) for observations float32[B, OBS] with their masks bool[B, A]."""
        if len(observations) != len(masks):
            raise ValueError(
                f"observations and masks must have one row each per position, got "
                f"{len(observations)} and {len(masks)}"
            )
        if len(masks) and not masks.any(axis=1).all():
            raise ValueError("every position needs a legal action in its mask")
        policy = self.model.policy
        logits = self._heads(observations, policy.mlp_extractor.forward_actor, policy.action_net)
        return _masked_softmax(logits, masks)

    def values(self, observations: NDArray[np.float32]) -> NDArray[np.float64]:
        """float[B]: the value head's estimate for the seat each observation belongs to
        (which need not be the seat to move)."""
        policy = self.model.policy
        return self._heads(observations, policy.mlp_extractor.forward_critic, policy.value_net)[
            :, 0
        ]

    def _heads(
        self,
        observations: NDArray[np.float32],
        body: Callable[[Any], Any],
        head: Callable[[Any], Any],
    ) -> NDArray[np.float64]:
        """float[B, out]: `head(body(features))` of each observation, each distinct row once."""
        import torch

        obs = np.ascontiguousarray(np.asarray(observations, np.float32)[:, : self.known])
        first: dict[bytes, int] = {}
        which = np.array([first.setdefault(row.tobytes(), i) for i, row in enumerate(obs)])
        distinct = np.unique(which)
        with torch.no_grad():
            features = self.model.policy.extract_features(torch.as_tensor(obs[distinct]))
            out = head(body(features)).numpy().astype(np.float64)
        self.evaluations += len(distinct)
        result: NDArray[np.float64] = out[np.searchsorted(distinct, which)]
        return result


def _masked_softmax(logits: NDArray[np.float64], masks: NDArray[np.bool_]) -> NDArray[np.float64]:
    """float[B, A]: softmax of each row's logits over its legal actions, 0 elsewhere."""
    shown = np.where(masks, logits, -np.inf)
    weights = np.exp(shown - shown.max(axis=1, keepdims=True))
    result: NDArray[np.float64] = weights / weights.sum(axis=1, keepdims=True)
    return result


@cache
def load_net(game: str, name: str) -> PolicyValueNet:
    """`game`'s shipped model `name` as a PolicyValueNet (loaded once per process)."""
    return PolicyValueNet(_load(model_path(game, name)), name)
