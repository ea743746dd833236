"""The stable-baselines3 `VecEnv` plumbing shared by the games' training VecEnvs: B games
held in one batched core act as one object, so every attribute and method call answers
for all rows; `action_masks()` (MaskablePPO's hook) is the subclass's."""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv


class BatchedVecEnv(VecEnv):
    """A VecEnv whose B environments are the rows of one batched core."""

    def action_masks(self) -> np.ndarray:
        """bool[B, A]: the learner's legal actions in every game."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.action_masks()[rows])
        return [getattr(self, method_name)(*args, **kwargs)] * len(rows)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def _get_indices(self, indices: Any) -> list[int]:
        return list(super()._get_indices(indices))
