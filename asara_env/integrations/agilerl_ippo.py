"""Any game for AgileRL's multi-agent on-policy algorithms (IPPO): the parallel env with
array observations (the mask in the infos only), and IPPO reading numpy masks.

    from agilerl.vector.pz_async_vec_env import AsyncPettingZooVecEnv
    from asara_env.integrations.agilerl_ippo import ParallelFactory, masked_ippo_class

    vec_env = AsyncPettingZooVecEnv([ParallelFactory("basari", num_players=3)] * 4)
    agent = masked_ippo_class()(observation_spaces=..., action_spaces=..., ...)

AgileRL reads the legal actions from `infos[agent]["action_mask"]` (every game's default
env puts them there, with the same keys and shapes at every step) and refuses observations
that still hold a mask: `array_parallel_env` keeps only `obs["observation"]` (SuperSuit's
`observation_lambda_v0`). AgileRL 2.58's `IPPO.extract_action_masks` fails on numpy masks
(`masked_ippo_class` fixes it). Needs agilerl (with peft, which it imports without
declaring it) and supersuit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from asara_env import games
from asara_env.integrations.parallel import parallel_env


def array_parallel_env(game: str, **kwargs: Any) -> ParallelEnv:
    """`game`'s parallel env (`asara_env.integrations.parallel`) with plain array
    observations; the masks stay in the infos."""
    import supersuit as ss

    def observation(obs: dict[str, Any], space: Any) -> Any:
        return obs["observation"]

    def observation_space(space: Any) -> Any:
        return space["observation"]

    return ss.observation_lambda_v0(parallel_env(game, **kwargs), observation, observation_space)


class ParallelFactory:
    """A picklable factory of `array_parallel_env(game, **kwargs)`, for AgileRL's
    subprocess vector env."""

    def __init__(self, game: str, **kwargs: Any) -> None:
        games.game_card(game)  # an unknown game is refused here, naming the known ones
        self.game, self.kwargs = game, kwargs

    def __call__(self) -> ParallelEnv:
        return array_parallel_env(self.game, **self.kwargs)


def masked_ippo_class() -> type[Any]:
    """AgileRL's IPPO with `extract_action_masks` fixed for numpy masks.

    AgileRL 2.58 collects each agent's mask and asks `None in masks`, which compares a
    numpy array with None and raises "The truth value of an array ... is ambiguous" for
    any mask of more than one action (every vectorised masked env). This subclass stacks
    the masks the same way, without that test."""
    import torch
    from agilerl.algorithms import IPPO

    class MaskedIPPO(IPPO):
        def extract_action_masks(self, infos: dict[str, Any]) -> dict[str, torch.Tensor | None]:
            found: dict[str, list[np.ndarray]] = {group: [] for group in self.observation_space}
            for agent_id, info in infos.items():
                if isinstance(info, dict) and info.get("action_mask") is not None:
                    grouped = self.has_grouped_agents()
                    group = self.get_group_id(agent_id) if grouped else agent_id
                    found[group].append(np.asarray(info["action_mask"]))
            return {
                group: torch.Tensor(np.array(masks)) if masks else None
                for group, masks in found.items()
            }

    return MaskedIPPO
