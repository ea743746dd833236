"""The compiled core (backend "numba", `asara_env.asara.core.compiled`) against the numpy
core: the same bytes in every field after every step, the same masks and observations of
every seat, the same errors with the state unchanged, the same env episodes."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from agents.asara import FlatMCAgent
from agents.asara.arena import play_batch
from agents.base import RandomAgent
from asara_env.asara import core as numpy_core
from asara_env.asara.bridge import from_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.core.kernels import step as step_kernels
from asara_env.asara.core.kernels.arrays import arrays, rules_of
from asara_env.asara.core.kernels.mask import N_SCRATCH
from asara_env.asara.core.state import ARRAY_FIELDS
from asara_env.asara.env import raw_env
from asara_env.asara.hidden import determinise
from asara_env.asara.phases import Phase
from asara_env.asara.reference.rules import legal_actions
from asara_env.common.backend import BACKEND_ENV_VAR
from asara_env.common.errors import IllegalActionError
from asara_env.games import load_core
from tests.asara.games import ALL_CONFIGS, ALL_IDS, game_states
from tests.common.backends import NEEDS_NUMBA

pytestmark = NEEDS_NUMBA


@pytest.fixture(scope="module")
def compiled():
    return load_core("asara", "numba")


def assert_same(a, b, where: str) -> None:
    """Every array field of two batches byte for byte."""
    for name in ARRAY_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), f"{where}: field {name}"


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)


def test_the_compiled_core_exposes_every_name_of_the_numpy_core(compiled):
    assert compiled.module is not numpy_core
    assert all(hasattr(compiled, name) for name in numpy_core.__all__)
    assert not set(compiled.module.__all__) & {"init", "take", "copy_state"}  # no re-exports
    assert compiled.step is not numpy_core.step and compiled.observe is not numpy_core.observe


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_random_games_are_byte_identical_on_both_backends(compiled, config):
    """12 random games to their end: every field after every step, and the observation of
    every seat (one int, and per-game seats into a reused buffer)."""
    batch, p = 12, config.num_players
    a, b = numpy_core.init(config, batch, seeds=7), compiled.init(config, batch, seeds=7)
    rng, out = np.random.default_rng(config.num_players), np.empty((batch, 2266), np.float32)
    steps = 0
    while not numpy_core.is_terminal(a).all():
        for seat in range(p):
            assert numpy_core.observe(a, seat).tobytes() == compiled.observe(b, seat).tobytes()
        seats = rng.integers(0, p, batch)
        assert compiled.observe(b, seats, out=out) is out
        assert out.tobytes() == numpy_core.observe(a, seats).tobytes()
        actions = random_actions(numpy_core.legal_action_mask(a), rng)
        numpy_core.step(a, actions)
        compiled.step(b, actions)
        steps += 1
        assert_same(a, b, f"{config} after step {steps}")
    assert steps > 80


@pytest.mark.parametrize("config", ALL_CONFIGS[::3], ids=ALL_IDS[::3])
def test_stepping_some_games_and_reporting_illegal_ones_agree(compiled, config):
    a, b = numpy_core.init(config, 16, seeds=3), compiled.init(config, 16, seeds=3)
    rng = np.random.default_rng(5)
    for _ in range(60):
        rows = np.flatnonzero(rng.random(16) < 0.5)
        actions = random_actions(a.legal, rng)
        actions[rng.random(16) < 0.2] = 0  # mostly illegal: reported, those games unchanged
        flagged = numpy_core.step(a, actions[rows], on_illegal="report", games=rows)
        same = compiled.step(b, actions[rows], on_illegal="report", games=rows)
        assert flagged.tolist() == same.tolist()
        assert_same(a, b, "after a partial step")
        picked = rng.permutation(16)[:5]
        seats = rng.integers(0, config.num_players, 5)
        mine = compiled.TURNS.observe(b, picked, seats)
        assert mine.tobytes() == numpy_core.TURNS.observe(a, picked, seats).tobytes()


def test_a_large_batch_and_the_kernels_called_directly_agree(compiled):
    """Thousands of games, and the kernel `apply_actions` called directly (the end of a
    year in it), against the numpy core."""
    config = GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts"))
    batch, rng = 1500, np.random.default_rng(11)
    a, b = numpy_core.init(config, batch, seeds=11), compiled.init(config, batch, seeds=11)
    rules, work, years_ended = rules_of(config), np.empty(N_SCRATCH, np.int64), 0
    for step in range(40):
        actions = random_actions(a.legal, rng)
        numpy_core.step(a, actions)
        ok, applies = np.empty(batch, bool), np.empty(batch, bool)
        games, year = np.arange(batch), b.year.copy()
        step_kernels.apply_actions(arrays(b), rules, games, actions, True, ok, applies, work)
        assert ok.all()
        years_ended += int(((b.year != year) | (b.phase == Phase.GAME_OVER)).sum())
        assert_same(a, b, f"after step {step}")
        assert numpy_core.observe(a).tobytes() == compiled.observe(b).tobytes()
        numpy_core.autoreset(a)
        compiled.autoreset(b)
    assert years_ended > 0


LEAK_CHECK = """
import numpy as np
from numba.core.runtime import rtsys
from asara_env import GameConfig
from asara_env.games import load_core
core = load_core("asara", "numba")
config = GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts"))
state, rng = core.init(config, 48, seeds=0), np.random.default_rng(0)
def play(steps):
    for _ in range(steps):
        actions = np.argmax(np.where(state.legal, rng.random(state.legal.shape), -1.0), axis=1)
        core.step(state, actions)
        core.autoreset(state)
        core.observe(state)
