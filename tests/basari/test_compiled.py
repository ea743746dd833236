"""The numba backend of BASARI's core (`asara_env.basari.core.compiled`) against the numpy
core: the same state bytes, masks, every seat's observation and the global state after
every step of random games of every configuration; the same refusals with the batch
unchanged; the same env episodes; and the backend switch that picks it."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from asara_env import basari_v0
from asara_env.basari import core as numpy_core
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import compiled as compiled_module
from asara_env.basari.core import copy_state, states_equal
from asara_env.basari.gym_env import BasariGymEnv
from asara_env.common.backend import BACKEND_ENV_VAR
from asara_env.common.errors import IllegalActionError
from asara_env.games import CORE_VERBS, load_core
from tests.basari.games import CONFIGS, IDS, SMALL_BOARD, closing_weights, sample

compiled = load_core("basari", "numba")  # the compiled module, the rest the numpy core's

ALL_CONFIGS = [*CONFIGS, BasariConfig(num_players=3, board=SMALL_BOARD)]
ALL_IDS = [*IDS, "3p-small-board"]


def assert_same_bytes(a: numpy_core.BasariState, b: numpy_core.BasariState, when: str) -> None:
    for name in numpy_core.ARRAY_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, f"{name} {when}"
        assert x.tobytes() == y.tobytes(), f"{name} differs {when}"


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_numba_games_are_byte_identical_to_the_numpy_cores(config):
    """48 random games per configuration played to the end in lockstep, autoreset once
    (state, masks, every seat's observation and the global state after every step)."""
    games = 48
    mine, theirs = compiled.init(config, games, seeds=7), numpy_core.init(config, games, seeds=7)
    rng = np.random.default_rng(7)
    weights = closing_weights(config, rng.choice([1.0, 3.0, 10.0], size=games))
    resets = 0
    for steps in range(20_000):
        assert_same_bytes(mine, theirs, f"after step {steps}")
        assert compiled.legal_action_mask(mine).tobytes() == theirs.legal.tobytes()
        assert compiled.observe(mine).tobytes() == numpy_core.observe(theirs).tobytes()
        assert compiled.global_state(mine).tobytes() == numpy_core.global_state(theirs).tobytes()
        if numpy_core.is_terminal(theirs).all():
            if resets:
                break
            resets += 1
            np.testing.assert_array_equal(compiled.autoreset(mine), numpy_core.autoreset(theirs))
            continue
        actions = sample(numpy_core.legal_action_mask(theirs), weights, rng)
        compiled.step(mine, actions)
        numpy_core.step(theirs, actions)
    assert resets and numpy_core.is_terminal(theirs).all(), "the games did not end"


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_step_observe_is_step_then_observe_on_both_backends(config):
    games = 8
    fused = [compiled.init(config, games, seeds=3), numpy_core.init(config, games, seeds=3)]
    apart = numpy_core.init(config, games, seeds=3)
    rng = np.random.default_rng(3)
    weights = closing_weights(config, rng.choice([1.0, 3.0], size=games))
    while not numpy_core.is_terminal(apart).all():
        actions = sample(numpy_core.legal_action_mask(apart), weights, rng)
        numpy_core.step(apart, actions)
        expected = numpy_core.observe(apart).tobytes()
        for core, state in zip((compiled.module, numpy_core), fused):
            assert core.step_observe(state, actions).tobytes() == expected, core.__name__
            assert_same_bytes(state, apart, f"after {core.__name__}.step_observe")


def test_numba_round_end_scoring_is_the_numpy_cores():
    """B9's score_round on mid-game states (majorities, ties, laps), game by game."""
    config = BasariConfig(num_players=4)
    state = numpy_core.init(config, 64, seeds=2)
    rng = np.random.default_rng(2)
    weights = closing_weights(config, np.full(64, 3.0))
    for _ in range(60):
        numpy_core.step(state, sample(state.legal, weights, rng))
    rows = np.flatnonzero(~numpy_core.is_terminal(state))
    mine = copy_state(state)
    compiled.score_round(mine, rows)
    numpy_core.score_round(state, rows)
    assert_same_bytes(mine, state, "after score_round")


def refusals(state: numpy_core.BasariState) -> list[object]:
    """Actions both cores must refuse in `state` (a game in SELECT at seat 0)."""
    legal = numpy_core.legal_action_mask(state)
    actions = np.argmax(legal, axis=2)
    illegal = actions.copy()
    illegal[0, 0] = int(np.flatnonzero(~legal[0, 0])[0])
    past = actions.copy()
    past[-1, -1] = legal.shape[2]
    negative = actions.copy()
    negative[0, 1] = -1
    huge = actions.astype(np.uint64)
    huge[0, 0] = np.uint64(2**64 - 1)
    as_lists = actions.tolist()
    as_lists[0][0] = True
    return [
        illegal,
        past,
        negative,
        huge,
        actions.astype(np.float64),
        actions[:-1],
        actions[..., None],
        as_lists,
        "0",
        None,
    ]


@pytest.mark.parametrize("verb", ["step", "step_observe"])
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_numba_refuses_what_numpy_refuses_with_the_same_error_changing_nothing(config, verb):
    state = numpy_core.init(config, 6, seeds=4)
    rng = np.random.default_rng(4)
    weights = closing_weights(config, np.full(6, 3.0))
    for _ in range(3):
        numpy_core.step(state, sample(state.legal, weights, rng))
    for bad in refusals(state):
        before = copy_state(state)
        with pytest.raises(IllegalActionError) as theirs:
            getattr(numpy_core, verb)(copy_state(state), bad)
        with pytest.raises(IllegalActionError) as mine:
            getattr(compiled, verb)(state, bad)
        assert str(mine.value) == str(theirs.value)
        assert (mine.value.seat, mine.value.action) == (theirs.value.seat, theirs.value.action)
        assert states_equal(state, before), f"{bad!r:.40} changed the batch"


def test_numba_takes_actions_of_any_int_dtype_and_layout():
    config = BasariConfig(num_players=4)
    states = [compiled.init(config, 5, seeds=1) for _ in range(4)]
    reference = numpy_core.init(config, 5, seeds=1)
    rng = np.random.default_rng(1)
    for _ in range(40):
        actions = sample(reference.legal, closing_weights(config, np.full(5, 3.0)), rng)
        numpy_core.step(reference, actions)
        forms = [actions.astype(np.int8), actions.astype(np.uint16), actions.T.copy().T]
        for state, form in zip(states, [*forms, actions.tolist()]):
            compiled.step(state, form)
    for state in states:
        assert_same_bytes(state, reference, "after 40 steps")


def play_env(backend: str, players: int, seed: int) -> list[tuple[object, ...]]:
    """One parallel-env episode of random legal actions: everything the env returned."""
    env = basari_v0.parallel_env(num_players=players, backend=backend)
    obs, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    record: list[tuple[object, ...]] = [(obs, infos, env.state())]
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        record.append((obs, rewards, terms, truncs, infos, env.state()))
    record.append((env.save_game(),))
    return record


def flatten(value: object) -> object:
    """Dicts, tuples and lists with every array as (dtype, shape, bytes)."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, dict):
        return {k: flatten(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [flatten(v) for v in value]
    return value


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parallel_env_episodes_are_identical_on_both_backends(players):
    for seed in (0, 1):
        numpy_run = play_env("numpy", players, seed)
        assert flatten(play_env("numba", players, seed)) == flatten(numpy_run)


def test_gym_env_episodes_are_identical_on_both_backends():
    runs = []
    for backend in ("numpy", "numba"):
        env = BasariGymEnv(num_players=3, backend=backend)
        obs, info = env.reset(seed=5)
        record = [flatten((obs, info))]
        done = False
        rng = np.random.default_rng(5)
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, reward, terminated, truncated, info = env.step(action)
            record.append(flatten((obs, reward, terminated, truncated, info)))
            done = terminated or truncated
        runs.append(record)
    assert runs[0] == runs[1]


def test_the_env_picks_its_backend_and_names_a_bad_one():
    assert basari_v0.parallel_env(backend="numpy").backend == "numpy"
    assert basari_v0.parallel_env(backend="numba").backend == "numba"
    with pytest.raises(ValueError, match="backend must be one of"):
        basari_v0.parallel_env(backend="cuda")


def test_the_compiled_core_exposes_the_numpy_cores_names():
    assert compiled.module is compiled_module
    assert load_core("basari", "numpy").module is numpy_core
    assert all(callable(getattr(compiled, verb)) for verb in CORE_VERBS)
    assert all(hasattr(compiled, name) for name in numpy_core.__all__)
    assert compiled.step is compiled_module.step and compiled.init is numpy_core.init


def test_the_environment_variable_picks_the_backend_of_an_env():
    code = (
        "from asara_env import basari_v0; import sys; "
        "sys.stdout.write(basari_v0.parallel_env().backend)"
    )
    for backend in ("numpy", "numba"):
        env = {**os.environ, BACKEND_ENV_VAR: backend}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout == backend


def test_the_arena_plays_the_same_games_on_both_backends():
    from agents.basari.arena import NegotiationStats, play_batch
    from agents.registry import make_agent

    config = BasariConfig(num_players=3)
    seating = np.array([[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1]])
    results = []
    for backend in ("numpy", "numba"):
        agents = [
            make_agent("basari", spec, seed=3) for spec in ("value", "points_first", "random")
        ]
        stats = NegotiationStats(3)
        ranking = play_batch(config, agents, seating, np.arange(4), 2, stats=stats, backend=backend)
        results.append((ranking.tobytes(), {k: v.tobytes() for k, v in stats.counts.items()}))
    assert results[0] == results[1]
