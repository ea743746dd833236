"""DICE AUCTION's PettingZoo envs, built on the shared plumbing (asara_env/envs.py): a
parallel env over the core (a batch of one), its AEC form `SimultaneousAEC`, seeds by
`EpisodeSeeds`, saved games, the spaces and the illegal-action policy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import EzPickle
from pettingzoo import ParallelEnv

from asara_env.common import batch
from asara_env.common.errors import IllegalActionError
from asara_env.envs import (
    DeepCopyable,
    EpisodeSeeds,
    Illegal,
    OrderEnforcing,
    SimultaneousAEC,
    check_env_choices,
    masked_spaces,
    penalty_rewards,
    raise_or_warn,
    saved_state,
)

from . import core
from .core import ToyState
from .rules import N_ACTIONS, ToyConfig


class ToyParallelEnv(DeepCopyable, ParallelEnv, EzPickle):
    metadata = {"name": "toygame_v0", "render_modes": []}

    def __init__(
        self,
        num_players: int = 2,
        reward: str = "win",
        illegal_action: str = "penalize",
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, num_players, reward, illegal_action, render_mode)
        check_env_choices(reward, core.REWARD_SCHEMES, illegal_action, render_mode, [])
        self.config = ToyConfig(num_players)
        self.reward, self.illegal_action, self.render_mode = reward, illegal_action, render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents: list[str] = []
        self._obs_spaces, self._act_spaces = masked_spaces(
            self.possible_agents, np.ones(core.OBS_SIZE, np.float32), N_ACTIONS
        )
        self._seeds = EpisodeSeeds()

    def observation_space(self, agent: str) -> Any:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._act_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        saved = saved_state(seed, options)
        if saved is None:
            self._core = core.init(
                self.config, 1, seeds=np.array([self._seeds.next(seed)], np.uint64)
            )
        else:
            self._core = core.ToyState(
                config=self.config,
                **{k: np.array(v, core.FIELD_SPECS[k].dtype) for k, v in saved.items()},
            )
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        obs, mask = core.observe(self._core)[0], core.legal_action_mask(self._core)[0]
        return {
            a: {"observation": obs[i], "action_mask": mask[i].astype(np.int8)}
            for i, a in enumerate(self.possible_agents)
        }

    def check_action(self, agent: str, action: object) -> Illegal | None:
        if not isinstance(action, (int, np.integer)) and not (
            isinstance(action, np.ndarray)
            and action.ndim == 0
            and np.issubdtype(action.dtype, np.integer)
        ):
            raise TypeError(f"action of {agent} must be an int, got {type(action).__name__}")
        seat, a = self.possible_agents.index(agent), int(action)
        legal = core.legal_action_mask(self._core)[0, seat]
        if 0 <= a < N_ACTIONS and legal[a]:
            return None
        return Illegal(
            agent, seat, a, f"bid {a}", "AUCTION", "more than the coins held or out of range"
        )

    def refuse(self, illegal: Sequence[Illegal]) -> Any:
        raise_or_warn(self.illegal_action, illegal, IllegalActionError)
        rewards = penalty_rewards(self.config.num_players, [i.seat for i in illegal])
        return self._finish({a: float(r) for a, r in zip(self.possible_agents, rewards)})

    def _finish(self, rewards: dict[str, float]) -> Any:
        obs = self._observations()
        for a in obs:
            obs[a]["action_mask"][:] = 0
        agents, self.agents = self.agents, []
        done = dict.fromkeys(agents, True)
        return obs, rewards, done, dict.fromkeys(agents, False), {a: {} for a in agents}

    def step(self, actions: dict[str, Any]) -> Any:
        illegal = [i for a in self.agents if (i := self.check_action(a, actions[a])) is not None]
        if illegal:
            return self.refuse(illegal)
        core.step(self._core, np.array([[int(actions[a]) for a in self.possible_agents]]))
        if core.is_terminal(self._core)[0]:
            scheme = core.REWARD_SCHEMES[self.reward]
            rewards = scheme(core.scores(self._core), 50.0)[0]
            return self._finish({a: float(r) for a, r in zip(self.possible_agents, rewards)})
        agents = self.agents
        return (
            self._observations(),
            dict.fromkeys(agents, 0.0),
            dict.fromkeys(agents, False),
            dict.fromkeys(agents, False),
            {a: {} for a in agents},
        )

    def observe(self, agent: str) -> dict[str, Any]:
        observation: dict[str, Any] = self._observations()[agent]
        if not self.agents:
            observation["action_mask"][:] = 0
        return observation

    @property
    def core(self) -> ToyState:
        """The game's core batch (B = 1): what the shared search reads by default."""
        return self._core

    def state(self) -> np.ndarray:
        return core.observe(self._core)[0, 0]

    def render(self) -> Any:
        return None

    def save_game(self) -> dict[str, Any]:
        one = batch.take(self._core, [0])
        return {k: getattr(one, k).tolist() for k in core.FIELD_SPECS}

    def close(self) -> None:
        pass


def parallel_env(**kwargs: Any) -> ToyParallelEnv:
    return ToyParallelEnv(**kwargs)


def raw_env(**kwargs: Any) -> SimultaneousAEC:
    return SimultaneousAEC(parallel_env(**kwargs))


def env(**kwargs: Any) -> Any:
    return OrderEnforcing(raw_env(**kwargs))
