"""The vectorised core against the reference engine, move by move, on random games: every
state field, every seat's mask (against the reference's own predicates), every seat's
observation (against `bridge.encode_view`, plain loops over the reference state), the
acting seats, the terminal flags and the final order. Game i of a core batch seeded s is
the reference game seeded derived_seed(s, i). Every test runs on both backends of the core
(`asara_env.common.backend`: the numpy core and its numba kernels)."""

from __future__ import annotations

import numpy as np
import pytest

from asara_env.basari import reference as ref
from asara_env.basari.bridge import encode_view, from_reference, to_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import ARRAY_FIELDS, is_terminal, scores, states_equal, winners
from asara_env.basari.phases import Phase
from asara_env.common.backend import BACKENDS
from asara_env.common.seeding import derived_seed
from asara_env.games import CoreVerbs, load_core
from tests.basari.games import CONFIGS, IDS, SMALL_BOARD, closing_weights, sample


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest) -> CoreVerbs:
    """The core on each backend."""
    return load_core("basari", request.param)


def play_lockstep(
    engine: CoreVerbs, config: BasariConfig, games: int, seed: int, obs_every: int
) -> int:
    """Play `games` random games in both engines at once (the core on `engine`'s backend),
    checking everything after each step (observations every `obs_every` steps and at the
    end); return the steps played."""
    core = engine.init(config, games, seeds=seed)
    refs = [ref.new_game(config, derived_seed(seed, i)) for i in range(games)]
    rng = np.random.default_rng(seed)
    weights = closing_weights(config, rng.choice([1.0, 3.0, 10.0], size=games))
    p, steps = config.num_players, 0
    while True:
        _check_state(core, refs)
        _check_masks(core, refs)
        if steps % obs_every == 0 or is_terminal(core).all():
            _check_observations(engine, core, refs)
        if is_terminal(core).all():
            break
        actions = sample(engine.legal_action_mask(core), weights, rng)
        engine.step(core, actions)
        for i, game in enumerate(refs):
            if game.phase != Phase.OVER:
                ref.step(game, [int(a) for a in actions[i]])
        steps += 1
        assert steps <= 20_000, "a batch of games did not end"
    expected = np.array([ref.winners(g) for g in refs])
    assert np.array_equal(winners(scores(core)), expected)
    assert np.array_equal(scores(core), np.array([ref.ranking_score(g) for g in refs]))
    return steps * p


def _check_state(core, refs) -> None:
    if not states_equal(core, from_reference(refs)):
        mirror = from_reference(refs)
        for name in ARRAY_FIELDS:
            bad = np.flatnonzero(
                (getattr(core, name) != getattr(mirror, name)).reshape(len(refs), -1).any(1)
            )
            assert not bad.size, f"{name} differs in game {bad[0]}"
        raise AssertionError("the core state differs from the reference")
    assert np.array_equal(is_terminal(core), [g.phase == Phase.OVER for g in refs])


def _check_masks(core, refs) -> None:
    for i, game in enumerate(refs):
        acting = [s for s in range(game.num_players) if core.legal[i, s, 1:].any()]
        if game.phase != Phase.OVER:
            assert acting == ref.acting_seats(game), f"acting seats of game {i}"
        for seat in range(game.num_players):
            expected = ref.legal_actions(game, seat).astype(bool)
            assert np.array_equal(core.legal[i, seat], expected), f"mask of game {i} seat {seat}"


def _check_observations(engine, core, refs) -> None:
    obs = engine.observe(core)
    for i, game in enumerate(refs):
        for seat in range(game.num_players):
            expected = encode_view(game, seat)
            bad = np.flatnonzero(obs[i, seat] != expected)
            assert not bad.size, f"observation of game {i} seat {seat} differs at {bad[:8]}"


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_core_matches_reference_on_random_games(engine, config):
    """6 configurations x 34 games = 204 random games, every step checked."""
    play_lockstep(
        engine, config, games=34, seed=config.num_players * 10 + len(config.start_mode), obs_every=4
    )


def test_core_matches_reference_on_a_user_board(engine):
    config = BasariConfig(num_players=3, board=SMALL_BOARD)
    play_lockstep(engine, config, games=12, seed=3, obs_every=1)


def test_bridge_round_trips_every_state_of_a_game(engine):
    config = BasariConfig(num_players=4)
    core = engine.init(config, 4, seeds=9)
    rng = np.random.default_rng(9)
    weights = closing_weights(config, np.full(4, 3.0))
    while not is_terminal(core).all():
        back = from_reference([to_reference(core, i) for i in range(4)])
        assert states_equal(core, back)
        engine.step(core, sample(engine.legal_action_mask(core), weights, rng))


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_core_matches_reference_on_many_random_games(engine, config):
    """6 configurations x 1,680 games = 10,080 random games, observations every step."""
    for chunk in range(8):
        play_lockstep(engine, config, games=210, seed=1000 + chunk, obs_every=1)
