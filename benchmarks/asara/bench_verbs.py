"""CPU time per decision of each verb of ASARA's core, on each backend, in one process.

    python -m benchmarks.asara.bench_verbs [--players 4] [--variant pro]
        [--backend numpy numba] [--batches 1 64 4096] [--decisions 40000]

For each backend and batch size B, random legal actions are played (20 untimed steps
first); each step is timed in three parts with `time.process_time` (CPU time, so other
jobs on a shared machine inflate it far less than wall-clock rates): drawing the actions
(`legal_action_mask` and `asara_env.common.sampling.random_legal`), `step` with
`autoreset` (the legal mask is rewritten by the step), and `observe` of the seat to move
into a reused buffer. Each figure is microseconds per decision (per game and step).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from asara_env import GameConfig
from asara_env.asara.core.observation import OBS_DIM
from asara_env.common.sampling import random_legal
from asara_env.games import load_core
from benchmarks.backends import add_backend_argument, backends

WARMUP_STEPS = 20
MIN_STEPS = 20


def verb_times(config: GameConfig, backend: str, batch: int, decisions: int) -> list[float]:
    """CPU µs per decision of [sampling, step + autoreset, observe(out=)]."""
    core = load_core("asara", backend)
    state = core.init(config, batch, seeds=0)
    rng = np.random.default_rng(0)
    out = np.empty((batch, OBS_DIM), np.float32)
    steps = max(MIN_STEPS, decisions // batch)
    spent = np.zeros(3)
    for i in range(WARMUP_STEPS + steps):
        t0 = time.process_time()
        actions = random_legal(core.legal_action_mask(state), rng)
        t1 = time.process_time()
        core.step(state, actions)
        core.autoreset(state)
        t2 = time.process_time()
        core.observe(state, out=out)
        t3 = time.process_time()
        if i >= WARMUP_STEPS:
            spent += (t1 - t0, t2 - t1, t3 - t2)
    return list(spent / (steps * batch) * 1e6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="pro")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 64, 4096])
    parser.add_argument("--decisions", type=int, default=40_000, help="timed, per row")
    add_backend_argument(parser)
    args = parser.parse_args()
    config = GameConfig(num_players=args.players, variant=args.variant)
    print(f"{args.players} players, {args.variant}; CPU µs per decision")
    print(f"{'backend':>8} {'B':>6} {'sampling':>9} {'step':>9} {'observe':>9}")
    for backend in backends(args.backend):
        for batch in args.batches:
            sample, step, observe = verb_times(config, backend, batch, args.decisions)
            print(f"{backend:>8} {batch:>6} {sample:>9.2f} {step:>9.2f} {observe:>9.2f}")


if __name__ == "__main__":
    main()
