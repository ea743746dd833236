"""The single-agent gymnasium env: gymnasium's checker, the learner's rewards and
observations against the AEC env, seeding, seats, saved games, deep copies and errors."""

from __future__ import annotations

import copy
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents.registry import make_agent
from asara_env import CorruptStateError, IllegalActionError
from asara_env.asara.core.outcome import terminal_rewards
from asara_env.asara.gym_env import AsaraGymEnv


def play(env: AsaraGymEnv, seed: int, rng_seed: int = 0, options=None):
    obs, info = env.reset(seed=seed, options=options)
    rng, total, trace = np.random.default_rng(rng_seed), 0.0, [obs.tobytes()]
    while True:
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        trace.append(obs.tobytes())
        assert not truncated
        if terminated:
            return total, info, trace
        assert reward == 0.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gymnasium_check_env_passes(players):
    env = AsaraGymEnv(num_players=players, variant="pro", illegal_action="penalize")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the Box's upper bound is infinite
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("reward", ["win", "rank", "margin"])
def test_the_learner_gets_its_terminal_reward_once_at_the_end(reward):
    env = AsaraGymEnv(
        num_players=3,
        opponents=[make_agent("asara", "greedy"), make_agent("asara", "random")],
        reward=reward,
    )
    total, info, _ = play(env, seed=3)
    prestige = np.array([env.game.infos[f"player_{s}"]["final_prestige"] for s in range(3)])
    assert info["final_prestige"] == prestige[env.seat]
    want = terminal_rewards(prestige[None], reward)[0, env.seat]
    assert total == pytest.approx(float(want))
    assert not env.action_masks().any()


def test_same_seed_same_game_and_seeds_and_seats_matter():
    env = AsaraGymEnv(num_players=2, opponents=[make_agent("asara", "random")])
    first, again = play(env, seed=5), play(env, seed=5)
    assert first[2] == again[2] and first[0] == again[0]
    seats = {play(env, seed=s)[1]["learner_seat"] for s in range(8)}
    assert seats == {0, 1}
    fixed = AsaraGymEnv(num_players=2, seat=1)
    assert {play(fixed, seed=s)[1]["learner_seat"] for s in range(3)} == {1}


def test_options_pick_the_reference_game_and_seat():
    env = AsaraGymEnv(num_players=2, opponents=[make_agent("asara", "towers")])
    obs, info = env.reset(seed=0, options={"game_seed": 77, "seat": 1})
    assert env.game.game_seed == 77 and info["learner_seat"] == 1
    assert env.game.agent_selection == "player_1"


def test_illegal_actions_raise_and_change_nothing():
    env = AsaraGymEnv(num_players=2, illegal_action="raise")
    obs, info = env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert np.array_equal(env.game.observe(env.learner)["observation"], obs)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"opponents": [make_agent("asara", "random")] * 2}, "opponents"),
        ({"opponents": ("random",)}, "agent objects"),
        ({"seat": 2}, "seat"),
    ],
)
def test_bad_arguments_are_refused(kw, match):
    with pytest.raises(ValueError, match=match):
        AsaraGymEnv(num_players=2, **kw)


def test_stepping_a_finished_game_or_a_bad_seat_option_is_a_clear_error():
    env = AsaraGymEnv(num_players=2)
    play(env, seed=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="seat"):
        env.reset(seed=0, options={"seat": 5})


def test_registered_with_gymnasium_and_its_spaces_are_finite():
    env = gymnasium.make("asara_env/Asara-v0", num_players=3, variant="pro")
    space, unwrapped = env.observation_space, env.unwrapped
    assert isinstance(space, gymnasium.spaces.Box) and isinstance(unwrapped, AsaraGymEnv)
    assert np.isfinite(space.high).all()
    obs, info = env.reset(seed=0)
    assert space.contains(obs)
    assert np.array_equal(info["action_mask"].astype(bool), unwrapped.action_masks())


def test_by_default_an_illegal_action_ends_the_game_with_minus_one_and_a_warning():
    env = AsaraGymEnv(num_players=2)
    env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.warns(UserWarning, match=f"illegal action {bad}"):
        _, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, 1)


def test_saving_and_loading_continues_the_position_in_any_seat():
    env = AsaraGymEnv(num_players=3, opponents=[make_agent("asara", "greedy")])
    obs, info = env.reset(seed=4)
    for _ in range(12):
        obs, *_, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    saved, seat = env.game.save_game(), env.seat
    assert env.save_game() == saved
    other = AsaraGymEnv(num_players=3, opponents=[make_agent("asara", "greedy")])
    obs2, info2 = other.load_game(saved, seat=seat)
    assert np.array_equal(obs2, obs) and np.array_equal(info2["action_mask"], info["action_mask"])
    assert info2["learner_seat"] == seat and other.save_game() == saved
    with pytest.raises(CorruptStateError):
        other.load_game({**saved, "year": 9})
    assert other.save_game() == saved  # unchanged
    with pytest.raises(ValueError, match="game_seed"):
        other.reset(options={"state": saved, "game_seed": 1})


def test_a_deep_copy_continues_identically_and_independently():
    env = AsaraGymEnv(num_players=2, opponents=[make_agent("asara", "random")])
    env.reset(seed=6)
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    twin = copy.deepcopy(env)
    while True:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        out, twin_out = env.step(action), twin.step(action)
        assert np.array_equal(out[0], twin_out[0]) and out[1:4] == twin_out[1:4]
        if out[2]:
            break
    assert twin.save_game() == env.save_game()
