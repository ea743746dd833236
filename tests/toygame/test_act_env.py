"""The test game's agents, its baselines and every search, act in its AEC and parallel
envs through `act_env(env, agent_id=None)`, as in the built-in games; the searches read
the env's game through the default (`env.unwrapped.core`), the card naming no verbs."""

from __future__ import annotations

from typing import Any

import pytest

from agents.registry import agent_names, make_agent
from tests.toygame import env as toy_env

SEARCHES = ("flatmc:8", "ismcts:8", "gumbel:8")
PLAYERS = 3


SPECS = ("random", "high", *SEARCHES)


def test_the_specs_name_every_agent_of_the_test_game(toygame_registered):
    names = {spec.split(":")[0] for spec in SPECS}
    assert names == set(agent_names("toygame")) - {"policy"}  # it ships no model


@pytest.mark.parametrize("spec", SPECS)
def test_every_toygame_agent_plays_whole_parallel_games(toygame_registered, spec):
    env = toy_env.parallel_env(num_players=PLAYERS, illegal_action="raise")
    agent: Any = make_agent("toygame", spec, 0)  # a search counts its `searches`
    observations, _ = env.reset(seed=2)
    steps = 0
    while env.agents:
        actions = {a: agent.act_env(env, a) for a in env.agents}
        assert all(observations[a]["action_mask"][x] for a, x in actions.items())
        observations, *_ = env.step(actions)
        steps += 1
    assert steps > 1
    if spec in SEARCHES:
        assert agent.searches > 0


@pytest.mark.parametrize("spec", SPECS)
def test_every_toygame_agent_plays_whole_aec_games(toygame_registered, spec):
    env = toy_env.env(num_players=PLAYERS, illegal_action="raise")
    agent = make_agent("toygame", spec, 0)
    env.reset(seed=2)
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        action = None if termination or truncation else agent.act_env(env)
        assert action is None or observation["action_mask"][action]
        env.step(action)
    assert not env.agents


def test_a_toygame_agent_named_outside_the_game_is_refused(toygame_registered):
    env = toy_env.parallel_env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'player_5'"):
        make_agent("toygame", "gumbel:4", 0).act_env(env, "player_5")
