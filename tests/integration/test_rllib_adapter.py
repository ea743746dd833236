"""asara_env.integrations.rllib.AsaraMultiAgentEnv plays whole games the RLlib way: only
the agent to move is observed, its mask is the AEC env's, and at the end every agent gets
its observation, a zero-sum reward and terminated."""

from __future__ import annotations

import numpy as np
import pytest

import asara_env

pytestmark = pytest.mark.integration
rllib_adapter = pytest.importorskip("asara_env.integrations.rllib")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_masked_game_through_the_rllib_adapter(players: int):
    env = rllib_adapter.AsaraMultiAgentEnv({"num_players": players})
    twin = asara_env.env(num_players=players)
    twin.reset(seed=5)
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for _ in range(2000):
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
    assert abs(sum(totals.values())) < 1e-6  # float32 rewards
    assert max(totals.values()) > 0  # somebody won (the win reward)


def test_the_adapter_refuses_actions_of_an_agent_not_to_move():
    env = rllib_adapter.AsaraMultiAgentEnv({"num_players": 2})
    obs, _ = env.reset(seed=1)
    (mover,) = obs
    other = next(a for a in env.possible_agents if a != mover)
    with pytest.raises(ValueError, match=f"{mover} is to move"):
        env.step({other: 0})
