"""The environments' shared plumbing (asara_env/envs.py) on every game: the seed sequence,
the saved-state option, the constructor's choices, the illegal-action policy at the
offender's own step (raised or penalised), dead agents' steps, deep copies and saved games
of the AEC envs, and PettingZoo's api and seed tests under both policies."""

from __future__ import annotations

import copy
import pickle
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from asara_env import asara_v0, basari_v0
from asara_env.common.seeding import derived_seed
from asara_env.envs import (
    ILLEGAL_PENALTY,
    EpisodeSeeds,
    Illegal,
    penalty_rewards,
    raise_or_warn,
    saved_state,
)

FACTORIES = {"asara": asara_v0.env, "basari": basari_v0.env}
GAMES = list(FACTORIES)


def make(game: str, **kw):
    return FACTORIES[game](num_players=2, **kw)


def snapshot(env) -> tuple[Any, ...]:
    return (
        env.unwrapped.save_game(),
        env.agent_selection,
        tuple(env.agents),
        dict(env.terminations),
        dict(env._cumulative_rewards),
        {a: env.observe(a)["action_mask"].tobytes() for a in env.possible_agents},
    )


def illegal_action(env) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


def random_step(env, rng: np.random.Generator) -> None:
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(rng.choice(np.flatnonzero(mask))))


# ------------------------------------------------------------------------------ helpers
def test_the_seed_sequence_of_an_env():
    seeds = EpisodeSeeds()
    drawn = seeds.next(None)  # the first reset without a seed draws one
    assert 0 <= drawn < 2**64 and seeds.next(None) == derived_seed(drawn, 1)
    assert seeds.next(7) == 7 and seeds.next(None) == derived_seed(7, 1)
    assert seeds.next(None) == derived_seed(7, 2)
    for bad in (-1, 2**64, 1.0, "7", True, np.float64(3)):
        with pytest.raises(ValueError, match="seed must be an int"):
            seeds.next(bad)
    assert seeds.next(None) == derived_seed(7, 3)  # a refused seed changed nothing
    seeds.restart(11)
    assert seeds.next(None) == derived_seed(11, 1)


def test_the_saved_state_option():
    assert saved_state(None, None) is None and saved_state(3, {"other": 1}) is None
    assert saved_state(None, {"state": {"a": 1}}) == {"a": 1}
    with pytest.raises(ValueError, match="reset options must be a dict"):
        saved_state(None, [("state", {})])
    with pytest.raises(ValueError, match="either a seed or options\\['state'\\]"):
        saved_state(3, {"state": {"a": 1}})


def test_penalty_rewards():
    assert penalty_rewards(3, [1]).tolist() == [0.0, ILLEGAL_PENALTY, 0.0]
    assert penalty_rewards(4, [0, 2]).tolist() == [-1.0, 0.0, -1.0, 0.0]
    assert penalty_rewards(2, [0, 1]).tolist() == [-1.0, -1.0]


def test_raise_or_warn_raises_the_games_error_or_warns():
    illegal = Illegal("player_1", 1, 7, "seven", "PLAY", "not now")
    with pytest.raises(KeyError) as err:
        raise_or_warn("raise", [illegal], lambda **kw: KeyError(kw))
    assert err.value.args[0] == {
        "action": 7,
        "name": "seven",
        "seat": 1,
        "phase": "PLAY",
        "reason": "not now (player_1 may not play it)",
    }
    with pytest.warns(UserWarning, match=r"illegal action 7 \(seven\) by player_1 in phase PLAY"):
        raise_or_warn("penalize", [illegal], lambda **kw: KeyError(kw))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "kw, name",
    [
        ({"reward": "points"}, "reward"),
        ({"reward": ["win"]}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"illegal_action": None}, "illegal_action"),
        ({"render_mode": "pixels"}, "render_mode"),
    ],
)
def test_bad_choices_are_refused_naming_the_argument(game, kw, name):
    with pytest.raises(ValueError, match=f"{name} must be one of"):
        make(game, **kw)


