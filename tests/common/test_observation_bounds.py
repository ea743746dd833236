"""Observation spaces hold for every configuration the validation accepts, on both games:
boards at the edges of `validate_board` (BASARI: archways worth 0 to 1000 points, 0 to 25
gems, 1 to 1000 archways) and every ASARA configuration, along random games; each core's
`init` bounds its batch. The normalised observation (`normalize_obs=True`) lies in [0, 1]
with a matching space on every env of both games, passes PettingZoo's API tests, and is
the raw observation mapped by the game's `ObsNormalizer`; the gymnasium envs' opponents
still see the raw observations."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from asara_env import asara_v0, basari_v0
from asara_env.asara import core as asara_core
from asara_env.asara.config import GameConfig
from asara_env.asara.core.observation import OBS_HIGH, OBS_NORMALIZER
from asara_env.basari import core as basari_core
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import BOARD, GEMS_PER_COLOUR, MAX_ARCHWAY_POINTS, MAX_ARCHWAYS
from asara_env.basari.core.observation import obs_normalizer
from asara_env.basari.phases import Phase
from asara_env.common.batch import MAX_BATCH
from asara_env.common.layout import ObsNormalizer

ASARA_CONFIGS = [
    GameConfig(num_players=p, variant=v, expansions=e, start_seat=p - 1)
    for p in (2, 3, 4)
    for v, e in [
        ("basic", ()),
        ("basic", ("gifts",)),
        ("pro", ()),
        ("pro", ("genie",)),
        ("pro", ("gifts",)),
        ("pro", ("genie", "gifts")),
    ]
]


def _board(n: int, points: Any, gems: Any, seed: int = 0) -> np.ndarray:
    """int64[n, 5]: every archway's points and gems, "max", "zero", "random" or a value."""
    rng = np.random.default_rng(seed)

    def column(kind: Any, high: int, width: int) -> np.ndarray:
        if kind == "random":
            return rng.integers(0, high + 1, (n, width))
        return np.full((n, width), {"max": high, "zero": 0}.get(kind, kind))

    return np.concatenate(
        [column(points, MAX_ARCHWAY_POINTS, 1), column(gems, GEMS_PER_COLOUR, 4)], axis=1
    )


def _richer_default() -> np.ndarray:
    board = np.array(BOARD)
    board[0, 0] = 8  # one point more than the default board's richest archway
    return board


BASARI_BOARDS = {
    "default": np.array(BOARD),
    "one_point_richer": _richer_default(),
    "all_max": _board(3, "max", "max"),
    "all_zero": _board(1, "zero", "zero"),
    "random_40": _board(40, "random", "random", seed=1),
    "rich_points_no_gems": _board(7, "max", "zero"),
}
BASARI_CONFIGS = [
    (f"{name}-{p}p-{mode}", BasariConfig(num_players=p, start_mode=mode, board=board))
    for (name, board), p, mode in itertools.product(
        BASARI_BOARDS.items(), (2, 3, 4), ("choose", "random")
    )
]


def _box(env: Any) -> Any:
    """The Box of an env's (Dict) observation space."""
    return env.observation_space("player_0")["observation"]


