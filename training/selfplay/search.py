"""The one place where the trainer's self-play calls a search: `make_searcher(settings,
model, rng)` -> a `Searcher` (training/selfplay/play.py) by the name `settings.search`.

- "gumbel": the shared search's Gumbel root (agents/search/) at `settings.simulations`
  simulations per decision, guided by the network being trained (its policy the prior,
  its value head the leaf estimate), each decision searched from the deciding seat's
  information set (determinised), BASARI's simultaneous choices as the shared search
  treats them. The action is the root's choice, the target its improved policy
  (completed Q-values), not its visit counts.
- "prior": no search, a control: the action drawn from the network's policy, the target
  that policy itself (the value head learns from the outcomes, the policy has nothing to
  learn from).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .play import Searcher

if TYPE_CHECKING:
    from .workers import WorkerSettings


def prior_searcher(model: Any, rng: np.random.Generator) -> Searcher:
    """The "prior" control (module docstring)."""
    from agents.network import PolicyValueNet  # `agents` is imported only when playing

    net = PolicyValueNet(model, "self-play")

    def search(
        state: Any,
        games: NDArray[np.int64],
        seats: NDArray[np.int64],
        observations: NDArray[np.float32],
        masks: NDArray[np.bool_],
    ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        policies = net.priors(observations, masks).astype(np.float32)
        cumulative = np.cumsum(policies, axis=1)
        draws = rng.random(len(policies)) * cumulative[:, -1]
        actions = (cumulative <= draws[:, None]).sum(axis=1).astype(np.int64)
        return actions, policies / policies.sum(axis=1, keepdims=True)

    return search


SEARCHERS: dict[str, Callable[[WorkerSettings, Any, np.random.Generator], Searcher]] = {
    "prior": lambda settings, model, rng: prior_searcher(model, rng),
}


def make_searcher(settings: WorkerSettings, model: Any, rng: np.random.Generator) -> Searcher:
    """The searcher named `settings.search`, guided by `model`, drawing from `rng`."""
    return SEARCHERS[settings.search](settings, model, rng)
