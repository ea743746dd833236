"""The network as the search calls it: `NetEvaluator(policy, a, b)` is an `Evaluate`
(agents/search/mcts.py) that computes only the heads the search reads.

The search asks for (logits, values) in every call but reads one of them in most: the
priors of new nodes (logits only) and the leaves (values only); the root reads both.
Each head is returned as a `Lazy` array that runs its half of the network when it is first
read (`np.asarray`), on the features (log1p of the observation) computed once per call;
a head never read is never computed. The values are the seat-value head's outputs turned
into win shares (`a * value + b`, the run's reward scheme's map). `evaluations` counts
the rows each head has evaluated, for rates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from .network import SeatValuePolicy


class Lazy:
    """An array computed by `make()` when first read through `np.asarray`."""

    def __init__(self, make: Callable[[], NDArray[np.float32]]) -> None:
        self._make = make
        self._value: NDArray[np.float32] | None = None

    def __array__(self, dtype: Any = None, copy: Any = None) -> NDArray[Any]:
        if self._value is None:
            self._value = self._make()
        return self._value if dtype is None else self._value.astype(dtype)


class NetEvaluator:
    """The seat-value network as the search's `Evaluate` (module docstring)."""

    def __init__(self, policy: SeatValuePolicy, a: float = 1.0, b: float = 0.0) -> None:
        self.policy, self.a, self.b = policy, np.float32(a), np.float32(b)
        self.evaluations = {"logits": 0, "values": 0}  # rows evaluated, per head
        self.calls = 0  # network calls (a head's forward pass over a batch)

    def __call__(
        self, observations: NDArray[np.float32], masks: NDArray[np.bool_]
    ) -> tuple[Any, Any]:
        obs = torch.as_tensor(np.ascontiguousarray(observations, np.float32))
        features: dict[int, torch.Tensor] = {}  # by extractor: computed once per call

        def torso(extractor: Any) -> torch.Tensor:
            if id(extractor) not in features:
                out: Any = self.policy.extract_features(obs, extractor)
                features[id(extractor)] = out
            return features[id(extractor)]

        return Lazy(lambda: self._logits(torso)), Lazy(lambda: self._values(torso))

    def _logits(self, torso: Callable[[Any], torch.Tensor]) -> NDArray[np.float32]:
        p = self.policy
        with torch.no_grad():
            latent = p.mlp_extractor.forward_actor(torso(p.pi_features_extractor))
            out = p.action_net(latent).numpy()
        self._count("logits", len(out))
        return np.asarray(out, np.float32)

    def _values(self, torso: Callable[[Any], torch.Tensor]) -> NDArray[np.float32]:
        p = self.policy
        with torch.no_grad():
            latent = p.mlp_extractor.forward_critic(torso(p.vf_features_extractor))
            out = p.value_net(latent).numpy()
        self._count("values", len(out))
        return np.asarray(out * self.a + self.b, np.float32)

    def _count(self, head: str, rows: int) -> None:
        self.evaluations[head] += rows
        self.calls += 1
