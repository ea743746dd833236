"""Speed of the self-play trainer's games: positions and network evaluations per
CPU-second at search budgets, for every game, with value-head leaves beside playout
leaves, in one process and on Ray workers.

    python -m benchmarks.bench_selfplay [--games 32] [--budgets 32] [--leaves net playout]
        [--hidden 512,256 64] [--threads 1] [--ray-workers 1 2]

For each game (2 players, basic rules, the compiled core), leaf, network and budget:
`--games` games played together to their ends by the trainer's workers (the shared
search's Gumbel root, training/selfplay/), after one warm-up game (numba compiled, the
network loaded). The network: the game's shipped 2-player model (`shipped`, the default)
or a fresh one of those hidden widths (`64` or `512,256`: the policy and value MLPs),
the leaves scored by its value head (`net`) or by random playouts (`playout`). Printed
per row: positions (every decision of every seat, the forced ones included) and searched
decisions, network evaluations (rows through a head) and calls (forward passes of a
head, and the rows per call), process CPU-seconds, positions,
searched decisions and evaluations per CPU-second, wall seconds. With `--ray-workers`:
the same games of the first game, leaf, network and budget on that many Ray actors of a
local instance, positions per wall-second and per CPU-second (the actors' CPU summed).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from agents.models import model_path
from asara_env.games import reward_schemes
from training.games import game_module, training_games
from training.selfplay.network import new_model, scheme_total
from training.selfplay.play import WorkerSettings
from training.selfplay.workers import LocalPool, RayPool, weights_of

SHIPPED = "shipped"  # --hidden: the game's shipped 2-player model


def settings(
    game: str, budget: int, leaf: str = "net", hidden: str = SHIPPED, seed: int = 0
) -> tuple[WorkerSettings, dict[str, np.ndarray]]:
    """The workers' settings and the network's weights (as the trainer builds them)."""
    spec = game_module(game, "selfplay").SPEC
    config = spec.config(
        argparse.Namespace(players=2, variant="basic", expansions=(), start_mode="choose")
    )
    size, actions = spec.sizes(config)
    total = scheme_total(reward_schemes(game)["win"], 2)
    start = model_path(game, "ppo_2p") if hidden == SHIPPED else None
    widths = None if hidden == SHIPPED else tuple(int(w) for w in hidden.split(","))
    model = new_model(size, actions, 2, seed, start, total, widths)
    ws = WorkerSettings(
        game, config, "win", budget, "gumbel", seed, dict(model.policy_kwargs), leaf=leaf
    )
    return ws, weights_of(model.policy)


def measure(
    pool: LocalPool | RayPool, weights: dict[str, np.ndarray], games: int
) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    worker = pool.worker if isinstance(pool, LocalPool) else None
    evaluated, calls = (worker.evaluations, worker.calls) if worker else (0, 0)
    positions, worker_cpu = pool.play(1, weights, games, lambda n: None)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if worker is not None:
        evaluated, calls = worker.evaluations - evaluated, worker.calls - calls
    searched = int((positions.masks.sum(axis=1) > 1).sum())
    used = worker_cpu if isinstance(pool, RayPool) else cpu
    return {
        "positions": len(positions),
        "searched": searched,
        "evaluations": evaluated,
        "network_calls": calls,
        "rows_per_call": round(evaluated / max(calls, 1), 1),
        "cpu_s": round(used, 2),
        "wall_s": wall,
        "positions_per_cpu_s": round(len(positions) / used, 1),
        "searched_per_cpu_s": round(searched / used, 1),
        "evaluations_per_cpu_s": round(evaluated / used, 1),
        "positions_per_wall_s": round(len(positions) / wall, 1),
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=32)
    p.add_argument("--budgets", type=int, nargs="+", default=[32])
    p.add_argument("--game", nargs="+", default=list(training_games()))
    p.add_argument("--leaves", nargs="+", default=["net", "playout"], choices=("net", "playout"))
    p.add_argument("--hidden", nargs="+", default=[SHIPPED])
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--ray-workers", type=int, nargs="*", default=[])
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    for game in args.game:
        for hidden in args.hidden:
            for leaf in args.leaves:
                for budget in args.budgets:
                    ws, weights = settings(game, budget, leaf, hidden)
                    pool = LocalPool(ws)
                    measure(pool, weights, 1)  # warm-up: compiled kernels, network
                    row = {"game": game, "hidden": hidden, "leaf": leaf, "budget": budget}
                    row |= {"workers": "local", "threads": args.threads}
                    print(json.dumps({**row, **measure(pool, weights, args.games)}), flush=True)
    for workers in args.ray_workers:
        ws, weights = settings(args.game[0], args.budgets[0], args.leaves[0], args.hidden[0])
        ray_pool = RayPool(ws, workers, None)
        measure(ray_pool, weights, workers)  # warm-up
        row = {"game": args.game[0], "budget": args.budgets[0], "workers": workers}
        print(json.dumps({**row, **measure(ray_pool, weights, args.games)}), flush=True)
        ray_pool.close()


if __name__ == "__main__":
    main()
