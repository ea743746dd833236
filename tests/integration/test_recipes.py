"""Each recipe of examples/ trains for a few steps on the default `asara_env.env()` (or the
registered gymnasium id) and its checks hold: no illegal action, zero-sum rewards, the
learner's returns recorded."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

pytestmark = pytest.mark.integration


def recipe(name: str, *needs: str):
    """The example module `name`, skipped when a library it needs is not installed."""
    for module in needs:
        pytest.importorskip(module)
    return importlib.import_module(f"examples.{name}")


def test_sb3_maskable_ppo_on_the_registered_gymnasium_id():
    sb3 = recipe("sb3_maskable_ppo", "sb3_contrib")
    result = sb3.run(num_players=2, steps=512, seed=0)
    sb3.check(result)
    assert result["steps"] == 512


def test_supersuit_vector_env_on_the_turn_based_parallel_conversion():
    ss = recipe("supersuit_vec_env", "supersuit", "sb3_contrib")
    result = ss.run(num_players=3, games=2, steps=1536, seed=0)
    ss.check(result)
    assert result["rows"] == 2 * 3


def test_tianshou_collector_and_masked_dqn():
    ts = recipe("tianshou_dqn", "tianshou")
    result = ts.run(num_players=2, epochs=1, epoch_steps=200, envs=2, seed=0)
    ts.check(result)
    assert len(result["learner_returns"]) == 2


def test_agilerl_ippo():
    agile = recipe("agilerl_ippo", "agilerl", "peft", "supersuit")
    result = agile.run(num_players=2, envs=2, steps=512, learn_step=256, seed=0)
    agile.check(result)
    assert np.asarray(result["game_returns"]).shape[1] == 2


def test_rllib_multi_agent_ppo_with_action_masking():
    rllib = recipe("rllib_ppo", "ray.rllib")
    result = rllib.run(num_players=2, iterations=2, batch=512, seed=0)
    rllib.check(result)
    assert set(result["agent_returns"]) == {"player_0", "player_1"}
