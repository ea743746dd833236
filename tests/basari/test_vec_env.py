"""The BASARI learner VecEnv: the learner is asked only at its real decisions (its cards,
start archway and barter steps), games restart with their results, seeds reproduce."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from agents.basari.view import View  # noqa: E402
from asara_env.basari.config import BasariConfig  # noqa: E402
from asara_env.basari.phases import Phase  # noqa: E402
from asara_env.common.backend import numba_available  # noqa: E402
from asara_env.games import load_core  # noqa: E402
from training.basari.vec_env import BasariVecEnv  # noqa: E402


def run(env: BasariVecEnv, steps: int, seed: int) -> tuple[list[Any], list[Any], list[Any]]:
    rng = np.random.default_rng(seed)
    obs_log: list[Any] = [env.reset()]
    reward_log: list[Any] = []
    infos_log: list[Any] = []
    for _ in range(steps):
        masks = env.action_masks()
        assert masks[:, 1:].any(axis=1).all(), "the learner was asked without a decision"
        noise = np.where(masks, rng.random(masks.shape), -1.0)
        obs, rewards, done, infos = env.step(noise.argmax(axis=1))
        obs_log.append(obs)
        reward_log.append(rewards)
        infos_log.append([i for i, d in zip(infos, done) if d])
    return obs_log, reward_log, infos_log


@pytest.mark.parametrize("players", [2, 4])
def test_learner_decides_cards_and_barters_and_games_finish(players: int) -> None:
    env = BasariVecEnv(8, BasariConfig(players), ("points_first", "random"), reward="rank", seed=1)
    obs, rewards, infos = run(env, 80, 0)
    phases = View.of(np.concatenate(obs)).phase
    views = View.of(np.concatenate(obs))
    barter_turns = (phases == Phase.BARTER) & views.to_act[:, 0]
    assert (phases == Phase.SELECT).any() and barter_turns.any()
    assert not ((phases == Phase.BARTER) & ~views.to_act[:, 0]).any()
    finished = [i for step in infos for i in step]
    assert finished, "no game finished in 80 steps"
    for info in finished:
        assert len(info["final_scores"]) == players and 0 <= info["win"] <= 1
        assert -1 <= info["episode"]["r"] <= 1
    nonzero = np.concatenate(rewards)
    assert np.count_nonzero(nonzero) <= len(finished)


def test_same_seed_same_games() -> None:
    a = run(BasariVecEnv(4, BasariConfig(3), ("points_first",), seed=5), 30, 2)
    b = run(BasariVecEnv(4, BasariConfig(3), ("points_first",), seed=5), 30, 2)
    assert all((x == y).all() for x, y in zip(a[0], b[0]))
    c = run(BasariVecEnv(4, BasariConfig(3), ("points_first",), seed=6), 30, 2)
    assert any((x != y).any() for x, y in zip(a[0], c[0]))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one opponent"):
        BasariVecEnv(2, BasariConfig(3), ())
    with pytest.raises(ValueError):
        BasariVecEnv(2, BasariConfig(3), ("value",), reward="nonsense")


@pytest.mark.skipif(not numba_available(), reason="numba is not installed")
def test_the_backend_chosen_once_plays_the_same_games() -> None:
    runs = [
        run(BasariVecEnv(4, BasariConfig(3), ("value", "random"), seed=5, backend=backend), 60, 2)
        for backend in ("numpy", load_core("basari", "numba"))
    ]
    (obs_a, rewards_a, _), (obs_b, rewards_b, _) = runs
    assert all(np.array_equal(a, b) for a, b in zip(obs_a, obs_b))
    assert all(np.array_equal(a, b) for a, b in zip(rewards_a, rewards_b))
    assert BasariVecEnv(2, backend="numba").engine.backend == "numba"
