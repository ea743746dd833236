"""BASARI's adapter for the conformance battery (tests/common/conformance.py): both start
modes, random play that closes barters sooner (so games end), and the lockstep
differential against the reference engine (test_core_differential.py's `play_lockstep`)."""

from __future__ import annotations

import numpy as np

from asara_env.basari.config import BasariConfig
from tests.basari.games import CONFIGS, closing_weights, sample

ENV_KWARGS = [{"num_players": c.num_players, "start_mode": c.start_mode} for c in CONFIGS]


def config_id(config: BasariConfig) -> str:
    return f"{config.num_players}p-{config.start_mode}"


def policy(state, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Legal ids per seat, ACCEPT/FORFEIT/SUBMIT weighted 3 to 1."""
    return sample(mask, closing_weights(state.config, np.full(state.batch, 3.0)), rng)


def lockstep(config: BasariConfig, seed: int, backend: str = "numpy") -> None:
    """Four random games in both engines (the core on `backend`), observations every 5
    steps."""
    from asara_env import games
    from tests.basari.test_core_differential import play_lockstep

    core = games.load_core("basari", backend)
    assert play_lockstep(core, config, 4, seed, obs_every=5) > 0
