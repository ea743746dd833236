"""BASARI speed, side by side in one run: the reference engine, the vectorised core at
B = 1, 64, 1024, 4096 (with and without observations) and the PettingZoo parallel
environment, on each backend of the core, and the numba kernels' first-call time.

    python -m benchmarks.basari.bench_core [--backend numpy numba] [--players 4]
        [--steps 200] [--seconds 5] [--no-compile-time] [--json [--compile-time]]

Random legal actions, uniform over each seat's legal ids. A *decision* is one seat's real
choice (a seat whose mask holds more than NOOP): every seat in SETUP and SELECT, the one
party to act in a BARTER. *Agent actions* count every seat's id, NOOPs included (B x P per
batched step). The core's time counts `step` (which checks every action against the mask),
`legal_action_mask` and `autoreset`, and in the `+ obs` rows also `observe` (every seat's
observation); drawing the random actions is timed apart ("sampling"). Each batch size
first plays 100 untimed steps so that its games are at different points of play (and the
kernels are compiled or loaded from their cache). The reference engine plays whole games
one at a time (`legal_actions` for every seat + `step`); the env plays whole games through
`parallel_env(backend=...).step` (observations, masks, infos and rewards included; the
chooser of `benchmarks/basari/bench_env.py`). Rates are per wall-clock second and per CPU
second of this process.

The first-call time is that of a fresh process's first `step` + `observe` on the numba
backend with an empty kernel cache (`cold`: numba compiles the kernels) and again with the
cache that run wrote (`cached`: they are loaded), each in a subprocess with its own
NUMBA_CACHE_DIR; the table shows it unless `--no-compile-time`, the JSON only with
`--compile-time` (benchmarks/compare_trees.py runs the JSON form round after round).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np
from tqdm import tqdm

from asara_env.basari import reference as ref
from asara_env.basari.config import BasariConfig
from asara_env.basari.phases import Phase
from asara_env.common.backend import BACKENDS
from asara_env.common.sampling import random_legal
from asara_env.games import CoreVerbs, load_core
from benchmarks.basari.bench_env import basari_game, rates

BATCHES = (1, 64, 1024, 4096)
OBSERVED = (1, 4096)  # the batch sizes also timed with observations
FIRST_CALL = """
import time, numpy as np
t = time.perf_counter()
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import compiled, init
state = init(BasariConfig(num_players=4), 1, seeds=0)
start, cpu = time.perf_counter(), time.process_time()
compiled.step(state, np.ones((1, 4), np.int64))
compiled.observe(state)
print(time.perf_counter() - start, time.process_time() - cpu, start - t)
"""


def sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int[B, P]: one uniformly random legal id per seat."""
    return random_legal(mask, rng)


def bench_core(
    core: CoreVerbs,
    config: BasariConfig,
    batch: int,
    steps: int,
    observe: bool = False,
    warmup: int = 100,
) -> dict[str, float]:
    state = core.init(config, batch, seeds=0)
    rng = np.random.default_rng(0)
    for _ in range(warmup):
        core.step(state, sample(core.legal_action_mask(state), rng))
        core.autoreset(state)
        if observe:
            core.observe(state)
    t_core = t_sample = cpu_core = 0.0
    decisions = 0
    for _ in range(steps):
        t0, c0 = time.perf_counter(), time.process_time()
        mask = core.legal_action_mask(state)
        t1, c1 = time.perf_counter(), time.process_time()
        actions = sample(mask, rng)
        decisions += int(mask[:, :, 1:].any(axis=2).sum())
        t2, c2 = time.perf_counter(), time.process_time()
        core.step(state, actions)
        core.autoreset(state)
        if observe:
            core.observe(state)
        t3, c3 = time.perf_counter(), time.process_time()
        t_core += (t1 - t0) + (t3 - t2)
        cpu_core += (c1 - c0) + (c3 - c2)
        t_sample += t2 - t1
    agent_actions = steps * batch * config.num_players
    return {
        "decisions_per_s": decisions / t_core,
        "decisions_per_cpu_s": decisions / max(cpu_core, 1e-9),
        "agent_actions_per_s": agent_actions / t_core,
        "sampling_us_per_decision": 1e6 * t_sample / decisions,
    }


