"""The shared uniform random legal action: legal, uniform, the same on both backends."""

from __future__ import annotations

import numpy as np
import pytest

from asara_env.common.sampling import random_legal, uniform_legal
from tests.common.backends import NEEDS_NUMBA, backend_params

WIDTH = 803  # ASARA's action count: a row wider than any SIMD word, not a multiple of 8
DRAWS = 60_000
SEED = 12345


def random_masks(rows: int, width: int, density: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.random((rows, width)) < density


@pytest.mark.parametrize("backend", backend_params())
def test_picks_a_legal_action_or_zero(backend: str) -> None:
    masks = random_masks(500, WIDTH, 0.02, SEED)
    masks[::7] = False  # rows without a legal action
    actions = random_legal(masks, np.random.default_rng(SEED), backend)
    assert actions.dtype == np.int64 and actions.shape == (500,)
    has_legal = masks.any(axis=1)
    assert masks[has_legal, actions[has_legal]].all()
    assert (actions[~has_legal] == 0).all()


@pytest.mark.parametrize("backend", backend_params())
def test_is_the_floor_u_n_th_legal_action(backend: str) -> None:
    masks = random_masks(300, WIDTH, 0.05, SEED)
    u = np.random.default_rng(SEED).random(300)
    actions = uniform_legal(masks, u, backend)
    for row, action in enumerate(actions):
        legal = np.flatnonzero(masks[row])
        if len(legal):
            assert action == legal[int(u[row] * len(legal))]


@pytest.mark.parametrize("backend", backend_params())
def test_uniform_over_the_legal_actions(backend: str) -> None:
    mask = np.zeros(WIDTH, bool)
    legal = np.array([0, 3, 64, 65, 400, 801, 802])
    mask[legal] = True
    rows = np.broadcast_to(mask, (DRAWS, WIDTH))
    actions = random_legal(rows, np.random.default_rng(SEED), backend)
    counts = np.array([(actions == a).sum() for a in legal])
    assert counts.sum() == DRAWS
    expected = DRAWS / len(legal)
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 30  # 6 degrees of freedom: P(chi2 > 30) < 1e-4


@NEEDS_NUMBA
@pytest.mark.parametrize("density", [0.0, 0.003, 0.1, 1.0])
def test_numba_and_numpy_draw_the_same_actions(density: float) -> None:
    masks = random_masks(2000, WIDTH, density, SEED)
    u = np.random.default_rng(SEED).random(2000)
    u[:3] = [0.0, np.nextafter(1.0, 0.0), 0.5]
    numba_actions = uniform_legal(masks, u, "numba")
    numpy_actions = uniform_legal(masks, u, "numpy")
    assert numba_actions.tobytes() == numpy_actions.tobytes()


@pytest.mark.parametrize("backend", backend_params())
def test_rows_of_any_shape(backend: str) -> None:
    masks = random_masks(24, 10, 0.3, SEED).reshape(2, 3, 4, 10)
    u = np.random.default_rng(SEED).random((2, 3, 4))
    actions = uniform_legal(masks, u, backend)
    assert actions.shape == (2, 3, 4)
    flat = uniform_legal(masks.reshape(24, 10), u.reshape(24), backend)
    assert (actions.reshape(24) == flat).all()
    same = random_legal(masks, np.random.default_rng(SEED), backend)
    assert (same == actions).all()


def test_rejects_doubles_of_another_shape() -> None:
    with pytest.raises(ValueError, match="shape"):
        uniform_legal(np.ones((3, 5), bool), np.zeros(4))
    with pytest.raises(ValueError, match="backend"):
        uniform_legal(np.ones((3, 5), bool), np.zeros(3), "jax")
