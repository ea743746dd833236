"""The search's leaf estimate compiled (agents/asara/estimate_compiled.py): the same
integers as `agents.asara.search.estimate` on every state along random games, finished
games included."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from agents.asara import estimate_compiled  # noqa: E402
from agents.asara.search import estimate  # noqa: E402
from asara_env.asara.config import GameConfig  # noqa: E402
from asara_env.games import load_core  # noqa: E402
from tests.asara.games import ALL_CONFIGS, ALL_IDS  # noqa: E402

BATCH, STEPS = 24, 2000  # games per configuration, decisions stepped


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_compiled_estimate_is_the_numpy_estimate(config: GameConfig) -> None:
    core, rng = load_core("asara", "numba"), np.random.default_rng(config.num_players)
    state = core.init(config, BATCH, seeds=5)
    seen_over = False
    for _ in range(STEPS):
        want = estimate(state)
        got = estimate_compiled.estimate(state)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, want)
        live = ~core.is_terminal(state)
        seen_over |= not live.all()
        if not live.any():
            break
        masks = core.legal_action_mask(state)
        noise = np.where(masks, rng.random(masks.shape), -1.0)
        core.step(state, noise.argmax(axis=1))  # finished games ignore theirs
    assert seen_over  # the estimate of finished games was compared too
