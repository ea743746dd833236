"""Decisions per second of BASARI's PettingZoo parallel env on each core backend, beside
PettingZoo's `connect_four_v3` in the same run.

    python -m benchmarks.basari.bench_env [--backend numpy numba] [--players 2 4]
        [--seconds 5] [--json]

Every env plays whole games of uniformly random legal actions (`np.flatnonzero` of the
mask, an index from Python's `random`, the same chooser for every env) for about
`--seconds`, resetting finished games. A BASARI decision is one agent's real choice (its
`infos[agent]["acting"]`: every agent at SETUP and SELECT, the one party at a BARTER
step); a connect four decision is one AEC `step` of a live agent (`env.last()`, choose,
`env.step()`). Rates are per wall-clock second and per CPU second of this process (the
second is the steadier one on a shared machine). The backend's kernels are compiled (or
loaded from their cache) before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from asara_env import basari_v0
from asara_env.common.backend import BACKENDS
from asara_env.games import game_card

Chooser = Callable[[np.ndarray], int]


def chooser(seed: int) -> Chooser:
    """A uniform choice among a mask's legal ids."""
    rng = random.Random(seed)

    def choose(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.randrange(len(legal))])

    return choose


def rates(play_game: Callable[[int], int], seconds: float) -> dict[str, float]:
    """Decisions per wall-clock and per CPU second of whole games `play_game(seed) ->
    decisions`, seeds 0, 1, ..., for about `seconds`."""
    decisions = seed = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        decisions += play_game(seed)
        seed += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"decisions_per_s": decisions / wall, "decisions_per_cpu_s": decisions / cpu}


def basari_game(players: int, backend: str) -> Callable[[int], int]:
    """One game of the parallel env on `backend`, returning its decisions."""
    env = basari_v0.parallel_env(num_players=players, backend=backend)
    choose = chooser(0)

    def play(seed: int) -> int:
        obs, infos = env.reset(seed=seed)
        decisions = 0
        while env.agents:
            decisions += sum(info["acting"] for info in infos.values())
            actions = {a: choose(obs[a]["action_mask"]) for a in env.agents}
            obs, _, _, _, infos = env.step(actions)
        return decisions

    play(0)  # compiles the kernels, or loads them from the cache
    return play


def connect_four_game() -> Callable[[int], int] | None:
    """One game of PettingZoo's connect_four_v3 AEC env (None if it cannot be built)."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    env = connect_four_v3.env()
    choose = chooser(0)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        decisions = 0
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(choose(obs["action_mask"]))
            decisions += 1
        return decisions

    return play


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", nargs="+", choices=BACKENDS, default=list(BACKENDS))
    parser.add_argument(
        "--players", nargs="+", type=int, choices=game_card("basari").player_counts, default=[2, 4]
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="time per env")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    for players in args.players:
        for backend in args.backend:
            results[f"basari {players}p {backend}"] = rates(
                basari_game(players, backend), args.seconds
            )
    peer = connect_four_game()
    results["connect_four_v3"] = None if peer is None else rates(peer, args.seconds)
    if args.json:
        print(json.dumps(results))
        return
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"random legal actions, {platform.machine()}, {os.cpu_count()} cores, load {load}")
    print(f"{'env':>22} {'decisions/s':>12} {'decisions/cpu-s':>16}")
    for name, r in results.items():
        if r is None:
            print(f"{name:>22} {'missing':>12}")
            continue
        print(f"{name:>22} {r['decisions_per_s']:12.0f} {r['decisions_per_cpu_s']:16.0f}")


if __name__ == "__main__":
    main()
