"""The stable-baselines3 `VecEnv` plumbing shared by the games' training VecEnvs: B games
held in one batched core act as one object, so every attribute and method call answers
for all rows; `action_masks()` (MaskablePPO's hook) is the subclass's. Also shared: the
learner's bookkeeping of weighted opponents (`set_opponents`, `_deal_seats`) and the
sequence of game seeds (`_next_seeds`) and `make_opponent` (an agent of the subclass's
`game` by name, from the agents registry)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from asara_env.common.opponents import Actor
from asara_env.common.seeding import derived_seeds


class Opponent(Actor, Protocol):
    """What a learner VecEnv needs of an opponent: `act_batch` (an `Actor`) and `reseed`.
    Baselines and `PolicyAgent` snapshots of either game are."""

    def reseed(self, seed: int | None) -> None: ...


class Rules(Protocol):
    """What the plumbing reads of a game's configuration."""

    @property
    def num_players(self) -> int: ...


class BatchedVecEnv(VecEnv):
    """A VecEnv whose B environments are the rows of one batched core, the learner in one
    seat of each, opponents drawn by weight in the others. The subclass sets `config`
    before calling `__init__`, which sets the rest of the bookkeeping below; `reset`
    restarts the sequence of games (`_restart`) and deals the seats (`_deal_seats`)."""

    metadata = {"render_modes": []}
    game: str  # the game's name: whose agents `make_opponent` builds
    config: Rules  # the game's configuration: num_players
    reward: str  # the terminal reward scheme
    opponents: list[Opponent]  # by index: seat_agent's values
    opponent_weights: np.ndarray  # float64[K], summing to 1
    rng: np.random.Generator  # the seats' and opponents' draws
    learner_seat: np.ndarray  # int64[B]: the learner's seat in each game
    seat_agent: np.ndarray  # int64[B, P]: the opponent (index) in each seat
    episode_steps: np.ndarray  # int64[B]: learner decisions in each game so far
    decisions: int  # decisions played so far: the learner's and the opponents'
    render_mode: str | None = None

    def __init__(
        self,
        num_envs: int,
        observation_space: gym.spaces.Space[Any],
        action_space: gym.spaces.Space[Any],
        seed: int,
    ) -> None:
        super().__init__(num_envs, observation_space, action_space)
        players = self.config.num_players
        self.rng = np.random.default_rng(seed)
        self.learner_seat = np.zeros(num_envs, np.int64)
        self.seat_agent = np.zeros((num_envs, players), np.int64)
        self.episode_steps = np.zeros(num_envs, np.int64)
        self.decisions = 0
        self._base_seed, self._games_started = seed, 0
        self._actions = np.zeros(num_envs, np.int64)

    def make_opponent(self, name: str, seed: int) -> Opponent:
        """The game's agent registered as `name`, seeded."""
        from training.game_agents import TrainingAgents

        return TrainingAgents(self.game).make_agent(name, seed)

    def action_masks(self) -> np.ndarray:
        """bool[B, A]: the learner's legal actions in every game."""
        raise NotImplementedError

    def set_opponents(
        self,
        opponents: Sequence[Opponent | str],
        weights: Sequence[float] | None = None,
        seed: int = 0,
    ) -> None:
        """Opponents (agents by name, made with seed + i, or agent objects such as
        `PolicyAgent` snapshots) and their weights for games that start from now on. Games
        under way keep their opponents' indices: only append to the list while playing.
        Bad opponents or weights change nothing."""
        if not opponents:
            raise ValueError("at least one opponent is needed")
        w = np.ones(len(opponents)) if weights is None else np.asarray(weights, np.float64)
        if w.shape != (len(opponents),) or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"opponent_weights must be {len(opponents)} weights >= 0, got {w}")
        self.opponents = [
            self.make_opponent(o, seed + i) if isinstance(o, str) else o
            for i, o in enumerate(opponents)
        ]
        self.opponent_weights = w / w.sum()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def _restart(self, seed: int) -> None:
        """Start the sequence of games over from `seed`: the seats' generator, opponent i
        reseeded seed + i, game seeds from game 0."""
        self.rng = np.random.default_rng(seed)
        for i, agent in enumerate(self.opponents):
            agent.reseed(seed + i)
        self._base_seed, self._games_started = seed, 0

    def _next_seeds(self, n: int) -> np.ndarray:
        """The seeds of the next `n` games of the sequence."""
        start, self._games_started = self._games_started, self._games_started + n
        return derived_seeds(self._base_seed, np.arange(start, start + n))

    def _deal_seats(self, rows: np.ndarray) -> None:
        """Draw the learner's seat and the opponents (by weight) of new games `rows`."""
        p, k = self.config.num_players, len(self.opponents)
        self.learner_seat[rows] = self.rng.integers(p, size=len(rows))
        self.seat_agent[rows] = self.rng.choice(k, size=(len(rows), p), p=self.opponent_weights)

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.action_masks()[rows])
        return [getattr(self, method_name)(*args, **kwargs)] * len(rows)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def _get_indices(self, indices: Any) -> list[int]:
        return list(super()._get_indices(indices))
