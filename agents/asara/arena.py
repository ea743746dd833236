"""Play ASARA agents against each other: many games through the vectorised core, or one
game through the PettingZoo env.

`play_batch` plays G games B at a time (the shared loop, agents/arena.py). `seating[g, s]`
is the index (into `agents`) of the agent in seat s of game g. Each step every agent is
asked once, for all the live games where it is to move, in game order (a search agent
through `act_games`, the others through `act_batch`). So an agent's random numbers are
consumed in batch order: results depend on `batch_size`, and a single game played here
equals `play_game` only when the batch holds that one game and every agent starts fresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from pettingzoo import AECEnv

from agents import arena
from agents.base import Agent
from asara_env import asara_v0
from asara_env.asara.config import GameConfig
from asara_env.asara.core import CoreState, init, scores
from asara_env.common.opponents import NO_LEARNER, Actor, play_opponents
from asara_env.games import CoreVerbs, bind_core

from .search import SearchAgent

AsaraAgent = Agent[CoreState]  # an agent that may sit at an ASARA table


def play_chunk(
    config: GameConfig,
    agents: Sequence[Actor],
    seating: ArrayLike,
    seeds: ArrayLike,
    backend: CoreVerbs | str | None = None,
) -> NDArray[np.int64]:
    """int64[B, P]: final prestige of games seeded `seeds` (uint64[B]) played in one batch
    on the core of `backend` ("numpy", "numba", None: the default)."""
    games = np.asarray(seeds, np.uint64)
    state = init(config, len(games), seeds=games)
    no_learner = np.full(len(games), NO_LEARNER, np.int64)
    turns = bind_core("asara", backend).TURNS
    play_opponents(turns, state, no_learner, np.asarray(seating, np.int64), agents)
    return scores(state).astype(np.int64)


def play_batch(
    config: GameConfig,
    agents: Sequence[Actor],
    seating: ArrayLike,
    seeds: ArrayLike,
    batch_size: int = 256,
    progress: bool | arena.ProgressBar | None = False,
    backend: str | None = None,
) -> NDArray[np.int64]:
    """int64[G, P]: final prestige of G games, game g seeded `seeds[g]` (the reference game
    of that seed) with agent `agents[seating[g, s]]` in seat s. `progress`: True for a tqdm
    bar, or a tqdm bar to advance by one per game. An agent is anything the opponents' loop
    can ask (`Actor`: `act_batch`, and `act_games` where it `needs_state`): an
    `AsaraAgent`, or a wrapper around one such as the ladder's timer. `backend`: the core
    the games are stepped on ("numpy", "numba", None: the default)."""
    chunk = partial(play_chunk, config, backend=backend)
    players = config.num_players
    return arena.play_batch(chunk, agents, seating, seeds, players, batch_size, progress)


def act_in_env(agent: AsaraAgent, env: AECEnv, observation: dict[str, Any]) -> int:
    """The action of `agent`, to move in a PettingZoo ASARA env whose last observation is
    `observation`: search agents read the env's state (agents/asara/search.py), others the
    observation and mask."""
    if isinstance(agent, SearchAgent) or getattr(agent, "needs_state", False):
        return agent.act_env(env)
    return agent.act(observation["observation"], observation["action_mask"])


def play_game(
    config: GameConfig, agents_by_seat: Sequence[AsaraAgent], seed: int
) -> NDArray[np.int64]:
    """int64[P]: final prestige of the reference game `seed` played through the AEC env, with
    `agents_by_seat[s]` in seat s."""
    if config.start_seat != 0:
        raise ValueError("play_game: the AEC env always starts with seat 0")
    if len(agents_by_seat) != config.num_players:
        raise ValueError(f"need {config.num_players} agents, got {len(agents_by_seat)}")
    env = asara_v0.env(
        num_players=config.num_players, variant=config.variant, expansions=config.expansions
    )
    env.reset(seed=int(seed))
    seat = {name: i for i, name in enumerate(env.possible_agents)}
    final = np.zeros(config.num_players, np.int64)
    for name in env.agent_iter():
        obs, _, termination, truncation, info = env.last()
        done = termination or truncation
        final[seat[name]] = info["final_prestige"]
        agent = agents_by_seat[seat[name]]
        env.step(None if done else act_in_env(agent, env, obs))
    return final
