"""Each recipe of examples/ trains for a few steps on each game's default env (or its
registered gymnasium id) through the library's own entry point, and its checks hold: no
illegal action, each game's rewards summing as its `win` reward says, the learner's
returns recorded."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from examples.checks import win_reward_sum

pytestmark = pytest.mark.integration
GAMES = ["asara", "basari"]
ROOT = Path(__file__).resolve().parents[2]


def recipe(name: str, *needs: str):
    """The example module `name`, skipped when a library it needs is not installed."""
    for module in needs:
        pytest.importorskip(module)
    return importlib.import_module(f"examples.{name}")


@pytest.mark.parametrize("game", GAMES)
def test_sb3_maskable_ppo_on_the_registered_gymnasium_id(game):
    sb3 = recipe("sb3_maskable_ppo", "sb3_contrib")
    result = sb3.run(game, num_players=2, steps=512, seed=0)
    sb3.check(result)
    assert result["steps"] == 512


@pytest.mark.parametrize("game", GAMES)
def test_sb3_subprocess_workers_find_the_gymnasium_id(game):
    """SB3's `make_vec_env(gym_id, vec_env_cls=SubprocVecEnv)` from a script: the workers
    (forkserver) re-import the script, whose `import asara_env` registers the ids."""
    pytest.importorskip("sb3_contrib")
    command = [sys.executable, "-m", "examples.sb3_maskable_ppo", "--game", game]
    command += ["--envs", "2", "--steps", "256"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"MaskablePPO on {game}: 256 learner steps" in done.stdout
    assert "illegal actions 0" in done.stdout


@pytest.mark.parametrize("game", GAMES)
def test_supersuit_vector_env_with_maskable_ppo(game):
    ss = recipe("supersuit_vec_env", "supersuit", "sb3_contrib")
    result = ss.run(game, num_players=3, games=2, steps=1536, seed=0)
    ss.check(result)
    assert result["rows"] == 2 * 3


@pytest.mark.parametrize("game", GAMES)
def test_tianshou_collector_and_masked_dqn(game):
    ts = recipe("tianshou_dqn", "tianshou")
    result = ts.run(game, num_players=2, epochs=1, epoch_steps=200, envs=2, seed=0)
    ts.check(result)
    assert len(result["learner_returns"]) == 2


@pytest.mark.parametrize("game", GAMES)
def test_agilerl_ippo(game):
    agile = recipe("agilerl_ippo", "agilerl", "peft", "supersuit")
    result = agile.run(game, num_players=2, envs=2, steps=512, learn_step=256, seed=0)
    agile.check(result)
    assert np.asarray(result["game_returns"]).shape[1] == 2


@pytest.mark.parametrize("game", GAMES)
def test_rllib_multi_agent_ppo_with_action_masking(game):
    rllib = recipe("rllib_ppo", "ray.rllib")
    result = rllib.run(game, num_players=2, iterations=2, batch=512, seed=0)
    rllib.check(result)
    assert set(result["agent_returns"]) == {"player_0", "player_1"}


@pytest.mark.parametrize("game", GAMES)
def test_supersuit_vector_env_as_is_with_random_legal_actions(game):
    """SuperSuit's own vec env on the game's parallel env, no adapter: the masks come in
    the observation dicts, random legal play finishes games summing as `win` says."""
    ss = pytest.importorskip("supersuit")
    from asara_env.integrations.parallel import parallel_env
    from examples.checks import check_games

    vec = ss.pettingzoo_env_to_vec_env_v1(parallel_env(game, num_players=2))
    vec = ss.concat_vec_envs_v1(vec, 2, num_cpus=0, base_class="gymnasium")
    obs, _ = vec.reset(seed=0)
    rng, sums, totals, illegal = np.random.default_rng(0), [], np.zeros(4), 0
    for _ in range(3000):
        masks = np.asarray(obs["action_mask"], bool)
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
        obs, rewards, terminations, truncations, infos = vec.step(np.array(actions))
        illegal += sum(int(info.get("illegal", 0)) for info in infos)
        totals += rewards
        for g in np.flatnonzero(np.reshape(terminations, (2, 2)).all(axis=1)):
            sums.append(float(totals[2 * g : 2 * g + 2].sum()))
            totals[2 * g : 2 * g + 2] = 0.0
        if len(sums) >= 2:
            break
    vec.close()
    assert len(sums) >= 2, "no two games finished"
    check_games(illegal, sums)
    assert np.allclose(sums, win_reward_sum(game))
