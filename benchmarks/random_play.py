"""The random-play loops the benchmark scripts share (not a benchmark itself).

- `time_reference_games`: whole games of a one-game reference engine, one at a time, the
  time to list the legal actions and the time to step measured apart (ASARA's
  `bench_reference.py`, BASARI's `basari/bench_reference.py`).
- `aec_decisions_per_second`: the full PettingZoo AEC loop (`env.last()`, a random legal
  action, `env.step()`), finished games reset, for a fixed time (`bench_env.py`,
  `bench_libraries.py`).

The scripts are run as `python benchmarks/<script>.py`, so this folder is on `sys.path`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

State = TypeVar("State")
Legal = TypeVar("Legal")
Action = TypeVar("Action")


@dataclass
class GameTimes:
    """What `time_reference_games` measured: seconds listing legal actions and stepping,
    steps taken and decisions counted (one per step unless a `decisions` count is given)."""

    mask_s: float
    step_s: float
    steps: int
    decisions: int


@dataclass
class ReferenceLoop(Generic[State, Legal, Action]):
    """One game engine as `time_reference_games` drives it."""

    new_game: Callable[[int], State]  # seed -> a fresh game
    is_over: Callable[[State], bool]
    legal: Callable[[State], Legal]  # timed as "mask"
    choose: Callable[[np.random.Generator, Legal], Action]  # untimed
    step: Callable[[State, Action], object]  # timed as "step"
    decisions: Callable[[State], int] | None = None  # untimed; None: 1 a step


def time_reference_games(
    loop: ReferenceLoop[State, Legal, Action], games: int, seed: int = 0
) -> GameTimes:
    """`games` whole games seeded seed, seed + 1, ..., each with its own chooser
    `np.random.default_rng(game seed)` picking among the legal actions."""
    times = GameTimes(0.0, 0.0, 0, 0)
    for g in range(games):
        state = loop.new_game(seed + g)
        chooser = np.random.default_rng(seed + g)
        while not loop.is_over(state):
            t0 = time.perf_counter()
            legal = loop.legal(state)
            t1 = time.perf_counter()
            times.decisions += 1 if loop.decisions is None else loop.decisions(state)
            action = loop.choose(chooser, legal)
            t2 = time.perf_counter()
            loop.step(state, action)
            t3 = time.perf_counter()
            times.mask_s += t1 - t0
            times.step_s += t3 - t2
            times.steps += 1
    return times


def aec_decisions_per_second(
    env: Any, seconds: float, choose: Callable[[np.ndarray], int], seed: int = 0
) -> float:
    """Decisions (one `step` of a live agent) per second of the full AEC loop over `env`,
    `choose(mask)` picking each action, games reset as they end, for about `seconds`."""
    env.reset(seed=seed)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(choose(obs["action_mask"]))
            decisions += 1
        env.reset()
    return decisions / (time.perf_counter() - start)
