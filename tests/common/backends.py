"""The core backends a test runs on: "numpy" always, "numba" where numba imports (skipped
otherwise), for the games whose card names a compiled core."""

from __future__ import annotations

from typing import Any

import pytest

from asara_env import games
from asara_env.common.backend import BACKENDS, numba_available

NEEDS_NUMBA = pytest.mark.skipif(not numba_available(), reason="numba is not installed")


def backend_params(game: str | None = None) -> list[Any]:
    """pytest params of every backend (of `game`'s: "numpy" alone without a compiled
    core), the numba one skipped where numba cannot be imported."""
    if game is not None and not games.game_card(game).compiled_core:
        return [pytest.param("numpy", id="numpy")]
    return [pytest.param(b, id=b, marks=NEEDS_NUMBA if b == "numba" else ()) for b in BACKENDS]
