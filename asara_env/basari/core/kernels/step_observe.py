"""`step` then `observe` as one entry point (what a one-game env does every step), so that
the state's arrays cross from Python once: the two kernels are called from a third
compiled one.

Its compiled code holds the two kernels it calls; its cache is keyed by every source it
imports (`asara_env.common.kernel_cache`), so an edit to `step.py` or `observe.py` (or
what they inline) compiles it again. The tests compare it with the numpy core's step and
observation."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from asara_env.basari.core.kernels.observe import observe_games
from asara_env.basari.core.kernels.step import ALL_LEGAL, step_games
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import ENTRY

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads


@numba.njit(**ENTRY)
def step_observe_games(
    state: tuple[np.ndarray, ...],
    rules: tuple[Any, ...],
    actions: np.ndarray,
    offsets: tuple[int, ...],
    out: np.ndarray,
) -> int:
    """`step_games(state, rules, actions)`, then, if it applied them, `observe_games(state,
    rules, offsets, out)`; returns what `step_games` returns."""
    bad: int = step_games(state, rules, actions)
    if bad == ALL_LEGAL:
        observe_games(state, rules, offsets, out)
    return bad