play(20)
before = rtsys.get_allocation_stats()
play(400)
after = rtsys.get_allocation_stats()
print(after.alloc - before.alloc, after.free - before.free)
"""


def test_the_kernels_free_every_array_they_allocate():
    """Kernels compiled without reference counting must not be handed an array to free;
    numba's allocation statistics over 400 steps of every kind of decision tell."""
    env = {**os.environ, "NUMBA_NRT_STATS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", LEAK_CHECK], capture_output=True, text=True, env=env, check=True
    )
    allocated, freed = map(int, out.stdout.split())
    assert allocated > 0 and allocated == freed


PHASES = (Phase.PLACE, Phase.BUY, Phase.BUILD, Phase.GENIE, Phase.GIFT_BUY, Phase.GIFT_LIGHTS)


@pytest.mark.parametrize("phase", PHASES, ids=[p.name for p in PHASES])
def test_an_illegal_action_raises_the_numpy_cores_error_and_changes_nothing(compiled, phase):
    config = GameConfig(num_players=3, variant="pro", expansions=("genie", "gifts"))
    state, rng = compiled.init(config, 32, seeds=9), np.random.default_rng(9)
    while not (state.phase == phase).any():
        compiled.step(state, random_actions(state.legal, rng))
        compiled.autoreset(state)
    game = int(np.flatnonzero(state.phase == phase)[0])
    actions = random_actions(state.legal, rng)
    actions[game] = int(np.flatnonzero(~state.legal[game])[0])
    before = compiled.copy_state(state)
    errors = []
    for verbs in (numpy_core, compiled):
        with pytest.raises(IllegalActionError) as caught:
            verbs.step(state, actions)
        errors.append(str(caught.value))
        assert_same(state, before, f"{verbs.__name__} after the refused step")
    assert errors[0] == errors[1] and f"game {game} of the batch" in errors[0]


@pytest.mark.parametrize(
    "actions",
    [
        [0.5, 1.0],
        np.zeros(3, np.int64),
        np.zeros(2, np.float32),
        [True, False],
        ["a", "b"],
        np.array([2**63 + 5, 2**64 - 1], np.uint64),
        np.array([-1, 803], np.int16),
    ],
    ids=["floats", "wrong-shape", "float-array", "bools", "strings", "huge", "out-of-range"],
)
def test_malformed_actions_raise_as_on_numpy_and_change_nothing(compiled, actions):
    state = compiled.init(GameConfig(num_players=2), 2, seeds=1)
    before = compiled.copy_state(state)
    errors = []
    for verbs in (numpy_core, compiled):
        with pytest.raises(IllegalActionError) as caught:
            verbs.step(state, actions)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
    assert_same(state, before, "after malformed actions")


