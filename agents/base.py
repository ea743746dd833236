"""The agent interface of every game: an observation and an action mask in, a legal action
id out.

An agent sees one seat's observation (`float32[OBS]`, the game's `core/observation.py`) and
its action mask (`int8`/`bool[A]`), never the hidden state. `act_batch` does the same for
`[B, ...]` arrays and returns exactly what B calls of `act` in row order would (same
choices, same random numbers used), so single-game and batched play agree: every agent
draws exactly one double of its generator per row (`u`, used to break ties) and is
deterministic given its seed.

`Agent[S]` is generic in the game state `S` it may read. Most agents read only
observations (`needs_state = False`: `Agent[object]`, playable in any game). An agent with
`needs_state = True` (ASARA's search agents, agents/asara/search.py) is asked
`act_games(state, games)` instead by the loops that hold a state (the arena, the training
VecEnv, asara_env.common.opponents), and must read only what the seat to move knows.

In a PettingZoo env of any game, every agent (baselines, trained models, searches) is
asked the same way: `act_env(env, agent_id=None)`, the action of the agent to move (AEC)
or of the agent named (AEC or parallel), from what that agent may see.

Subclasses implement `choose(observations, masks, u)`; `ScoringAgent` subclasses
implement `scores` instead (the best-scoring legal action, ties broken by `u`).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from agents.env_agent import env_agent, env_observation

LOWEST = -1e9  # the score of a legal action the agent finds worthless (-inf)

S_contra = TypeVar("S_contra", contravariant=True)
Actions = NDArray[np.int64]
Observations = NDArray[np.floating]
Masks = NDArray[np.bool_]


class Agent(Generic[S_contra]):
    """Base class of every agent of every game; see the module docstring."""

    name: str = "agent"
    needs_state: bool = False  # True: the loops ask `act_games(state, games)`
    rng: np.random.Generator

    def __init__(self, seed: int | None = None) -> None:
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the agent's random generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: ArrayLike, action_mask: ArrayLike) -> int:
        """The action for one decision."""
        obs, mask = np.asarray(observation)[None], np.asarray(action_mask)[None]
        return int(self.act_batch(obs, mask)[0])

    def act_batch(self, observations: ArrayLike, action_masks: ArrayLike) -> Actions:
        """int64[B]: one legal action per row (rows with an empty mask are an error)."""
        obs, masks = check_batch(observations, action_masks)
        u = self.rng.random(len(masks))
        if not len(masks):
            return np.zeros(0, np.int64)
        return self.choose(obs, masks, u)

    def choose(self, observations: Observations, masks: Masks, u: NDArray[np.float64]) -> Actions:
        """int64[B]: the action of each row, given its legal actions (`masks`, none empty)
        and one uniform double per row."""
        raise NotImplementedError

    def act_env(self, env: Any, agent_id: str | None = None) -> int:
        """The action of `agent_id` in a PettingZoo env of any game (an AEC env: by default
        its agent to move; a parallel env: the agent named), from what that agent sees:
        its observation and action mask (`agents.env_agent`). A ValueError for an unknown
        agent or one without a legal action now."""
        agent, _ = env_agent(env, agent_id)
        observation, mask = env_observation(env, agent)
        return self.act(observation, mask)

    def act_games(self, state: S_contra, games: NDArray[np.int64]) -> Actions:
        """int64[len(games)]: the action of the seat to move in each of `games` of a batched
        `state` (only for agents with `needs_state`)."""
        raise TypeError(f"{self.name} acts on observations (needs_state is False): ask act_batch")


class ScoringAgent(Agent[object]):
    """An agent that scores every legal action (`scores`) and plays the best one (ties
    broken uniformly by the row's double)."""

    def choose(self, observations: Observations, masks: Masks, u: NDArray[np.float64]) -> Actions:
        floor = np.maximum(self.scores(observations, masks), LOWEST)  # legal beats illegal
        return pick_best(np.where(masks, floor, -np.inf), u)

    def scores(self, observations: Observations, masks: Masks) -> NDArray[np.float64]:
        """float[B, A]: how much the agent likes each legal action (higher is better)."""
        raise NotImplementedError


class RandomAgent(Agent[object]):
    """Chooses uniformly among the legal actions, in any game; deterministic given its
    seed."""

    name = "random"

    def choose(self, observations: Observations, masks: Masks, u: NDArray[np.float64]) -> Actions:
        return uniform(masks, u)


def check_batch(observations: ArrayLike, action_masks: ArrayLike) -> tuple[Observations, Masks]:
    """(observations [B, N], bool masks [B, A]); ValueError for other shapes or a row
    without a legal action."""
    obs, masks = np.asarray(observations), np.asarray(action_masks).astype(bool)
    if obs.ndim != 2 or masks.ndim != 2 or len(obs) != len(masks):
        raise ValueError(f"need obs [B, N] and masks [B, A], got {obs.shape}, {masks.shape}")
    empty = ~masks.any(axis=1)
    if empty.any():
        raise ValueError(f"action mask of row {int(np.flatnonzero(empty)[0])} is empty")
    return obs, masks


def pick_best(scores: NDArray[np.floating], u: NDArray[np.float64]) -> Actions:
    """int64[B]: per row, the k-th of the best-scoring actions with k = floor(u * count)."""
    best = scores == scores.max(axis=1, keepdims=True)
    ranks = np.cumsum(best, axis=1)
    k = (u * ranks[:, -1]).astype(np.int64)
    return np.argmax(ranks > k[:, None], axis=1).astype(np.int64)


def uniform(masks: Masks, u: NDArray[np.float64]) -> Actions:
    """int64[B]: the floor(u * count)-th legal action of each row."""
    from asara_env.common.sampling import uniform_legal  # importing agents loads no game

    return uniform_legal(masks, u)
