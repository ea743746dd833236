"""ASARA's adapter for the conformance battery (tests/common/conformance.py): every
combination of variant and expansions, and the lockstep differential against the
reference engine (tests/asara/test_core_differential.py's `lockstep`)."""

from __future__ import annotations

from asara_env.asara.config import GameConfig
from tests.asara.games import ALL_CONFIGS
from tests.asara.games import config_id as _config_id

CONFIGS = ALL_CONFIGS
ENV_KWARGS = [
    {"num_players": c.num_players, "variant": c.variant, "expansions": c.expansions}
    for c in ALL_CONFIGS[:6]
]


def config_id(config: GameConfig) -> str:
    return _config_id(config)


def lockstep(config: GameConfig, seed: int, backend: str = "numpy") -> None:
    """Four random games in both engines (the core on `backend`), the first one's
    observations compared too."""
    from tests.asara.test_core_differential import lockstep as play

    assert play(config, 4, seed, observed=1, backend=backend) > 0