def bench_reference(config: BasariConfig, seconds: float) -> dict[str, float]:
    decisions, start, seed = 0, time.perf_counter(), 0
    cpu = time.process_time()
    rng = np.random.default_rng(0)
    p = config.num_players
    while time.perf_counter() - start < seconds:
        game = ref.new_game(config, seed)
        while game.phase != Phase.OVER:
            masks = [ref.legal_actions(game, s) for s in range(p)]
            decisions += sum(int(m[1:].any()) for m in masks)
            ref.step(game, [int(rng.choice(np.flatnonzero(m))) for m in masks])
        seed += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"decisions_per_s": decisions / wall, "decisions_per_cpu_s": decisions / cpu}


def first_call_seconds() -> dict[str, float]:
    """Seconds of a fresh process's first numba step + observe: `cold` (empty cache),
    `cached` (the cache the cold run wrote), each on the wall clock and (`*_cpu`) the
    process's CPU clock; `import` the imports before them (cached run)."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for name in ("cold", "cached"):
            run = subprocess.run(
                [sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True
            )
            if run.returncode:
                raise RuntimeError(f"the first-call run failed: {run.stderr.strip()}")
            first, cpu, imports = (float(x) for x in run.stdout.split())
            out[name], out[f"{name}_cpu"], out["import"] = first, cpu, imports
    return out


def core_rows(
    backend: str, config: BasariConfig, steps: int, quiet: bool
) -> dict[str, dict[str, float]]:
    core = load_core("basari", backend)
    runs = [(b, False) for b in BATCHES] + [(b, True) for b in OBSERVED]
    rows = {}
    for batch, observe in tqdm(runs, desc=f"core ({backend})", disable=quiet):
        n = steps if batch > 1 else steps * 5
        rows[f"core B={batch}{' + obs' if observe else ''}"] = bench_core(
            core, config, batch, n, observe
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", nargs="+", choices=BACKENDS, default=list(BACKENDS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=200, help="batched steps per batch size")
    parser.add_argument("--seconds", type=float, default=5.0, help="reference and env time")
    parser.add_argument("--no-compile-time", action="store_true", help="skip the first-call runs")
    parser.add_argument(
        "--compile-time", action="store_true", help="with --json: time the first calls too"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    config = BasariConfig(num_players=args.players)
    table: dict[str, dict[str, dict[str, float]]] = {}
    for backend in args.backend:
        rows = core_rows(backend, config, args.steps, args.json)
        rows["parallel env"] = rates(basari_game(args.players, backend), args.seconds)
        table[backend] = rows
    reference = bench_reference(config, args.seconds)
    timed = args.compile_time if args.json else not args.no_compile_time
    first = first_call_seconds() if timed else None
    if args.json:
        rounded = {
            b: {n: {k: round(v, 2) for k, v in r.items()} for n, r in rows.items()}
            for b, rows in table.items()
        }
        out = {
            "core": rounded,
            "reference": {k: round(v) for k, v in reference.items()},
            "first_call_s": first,
            "load_average": os.getloadavg(),
        }
        print(json.dumps(out))
        return
    print_table(args.players, table, reference, first)


def print_table(
    players: int,
    table: dict[str, dict[str, dict[str, float]]],
    reference: dict[str, float],
    first: dict[str, float] | None,
) -> None:
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"BASARI, {players} players, random legal actions, {machine}, load {load}")
    print("decisions/s per wall-clock second | per CPU second of this process")
    backends = list(table)
    print(f"{'engine':>16} " + " ".join(f"{b + ' wall':>12} {b + ' cpu':>12}" for b in backends))
    wall, cpu = reference["decisions_per_s"], reference["decisions_per_cpu_s"]
    print(f"{'reference':>16} " + " ".join(f"{wall:12.0f} {cpu:12.0f}" for _ in backends))
    for name in table[backends[0]]:
        cells = [table[b][name] for b in backends]
        print(
            f"{name:>16} "
            + " ".join(
                f"{r['decisions_per_s']:12.0f} {r['decisions_per_cpu_s']:12.0f}" for r in cells
            )
        )
    for b in backends:
        sampling = ", ".join(
            f"B={n.split('=')[1]} {r['sampling_us_per_decision']:.2f}"
            for n, r in table[b].items()
            if "sampling_us_per_decision" in r and "obs" not in n
        )
        print(f"sampling ({b}, not counted), us per decision: {sampling}")
    if first is not None:
        print(
            f"numba first step + observe: cold {first['cold']:.1f} s wall, "
            f"{first['cold_cpu']:.1f} s CPU (compiling); cached {first['cached']:.2f} s wall, "
            f"{first['cached_cpu']:.2f} s CPU (after {first['import']:.2f} s of imports)"
        )


if __name__ == "__main__":
    main()
