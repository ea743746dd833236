"""TorchRL on each game (run in `.venv-torchrl`, `make test-integration`): its
`PettingZooWrapper` through `asara_env.integrations.torchrl_env` samples only legal
actions, frame by frame the same game as the plain AEC env, and the PPO recipe trains with
its checks holding."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import asara_env
from examples.checks import win_reward_sum

pytestmark = pytest.mark.integration
pytest.importorskip("torchrl")
GAMES = ["asara", "basari"]


@pytest.mark.parametrize("game", GAMES)
def test_a_random_rollout_is_legal_and_the_aec_envs_game(game):
    from asara_env.integrations.torchrl_env import GROUP, torchrl_env

    env = torchrl_env(game, seed=3, num_players=3)
    twin = asara_env.make(game, num_players=3)
    twin.reset(seed=3)
    twin.reset()  # the rollout's own reset plays the next game of the seed
    rollout = env.rollout(5000, break_when_any_done=True)
    assert bool(rollout["next", "done"][-1]), "the game did not end"
    actions = rollout[GROUP, "action"].numpy()
    movers = rollout[GROUP, "mask"].numpy()
    masks = rollout[GROUP, "action_mask"].numpy()
    for step in range(len(rollout)):
        (seat,) = np.flatnonzero(movers[step])
        mover = twin.agent_selection
        assert mover == twin.possible_agents[seat]
        np.testing.assert_array_equal(masks[step, seat], twin.observe(mover)["action_mask"])
        twin.step(int(actions[step, seat]))
    assert all(twin.terminations.values())
    assert int(rollout["next", GROUP, "info", "illegal"].sum()) == 0
    returns = rollout["next", GROUP, "reward"].sum(0).reshape(-1).numpy()
    assert returns.sum() == pytest.approx(win_reward_sum(game), abs=1e-6)
    assert returns.tolist() == pytest.approx([twin.rewards[a] for a in twin.possible_agents])


@pytest.mark.parametrize("game", GAMES)
def test_torchrl_ppo_recipe(game):
    torchrl_ppo = importlib.import_module("examples.torchrl_ppo")
    result = torchrl_ppo.run(game, num_players=2, frames=1024, batch=512, seed=0)
    torchrl_ppo.check(result)
    assert result["frames"] == 1024
