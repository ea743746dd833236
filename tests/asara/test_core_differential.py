"""The vectorised core against the reference engine, decision by decision: masks, seat to
move, terminal flags, observations of every seat, prestige, money and final scoring, on
batches of random games."""

from __future__ import annotations

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.bridge import encode_view
from asara_env.asara.core import derived_seed
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.view import seat_view
from asara_env.games import load_core
from tests.asara.games import EXPANSION_CONFIGS, EXPANSION_IDS
from tests.asara.players import choose
from tests.common.backends import backend_params

CONFIGS = [GameConfig(num_players=p, variant=v) for p in (2, 3, 4) for v in ("basic", "pro")]
IDS = [f"{c.num_players}p-{c.variant}" for c in CONFIGS]
FINAL_KEYS = ("brown", "green", "red", "black", "white", "tallest", "most_towers", "asari")


BACKENDS = backend_params("asara")


def check_observations(core, refs, games, observe) -> None:
    """Every seat's core observation equals the encoding of its reference view (R10)."""
    for seat in range(core.config.num_players):
        obs = observe(core, seat)
        for i in games:
            np.testing.assert_array_equal(obs[i], encode_view(seat_view(refs[i], seat)))


def lockstep(
    config: GameConfig, batch: int, seed: int, observed: int = 0, backend: str = "numpy"
) -> int:
    """Play `batch` random games in the core (on `backend`) and the reference side by side,
    comparing observations in the first `observed` games; return the number of decisions
    compared."""
    verbs = load_core("asara", backend)
    core = verbs.init(config, batch, seeds=seed)
    refs = [engine.new_game(config, derived_seed(seed, i)) for i in range(batch)]
    chooser = np.random.default_rng(seed)
    compared = 0
    while True:
        mask = verbs.legal_action_mask(core)
        actions = np.zeros(batch, np.int64)
        for i, ref in enumerate(refs):
            assert (core.phase[i] == Phase.GAME_OVER) == ref.is_over, f"game {i}: terminal flag"
            if ref.is_over:
                assert not mask[i].any()
                continue
            legal = legal_actions(ref)
            assert np.flatnonzero(mask[i]).tolist() == legal, f"game {i}: mask in {ref.phase.name}"
            assert core.seat[i] == ref.seat and core.phase[i] == ref.phase
            actions[i] = choose(legal, chooser, "builder" if i % 2 else "uniform")
            compared += 1
        check_observations(core, refs, range(observed), verbs.observe)
        if all(ref.is_over for ref in refs):
            break
        verbs.step(core, actions)
        for i, ref in enumerate(refs):
            if not ref.is_over:
                engine.step(ref, int(actions[i]))
                assert core.prestige[i].tolist() == ref.prestige, f"game {i}: prestige"
                assert core.money[i].tolist() == ref.money, f"game {i}: money"
    for i, ref in enumerate(refs):
        assert ref.final is not None, f"game {i}: not over"
        expected = [[points[k] for k in FINAL_KEYS] for points in ref.final]
        assert core.final[i].tolist() == expected, f"game {i}: final scoring"
    return compared


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_core_agrees_with_the_reference_on_36_games(config, backend):
    """Masks, seats, terminal flags, prestige, money and final scoring in 36 games; the
    observation of every seat in 6 of them, at every decision."""
    seed = config.num_players * 10 + config.pro
    assert lockstep(config, 36, seed, observed=6, backend=backend) > 36 * 80


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("config", EXPANSION_CONFIGS, ids=EXPANSION_IDS)
def test_R9_core_agrees_with_the_reference_with_the_expansions_on_16_games(config, backend):
    """Every combination of expansions: 16 games each (192 in all), the observation of
    every seat in 4 of them."""
    seed = config.num_players * 100 + len(config.expansions) * 10 + config.pro
    assert lockstep(config, 16, seed, observed=4, backend=backend) > 16 * 80


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_core_agrees_with_the_reference_on_many_games(config, backend):
    """3,400 games per configuration, 20,400 in all."""
    for seed in range(100, 117):
        lockstep(config, 200, seed, observed=10, backend=backend)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("config", EXPANSION_CONFIGS, ids=EXPANSION_IDS)
def test_R9_core_agrees_with_the_reference_with_the_expansions_on_many_games(config, backend):
    """1,000 games per combination of expansions and players, 12,000 in all."""
    for seed in range(200, 205):
        lockstep(config, 200, seed, observed=10, backend=backend)
