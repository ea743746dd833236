"""The arena: batched play through the core agrees with one game through the AEC env."""

from __future__ import annotations

import numpy as np
import pytest

from agents.asara import AGENTS
from agents.asara.arena import AsaraAgent, play_batch, play_game
from agents.registry import make_agent
from asara_env import GameConfig

CONFIGS = [GameConfig(num_players=p, variant=v) for p in (2, 3, 4) for v in ("basic", "pro")]
IDS = [f"{c.num_players}p-{c.variant}" for c in CONFIGS]


class FirstLegal(AsaraAgent):
    """Deterministic without a generator: the lowest legal action id (or the highest)."""

    def __init__(self, last: bool = False):
        super().__init__(0)
        self.last = last

    def act_batch(self, observations, action_masks):
        masks = np.asarray(action_masks).astype(bool)
        ids = np.arange(masks.shape[1])
        return np.where(masks, ids, -1).max(1) if self.last else np.argmax(masks, axis=1)


def seating_for(config: GameConfig, num_agents: int) -> np.ndarray:
    return np.array([[s % num_agents for s in range(config.num_players)]])


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_single_game_batch_equals_aec_game(config):
    names = ["random", "greedy"] if "greedy" in AGENTS else ["random", "random"]
    seating = seating_for(config, 2)
    fresh = [make_agent("asara", n, 10 + k) for k, n in enumerate(names)]
    batched = play_batch(config, fresh, seating, np.array([123], np.uint64))
    fresh = [make_agent("asara", n, 10 + k) for k, n in enumerate(names)]
    single = play_game(config, [fresh[k] for k in seating[0]], 123)
    np.testing.assert_array_equal(batched[0], single)


def test_every_registered_agent_plays_one_game_alike():
    config = GameConfig(num_players=len(AGENTS) % 3 + 2)
    names = sorted(AGENTS)
    seating = np.array([[s % len(names) for s in range(config.num_players)]])
    batched = play_batch(
        config, [make_agent("asara", n, 5) for n in names], seating, np.array([9], np.uint64)
    )
    agents = [make_agent("asara", n, 5) for n in names]
    np.testing.assert_array_equal(batched[0], play_game(config, [agents[k] for k in seating[0]], 9))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chunks_of_unequal_games_match_single_games_for_rng_free_agents(players):
    config = GameConfig(num_players=players)
    seeds = np.array([3, 1, 4, 1, 5, 9, 2], np.uint64)
    seating = np.array([[(g + s) % 2 for s in range(players)] for g in range(len(seeds))])
    agents = [FirstLegal(), FirstLegal(last=True)]
    batched = play_batch(config, agents, seating, seeds, batch_size=3)
    for g, seed in enumerate(seeds):
        single = play_game(config, [agents[k] for k in seating[g]], int(seed))
        np.testing.assert_array_equal(batched[g], single, err_msg=f"game {g}")


def test_each_agent_is_asked_once_per_step_for_its_games_only():
    calls = []

    class Spy(FirstLegal):
        def act_batch(self, observations, action_masks):
            assert len(observations) == len(action_masks) > 0
            assert np.asarray(action_masks).any(axis=1).all()  # only live games
            calls.append(len(observations))
            return super().act_batch(observations, action_masks)

    config = GameConfig(num_players=2)
    seeds = np.arange(4, dtype=np.uint64)
    play_batch(config, [Spy()], np.zeros((4, 2), np.int64), seeds, batch_size=4)
    assert max(calls) == 4  # all four games in one call while all are running


def test_bad_seating_is_rejected():
    config = GameConfig(num_players=3)
    agents = [make_agent("asara", "random", 0)]
    seeds = np.zeros(2, np.uint64)
    with pytest.raises(ValueError, match="int\\[G, 3\\]"):
        play_batch(config, agents, np.zeros((2, 2), np.int64), seeds)
    with pytest.raises(ValueError, match="agent indices"):
        play_batch(config, agents, np.ones((2, 3), np.int64), seeds)
    with pytest.raises(ValueError, match="seeds"):
        play_batch(config, agents, np.zeros((3, 3), np.int64), seeds)
