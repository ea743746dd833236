"""Per-call latency of the vectorised core at batch size 1, as an AEC wrapper uses it, on
each backend side by side.

    python -m benchmarks.asara.bench_core_latency [--players 4] [--variant pro]
        [--backend numpy numba] [--json]

One game plays random legal actions; each decision times `legal_action_mask`,
`observe(state, seat to move)` and `step` + `autoreset` separately (microseconds per
call: the mean over all decisions of a repeat, the best of a few repeats; the median too).
The compiled core's start-up (import, first calls cold and cached) follows, measured in
fresh processes. JSON: {backend: {"mean": ..., "median": ...}, "start_up": ...}.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from asara_env import GameConfig
from asara_env.games import load_core
from benchmarks.backends import (
    add_backend_argument,
    backends,
    compile_seconds,
    print_compile_seconds,
)

CALLS = ("legal_action_mask", "observe", "step+autoreset")


def run(config: GameConfig, decisions: int, seed: int, backend: str) -> dict[str, np.ndarray]:
    """Seconds per call of each of CALLS at each of `decisions` decisions."""
    core = load_core("asara", backend)
    legal_action_mask, observe, step, autoreset = (
        core.legal_action_mask,
        core.observe,
        core.step,
        core.autoreset,
    )
    state = core.init(config, 1, seeds=seed)
    rng = np.random.default_rng(seed)
    times = {name: np.empty(decisions) for name in CALLS}
    clock = time.perf_counter
    for i in range(decisions):
        t0 = clock()
        mask = legal_action_mask(state)
        t1 = clock()
        observe(state, state.seat)
        t2 = clock()
        legal = np.flatnonzero(mask[0])
        action = np.array([legal[int(rng.integers(len(legal)))]])
        t3 = clock()
        step(state, action)
        autoreset(state)
        t4 = clock()
        times["legal_action_mask"][i] = t1 - t0
        times["observe"][i] = t2 - t1
        times["step+autoreset"][i] = t4 - t3
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="pro")
    parser.add_argument("--decisions", type=int, default=3000, help="decisions per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-start-up", action="store_true", help="skip the start-up times")
    add_backend_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    config = GameConfig(num_players=args.players, variant=args.variant)
    chosen = backends(args.backend)
    result: dict[str, Any] = {b: latencies(config, args.decisions, args.repeats, b) for b in chosen}
    start_up = None if args.no_start_up or "numba" not in chosen else compile_seconds()
    if args.json:
        print(json.dumps(result | {"start_up": start_up}))
        return
    print(f"{args.players} players, {args.variant}, B=1, random legal actions (us/call)")
    print(f"{'call':>18}" + "".join(f" {b + ' mean':>12} {b + ' median':>13}" for b in chosen))
    for name in (*CALLS, "total"):
        cells = "".join(
            f" {result[b]['mean'][name]:12.1f} {result[b]['median'][name]:13.1f}" for b in chosen
        )
        print(f"{name:>18}{cells}")
    if start_up is not None:
        print_compile_seconds(start_up)


def latencies(config: GameConfig, decisions: int, repeats: int, backend: str) -> dict[str, Any]:
    """{"mean" | "median": {call: microseconds}}: the best of `repeats` runs."""
    run(config, 200, seed=99, backend=backend)  # warm-up
    runs = [run(config, decisions, seed, backend) for seed in range(repeats)]
    result = {}
    for stat in ("mean", "median"):
        best = {name: min(getattr(np, stat)(r[name]) * 1e6 for r in runs) for name in CALLS}
        best["total"] = sum(best.values())
        result[stat] = {name: round(us, 2) for name, us in best.items()}
    return result


if __name__ == "__main__":
    main()
