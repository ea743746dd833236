"""The network the training scripts give MaskablePPO: log1p of the observation (all its
values are counts >= 0, some up to ~100: money, prestige), then an MLP per head."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class Log1pFeatures(BaseFeaturesExtractor):
    """features = log(1 + observation): counts of very different ranges on one scale."""

    def __init__(self, observation_space: gym.spaces.Box):
        super().__init__(observation_space, features_dim=int(observation_space.shape[0]))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return torch.log1p(observations.clamp_min(0.0))


NET_ARCH = {"pi": [512, 256], "vf": [512, 256]}


def policy_kwargs() -> dict[str, Any]:
    """The default network: log1p features, separate 512-256 ReLU MLPs for policy and value."""
    return {
        "features_extractor_class": Log1pFeatures,
        "net_arch": NET_ARCH,
        "activation_fn": torch.nn.ReLU,
    }
