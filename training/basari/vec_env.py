"""A stable-baselines3 VecEnv for BASARI on the batched core: B games, one learner seat.

In each game the learner plays one seat, drawn when the game starts; the other seats are
played by opponents drawn from `opponents` with `opponent_weights` (uniform by default;
BASARI agents by name, or objects such as `PolicyAgent` snapshots of earlier policies,
`set_opponents` changes them for games that start later), each acting on all its rows of
the batch at once. The learner is asked only when it has a
real decision: its simultaneous choices (start archway, card), made together with the
opponents', and its barter steps. `step(actions)` applies the learner's action with the
opponents' in one core step, then lets the opponents play on (in the games where the
learner has only NOOP: the other barters) until every game waits for the learner or is
over. Rewards are terminal (`core.terminal_rewards`, scheme `reward`); finished games
restart at once with `terminal_observation`, `final_scores`, `learner_seat` and `win` (the
learner's share of the win) in their info. `action_masks()` is for MaskablePPO.

Seeding: game seeds are `derived_seed(seed, 0)`, `derived_seed(seed, 1)`, ... in the order
games start; seats and opponents from `default_rng(seed)`; `reset()` reseeds opponent i
with seed + i.
Backend: `backend` ("numpy" unless told; "numba"; None, the library's default; or verbs
bound by `asara_env.games.load_core`) is the core the games run on, chosen once; both
play the same games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.core import (
    ARRAY_FIELDS,
    BasariState,
    obs_size,
    reset_games,
    take,
    terminal_rewards,
)
from asara_env.basari.phases import Phase
from asara_env.common.outcome import win_shares
from asara_env.games import CoreVerbs, bind_core
from training.evaluation.basari import choose_actions
from training.ppo.sb3_vec_env import BatchedVecEnv, Opponent

NO_AGENT = -1  # seat_agent of the learner's seat


DEFAULT_CONFIG = BasariConfig(num_players=4)  # the game an env is made of unless told


class BasariVecEnv(BatchedVecEnv):
    """See the module docstring."""

    game = "basari"
    config: BasariConfig
    core: BasariState  # the B games, from the first reset()

    def __init__(
        self,
        num_envs: int = 64,
        config: BasariConfig = DEFAULT_CONFIG,
        opponents: Sequence[Opponent | str] = ("value",),
        reward: str = "win",
        seed: int = 0,
        opponent_weights: Sequence[float] | None = None,
        backend: CoreVerbs | str | None = "numpy",
    ) -> None:
        self.config = config  # the game's rules, as given: the core is given it whole
        self.engine = bind_core("basari", backend)  # the core's verbs, bound once
        engine = self.engine
        terminal_rewards(engine.scores(engine.init(self.config, 1, seeds=0)), reward)
        self.reward = reward
        self.set_opponents(opponents, opponent_weights, seed)
        n = obs_size(self.config.n_archways)
        observation_space = gym.spaces.Box(0.0, np.inf, (n,), np.float32)
        action_space = gym.spaces.Discrete(self.config.n_actions)
        super().__init__(num_envs, observation_space, action_space, seed)
        # decisions counts real decisions only: the learner's and the opponents'

    # ------------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """Start B new games: the sequence of games starts over from the seed."""
        self._restart(self._base_seed)
        b = self.num_envs
        self.core = self.engine.init(self.config, b, seeds=self._next_seeds(b))
        self.learner_seat[:] = 0
        self.seat_agent[:] = 0
        self.episode_steps[:] = 0
        self._deal(np.arange(b))
        self._advance()
        return self._observe()

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        joint = self._opponent_actions(self.core)
        rows = np.arange(self.num_envs)
        joint[rows, self.learner_seat] = self._actions
        self.decisions += self.num_envs
        self.engine.step(self.core, joint)
        self.episode_steps += 1
        self._advance()
        done = self.core.phase == Phase.OVER
        over = np.flatnonzero(done)
        rewards = np.zeros(self.num_envs, np.float32)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if over.size:
            rewards[over] = self._finish(over, infos)
            reset_games(self.core, over, self._next_seeds(over.size))
            self._deal(over)
            self._advance()
        return self._observe(), rewards, done, infos

    def action_masks(self) -> np.ndarray:
        """bool[B, A]: the learner's legal actions in every game."""
        return self.core.legal[np.arange(self.num_envs), self.learner_seat].copy()

    # ------------------------------------------------------------------------ games
    def _deal(self, rows: np.ndarray) -> None:
        self._deal_seats(rows)
        self.seat_agent[rows, self.learner_seat[rows]] = NO_AGENT

    def _opponent_actions(self, state: BasariState, rows: np.ndarray | None = None) -> np.ndarray:
        seating = self.seat_agent if rows is None else self.seat_agent[rows]
        actions = choose_actions(state, self.opponents, seating, self.engine)  # learner: NOOP
        self.decisions += int(state.legal[:, :, 1:].any(axis=2).sum())
        return actions

    def _waiting(self) -> np.ndarray:
        """Games not over where the learner has no decision."""
        mine = self.core.legal[np.arange(self.num_envs), self.learner_seat]
        return np.flatnonzero(~mine[:, 1:].any(axis=1) & (self.core.phase != Phase.OVER))

    def _advance(self) -> None:
        """Opponents play the games where the learner waits, until none is left."""
        rows = self._waiting()
        while rows.size:
            sub = take(self.core, rows)
            self.engine.step(sub, self._opponent_actions(sub, rows))
            for name in ARRAY_FIELDS:
                getattr(self.core, name)[rows] = getattr(sub, name)
            rows = self._waiting()

    def _finish(self, rows: np.ndarray, infos: list[dict[str, Any]]) -> np.ndarray:
        seat = self.learner_seat[rows]
        state = take(self.core, rows)
        pick = np.arange(len(rows)), seat
        score = self.engine.scores(state)
        rewards = terminal_rewards(score, self.reward)[pick]
        share = win_shares(score)[pick]
        last = self.engine.observe(state)[pick]
        for j, i in enumerate(rows):
            infos[i].update(
                terminal_observation=last[j],
                final_scores=state.score[j].tolist(),
                learner_seat=int(seat[j]),
                win=float(share[j]),
                episode={"r": float(rewards[j]), "l": int(self.episode_steps[i]), "t": 0.0},
            )
        self.episode_steps[rows] = 0
        return rewards

    def _observe(self) -> np.ndarray:
        return self.engine.observe(self.core)[np.arange(self.num_envs), self.learner_seat]