def _random_actions(legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of `legal` (bool[..., A])."""
    return np.where(legal, rng.random(legal.shape), -1.0).argmax(axis=-1)


# ---------------------------------------------------------------------------- raw spaces
@pytest.mark.parametrize("config", ASARA_CONFIGS, ids=str)
def test_asara_observations_stay_in_their_space_in_every_configuration(config):
    box = _box(asara_v0.raw_env(num_players=config.num_players))
    state, rng = asara_core.init(config, 8, seeds=3), np.random.default_rng(3)
    for t in range(config.max_decisions):
        seats = [state.seat] if t % 25 else list(range(config.num_players))
        for seat in seats:
            obs = asara_core.observe(state, seat)
            assert all(box.contains(o) for o in obs), (t, np.argwhere(obs > box.high))
        if asara_core.is_terminal(state).all():
            break
        live = np.flatnonzero(~asara_core.is_terminal(state))
        asara_core.step(state, _random_actions(state.legal[live], rng), games=live)
    assert asara_core.is_terminal(state).all()


@pytest.mark.parametrize(
    "config", [c for _, c in BASARI_CONFIGS], ids=[n for n, _ in BASARI_CONFIGS]
)
def test_basari_observations_stay_in_their_space_on_every_valid_board(config):
    env = basari_v0.parallel_env(
        num_players=config.num_players, start_mode=config.start_mode, board=config.board
    )
    box, state_box = _box(env), env.state_space
    state, rng = basari_core.init(config, 4, seeds=5), np.random.default_rng(5)
    while True:
        obs = basari_core.observe(state).reshape(-1, box.shape[0])
        bad = np.argwhere((obs > box.high) | (obs < box.low))
        assert all(box.contains(o) for o in obs), f"entries {bad[:3].tolist()} out of bounds"
        assert all(state_box.contains(s) for s in basari_core.global_state(state))
        if (state.phase == Phase.OVER).all():
            break
        basari_core.step(state, _random_actions(basari_core.legal_action_mask(state), rng))


def test_a_board_of_the_most_archways_observes_inside_its_space():
    """1000 archways worth 1000 points each: the opening turns (a whole game is 8,000
    decisions)."""
    config = BasariConfig(num_players=4, board=_board(MAX_ARCHWAYS, "max", "max"))
    box = _box(basari_v0.parallel_env(num_players=4, board=config.board))
    state, rng = basari_core.init(config, 2, seeds=9), np.random.default_rng(9)
    for _ in range(60):
        assert all(box.contains(o) for o in basari_core.observe(state).reshape(-1, box.shape[0]))
        basari_core.step(state, _random_actions(basari_core.legal_action_mask(state), rng))


@pytest.mark.parametrize(
    "init, config",
    [(asara_core.init, GameConfig(num_players=2)), (basari_core.init, BasariConfig())],
    ids=["asara", "basari"],
)
# (no batch just above the limit: a core without the check would try to allocate it)
@pytest.mark.parametrize("batch", [0, 2**63, 2**64, 2.0, True])
def test_init_bounds_the_batch_naming_it_and_the_limit(init, config, batch):
    with pytest.raises(ValueError, match=f"batch must be an int from 1 to {MAX_BATCH}"):
        init(config, batch)


# ---------------------------------------------------------------------------- normalised
def test_the_normalizer_divides_bounded_entries_and_squashes_unbounded_ones():
    high = np.array([1.0, 45.0, 2.0**31 - 1], np.float32)
    normalize = ObsNormalizer(high, np.array([0.0, 0.0, 20.0], np.float32))
    obs = np.array([[1.0, 9.0, 20.0], [0.0, 45.0, 2.0**31 - 1]], np.float32)
    np.testing.assert_allclose(normalize(obs), [[1.0, 0.2, 0.5], [0.0, 1.0, 1.0]])
    with pytest.raises(ValueError, match="positive high or a positive scale"):
        ObsNormalizer(np.array([0.0], np.float32), np.array([0.0], np.float32))


def _normalized_pairs(game: str, **kwargs: Any) -> list[tuple[np.ndarray, np.ndarray, Any]]:
    """(raw, normalised, space) of every observation along one random game of twin AEC
    envs (the same seed and actions), the second with normalize_obs=True."""
    module = asara_v0 if game == "asara" else basari_v0
    raw, norm = module.env(**kwargs), module.env(normalize_obs=True, **kwargs)
    raw.reset(seed=11)
    norm.reset(seed=11)
    rng, pairs = np.random.default_rng(11), []
    for agent in norm.agent_iter():
        obs, _, termination, truncation, _ = norm.last()
        raw_obs = raw.last()[0]
        pairs.append((raw_obs["observation"], obs["observation"], norm.observation_space(agent)))
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        norm.step(action)
        raw.step(action)
    return pairs


@pytest.mark.parametrize(
    "game, kwargs",
    [
        ("asara", {"num_players": 3, "variant": "pro", "expansions": ("genie", "gifts")}),
        ("basari", {"num_players": 4}),
        ("basari", {"num_players": 2, "board": BASARI_BOARDS["random_40"]}),
    ],
)
def test_the_normalised_observation_lies_in_its_unit_space_along_a_game(game, kwargs):
    if game == "asara":
        normalize = OBS_NORMALIZER
    else:
        config = BasariConfig(num_players=kwargs["num_players"], board=kwargs.get("board", BOARD))
        normalize = obs_normalizer(config)
    pairs = _normalized_pairs(game, **kwargs)
    space = pairs[0][2]["observation"]
    assert (space.low == 0).all() and (space.high == 1).all()
    assert max(raw.max() for raw, _, _ in pairs) > 1  # money, points: raw counts above 1
    for raw, norm, spaces in pairs:
        assert spaces.contains({"observation": norm, "action_mask": spaces["action_mask"].low})
        np.testing.assert_array_equal(norm, normalize(raw))


@pytest.mark.parametrize("game", ["asara", "basari"])
def test_pettingzoo_api_tests_pass_with_the_normalised_observation(game):
    with warnings.catch_warnings():  # dict observations; unmasked samples are penalised
        warnings.simplefilter("ignore", UserWarning)
        if game == "asara":
            api_test(asara_v0.env(num_players=2, normalize_obs=True), num_cycles=100)
            return
        api_test(basari_v0.env(num_players=3, normalize_obs=True), num_cycles=100)
        parallel_api_test(basari_v0.parallel_env(num_players=3, normalize_obs=True), num_cycles=100)


@pytest.mark.parametrize(
    "make", [asara_v0.raw_env, basari_v0.parallel_env], ids=["asara", "basari"]
)
def test_the_state_is_normalised_too(make):
    env = make(num_players=2, normalize_obs=True)
    env.reset(seed=2)
    assert (env.state_space.high == 1).all() and env.state_space.contains(env.state())


class _Recorder:
    """An opponent that plays the first legal action and keeps the largest value it saw."""

    def __init__(self) -> None:
        self.largest = 0.0

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        self.largest = max(self.largest, float(np.max(observations)))
        return np.asarray(masks, bool).argmax(axis=1)


@pytest.mark.parametrize(
    "gym_id, kwargs",
    [
        ("asara_env/Asara-v0", {}),  # money: raw counts above 1
        ("asara_env/Basari-v0", {"board": BASARI_BOARDS["all_max"]}),  # points / 7 above 1
    ],
)
def test_the_gymnasium_learner_sees_unit_values_and_its_opponents_raw_ones(gym_id, kwargs):
    opponent = _Recorder()
    env = gym.make(gym_id, num_players=2, opponents=[opponent], normalize_obs=True, **kwargs)
    obs, info = env.reset(seed=3)
    assert env.observation_space == gym.spaces.Box(0.0, 1.0, obs.shape, np.float32)
    rng, done = np.random.default_rng(3), False
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, done, _, info = env.step(action)
    assert opponent.largest > 1  # raw values: the opponents' agents decode them


@pytest.mark.parametrize("game", ["asara", "basari"])
def test_normalize_obs_must_be_a_bool(game):
    module = asara_v0 if game == "asara" else basari_v0
    with pytest.raises(ValueError, match="normalize_obs must be a bool"):
        module.env(normalize_obs="yes")


def test_the_default_observation_is_unchanged_by_the_option():
    env = asara_v0.raw_env(num_players=2)
    assert env.normalize_obs is False
    np.testing.assert_array_equal(_box(env).high, OBS_HIGH)
