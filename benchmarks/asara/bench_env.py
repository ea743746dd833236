"""Decisions per second of the full AEC loop, ASARA beside PettingZoo's classic games.

    python -m benchmarks.asara.bench_env [--seconds 5] [--backend numpy numba] [--json]
        [--no-pettingzoo-benchmark]

Every env plays random legal actions through the whole AEC loop (`env.last()`, a uniform
choice among the masked-in actions with Python's `random`, `env.step()`), resetting
finished games, for a fixed time; a decision is one `step` call of a live agent. ASARA runs
2/3/4 players x basic/pro;
the comparisons are `connect_four_v3` and `texas_holdem_v4` (these need the `bench` extra:
pygame and rlcard; an env that cannot be built is reported as missing).
ASARA's envs run on each chosen core backend (`backend=`), in columns side by side (JSON:
the numpy backend's under the plain names, the others' under "name [backend]"). The
compiled core's start-up (import, first calls cold and cached) follows, measured in fresh
processes, then PettingZoo's own `performance_benchmark` for 4-player pro ASARA (on the
default backend).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from tqdm import tqdm

from asara_env import asara_v0
from asara_env.games import load_core
from benchmarks.backends import (
    add_backend_argument,
    backends,
    compile_seconds,
    print_compile_seconds,
)
from benchmarks.random_play import aec_decisions_per_second

ASARA: dict[str, dict[str, Any]] = {
    f"asara {p}p {v}": {"num_players": p, "variant": v} for p in (2, 3, 4) for v in ("basic", "pro")
}
ASARA["asara 4p pro+genie+gifts"] = {
    "num_players": 4,
    "variant": "pro",
    "expansions": ("genie", "gifts"),
}
OTHERS = {
    "connect_four_v3": "pettingzoo.classic.connect_four_v3",
    "texas_holdem_v4": "pettingzoo.classic.texas_holdem_v4",
}


def decisions_per_second(env: AECEnv, seconds: float, seed: int = 0) -> float:
    rng = random.Random(seed)  # cheaper per call than numpy's Generator.choice

    def choose(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.randrange(len(legal))])

    return aec_decisions_per_second(env, seconds, choose, seed)


def other_env(module: str) -> AECEnv | None:
    try:
        return importlib.import_module(module).env()
    except ImportError:
        return None


def keyed(name: str, backend: str) -> str:
    """The result's key of an ASARA env on `backend` (the numpy one's is its plain name)."""
    return name if backend == "numpy" else f"{name} [{backend}]"


def _cell(rate: float | None) -> str:
    return "missing" if rate is None else f"{rate:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per env")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-pettingzoo-benchmark", action="store_true", help="skip PettingZoo's own benchmark"
    )
    parser.add_argument("--no-start-up", action="store_true", help="skip the start-up times")
    add_backend_argument(parser)
    args = parser.parse_args()
    chosen = backends(args.backend)
    for backend in chosen:  # compile or load the kernels before any clock runs
        getattr(load_core("asara", backend), "warm_up", lambda: None)()
    envs: dict[str, AECEnv | None] = {
        keyed(name, b): asara_v0.env(**kw, backend=b) for b in chosen for name, kw in ASARA.items()
    }
    envs |= {name: other_env(module) for name, module in OTHERS.items()}
    rates: dict[str, float | None] = {}
    for name, env in tqdm(envs.items(), desc="envs", disable=args.json):
        rates[name] = None if env is None else round(decisions_per_second(env, args.seconds), 1)
    start_up = None if args.no_start_up or "numba" not in chosen else compile_seconds()
    if args.json:
        print(json.dumps(rates | {"start_up": start_up}))
        return
    print(f"full AEC loop, random legal actions, {platform.machine()}, {os.cpu_count()} cores")
    print(f"{'env':>26}" + "".join(f" {b + ' decisions/s':>20}" for b in chosen))
    for name in ASARA:
        print(f"{name:>26}" + "".join(f" {_cell(rates[keyed(name, b)]):>20}" for b in chosen))
    for name in OTHERS:
        print(f"{name:>26} {_cell(rates[name]):>20}")
    if start_up is not None:
        print_compile_seconds(start_up)
    if not args.no_pettingzoo_benchmark:
        from pettingzoo.test import performance_benchmark

        performance_benchmark(asara_v0.env(num_players=4, variant="pro"))


if __name__ == "__main__":
    main()
