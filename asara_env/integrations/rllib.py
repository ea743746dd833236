"""Any game for Ray RLlib (new API stack): a turn-based `MultiAgentEnv` and a PPO config
with action masking. Importing this module imports Ray (`pip install "ray[rllib]"`).

    import ray
    from asara_env.integrations.rllib import masked_ppo_config

    ray.init()
    algo = masked_ppo_config("basari", num_players=3).build_algo()
    for _ in range(10):
        result = algo.train()

- `TurnBasedMultiAgentEnv(config)`: `config["game"]` names the game ("asara" by default)
  and the rest of `config` is passed to its default AEC env, `asara_env.make(game, ...)`
  (an illegal action ends the game with PettingZoo's classic penalty). Only the agent to
  move gets an observation each step (BASARI's simultaneous choices are made one agent
  at a time, on the observations of the step's start); at the end every agent gets its
  last observation, its reward and `terminateds[agent] = True`. Observations are
  `{"observations": float32[obs], "action_mask": float32[actions]}`: the keys RLlib's
  action-masking RLModule reads (PettingZoo's are "observation" and int8 masks, hence this
  adapter); infos are the AEC env's.
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

from asara_env import games

SHARED_POLICY = "shared"
DEFAULT_GAME = "asara"


class TurnBasedMultiAgentEnv(MultiAgentEnv):
    """A game's default AEC env as a turn-based RLlib MultiAgentEnv; see the module
    docstring."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        kwargs = dict(config or {})
        self.game_name = str(kwargs.pop("game", DEFAULT_GAME))
        self.game = games.make(self.game_name, **kwargs)
        self.agents = list(self.game.possible_agents)
        self.possible_agents = list(self.game.possible_agents)
        first = self.possible_agents[0]
        observation = self.game.observation_space(first)["observation"]
        n_actions = int(self.game.action_space(first).n)
        space = gym.spaces.Dict(
            {
                "observations": observation,
                "action_mask": gym.spaces.Box(0.0, 1.0, (n_actions,), np.float32),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(n_actions) for a in self.possible_agents}

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
    game: str = DEFAULT_GAME,
    num_players: int = 2,
    env_config: dict[str, Any] | None = None,
    hidden: tuple[int, ...] = (256, 256),
) -> PPOConfig:
    """PPO on `TurnBasedMultiAgentEnv` of `game`, one shared masked policy for every seat
    (self-play). Tune it further with the usual `PPOConfig` methods (`.training`,
    `.env_runners`, ...)."""
    games.game_card(game)  # an unknown game is refused here, naming the known ones
    env_config = {**(env_config or {}), "game": game, "num_players": num_players}
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"head_fcnet_hiddens": list(hidden), "fcnet_hiddens": list(hidden)},
    )
    return (
        PPOConfig()
        .environment(TurnBasedMultiAgentEnv, env_config=env_config)
        .multi_agent(
            policies={SHARED_POLICY},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: SHARED_POLICY,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: module}))
        .callbacks(CountIllegalActions)
    )
