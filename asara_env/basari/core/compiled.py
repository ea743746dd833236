"""BASARI's core on the numba backend: the verbs of `asara_env.basari.core` with `step`
(and the legal masks it leaves in the state) and `observe` compiled by numba
(`core/kernels/`), over the same `BasariState` arrays; `load_core("basari", "numba")`
takes every other name from the numpy core.

    from asara_env.games import load_core
    core = load_core("basari", backend="numba")     # or "numpy"; None: $ASARA_ENV_BACKEND
    state = core.init(BasariConfig(num_players=4), batch=64, seeds=0)
    core.step(state, actions)                        # int[B, P], as the numpy core's

Every game is bit-identical to the numpy core's (the same state bytes, masks and
observations after every step; the same chance draws), and an illegal action raises the
numpy core's `IllegalActionError` with the batch unchanged. The kernels loop over the
games one at a time on one thread, a few hundred nanoseconds a game, which beats the
vectorised numpy core at every batch size (docs/performance.md). Set-up (`init`,
`autoreset`) and the outcome functions are the numpy core's. The kernels are compiled on
first use and cached on disk beside their modules, so only a process on a fresh install
waits for the compiler (`python -m benchmarks.basari.bench_core` reports both times).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.core import (
    BasariState,
    check_actions,
    init,
    obs_index,
    obs_size,
)
from asara_env.basari.core.kernels import observe as observe_kernels
from asara_env.basari.core.kernels import step as step_kernels
from asara_env.basari.core.kernels.arrays import MAX_CACHED, arrays, rules_of
from asara_env.basari.core.kernels.step import ALL_LEGAL
from asara_env.basari.core.kernels.step_observe import step_observe_games
from asara_env.basari.core.observation import GEM_SCALE
from asara_env.basari.core.tables import tables

__all__ = [  # the rest: the numpy core's, through `load_core("basari", "numba")`
    "global_state",
    "observe",
    "score_round",
    "step",
    "step_observe",
    "warm_up",
]


def step(state: BasariState, actions: object) -> None:
    """Apply `actions` int[B, P] (one id per seat; NOOP where a seat has no decision) to
    every game, in place, as `asara_env.basari.core.step` does. An illegal action raises
    its IllegalActionError and leaves the whole batch unchanged."""
    acts = _int64_actions(state, actions)
    if acts is None:
        acts = check_actions(state, actions)  # refuses what is not an int array [B, P]
    kernel_rules = rules_of(tables(state.config))
    if step_kernels.step_games(arrays(state), kernel_rules, acts) != ALL_LEGAL:
        check_actions(state, actions)  # raises the numpy core's error for the first one
        raise AssertionError("the kernel refused actions that check_actions accepts")


def step_observe(state: BasariState, actions: object) -> np.ndarray:
    """`step(state, actions)`, then `observe(state)` (float32[B, P, OBS_SIZE]), in one call
    to the kernels; an illegal action raises as `step` does, changing nothing."""
    acts = _int64_actions(state, actions)
    if acts is None:
        acts = check_actions(state, actions)
    kernel_rules, offsets, size = _observing(state.config)
    out = np.zeros((*state.score.shape, size), np.float32)
    if step_observe_games(arrays(state), kernel_rules, acts, offsets, out) != ALL_LEGAL:
        check_actions(state, actions)
        raise AssertionError("the kernel refused actions that check_actions accepts")
    return out


def _int64_actions(state: BasariState, actions: object) -> np.ndarray | None:
    """`actions` as a C-ordered int64[B, P] array if it is an int array of that shape
    (unsigned ids past int64 turn negative, so the kernel still refuses them), else None."""
    if (
        isinstance(actions, np.ndarray)
        and actions.dtype.kind in "iu"
        and actions.shape == state.legal.shape[:2]
    ):
        return np.ascontiguousarray(actions, np.int64)
    return None


def observe(state: BasariState) -> np.ndarray:
    """float32[B, P, OBS_SIZE]: every seat's ego-centric observation of every game (E3),
    as `asara_env.basari.core.observe` writes it."""
    kernel_rules, offsets, size = _observing(state.config)
    out = np.zeros((*state.score.shape, size), np.float32)
    observe_kernels.observe_games(arrays(state), kernel_rules, offsets, out)
    return out


_OBSERVING: dict[int, tuple[BasariConfig, tuple[Any, ...], tuple[int, ...], int]] = {}


def _observing(config: BasariConfig) -> tuple[tuple[Any, ...], tuple[int, ...], int]:
    """What the observe kernel takes for `config`: its `Rules`, its `Layout` and OBS_SIZE
    (cached per configuration object)."""
    hit = _OBSERVING.get(id(config))
    if hit is None or hit[0] is not config:
        n = config.n_archways
        kernel_rules = rules_of(tables(config))
        if len(_OBSERVING) > MAX_CACHED:
            _OBSERVING.clear()
        hit = _OBSERVING[id(config)] = (
            config,
            kernel_rules,
            observe_kernels.layout(n),
            obs_size(n),
        )
    return hit[1], hit[2], hit[3]


def global_state(state: BasariState) -> np.ndarray:
    """float32[B, OBS_SIZE]: seat 0's observation with the pending bundle filled in
    whoever builds it (`asara_env.basari.core.global_state`)."""
    out = observe(state)[:, 0]
    out[:, obs_index(state.config.n_archways)["pending"]] = state.pending / GEM_SCALE
    return out


def score_round(state: BasariState, rows: np.ndarray) -> None:
    """B9's round-end scoring of games `rows` (`asara_env.basari.core.rules.score_round`)."""
    kernel_rules = rules_of(tables(state.config))
    step_kernels.score_rounds(arrays(state), kernel_rules, np.asarray(rows, np.int64))


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel now rather than at first use."""
    state = init(BasariConfig(num_players=2), 1, seeds=0)
    step_observe(state, state.legal.argmax(axis=2))  # every seat's first legal action
    step(state, state.legal.argmax(axis=2))
    observe(state)
    global_state(state)
