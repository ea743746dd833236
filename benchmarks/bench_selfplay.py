"""Speed of the self-play trainer's games: positions per CPU-second at search budgets, for
every game, in one process and on Ray workers.

    python -m benchmarks.bench_selfplay [--games 8] [--budgets 16 32] [--ray-workers 1 2]

For each game (2 players, basic rules, the compiled core) and budget: `--games` games
played together to their ends by the trainer's workers (the shared search's Gumbel root
guided by the game's shipped 2-player model, training/selfplay/), after one warm-up game
(numba compiled, the network loaded). Printed per row: positions (every decision of every
seat, the forced ones included) and searched decisions, process CPU-seconds, positions
and searched decisions per CPU-second, wall seconds. With `--ray-workers`: the same games
of ASARA at the first budget on that many Ray actors of a local instance, positions per
wall-second and per CPU-second (the actors' CPU summed).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from agents.models import model_path
from asara_env.games import reward_schemes
from training.games import game_module, training_games
from training.selfplay.network import new_model, scheme_total
from training.selfplay.workers import LocalPool, RayPool, WorkerSettings, weights_of


def settings(game: str, budget: int, seed: int = 0) -> tuple[WorkerSettings, dict[str, np.ndarray]]:
    """The workers' settings and the shipped 2-player model's weights (as the trainer)."""
    spec = game_module(game, "selfplay").SPEC
    config = spec.config(
        argparse.Namespace(players=2, variant="basic", expansions=(), start_mode="choose")
    )
    size, actions = spec.sizes(config)
    total = scheme_total(reward_schemes(game)["win"], 2)
    model = new_model(size, actions, 2, seed, model_path(game, "ppo_2p"), total)
    ws = WorkerSettings(game, config, "win", budget, "gumbel", seed, dict(model.policy_kwargs))
    return ws, weights_of(model.policy)


def measure(
    pool: LocalPool | RayPool, weights: dict[str, np.ndarray], games: int
) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    positions, worker_cpu = pool.play(1, weights, games, lambda n: None)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    searched = int((positions.masks.sum(axis=1) > 1).sum())
    used = worker_cpu if isinstance(pool, RayPool) else cpu
    return {
        "positions": len(positions),
        "searched": searched,
        "cpu_s": used,
        "wall_s": wall,
        "positions_per_cpu_s": len(positions) / used,
        "searched_per_cpu_s": searched / used,
        "positions_per_wall_s": len(positions) / wall,
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--budgets", type=int, nargs="+", default=[16, 32])
    p.add_argument("--game", nargs="+", default=list(training_games()))
    p.add_argument("--ray-workers", type=int, nargs="*", default=[])
    args = p.parse_args(argv)
    for game in args.game:
        for budget in args.budgets:
            ws, weights = settings(game, budget)
            pool = LocalPool(ws)
            measure(pool, weights, 1)  # warm-up: compiled kernels, network
            row = {
                "game": game,
                "budget": budget,
                "workers": "local",
                **measure(pool, weights, args.games),
            }
            print(json.dumps(row), flush=True)
    for workers in args.ray_workers:
        ws, weights = settings(args.game[0], args.budgets[0])
        ray_pool = RayPool(ws, workers, None)
        measure(ray_pool, weights, workers)  # warm-up
        row = {"game": args.game[0], "budget": args.budgets[0], "workers": workers}
        print(json.dumps({**row, **measure(ray_pool, weights, args.games)}), flush=True)
        ray_pool.close()


if __name__ == "__main__":
    main()
