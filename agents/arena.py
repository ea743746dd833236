"""Play agents against each other: many games through the vectorised core, or one game
through the PettingZoo env.

`play_batch` plays G games B at a time. `seating[g, s]` is the index (into `agents`) of
the agent in seat s of game g; an agent may sit in several seats and several games. Each
step every agent is asked once, for all the live games where it is to move, in game order.
So an agent's random numbers are consumed in batch order: results depend on `batch_size`,
and a single game played here equals `play_game` only when the batch holds that one game
and every agent starts fresh.
"""

from __future__ import annotations

import numpy as np

from asara_env import asara_v0
from asara_env.asara.config import GameConfig
from asara_env.asara.core import TURNS, init, scores
from asara_env.common.opponents import NO_LEARNER, play_opponents

from .base import Agent


def play_chunk(config: GameConfig, agents: list[Agent], seating, seeds) -> np.ndarray:
    """int[B, P]: final prestige of games seeded `seeds` (uint64[B]) played in one batch."""
    state = init(config, len(seeds), seeds=np.asarray(seeds, np.uint64))
    no_learner = np.full(len(seeds), NO_LEARNER, np.int64)
    play_opponents(TURNS, state, no_learner, np.asarray(seating, np.int64), agents)
    return scores(state).copy()


def _check_seating(config: GameConfig, agents: list, seating: np.ndarray, seeds) -> None:
    if seating.ndim != 2 or seating.shape[1] != config.num_players:
        raise ValueError(f"seating must be int[G, {config.num_players}], got {seating.shape}")
    if seating.shape[0] != len(seeds):
        raise ValueError(f"{seating.shape[0]} seatings but {len(seeds)} seeds")
    if seating.size and not (seating.min() >= 0 and seating.max() < len(agents)):
        raise ValueError(f"seating holds agent indices outside 0..{len(agents) - 1}")


def play_batch(
    config: GameConfig,
    agents: list[Agent],
    seating: np.ndarray,
    seeds: np.ndarray,
    batch_size: int = 256,
    progress=False,
) -> np.ndarray:
    """int[G, P]: final prestige of G games, game g seeded `seeds[g]` (the reference game of
    that seed) with agent `agents[seating[g, s]]` in seat s. `progress`: True for a tqdm
    bar, or a tqdm bar to advance by one per game."""
    seating, seeds = np.asarray(seating, np.int64), np.asarray(seeds, np.uint64)
    _check_seating(config, agents, seating, seeds)
    bar = _progress_bar(progress, len(seeds))
    out = np.zeros(seating.shape, np.int64)
    for lo in range(0, len(seeds), batch_size):
        part = slice(lo, lo + batch_size)
        out[part] = play_chunk(config, agents, seating[part], seeds[part])
        if bar is not None:
            bar.update(len(seeds[part]))
    if progress is True:
        bar.close()
    return out


def _progress_bar(progress, total: int):
    if progress is True:
        from tqdm.auto import tqdm

        return tqdm(total=total, unit="game")
    return None if progress is False else progress


def act_in_env(agent: Agent, env, observation: dict) -> int:
    """The action of `agent`, to move in a PettingZoo ASARA env whose last observation is
    `observation`: search agents read the env's state (agents/search.py), others the
    observation and mask."""
    if getattr(agent, "needs_state", False):
        return agent.act_env(env)
    return agent.act(observation["observation"], observation["action_mask"])


def play_game(config: GameConfig, agents_by_seat: list[Agent], seed: int) -> np.ndarray:
    """int[P]: final prestige of the reference game `seed` played through the AEC env, with
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
