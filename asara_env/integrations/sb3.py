"""Any game's parallel env as one Stable-Baselines3 VecEnv through SuperSuit, with the
legal actions where sb3-contrib's `MaskablePPO` asks for them.

    from sb3_contrib import MaskablePPO
    from asara_env.integrations.sb3 import supersuit_vec_env

    venv = supersuit_vec_env("basari", games=4, num_players=3)
    MaskablePPO("MlpPolicy", venv).learn(10_000)

Every seat of every game is a row (`games` x `num_players` rows); the game's parallel env
(`asara_env.integrations.parallel`) is stacked by SuperSuit's `pettingzoo_env_to_vec_env_v1`
and `concat_vec_envs_v1`. SuperSuit's stack has no `has_attr`/`action_masks` and hands on
the observation dicts, so `MaskedObservations` splits each into the array SB3 learns from
and the mask `MaskablePPO` reads through `env_method("action_masks")`. Needs supersuit,
stable-baselines3 and sb3-contrib.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs

from asara_env.integrations.parallel import parallel_env


class MaskedObservations(VecEnvWrapper):
    """An SB3 VecEnv of `{"observation", "action_mask"}` dicts as plain observations, with
    the masks kept for MaskablePPO (`env_method("action_masks")`)."""

    def __init__(self, venv: VecEnv) -> None:
        observations, actions = venv.observation_space, venv.action_space
        if not isinstance(observations, spaces.Dict) or not isinstance(actions, spaces.Discrete):
            raise TypeError("needs dict observations (observation, action_mask), discrete actions")
        super().__init__(venv, observation_space=observations["observation"])
        self.masks = np.zeros((venv.num_envs, int(actions.n)), bool)
        self._seed: int | None = None

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed the next reset (SuperSuit's SB3 wrapper has no `seed`): game i of the
        stack is seeded `seed + i`."""
        self._seed = seed
        return [seed]

    def _split(self, obs: VecEnvObs) -> NDArray[np.float32]:
        if not isinstance(obs, dict):
            raise TypeError(f"expected a dict of observations, got {type(obs).__name__}")
        self.masks = np.asarray(obs["action_mask"], bool)
        return np.asarray(obs["observation"], np.float32)

    def reset(self) -> NDArray[np.float32]:
        if self._seed is None:
            return self._split(self.venv.reset())
        wrapper = self.venv
        assert isinstance(wrapper, VecEnvWrapper)  # SuperSuit's SB3VecEnvWrapper
        stack: Any = wrapper.venv  # SuperSuit's ConcatVecEnv: gymnasium's reset(seed=...)
        obs, wrapper.reset_infos = stack.reset(seed=self._seed)
        self._seed = None
        return self._split(obs)

    def step_wait(
        self,
    ) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_], list[dict[str, Any]]]:
        obs, rewards, dones, infos = self.venv.step_wait()
        return self._split(obs), rewards, dones, infos

    def action_masks(self) -> NDArray[np.bool_]:
        """bool[rows, actions]: every row's legal actions now."""
        return self.masks.copy()

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.venv, attr_name)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            return list(self.masks)
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)


def supersuit_vec_env(game: str, games: int = 4, **kwargs: Any) -> MaskedObservations:
    """`games` games of `game` (`kwargs` as for `asara_env.make(game, ...)`), every seat a
    row, as one SB3 VecEnv with `action_masks()`; games step in this process."""
    import supersuit as ss

    vec = ss.pettingzoo_env_to_vec_env_v1(parallel_env(game, **kwargs))
    vec = ss.concat_vec_envs_v1(vec, games, num_cpus=0, base_class="stable_baselines3")
    return MaskedObservations(vec)
