"""ASARA for Ray RLlib (new API stack): a turn-based `MultiAgentEnv` and a PPO config with
action masking. Importing this module imports Ray (`pip install "ray[rllib]"`).

    import ray
    from asara_env.integrations.rllib import masked_ppo_config

    ray.init()
    algo = masked_ppo_config(num_players=3).build_algo()
    for _ in range(10):
        result = algo.train()

- `AsaraMultiAgentEnv(config)`: `config` is passed to `asara_env.env(...)` (the default
  env: an illegal action ends the game with a penalty, as in PettingZoo's classic games).
  Only the agent to move gets an observation each step; at the end every agent gets its
  last observation, its reward and `terminateds[agent] = True`. Observations are
  `{"observations": float32[2266], "action_mask": float32[803]}`, the layout RLlib's
  action-masking RLModule expects; infos are the AEC env's (same keys at every step).
- `masked_ppo_config(...)`: PPO with one shared policy for every seat (self-play),
  RLlib's `ActionMaskingTorchRLModule` (illegal logits pushed to the float minimum, so
  sampling never picks an illegal action) and a callback that counts illegal actions
  (`illegal_actions` in the results; 0 unless the masking fails).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.rllib.utils.typing import MultiAgentDict

from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.core.observation import OBS_DIM
from asara_env.asara.env import OBS_HIGH
from asara_env.asara_v0 import env as make_aec_env

SHARED_POLICY = "shared"


class AsaraMultiAgentEnv(MultiAgentEnv):
    """The default ASARA AEC env as a turn-based RLlib MultiAgentEnv; see the module
    docstring."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.game = make_aec_env(**dict(config or {}))
        self.agents = list(self.game.possible_agents)
        self.possible_agents = list(self.game.possible_agents)
        space = gym.spaces.Dict(
            {
                "observations": gym.spaces.Box(0.0, OBS_HIGH, (OBS_DIM,), np.float32),
                "action_mask": gym.spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        self.game.reset(seed=seed, options=options)
        mover = self.game.agent_selection
        observations: MultiAgentDict = {mover: self._observe(mover)}
        infos: MultiAgentDict = {mover: self.game.infos[mover]}
        return observations, infos

    def step(self, action_dict: MultiAgentDict) -> tuple[MultiAgentDict, ...]:
        """Play the mover's action; the next mover's observation, or everybody's at the end."""
        mover = self.game.agent_selection
        if mover not in action_dict:
            raise ValueError(f"{mover} is to move; got actions for {sorted(map(str, action_dict))}")
        self.game.step(int(action_dict[mover]))
        rewards: MultiAgentDict = {
            a: float(r) for a, r in self.game.rewards.items() if r or a == mover
        }
        over = all(self.game.terminations.values())
        seen = self.game.possible_agents if over else [self.game.agent_selection]
        observations: MultiAgentDict = {a: self._observe(a) for a in seen}
        infos: MultiAgentDict = {a: self.game.infos[a] for a in seen}
        terminateds: MultiAgentDict = {"__all__": over}
        if over:
            terminateds.update(dict.fromkeys(seen, True))
        truncateds: MultiAgentDict = {"__all__": False}
        return observations, rewards, terminateds, truncateds, infos

    def _observe(self, agent: str) -> dict[str, NDArray[np.float32]]:
        seen = self.game.observe(agent)
        return {
            "observations": seen["observation"],
            "action_mask": seen["action_mask"].astype(np.float32),
        }


class CountIllegalActions(RLlibCallback):
    """Logs `illegal_actions`: the illegal actions that ended games (summed)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        infos = episode.get_infos(-1)
        illegal = sum(int(info.get("illegal", 0)) for info in infos.values())
        if metrics_logger is not None:
            metrics_logger.log_value("illegal_actions", illegal, reduce="sum")


def masked_ppo_config(
    num_players: int = 2,
    env_config: dict[str, Any] | None = None,
    hidden: tuple[int, ...] = (256, 256),
) -> PPOConfig:
    """PPO on `AsaraMultiAgentEnv`, one shared masked policy for every seat (self-play).
    Tune it further with the usual `PPOConfig` methods (`.training`, `.env_runners`, ...)."""
    env_config = {"num_players": num_players, **(env_config or {})}
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"head_fcnet_hiddens": list(hidden), "fcnet_hiddens": list(hidden)},
    )
    return (
        PPOConfig()
        .environment(AsaraMultiAgentEnv, env_config=env_config)
        .multi_agent(
            policies={SHARED_POLICY},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: SHARED_POLICY,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: module}))
        .callbacks(CountIllegalActions)
    )
