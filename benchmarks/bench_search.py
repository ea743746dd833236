"""Search speed on every game, beside pgx othello in the same run.

    python -m benchmarks.bench_search [--positions 4] [--games asara basari] [--players 2 4]
        [--specs GAME=SPEC ...] [--seconds 3] [--json]

Positions: states with a decision (a seat with more than one legal action) taken along
random games of each game and player count (fixed seeds), early, middle and end (the
first, second and last third of the game's steps), `--positions` of each. Each spec
decides every position alone (one game at a time, as the ladder and the terminal games
ask), on the numba backend; per game, player count and phase it prints the simulations
(tree iterations or flat playouts) per CPU second: median, 10th and 90th percentile over
the positions, and the CPU ms per decision. The yardstick, measured in the same run: pgx
othello at B = 4096 on JAX-CPU (random legal actions, `jax.jit(jax.vmap(...))`, as
benchmarks/bench_peers.py), its decisions per wall second and per CPU second (every
thread of the process: JAX runs several), and each search's median as a ratio of
othello's decisions per CPU second (like for like: CPU seconds on both sides; the search
runs on one thread) and per wall second (the yardstick as bench_peers measures it, which
favours the search on a loaded machine, where JAX's threads wait for the cores and the
search's CPU time does not count the waiting). Without pgx (the `bench` extra) the
yardstick is left out.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from tqdm import tqdm

from agents.registry import make_agent
from asara_env.common.batch import take
from asara_env.common.sampling import uniform_legal
from asara_env.games import load_config, load_core

from .bench_peers import pgx_runner

# the ladders' unguided search of each game
DEFAULT_SPECS = {
    "asara": "ismcts:128:playout=towers:horizon=10:value=margin",
    "basari": "ismcts:128:playout=random:horizon=10",
}
PHASES = ("early", "middle", "end")
OTHELLO_BATCH = 4096
PERCENTILES = (10, 50, 90)


def positions(
    game: str, players: int, per_phase: int, seed: int
) -> dict[str, list[tuple[Any, int]]]:
    """Per phase, (one-game state, deciding seat) pairs along random games."""
    core = load_core(game, "numba")
    config = load_config(game)(num_players=players)
    rng = np.random.default_rng(seed)
    found: dict[str, list[tuple[Any, int]]] = {p: [] for p in PHASES}
    g = 0
    while min(len(v) for v in found.values()) < per_phase:
        state = core.init(config, 1, seeds=seed + g)
        trail: list[tuple[Any, int]] = []
        while not core.is_terminal(state)[0]:
            masks = np.asarray(core.legal_action_mask(state), bool)
            rows = masks.reshape(-1, masks.shape[-1])
            choosers = np.flatnonzero(rows.sum(axis=1) > 1)
            if choosers.size:
                seat = int(choosers[0]) if rows.shape[0] > 1 else int(state.seat[0])
                trail.append((take(state, np.arange(1)), seat))
            flat = rows | ~rows.any(axis=1, keepdims=True)
            picks = uniform_legal(flat, rng.random(len(flat)))
            core.step(state, picks.reshape(masks.shape[:-1]) if rows.shape[0] > 1 else picks)
        for k, phase in enumerate(PHASES):
            part = trail[k * len(trail) // 3 : (k + 1) * len(trail) // 3]
            if part and len(found[phase]) < per_phase:
                found[phase].append(part[int(rng.integers(len(part)))])
        g += 1
    return found


def decide(agent: Any, game: str, state: Any, seat: int) -> None:
    games = np.zeros(1, np.int64)
    if hasattr(agent, "act_seats") and game != "asara":
        agent.act_seats(state, games, np.array([seat]))
    else:
        agent.act_games(state, games)


def sims_of(agent: Any) -> int:
    return int(getattr(agent, "simulations", 0))


def measure_spec(
    game: str, spec: str, players: int, found: dict[str, list[tuple[Any, int]]]
) -> dict[str, Any]:
    agent = make_agent(game, spec + ":backend=numba", 0)
    decide(agent, game, *found["early"][0])  # compiles and warms up
    out: dict[str, Any] = {}
    for phase, cases in found.items():
        rates, ms = [], []
        for state, seat in tqdm(cases, desc=f"{game} {players}p {phase}", leave=False):
            before, cpu = sims_of(agent), time.process_time()
            decide(agent, game, state, seat)
            spent = time.process_time() - cpu
            rates.append((sims_of(agent) - before) / max(spent, 1e-9))
            ms.append(1000 * spent)
        p10, p50, p90 = np.percentile(rates, PERCENTILES)
        out[phase] = {"median": p50, "p10": p10, "p90": p90, "cpu_ms": float(np.mean(ms))}
    return out


def othello() -> dict[str, float] | None:
    run = pgx_runner("othello", OTHELLO_BATCH)
    if run is None:
        return None
    wall, cpu = time.perf_counter(), time.process_time()
    rate = run(3.0)
    cpu_spent, wall_spent = time.process_time() - cpu, time.perf_counter() - wall
    return {"per_wall_s": rate, "per_cpu_s": rate * wall_spent / max(cpu_spent, 1e-9)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_SPECS))
    parser.add_argument("--players", nargs="+", type=int, default=[2, 4])
    parser.add_argument("--specs", nargs="*", default=[], help="GAME=SPEC, replacing a default")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    specs = dict(DEFAULT_SPECS)
    for item in args.specs:
        game, _, spec = item.partition("=")
        if game not in specs or not spec:
            parser.error(f"--specs takes GAME=SPEC with GAME among {list(specs)}, got {item!r}")
        specs[game] = spec
    yardstick = othello()
    results: dict[str, Any] = {"othello": yardstick, "searches": {}}
    for game in args.games:
        for players in args.players:
            found = positions(game, players, args.positions, seed=100 + players)
            key = f"{game} {players}p {specs[game]}"
            results["searches"][key] = measure_spec(game, specs[game], players, found)
    after = othello()  # the yardstick again, after: the machine's load changes
    results["othello_after"] = after
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print_table(results)


def print_table(results: dict[str, Any]) -> None:
    """The yardstick's line and the searches' table (markdown)."""
    both = [o for o in (results["othello"], results["othello_after"]) if o is not None]
    wall = sum(o["per_wall_s"] for o in both) / len(both) if both else None
    cpu = sum(o["per_cpu_s"] for o in both) / len(both) if both else None
    for o, when in zip(both, ("before", "after")):
        print(
            f"pgx othello B={OTHELLO_BATCH} ({when}): {o['per_wall_s']:,.0f} decisions per "
            f"wall s, {o['per_cpu_s']:,.0f} per CPU s"
        )
    print(
        "| search | phase | sims per CPU s: median [p10, p90] | CPU ms per decision "
        "| median / othello per CPU s | median / othello per wall s |"
    )
    print("|---|---|---|---|---|---|")
    for key, phases in results["searches"].items():
        for phase, r in phases.items():
            by_wall = "-" if wall is None else f"{r['median'] / wall:.3f}"
            by_cpu = "-" if cpu is None else f"{r['median'] / cpu:.3f}"
            print(
                f"| {key} | {phase} | {r['median']:,.0f} [{r['p10']:,.0f}, {r['p90']:,.0f}] | "
                f"{r['cpu_ms']:.0f} | {by_cpu} | {by_wall} |"
            )


if __name__ == "__main__":
    main()