def test_observe_refuses_bad_seats_and_buffers_as_on_numpy(compiled):
    state = compiled.init(GameConfig(num_players=2), 3, seeds=1)
    for kwargs in ({"seat": 2}, {"seat": [0, 1, -1]}, {"out": np.empty((3, 5), np.float32)}):
        messages = []
        for verbs in (numpy_core, compiled):
            with pytest.raises(ValueError) as caught:
                verbs.observe(state, **kwargs)
            messages.append(str(caught.value))
        assert messages[0] == messages[1]


ENV_KWARGS = [
    {"num_players": 2, "variant": "basic"},
    {"num_players": 4, "variant": "pro", "expansions": ("genie", "gifts")},
]


@pytest.mark.parametrize("kwargs", ENV_KWARGS, ids=["2p-basic", "4p-pro-genie-gifts"])
def test_the_env_plays_the_same_episode_on_both_backends(kwargs):
    envs = [raw_env(**kwargs, backend=b, shaping=0.1) for b in ("numpy", "numba")]
    assert [e.backend for e in envs] == ["numpy", "numba"]
    for env in envs:
        env.reset(seed=4)
    rng = np.random.default_rng(4)
    while envs[0].agents:
        lasts = [env.last() for env in envs]
        (obs, reward, done, trunc, info), other = lasts
        np.testing.assert_array_equal(obs["observation"], other[0]["observation"])
        np.testing.assert_array_equal(obs["action_mask"], other[0]["action_mask"])
        assert (reward, done, trunc) == other[1:4] and info["phase"] == other[4]["phase"]
        action = None if done or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for env in envs:
            env.step(action)
    np.testing.assert_array_equal(envs[0].state(), envs[1].state())
    assert envs[0].save_game() == envs[1].save_game()


def test_the_env_takes_its_backend_from_the_environment_variable(monkeypatch):
    monkeypatch.setenv(BACKEND_ENV_VAR, "numpy")
    assert raw_env(num_players=2).backend == "numpy"
    monkeypatch.setenv(BACKEND_ENV_VAR, "numba")
    assert raw_env(num_players=2).backend == "numba"
    with pytest.raises(ValueError, match="backend must be one of"):
        raw_env(num_players=2, backend="fortran")


PLAYOUT_CONFIGS = [
    GameConfig(num_players=3, variant="pro", expansions=("gifts",)),
    GameConfig(num_players=2, variant="pro"),  # the towers playouts compiled on numba
]


@pytest.mark.parametrize("config", PLAYOUT_CONFIGS, ids=["3p-pro-gifts", "2p-pro"])
def test_search_playouts_are_alike_on_both_backends(config):
    """The search's playouts (random and heuristic) of the same worlds are the same games
    on either core, with the same rewards. (The unguided search's worlds are drawn
    differently on numba: asara_env.asara.hidden_core.)"""
    states = [s for s in game_states(config, 41) if len(legal_actions(s)) > 2][::30]
    seats = np.array([s.seat for s in states], np.int64)
    for playout in ("random", "towers"):
        rewards = []
        for b in ("numpy", "numba"):
            rng = np.random.default_rng(3)
            worlds = from_reference([determinise(s, s.seat, rng) for s in states])
            searcher = FlatMCAgent(seed=5, sims=8, playout=playout, horizon=30, backend=b)
            rewards.append(searcher.playout(worlds, seats))
        np.testing.assert_array_equal(rewards[0], rewards[1])


def test_the_arena_scores_the_same_games_on_both_backends():
    config = GameConfig(num_players=2, variant="pro", expansions=("genie",))
    seeds = np.arange(6, dtype=np.uint64)
    seating = np.array([[0, 1], [1, 0]] * 3)
    scores = [
        play_batch(config, [RandomAgent(seed=1), RandomAgent(seed=2)], seating, seeds,
                   batch_size=4, backend=b)
        for b in ("numpy", "numba")
    ]  # fmt: skip
    np.testing.assert_array_equal(scores[0], scores[1])
