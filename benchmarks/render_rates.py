"""Pictures per second of a game's renderers, written once for every game's
`bench_render`: positions spread over one random game, each drawn by every renderer."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import numpy as np
from tqdm import tqdm

State = TypeVar("State")
Config = TypeVar("Config")


def spread(states: Sequence[State], n: int) -> list[State]:
    """n of `states`, evenly spaced from the first to the last."""
    picks = np.linspace(0, len(states) - 1, n).astype(int)
    return [states[i] for i in picks]


def rate(draw: Callable[[State], object], states: list[State], label: str) -> float:
    """Positions drawn per second of wall-clock time."""
    start = time.perf_counter()
    for state in tqdm(states, desc=label, leave=False):
        draw(state)
    return len(states) / (time.perf_counter() - start)


def main(
    description: str,
    configs: Mapping[str, Config],
    positions: Callable[[Config, int], list[State]],
    draws: Mapping[str, Callable[[State], object]],
) -> None:
    """The command: `--positions N` per configuration, a row of rates per configuration."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    print(f"{'configuration':<24}" + "".join(f"{name + ' /s':>16}" for name in draws))
    for label, config in configs.items():
        states = positions(config, args.positions)
        rates = [rate(draw, states, f"{label}: {name}") for name, draw in draws.items()]
        print(f"{label:<24}" + "".join(f"{r:>16,.1f}" for r in rates))
