"""A trained MaskablePPO policy as an agent of any game (needs the `train` extra: torch,
sb3-contrib).

`PolicyAgent(model)` takes a `sb3_contrib.MaskablePPO` (or the path of a saved one, read
by `load_model`) and
acts on observations and masks like every agent: `deterministic=True` plays the most
probable legal action; otherwise it samples from the policy's masked distribution with one
double of its own generator per decision (inverse CDF), so it stays deterministic given
its seed and batched play equals single play.

A model trained before the observation grew (slices are only ever appended, see
asara_env/asara/core/observation.py) reads the first entries it knows: ASARA's shipped
models were trained on the first 1,907 (everything before the gifts).
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .base import Actions, Agent, Masks, Observations

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO


class PolicyAgent(Agent[object]):
    """A MaskablePPO policy acting on observation and mask; see the module docstring."""

    name = "policy"

    def __init__(
        self,
        model: MaskablePPO | str | os.PathLike[str],
        seed: int | None = None,
        deterministic: bool = True,
    ) -> None:
        super().__init__(seed)
        if isinstance(model, (str, os.PathLike)):
            model = load_model(model)
        self.model, self.deterministic = model, deterministic

    def probabilities(self, observations: Observations, masks: Masks) -> NDArray[np.float64]:
        """float[B, A]: the policy's masked action probabilities."""
        import torch

        policy = self.model.policy
        known = _observation_size(policy.observation_space.shape)
        with torch.no_grad():
            obs = np.asarray(observations, np.float32)[:, :known]
            tensor = torch.as_tensor(obs, device=policy.device)
            dist = policy.get_distribution(
                tensor, action_masks=np.asarray(masks, bool)
            ).distribution
            if not isinstance(dist, torch.distributions.Categorical):
                raise TypeError(f"a PolicyAgent needs a Discrete action space, not {dist}")
            probs: NDArray[np.float64] = dist.probs.cpu().numpy().astype(np.float64)
            return probs

    def choose(self, observations: Observations, masks: Masks, u: NDArray[np.float64]) -> Actions:
        probs = np.where(masks, self.probabilities(observations, masks), 0.0)
        if self.deterministic:
            return np.argmax(probs, axis=1).astype(np.int64)
        cdf = np.cumsum(probs, axis=1)
        k = np.argmax(cdf > (u * cdf[:, -1])[:, None], axis=1)
        return np.where(masks[np.arange(len(k)), k], k, np.argmax(probs, axis=1)).astype(np.int64)


def load_model(path: str | os.PathLike[str]) -> MaskablePPO:
    """The MaskablePPO saved at `path`, on the CPU: what `MaskablePPO.load(path)` gives,
    without first giving the network orthogonal initial weights (a QR decomposition per
    layer) that the saved weights then replace: for an ASARA model a tenth of a second of
    CPU on a quiet machine, seconds on a busy one where PyTorch's threads contend. The
    network is built without them; `policy_kwargs` stays as saved. On a terminal, stderr
    says what is loading while it does (importing PyTorch takes seconds)."""
    from asara_env.common.status import status  # here: importing agents loads no asara_env

    path = Path(path)
    with status(f"loading the model {path.name} (PyTorch)"):
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.save_util import json_to_data

        with zipfile.ZipFile(path) as archive:
            data = json_to_data(archive.read("data").decode())
        saved: dict[str, Any] = data.get("policy_kwargs", {})
        quick = {"policy_kwargs": {**saved, "ortho_init": False}}
        model = MaskablePPO.load(path, device="cpu", custom_objects=quick)
    model.policy_kwargs = saved
    model.policy.ortho_init = saved.get("ortho_init", True)
    return model


def _observation_size(shape: tuple[int, ...] | None) -> int:
    """The length of the flat observations a policy was trained on."""
    if shape is None or len(shape) != 1:
        raise TypeError(f"a PolicyAgent needs a flat Box observation space, got shape {shape}")
    return shape[0]
