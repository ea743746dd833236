"""A stable-baselines3 VecEnv backed directly by the batched core: B games, one learner.

In each game the learner plays one seat, drawn at random when the game starts; the other
seats are played by opponents drawn (with `opponent_weights`) from `opponents`: ASARA's
agents by name, or agent objects (`PolicyAgent` snapshots of earlier policies), each acting on
its rows of the batch at once. `step(actions)` applies the learner's actions, lets the
opponents move until it is the learner's turn again (or the game is over), and returns the
learner's observation, its reward (terminal, from `core.outcome.terminal_rewards`; 0
before the end), done flags and infos. Finished games restart at once (SB3's convention):
their info holds `terminal_observation`, `final_prestige`, `learner_seat` and `win` (the
learner's share of the win: 1/k with k winners). `action_masks()` gives the learner's
masks for sb3-contrib's MaskablePPO.

Seeding: game seeds are `derived_seed(seed, 0)`, `derived_seed(seed, 1)`, ... in the order
games start; seats and opponents come from `default_rng(seed)`; `reset()` reseeds opponent
i with seed + i; a reset without a seed continues the sequence of games. Same seed, same
actions, same games.
Backend: `backend` ("numpy" unless told; "numba"; None, the library's default; or verbs
bound by `asara_env.games.load_core`) is the core the games run on, chosen once; both
play the same games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.config import GameConfig
from asara_env.asara.core import CoreState, reset_games
from asara_env.asara.core.observation import OBS_DIM
from asara_env.asara.core.outcome import terminal_rewards
from asara_env.common.opponents import play_opponents
from asara_env.common.outcome import win_shares
from asara_env.games import CoreVerbs, bind_core
from training.ppo.sb3_vec_env import BatchedVecEnv, Opponent

DEFAULT_CONFIG = GameConfig(num_players=2)  # the game an env is made of unless told


class AsaraVecEnv(BatchedVecEnv):
    """See the module docstring."""

    game = "asara"
    config: GameConfig
    core: CoreState  # the B games, from the first reset()

    def __init__(
        self,
        num_envs: int = 64,
        config: GameConfig = DEFAULT_CONFIG,
        opponents: Sequence[Opponent | str] = ("random",),
        opponent_weights: Sequence[float] | None = None,
        reward: str = "win",
        seed: int = 0,
        backend: CoreVerbs | str | None = "numpy",
    ) -> None:
        self.engine = bind_core("asara", backend)  # the core's verbs, bound once
        self.config = config  # the game's rules, as given: the core is given it whole
        terminal_rewards(np.zeros((1, config.num_players)), reward)  # validates the scheme
        self.reward = reward
        self.set_opponents(opponents, opponent_weights, seed)
        observation_space = gym.spaces.Box(0.0, np.inf, (OBS_DIM,), np.float32)
        super().__init__(num_envs, observation_space, gym.spaces.Discrete(NUM_ACTIONS), seed)
        self._seeds = [seed] * num_envs  # the first reset() starts the sequence of games

    # ------------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """Start B new games. With a seed (`seed()` or the constructor's, on the first
        reset) the sequence of games starts over; otherwise it goes on."""
        seed = self._seeds[0]
        self._reset_seeds()
        self._reset_options()
        if seed is not None:
            self._restart(seed)
        b = self.num_envs
        self.core = self.engine.init(self.config, b, seeds=self._next_seeds(b))
        self.learner_seat[:] = 0
        self.seat_agent[:] = 0
        self.episode_steps[:] = 0  # learner decisions in the current game
        self._deal_seats(np.arange(b))
        self._play_opponents()
        return self._observe()

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        self.engine.step(self.core, self._actions)
        self.episode_steps += 1
        self.decisions += self.num_envs
        self._play_opponents()
        done = self.engine.is_terminal(self.core).copy()
        rows = np.flatnonzero(done)
        rewards = np.zeros(self.num_envs, np.float32)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if len(rows):
            rewards[rows] = self._finish(rows, infos)
            reset_games(self.core, rows, self._next_seeds(len(rows)))
            self._deal_seats(rows)
            self._play_opponents()
        return self._observe(), rewards, done, infos

    def action_masks(self) -> np.ndarray:
        """bool[B, NUM_ACTIONS]: the learner's legal actions in every game."""
        return self.core.legal.copy()

    # ------------------------------------------------------------------------ games
    def _play_opponents(self) -> None:
        """Opponents move until every unfinished game waits for the learner."""
        self.decisions += play_opponents(
            self.engine.TURNS, self.core, self.learner_seat, self.seat_agent, self.opponents
        )

    def _finish(self, rows: np.ndarray, infos: list[dict[str, Any]]) -> np.ndarray:
        """The learner's rewards in finished games `rows`; fills their infos."""
        prestige = self.core.prestige[rows]
        seat = self.learner_seat[rows]
        rewards = terminal_rewards(prestige, self.reward)[np.arange(len(rows)), seat]
        share = win_shares(prestige)[np.arange(len(rows)), seat]
        last_obs = self.engine.observe(self.core, self.learner_seat)[rows]
        for j, i in enumerate(rows):
            infos[i].update(
                terminal_observation=last_obs[j],
                final_prestige=prestige[j].tolist(),
                learner_seat=int(seat[j]),
                win=float(share[j]),
                episode={"r": float(rewards[j]), "l": int(self.episode_steps[i]), "t": 0.0},
            )
        self.episode_steps[rows] = 0
        return rewards

    def _observe(self) -> np.ndarray:
        return self.engine.observe(self.core, self.learner_seat)
