"""BASARI's own conformance checks of the vectorised core: the masks' barter invariants,
seed validation, game i is the reference game, the refusal's words, NOOP in finished
games, the B8 key, the generated observation docs and the core's imports. The generic
checks (dtypes and shapes, masks, determinism, batch independence, refused actions,
autoreset, reward sums, the lockstep differential) are the battery's,
tests/common/conformance.py, run on every game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from asara_env.basari import reference as ref
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import (
    ARRAY_FIELDS,
    copy_state,
    init,
    is_terminal,
    legal_action_mask,
    obs_size,
    observe,
    states_equal,
    step,
)
from asara_env.basari.core.observation import observation_markdown
from asara_env.basari.core.tables import bundle_key
from asara_env.basari.phases import Phase
from asara_env.common.errors import IllegalActionError
from asara_env.common.seeding import derived_seed
from tests.basari.games import CONFIGS, IDS, closing_weights, sample

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "basari"


def run(state, steps: int, seed: int, closing: float = 3.0) -> list[np.ndarray]:
    """Random legal play for `steps` steps; returns the actions taken."""
    rng = np.random.default_rng(seed)
    weights = closing_weights(state.config, np.full(state.batch, closing))
    taken = []
    for _ in range(steps):
        actions = sample(legal_action_mask(state), weights, rng)
        step(state, actions)
        taken.append(actions)
    return taken


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_masks_have_one_barter_actor_and_noop_exactly_for_seats_without_a_decision(config):
    state = init(config, 48, seeds=1)
    rng = np.random.default_rng(0)
    weights = closing_weights(config, np.full(48, 2.0))
    for _ in range(300):
        mask = legal_action_mask(state)
        acting = np.asarray(mask[:, :, 1:].any(axis=2))
        barter = state.phase == Phase.BARTER
        assert (acting[barter].sum(axis=1) == 1).all(), "a barter has exactly one actor"
        assert (mask[~acting][:, 0]).all(), "a seat without a decision has NOOP"
        assert not (mask[acting][:, 0]).any(), "an acting seat has no NOOP"
        obs = observe(state)
        assert obs.shape == (48, config.num_players, obs_size(28)) and (obs >= 0).all()
        step(state, sample(mask, weights, rng))
        assert (state.carpet + state.gems.sum(axis=1) == 25).all()


def test_init_refuses_bad_seeds():
    config = BasariConfig(num_players=4, start_mode="random")
    for bad in (-1, 2**64, 1.5, "x"):
        with pytest.raises(ValueError, match="seed"):
            init(config, 4, seeds=bad)
    with pytest.raises(ValueError, match="seeds"):
        init(config, 4, seeds=np.array([1, 2, 3]))


def test_game_i_is_the_reference_game_seeded_derived_seed():
    config = BasariConfig(num_players=3, start_mode="random")
    state = init(config, 5, seeds=99)
    for g in range(5):
        game = ref.new_game(config, derived_seed(99, g))
        assert np.array_equal(state.position[g], game.position)
        assert int(state.seed[g]) == game.seed


def test_a_refused_action_names_game_seat_and_action_and_changes_nothing():
    config = BasariConfig(num_players=4)
    state = init(config, 8, seeds=3)
    run(state, 5, seed=3)
    before = copy_state(state)
    mask = legal_action_mask(state)
    actions = np.argmax(mask, axis=2)
    seat = 1 if state.to_act[6] != 1 else 2
    bad = actions.copy()
    bad[6, seat] = config.actions.submit if state.phase[6] == Phase.BARTER else 0
    assert not mask[6, seat, bad[6, seat]]
    with pytest.raises(IllegalActionError, match=f"seat {seat}") as err:
        step(state, bad)
    assert "game 6" in str(err.value) and str(bad[6, seat]) in str(err.value)
    for wrong in (actions[:, :3], actions.astype(float)):  # BASARI refuses these by its error
        with pytest.raises(IllegalActionError):
            step(state, wrong)
    assert states_equal(state, before)
    for name in ARRAY_FIELDS:
        assert getattr(state, name).tobytes() == getattr(before, name).tobytes()


def test_finished_games_take_noop_only():
    config = BasariConfig(num_players=2)
    state = init(config, 4, seeds=6)
    while not is_terminal(state).all():
        run(state, 1, seed=int(state.turn.sum()), closing=10.0)
    before = copy_state(state)
    mask = legal_action_mask(state)
    assert mask[:, :, 0].all() and not mask[:, :, 1:].any()
    step(state, np.zeros((4, 2), np.int64))
    assert states_equal(state, before)


def test_bundle_key_orders_bundles_as_the_reference_does():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 26, (2000, 4))
    y = np.where(rng.random((2000, 1)) < 0.3, x, rng.integers(0, 26, (2000, 4)))
    y[::7, 3] = x[::7, 3] + x[::7, 0] - y[::7, 0]  # many equal totals
    y = y.clip(0, 25)
    higher = bundle_key(x) > bundle_key(y)
    assert higher.tolist() == [ref.higher(a, b) for a, b in zip(x, y)]


def test_observation_docs_are_generated_from_the_layout():
    assert (DOCS / "observation.md").read_text() == observation_markdown()


def test_the_core_imports_only_numpy_common_and_the_definition():
    code = (
        "import sys; import asara_env.basari.core; "
        "bad = [m for m in sys.modules if m.startswith(('asara_env.basari.reference', "
        "'asara_env.basari.env', 'pettingzoo', 'gymnasium', 'agents', 'training', "
        "'asara_env.asara.core', 'asara_env.asara.reference'))]; print(bad); assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
