"""Any game for TorchRL: its `PettingZooWrapper` over the game's default AEC env, with the
legal actions as TorchRL's masked action spec.

    from asara_env.integrations.torchrl_env import torchrl_env
    env = torchrl_env("basari", num_players=3)
    rollout = env.rollout(100)           # samples only legal actions

TorchRL reads a mask from the observation dict or, failing that, from the infos, and
removes it from the one it read; every game's default env has it in both, so TorchRL
0.14 leaves the info's copy behind and fails on it (`'NoneType' object does not support
item assignment`). `ObservationMaskOnly` drops the infos' copy. All the agents are one
group, `"agents"` (`td["agents", "observation", "observation"]` float32[P, obs],
`td["agents", "action_mask"]` bool[P, actions], `td["agents", "mask"]` the agent to move,
`td["agents", "info", ...]` the infos); the action of the agent to move is played.
Needs torchrl (`make test-integration` builds `.venv-torchrl`: TorchRL 0.14 and AgileRL
2.58 need different tensordict versions).
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import BaseWrapper

from asara_env import games

GROUP = "agents"


class ObservationMaskOnly(BaseWrapper):
    """An AEC env whose infos leave out `action_mask` (the observation dict has it)."""

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        every = self.env.infos
        return {a: {k: v for k, v in i.items() if k != "action_mask"} for a, i in every.items()}


def torchrl_env(game: str, seed: int | None = None, **kwargs: Any) -> Any:
    """TorchRL's `PettingZooWrapper` over `asara_env.make(game, **kwargs)`, every agent in
    the group `GROUP`, categorical actions masked by the legal ones; `seed` seeds the
    first reset."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.envs.utils import MarlGroupMapType

    return PettingZooWrapper(
        env=ObservationMaskOnly(games.make(game, **kwargs)),
        group_map=MarlGroupMapType.ALL_IN_ONE_GROUP,
        use_mask=True,
        categorical_actions=True,
        seed=seed,
    )
