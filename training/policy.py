"""The network the training scripts give MaskablePPO: log1p of the observation (all its
values are counts >= 0, some up to ~100: money, prestige), then an MLP per head."""

from __future__ import annotations

from functools import cached_property
from typing import Any

import gymnasium as gym
import torch
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
    MaybeMasks,
    SelfMaskableCategoricalDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch.distributions import Categorical


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


HUGE_NEG = -1e8  # a masked action's logit, as sb3-contrib's MaskableCategorical sets it


class MaskedCategorical(MaskableCategorical):
    """sb3-contrib's MaskableCategorical, built once per step: the logits are normalised
    once, after the mask (rather than on creation and again when the mask is applied),
    and torch's per-call argument validation is off. The same distribution, with the
    floating-point roundings of one normalisation instead of two."""

    def __init__(
        self,
        probs: torch.Tensor | None = None,
        logits: torch.Tensor | None = None,
        validate_args: bool | None = None,
        masks: MaybeMasks = None,
    ):
        if logits is None or probs is not None:
            raise ValueError("MaskedCategorical takes logits (not probs)")
        self.masks = None
        self._original_logits = logits
        if masks is not None:
            self.apply_masking(masks)

    def apply_masking(self, masks: MaybeMasks) -> None:
        logits = self._original_logits
        if masks is None:
            self.masks = None
        else:
            self.masks = torch.as_tensor(masks, dtype=torch.bool, device=logits.device)
            self.masks = self.masks.reshape(logits.shape)
            logits = logits.masked_fill(~self.masks, HUGE_NEG)
        self.__dict__.pop("probs", None)
        Categorical.__init__(self, logits=logits, validate_args=False)

    @cached_property
    def logits(self) -> torch.Tensor:
        """Used without a mask: the logits normalised on first use (once a mask, or none,
        is applied, `Categorical.__init__` sets them on the instance instead)."""
        self.apply_masking(None)
        logits: torch.Tensor = self.__dict__["logits"]
        return logits

    def __getattr__(self, name: str) -> Any:
        """The shapes `Categorical.__init__` sets, asked for before any mask was applied."""
        if name in _SET_BY_CATEGORICAL and "_original_logits" in self.__dict__:
            self.apply_masking(None)
            return self.__dict__[name]
        raise AttributeError(name)


_SET_BY_CATEGORICAL = ("_param", "_num_events", "_batch_shape", "_event_shape")


class MaskedCategoricalDistribution(MaskableCategoricalDistribution):
    """sb3-contrib's masked categorical distribution over `MaskedCategorical`."""

    def proba_distribution(
        self: SelfMaskableCategoricalDistribution, action_logits: torch.Tensor
    ) -> SelfMaskableCategoricalDistribution:
        self.distribution = MaskedCategorical(logits=action_logits.view(-1, self.action_dim))
        return self


class MaskedPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy with `MaskedCategoricalDistribution` as its action
    distribution (the training scripts' `policy`; models load with either class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not isinstance(self.action_space, gym.spaces.Discrete):
            raise TypeError(f"MaskedPolicy needs a Discrete action space, got {self.action_space}")
        self.action_dist = MaskedCategoricalDistribution(int(self.action_space.n))
