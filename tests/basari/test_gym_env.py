"""BASARI's single-agent gymnasium env: gymnasium's checker, the learner asked only at its
real decisions, its terminal reward, seeding, seats, illegal actions (penalised or
raised), saved games and deep copies, bad arguments."""

from __future__ import annotations

import copy
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from asara_env.basari.actions import NOOP
from asara_env.basari.gym_env import BasariGymEnv
from asara_env.common.errors import CorruptStateError, IllegalActionError
from asara_env.opponents_env import UniformRandom
from tests.basari.helpers import e5_rewards


class FirstLegal:
    """An opponent that plays its first legal real action (NOOP when it has none)."""

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(action_masks, bool).copy()
        real = masks[:, 1:].any(axis=1)
        masks[real, NOOP] = False
        return np.argmax(masks, axis=1).astype(np.int64)


def play(env: BasariGymEnv, seed: int, rng_seed: int = 0, options=None):
    obs, info = env.reset(seed=seed, options=options)
    rng, total, trace = np.random.default_rng(rng_seed), 0.0, [obs.tobytes()]
    while True:
        mask = env.action_masks()
        assert np.array_equal(info["action_mask"].astype(bool), mask)
        assert mask[1:].any(), "the learner was asked without a decision"
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        trace.append(obs.tobytes())
        assert not truncated
        if terminated:
            return total, info, trace
        assert reward == 0.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gymnasium_check_env_passes(players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # illegal samples are warned about
        check_env(BasariGymEnv(num_players=players), skip_render_check=True)


@pytest.mark.parametrize("reward", ["win", "rank", "margin"])
def test_the_learner_gets_its_terminal_reward_once_at_the_end(reward):
    env = BasariGymEnv(num_players=3, opponents=[FirstLegal(), UniformRandom(4)], reward=reward)
    total, info, _ = play(env, seed=3)
    scores, key = np.asarray(info["final_scores"], float), np.asarray(info["ranking_score"])
    assert scores.tolist() == env.game.unwrapped.core.score[0].tolist()
    assert total == pytest.approx(e5_rewards(scores, key, reward)[env.seat])
    assert not env.action_masks().any() and not info["action_mask"].any()


def test_same_seed_same_game_and_seeds_and_seats_matter():
    env = BasariGymEnv(num_players=2, opponents=[UniformRandom()])
    first, again = play(env, seed=5), play(env, seed=5)
    assert first[2] == again[2] and first[0] == again[0]
    assert {play(env, seed=s)[1]["learner_seat"] for s in range(8)} == {0, 1}
    fixed = BasariGymEnv(num_players=3, seat=2)
    assert {play(fixed, seed=s)[1]["learner_seat"] for s in range(3)} == {2}


def test_options_pick_the_game_and_seat():
    env = BasariGymEnv(num_players=3, start_mode="random")
    obs, info = env.reset(seed=0, options={"game_seed": 77, "seat": 1})
    assert env.game.unwrapped.game_seed == 77 and info["learner_seat"] == 1
    assert env.game.agent_selection == "player_1"


def test_by_default_an_illegal_action_ends_the_game_with_minus_one_and_a_warning():
    env = BasariGymEnv(num_players=3)
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="illegal action 0"):  # NOOP in SETUP
        _, reward, terminated, truncated, info = env.step(NOOP)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, 1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)


def test_illegal_actions_raise_and_change_nothing_under_raise():
    env = BasariGymEnv(num_players=3, illegal_action="raise")
    obs, info = env.reset(seed=1)
    saved = env.save_game()
    for bad in (NOOP, 999, -1, 1.5, "1"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.save_game() == saved
        assert np.array_equal(env.game.observe(env.learner)["observation"], obs)
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # and the game plays on


def test_saving_and_loading_continues_the_position_in_any_seat():
    env = BasariGymEnv(num_players=4, opponents=[FirstLegal()])
    obs, info = env.reset(seed=9)
    for _ in range(10):
        obs, *_, info = env.step(int(np.flatnonzero(env.action_masks())[-1]))
    saved, seat = env.save_game(), env.seat
    other = BasariGymEnv(num_players=4, opponents=[FirstLegal()])
    obs2, info2 = other.load_game(saved, seat=seat)
    assert np.array_equal(obs2, obs) and np.array_equal(info2["action_mask"], info["action_mask"])
    assert info2["learner_seat"] == seat and other.save_game() == saved
    with pytest.raises(CorruptStateError):
        other.load_game({**saved, "carpet": [99, 0, 0, 0]})
    assert other.save_game() == saved and other.seat == seat  # unchanged
    with pytest.raises(ValueError, match="game_seed"):
        other.reset(options={"state": saved, "game_seed": 1})


def test_a_deep_copy_continues_identically_and_independently():
    env = BasariGymEnv(num_players=3, opponents=[UniformRandom(), FirstLegal()])
    env.reset(seed=21)
    rng = np.random.default_rng(0)
    for _ in range(6):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    twin = copy.deepcopy(env)
    while True:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        out, twin_out = env.step(action), twin.step(action)
        assert np.array_equal(out[0], twin_out[0]) and out[1:4] == twin_out[1:4]
        if out[2]:
            break
    assert twin.save_game() == env.save_game()
    assert twin.game.unwrapped.core.score is not env.game.unwrapped.core.score


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"opponents": [UniformRandom()] * 2}, "opponents"),
        ({"opponents": ("random",)}, "agent objects"),
        ({"seat": 4}, "seat"),
        ({"seat": 1.0}, "seat"),
        ({"reward": "points"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"render_mode": "rgb_array_list"}, "render_mode"),
        ({"start_mode": "any"}, "start_mode"),
    ],
)
def test_bad_arguments_are_refused_naming_them(kw, match):
    with pytest.raises(ValueError, match=match):
        BasariGymEnv(num_players=4, **kw)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"seed": -1}, "seed"),
        ({"options": "x"}, "reset options"),
        ({"options": {"seat": 3}}, "options\\['seat'\\]"),
        ({"options": {"game_seed": 2**64}}, "options\\['game_seed'\\]"),
    ],
)
def test_bad_reset_arguments_are_refused_naming_them(kw, match):
    env = BasariGymEnv(num_players=3)
    with pytest.raises(ValueError, match=match):
        env.reset(**kw)


def test_registered_with_gymnasium_and_its_spaces_are_finite():
    env = gymnasium.make("asara_env/Basari-v0", num_players=3, render_mode="ansi")
    space, unwrapped = env.observation_space, env.unwrapped
    assert isinstance(space, gymnasium.spaces.Box) and isinstance(unwrapped, BasariGymEnv)
    assert np.isfinite(space.high).all()
    obs, info = env.reset(seed=0)
    assert space.contains(obs)
    assert np.array_equal(info["action_mask"].astype(bool), unwrapped.action_masks())
    text = env.render()
    assert isinstance(text, str) and "player_0" in text
