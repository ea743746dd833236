"""What the RL libraries expect of every game's default envs, checked in the main venv:
PettingZoo's own test suite, numeric infos of fixed shape, finite observation bounds, the
render modes that work, the PettingZoo classic penalty, and the gymnasium ids registered
by `import asara_env` with the PettingZoo envs' player count."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from pettingzoo.test.state_test import state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from asara_env import games
from asara_env.gym_ids import gym_entry_points

GAMES = games.available_games()


def gym_id(game: str) -> str:
    card_id = games.game_card(game).gym_id
    assert card_id is not None, f"{game} has no gymnasium id"
    return card_id


def aec(game: str, **kwargs: Any) -> Any:
    return games.make(game, **kwargs)


def parallel(game: str, **kwargs: Any) -> Any:
    """The game's parallel env, or PettingZoo's conversion of its turn-based AEC env."""
    if games.game_card(game).parallel_env is not None:
        return games.env_factory(game, "parallel_env")(**kwargs)
    return turn_based_aec_to_parallel(aec(game, **kwargs))


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoos_six_tests_pass_on_the_default_envs(game):
    with warnings.catch_warnings():  # dict observations; unmasked samples are penalised
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec(game), num_cycles=100)
        parallel_api_test(parallel(game), num_cycles=100)
        seed_test(lambda: aec(game), num_cycles=100)
        parallel_seed_test(lambda: parallel(game), num_cycles=100)
        state_test(aec(game), parallel(game))
        render_test(lambda render_mode=None: aec(game, render_mode=render_mode))


@pytest.mark.parametrize("game", GAMES)
def test_infos_are_numeric_with_the_observations_mask_and_a_fixed_shape(game):
    env = aec(game, num_players=3)
    env.reset(seed=4)
    rng, shapes = np.random.default_rng(4), None
    for agent in env.agent_iter(max_iter=3000):
        obs, _, termination, truncation, _ = env.last()
        for a in env.agents:
            info = env.infos[a]
            now = {k: np.shape(v) for k, v in info.items()}
            shapes = shapes or now
            assert now == shapes, (a, info)
            kinds = {k: np.asarray(v).dtype.kind for k, v in info.items()}
            assert set(kinds.values()) <= set("biuf"), kinds
        np.testing.assert_array_equal(env.infos[agent]["action_mask"], obs["action_mask"])
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents


@pytest.mark.parametrize("game", GAMES)
def test_the_wrapped_envs_agents_are_the_envs_and_refused_before_reset(game):
    env = aec(game)
    for name in ("agents", "agent_selection"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
        assert not hasattr(env, name)
    env.reset(seed=1)
    assert env.agents is env.env.agents  # the AEC env the wrapper wraps
    assert env.agent_selection == env.env.agent_selection in env.agents


# (game, config kwargs): the configurations whose observations use every slice
BOUND_CONFIGS = [
    ("asara", {"num_players": 4, "variant": "pro", "expansions": ("genie", "gifts")}),
    ("asara", {"num_players": 2}),
    ("basari", {"num_players": 4}),
    ("basari", {"num_players": 2, "start_mode": "random"}),
]


def _random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of bool[..., A] (0 where none is)."""
    k = (rng.random(mask.shape[:-1]) * mask.sum(-1)).astype(np.int64)
    return np.argmax(np.cumsum(mask, -1) > k[..., None], -1)


@pytest.mark.parametrize(("game", "config"), BOUND_CONFIGS)
def test_every_observation_of_random_games_lies_within_the_spaces_bounds(game, config):
    """Random batched games on the core, every seat's observation at every step (a
    simultaneous core observes every seat at once; a turn-based one, each seat)."""
    env = aec(game, **config)
    high = env.observation_space(env.possible_agents[0])["observation"].high
    assert np.isfinite(high).all() and (high >= 1).all()
    state_high = env.unwrapped.state_space.high
    core = games.load_core(game)
    state = core.init(games.load_config(game)(**config), 32, seeds=7)
    rng, players, steps = np.random.default_rng(7), config["num_players"], 0
    while not core.is_terminal(state).all():
        if games.game_card(game).simultaneous:
            seen = core.observe(state)
            assert (core.global_state(state) <= state_high).all()
        else:
            seen = np.stack([core.observe(state, seat) for seat in range(players)], 1)
        assert (seen >= 0).all() and (seen <= high).all(), np.argwhere(seen > high)[:3]
        core.step(state, _random_legal(rng, core.legal_action_mask(state)))  # finished: ignored
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_costs_the_offender_one_and_the_others_nothing(game):
    env = aec(game, num_players=3)
    env.reset(seed=0)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match=f"by {offender}"):
        env.step(illegal)
    assert env.rewards == {a: -1.0 if a == offender else 0.0 for a in env.possible_agents}


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_render_mode_renders(game):
    env = aec(game, num_players=2)
    gym_env = gym_id(game)
    modes = env.metadata["render_modes"]
    for mode in modes:
        shown = aec(game, num_players=2, render_mode=mode)
        shown.reset(seed=0)
        frame = shown.render()
        assert frame is None if mode == "human" else frame is not None
    import gymnasium

    assert gymnasium.spec(gym_env).entry_point == gym_entry_points()[gym_env]
    assert gymnasium.make(gym_env).metadata["render_modes"] == modes


def test_the_gym_ids_are_the_cards():
    cards = [games.game_card(game) for game in GAMES]
    assert gym_entry_points() == {c.gym_id: c.gym_env for c in cards if c.gym_id and c.gym_env}
    assert {"asara_env/Asara-v0", "asara_env/Basari-v0"} <= set(gym_entry_points())


@pytest.mark.parametrize("gymnasium_first", [False, True])
def test_import_asara_env_registers_the_gym_ids_with_the_envs_player_count(gymnasium_first):
    """In a fresh interpreter, whichever of gymnasium and asara_env is imported first."""
    imports = "import gymnasium, asara_env" if gymnasium_first else "import asara_env, gymnasium"
    code = (
        f"{imports}\n"
        f"for gym_id in {sorted(gym_entry_points())!r}:\n"
        "    env = gymnasium.make(gym_id)\n"
        "    print(gym_id, len(env.unwrapped.game.possible_agents))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    players = {gym_id: int(n) for gym_id, n in zip(out[::2], out[1::2])}
    assert set(players) == set(gym_entry_points())
    for game in GAMES:
        assert players[gym_id(game)] == len(aec(game).possible_agents)
