"""A trained policy/value network read for search, for any game (needs the `train` extra:
torch, sb3-contrib).

`PolicyValueNet(model)` wraps a `sb3_contrib.MaskablePPO` and answers, for a batch of
observations and legal masks, in one forward pass of the network: the policy's masked
action probabilities (a search's priors) and the value head's estimate of the reward to
come for the seat the observation belongs to (a search's leaf value). `load_net(game,
name)` builds one for a shipped model (`agents.models.MODELS`), once per process.

The value head estimates what the model was trained for: for ASARA's shipped models the
`win` reward (the seat's win share, 0 to 1, undiscounted), so a search that uses it scores
finished games with the same scheme.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from .models import _load, model_path
from .policy_agent import _observation_size

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO


class Guidance(NamedTuple):
    """What the network says of a batch of positions."""

    priors: NDArray[np.float64]  # [B, A]: the masked policy, 0 on illegal actions
    values: NDArray[np.float64]  # [B]: the value head, for the observing seat


class PolicyValueNet:
    """A MaskablePPO's policy and value heads over flat observations; see the module
    docstring."""

    def __init__(self, model: MaskablePPO, name: str = "net") -> None:
        self.model, self.name = model, name
        self.known = _observation_size(model.policy.observation_space.shape)
        self.evaluations = 0  # positions evaluated so far (for rates)

    def evaluate(self, observations: NDArray[np.float32], masks: NDArray[np.bool_]) -> Guidance:
        """The priors and values of a batch of observations (float32[B, OBS]) with their
        legal masks (bool[B, A], each row with a legal action)."""
        import torch

        if len(observations) != len(masks):
            raise ValueError(
                f"observations and masks must have one row each per position, got "
                f"{len(observations)} and {len(masks)}"
            )
        if len(masks) and not masks.any(axis=1).all():
            raise ValueError("every position needs a legal action in its mask")
        policy = self.model.policy
        with torch.no_grad():
            obs = torch.as_tensor(np.asarray(observations, np.float32)[:, : self.known])
            latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(obs))
            logits = policy.action_net(latent_pi).numpy().astype(np.float64)
            values = policy.value_net(latent_vf).numpy().astype(np.float64)[:, 0]
        self.evaluations += len(masks)
        return Guidance(_masked_softmax(logits, masks), values)

    def values(self, observations: NDArray[np.float32]) -> NDArray[np.float64]:
        """float[B]: the value head alone (no mask needed: the observing seat need not be
        the one to move)."""
        import torch

        policy = self.model.policy
        with torch.no_grad():
            obs = torch.as_tensor(np.asarray(observations, np.float32)[:, : self.known])
            _, latent_vf = policy.mlp_extractor(policy.extract_features(obs))
            values: NDArray[np.float64] = policy.value_net(latent_vf).numpy()[:, 0].astype(np.float64)
        self.evaluations += len(values)
        return values


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