@pytest.mark.parametrize("game", GAMES)
def test_both_games_have_the_same_spaces_and_reset_options(game):
    env = make(game)
    space = env.observation_space("player_0")
    assert set(space.spaces) == {"observation", "action_mask"}
    assert space["action_mask"].shape == (env.action_space("player_0").n,)
    assert np.isfinite(space["observation"].high).all()
    with pytest.raises(ValueError, match="reset options must be a dict"):
        env.reset(options="x")
    env.reset(seed=3)
    with pytest.raises(ValueError, match="either a seed"):
        env.reset(seed=3, options={"state": env.unwrapped.save_game()})


# ------------------------------------------------------------------------------ PettingZoo
@pytest.mark.parametrize("illegal", ["penalize", "raise"])
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed_tests_under_both_policies(game, illegal):
    with warnings.catch_warnings():  # dict observations: PettingZoo warns as for chess
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(game, illegal_action=illegal), num_cycles=200)
    seed_test(lambda: make(game, illegal_action=illegal), num_cycles=200)


# ------------------------------------------------------------------------------ illegal
@pytest.mark.parametrize("game", GAMES)
def test_penalize_ends_the_game_at_the_first_agents_own_step(game):
    env = make(game)
    env.reset(seed=2)
    offender = env.agent_selection
    saved = env.unwrapped.save_game()
    bad = illegal_action(env)
    with pytest.warns(UserWarning, match=f"illegal action {bad} .* by {offender}"):
        env.step(bad)
    other = next(a for a in env.possible_agents if a != offender)
    assert env.rewards == {offender: ILLEGAL_PENALTY, other: 0.0}
    assert all(env.terminations.values()) and env.agent_selection == offender
    assert env.infos[offender]["illegal"] == 1 and env.infos[other]["illegal"] == 0
    assert not any(env.observe(a)["action_mask"].any() for a in env.possible_agents)
    assert env.unwrapped.save_game() == saved  # the game is the one before the action
    seen = {}
    for agent in env.agent_iter():
        seen[agent] = env.last()[1]
        env.step(None)
    assert seen == {offender: ILLEGAL_PENALTY, other: 0.0}


@pytest.mark.parametrize("game", GAMES)
def test_raise_refuses_at_the_offenders_step_changing_nothing_and_the_game_plays_on(game):
    env = make(game, illegal_action="raise")
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(3):
        before = snapshot(env)
        for bad in (illegal_action(env), -1, 10**6, 2**64 - 1, 2.0, "1", None):
            with pytest.raises(ValueError):
                env.step(bad)
            assert snapshot(env) == before
        random_step(env, rng)


@pytest.mark.parametrize("game", GAMES)
def test_dead_agents_step_none_and_anything_else_is_refused_changing_nothing(game):
    env = make(game)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    while not all(env.terminations.values()):
        random_step(env, rng)
    for _ in env.agent_iter():
        before = snapshot(env)
        with pytest.raises(ValueError, match="None"):
            env.step(0)
        assert snapshot(env) == before
        env.step(None)
    assert env.agents == []


# ------------------------------------------------------------------------------ copies
@pytest.mark.parametrize("game", GAMES)
def test_deep_copies_and_saved_games_continue_identically(game):
    env = make(game)
    env.reset(seed=6)
    rng = np.random.default_rng(2)
    for _ in range(15):
        random_step(env, rng)
    twin, saved = copy.deepcopy(env), env.unwrapped.save_game()
    loaded = make(game)
    loaded.load_game(saved)
    assert loaded.unwrapped.save_game() == saved
    for agent in env.possible_agents:
        np.testing.assert_array_equal(
            loaded.observe(agent)["observation"], env.observe(agent)["observation"]
        )
    while env.agents:
        agent = env.agent_selection
        obs, _, term, _, _ = env.last()
        action = None if term else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert twin.agent_selection == agent and twin.last()[1] == env.last()[1]
        env.step(action)
        twin.step(action)
    assert twin.agents == [] and twin.unwrapped.save_game() == env.unwrapped.save_game()


@pytest.mark.parametrize("game", GAMES)
def test_pickling_gives_a_fresh_env_with_the_same_arguments(game):
    env = make(game, illegal_action="raise", reward="rank")
    env.reset(seed=1)
    fresh = pickle.loads(pickle.dumps(env))
    assert (fresh.unwrapped.illegal_action, fresh.unwrapped.reward_scheme) == ("raise", "rank")
    fresh.reset(seed=1)
    assert fresh.unwrapped.save_game() == env.unwrapped.save_game()
