"""Conformance battery of BASARI's vectorised core on random batched games: shapes and
dtypes as declared, masks never empty, autoreset, determinism, batch-composition
independence, refused actions leave the batch byte-identical, the B8 key, the generated
observation docs and the core's imports."""

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
    FIELD_SPECS,
    autoreset,
    copy_state,
    init,
    is_terminal,
    legal_action_mask,
    obs_size,
    observe,
    states_equal,
    step,
    take,
)
from asara_env.basari.core.observation import observation_markdown
from asara_env.basari.core.state import field_shape
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
def test_fields_keep_their_declared_dtypes_and_shapes_and_masks_are_never_empty(config):
    state = init(config, 48, seeds=1)
    rng = np.random.default_rng(0)
    weights = closing_weights(config, np.full(48, 2.0))
    for _ in range(300):
        for name in ARRAY_FIELDS:
            arr = getattr(state, name)
            assert arr.dtype == FIELD_SPECS[name].dtype, name
            assert arr.shape == (48, *field_shape(config, name)), name
        mask = legal_action_mask(state)
        assert mask.any(axis=2).all(), "a seat without a legal action"
        acting = np.asarray(mask[:, :, 1:].any(axis=2))
        barter = state.phase == Phase.BARTER
        assert (acting[barter].sum(axis=1) == 1).all(), "a barter has exactly one actor"
        assert (mask[~acting][:, 0]).all(), "a seat without a decision has NOOP"
        assert not (mask[acting][:, 0]).any(), "an acting seat has no NOOP"
        obs = observe(state)
        assert obs.dtype == np.float32 and obs.shape == (48, config.num_players, obs_size(28))
        assert (obs >= 0).all()
        step(state, sample(mask, weights, rng))
        assert (state.carpet + state.gems.sum(axis=1) == 25).all()


def test_autoreset_restarts_finished_games_with_the_next_seed_only():
    config = BasariConfig(num_players=3)
    state = init(config, 16, seeds=4)
    rng = np.random.default_rng(4)
    weights = closing_weights(config, np.full(16, 10.0))
    while not is_terminal(state).any():
        step(state, sample(legal_action_mask(state), weights, rng))
    before = copy_state(state)
    done = autoreset(state)
    assert done.any() and not done.all()
    live = np.flatnonzero(~done)
    assert states_equal(take(state, live), take(before, live))
    for g in np.flatnonzero(done):
        fresh = init(config, 1, seeds=np.array([derived_seed(int(before.seed[g]), 1)], np.uint64))
        assert states_equal(take(state, [g]), fresh)
    assert not autoreset(state).any()


def test_same_seeds_and_actions_give_identical_batches_and_other_seeds_differ():
    config = BasariConfig(num_players=4, start_mode="random")
    a, b = init(config, 32, seeds=7), init(config, 32, seeds=7)
    actions = run(a, 80, seed=1)
    for act in actions:
        step(b, act)
    assert states_equal(a, b)
    c = init(config, 32, seeds=8)
    assert not np.array_equal(c.position, init(config, 32, seeds=7).position)
    for bad in (-1, 2**64, 1.5, "x"):
        with pytest.raises(ValueError, match="seed"):
            init(config, 4, seeds=bad)
    with pytest.raises(ValueError, match="seeds"):
        init(config, 4, seeds=np.array([1, 2, 3]))


def test_a_game_does_not_depend_on_the_rest_of_its_batch():
    config = BasariConfig(num_players=4)
    batch = init(config, 24, seeds=5)
    actions = run(batch, 120, seed=2, closing=1.0)
    for g in (0, 7, 23):
        alone = init(config, 1, seeds=np.array([derived_seed(5, g)], np.uint64))
        for act in actions:
            step(alone, act[[g]])
        assert states_equal(alone, take(batch, [g]))


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
    for wrong in (
        np.where(np.arange(4) == 0, 999, actions),  # out of range
        np.where(np.arange(4) == 0, -1, actions),
        actions[:, :3],  # wrong shape
        actions.astype(float),  # not ints
    ):
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
