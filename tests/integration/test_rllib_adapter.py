"""asara_env.integrations.rllib.TurnBasedMultiAgentEnv plays whole games of each game the
RLlib way: only the agent to move is observed, its mask is the AEC env's, and at the end
every agent gets its observation, its reward (summing as the `win` reward says) and
terminated."""

from __future__ import annotations

import numpy as np
import pytest

import asara_env
from examples.checks import win_reward_sum

pytestmark = pytest.mark.integration
rllib_adapter = pytest.importorskip("asara_env.integrations.rllib")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["asara", "basari"])
def test_a_random_masked_game_through_the_rllib_adapter(game: str, players: int):
    env = rllib_adapter.TurnBasedMultiAgentEnv({"game": game, "num_players": players})
    twin = asara_env.make(game, num_players=players)
    twin.reset(seed=5)
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for _ in range(5000):
        (mover,) = obs
        assert mover == twin.agent_selection
        assert env.observation_spaces[mover].contains(obs[mover])
        mask = obs[mover]["action_mask"]
        np.testing.assert_array_equal(mask, twin.observe(mover)["action_mask"])
        np.testing.assert_array_equal(infos[mover]["action_mask"], mask.astype(np.int8))
        action = int(rng.choice(np.flatnonzero(mask)))
        twin.step(action)
        obs, rewards, terminateds, truncateds, infos = env.step({mover: action})
        for agent, r in rewards.items():
            totals[agent] += r
        if terminateds["__all__"]:
            break
    else:
        pytest.fail("the game did not end")
    assert set(obs) == set(env.possible_agents)
    assert all(terminateds[a] for a in env.possible_agents)
    assert not truncateds["__all__"]
    assert all(not o["action_mask"].any() for o in obs.values())
    assert sum(totals.values()) == pytest.approx(win_reward_sum(game), abs=1e-6)
    assert max(totals.values()) > 0  # somebody won (the win reward)


def test_the_adapter_refuses_actions_of_an_agent_not_to_move():
    env = rllib_adapter.TurnBasedMultiAgentEnv({"num_players": 2})
    obs, _ = env.reset(seed=1)
    (mover,) = obs
    other = next(a for a in env.possible_agents if a != mover)
    with pytest.raises(ValueError, match=f"{mover} is to move"):
        env.step({other: 0})


def test_an_unknown_game_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="asara"):
        rllib_adapter.masked_ppo_config("chess")
