"""Decisions per second of the reference engine with random legal actions.

    python -m benchmarks.asara.bench_reference [--games 20] [--json]

The time to list legal actions and to step is reported apart from the whole loop, per
configuration (choosing the random action is not timed). benchmarks/asara/bench_core.py runs the
reference engine side by side with the vectorised core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform

from tqdm import tqdm

from asara_env import GameConfig
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from benchmarks.random_play import ReferenceLoop, time_reference_games


def measure(config: GameConfig, games: int) -> dict[str, float]:
    loop = ReferenceLoop(
        new_game=lambda seed: engine.new_game(config, seed),
        is_over=lambda state: state.is_over,
        legal=legal_actions,
        choose=lambda chooser, actions: actions[int(chooser.integers(len(actions)))],
        step=engine.step,
    )
    t = time_reference_games(loop, games)
    return {
        "decisions_per_s": t.decisions / (t.mask_s + t.step_s),
        "legal_actions_per_s": t.decisions / t.mask_s,
        "step_per_s": t.decisions / t.step_s,
        "decisions_per_game": t.decisions / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    configs = [GameConfig(num_players=p, variant=v) for p in (2, 3, 4) for v in ("basic", "pro")]
    results = {}
    for config in tqdm(configs, desc="configs", disable=args.json):
        results[f"{config.num_players}p-{config.variant}"] = measure(config, args.games)
    if args.json:
        print(json.dumps({"reference": results}))
        return
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    print(f"reference engine, {args.games} random games per configuration, {machine}")
    print(f"{'config':10} {'decisions/s':>12} {'legal/s':>10} {'step/s':>10} {'per game':>9}")
    for name, r in results.items():
        print(
            f"{name:10} {r['decisions_per_s']:12.0f} {r['legal_actions_per_s']:10.0f} "
            f"{r['step_per_s']:10.0f} {r['decisions_per_game']:9.1f}"
        )


if __name__ == "__main__":
    main()
