"""Per-call latency of the vectorised core at batch size 1, as an AEC wrapper uses it.

    python -m benchmarks.asara.bench_core_latency [--players 4] [--variant pro] [--json]

One game plays random legal actions; each decision times `legal_action_mask`,
`observe(state, seat to move)` and `step` + `autoreset` separately (microseconds per
call: the mean over all decisions of a repeat, the best of a few repeats; the median too).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from asara_env import GameConfig
from asara_env.asara.core import autoreset, init, legal_action_mask, step
from asara_env.asara.core.observation import observe

CALLS = ("legal_action_mask", "observe", "step+autoreset")


def run(config: GameConfig, decisions: int, seed: int) -> dict[str, np.ndarray]:
    """Seconds per call of each of CALLS at each of `decisions` decisions."""
    state = init(config, 1, seeds=seed)
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
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    config = GameConfig(num_players=args.players, variant=args.variant)
    run(config, 200, seed=99)  # warm-up
    repeats = [run(config, args.decisions, seed) for seed in range(args.repeats)]
    result = {}
    for stat in ("mean", "median"):
        best = {name: min(getattr(np, stat)(r[name]) * 1e6 for r in repeats) for name in CALLS}
        best["total"] = sum(best.values())
        result[stat] = {name: round(us, 2) for name, us in best.items()}
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.players} players, {args.variant}, B=1, random legal actions (us/call)")
    print(f"{'call':>18} {'mean':>9} {'median':>9}")
    for name in (*CALLS, "total"):
        print(f"{name:>18} {result['mean'][name]:9.1f} {result['median'][name]:9.1f}")


if __name__ == "__main__":
    main()
