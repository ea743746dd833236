"""Steps per second of BASARI's reference engine with random legal actions.

    python -m benchmarks.basari.bench_reference [--games 20] [--json]

A step is one joint action (one id per seat, NOOP for seats without a decision); a
decision is one acting seat's choice (every seat in SETUP and SELECT, one in a BARTER).
The time to compute every seat's mask and to step is reported apart, per configuration
(choosing the random actions is not timed). benchmarks/basari/bench_core.py runs the reference
engine side by side with the vectorised core and the parallel env.
"""

from __future__ import annotations

import argparse
import json
import os
import platform

import numpy as np
from tqdm import tqdm

from asara_env.basari.config import BasariConfig
from asara_env.basari.phases import Phase
from asara_env.basari.reference import acting_seats, legal_actions, new_game, step
from benchmarks.random_play import ReferenceLoop, time_reference_games


def measure(config: BasariConfig, games: int, seed: int = 0) -> dict[str, float]:
    """Rates of `games` random games: joint steps, acting decisions and agent actions
    (one per seat per step) per second of mask + step time."""
    loop = ReferenceLoop(
        new_game=lambda game_seed: new_game(config, game_seed),
        is_over=lambda state: state.phase == Phase.OVER,
        legal=lambda state: [legal_actions(state, s) for s in range(config.num_players)],
        choose=lambda chooser, masks: [int(chooser.choice(np.flatnonzero(m))) for m in masks],
        step=step,
        decisions=lambda state: len(acting_seats(state)),
    )
    t = time_reference_games(loop, games, seed)
    total = t.mask_s + t.step_s
    return {
        "steps_per_s": t.steps / total,
        "decisions_per_s": t.decisions / total,
        "agent_actions_per_s": t.steps * config.num_players / total,
        "masks_per_s": t.steps / t.mask_s,
        "step_per_s": t.steps / t.step_s,
        "steps_per_game": t.steps / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    configs = [BasariConfig(p, mode) for p in (2, 3, 4) for mode in ("choose", "random")]
    results = {}
    for config in tqdm(configs, desc="configs", disable=args.json):
        results[f"{config.num_players}p-{config.start_mode}"] = measure(config, args.games)
    if args.json:
        print(json.dumps({"basari_reference": results}))
        return
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    print(f"BASARI reference engine, {args.games} random games per configuration, {machine}")
    print(
        f"{'config':10} {'steps/s':>9} {'decisions/s':>12} {'agent acts/s':>13} "
        f"{'masks/s':>9} {'step/s':>9} {'steps/game':>11}"
    )
    for name, r in results.items():
        print(
            f"{name:10} {r['steps_per_s']:9.0f} {r['decisions_per_s']:12.0f} "
            f"{r['agent_actions_per_s']:13.0f} {r['masks_per_s']:9.0f} {r['step_per_s']:9.0f} "
            f"{r['steps_per_game']:11.1f}"
        )


if __name__ == "__main__":
    main()
