"""Speed of the search agent beside the core's raw speed, in the same run.

    python -m benchmarks.asara.bench_search [--positions 20] [--backend numpy numba] [--json]

Positions: states with more than one legal action taken along random 2-player basic
games (fixed seeds). Each search spec decides every position alone (one game at a time,
as in `asara play` or the ladder); printed per spec: wall and CPU ms per decision (mean and
max), simulations (ismcts: tree iterations, one playout each) per CPU second, and the
core decisions per CPU second its playouts (and tree descents) stepped, on each core
backend asked for (`:backend=` added to the spec). The guided specs (`prior=`, `value=` a
network) need the `train` extra. Beside it: the
core's raw speed, random legal actions at B = 256 and B = 4096 (`legal_action_mask` +
`step`, actions sampled untimed as in bench_core.py).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from tqdm import tqdm

from agents.asara.search import FlatMCAgent
from agents.registry import make_agent
from asara_env.asara.config import GameConfig
from asara_env.asara.core import init, is_terminal, legal_action_mask, step
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import State

SPECS = [
    "flatmc:16:playout=towers:horizon=10:value=margin",
    "flatmc:64:playout=towers:horizon=10:value=margin",
    "flatmc:128:playout=towers:horizon=10:value=margin",
    "flatmc:64",
    "ismcts:16:playout=towers:horizon=10:value=margin",
    "ismcts:64:playout=towers:horizon=10:value=margin",
    "ismcts:128:playout=towers:horizon=10:value=margin",
    "ismcts:256:playout=towers:horizon=10:value=margin",
    "flatmc:128:value=ppo_2p",
    "ismcts:128:prior=ppo_2p:value=net",
    "ismcts:128:prior=ppo_2p:value=net:wave=128",
    "ismcts:512:prior=ppo_2p:value=net:wave=128",
]
BACKENDS = ("numpy", "numba")
CONFIG = GameConfig(num_players=2)


def positions(n: int, seed: int = 0) -> list[State]:
    """n states with a real choice, spread over random games."""
    rng, game = np.random.default_rng(seed), 0
    out: list[State] = []
    while len(out) < n:
        state = engine.new_game(CONFIG, seed + game)
        while not state.is_over:
            legal = legal_actions(state)
            if len(legal) > 1 and rng.random() < 0.15 and len(out) < n:
                out.append(state.copy())
            engine.step(state, int(rng.choice(legal)))
        game += 1
    return out


def search_speed(spec: str, states: list[State]) -> dict[str, float | str]:
    agent, warm = (make_agent("asara", spec, 0) for _ in range(2))
    if not isinstance(agent, FlatMCAgent) or not isinstance(warm, FlatMCAgent):  # ismcts too
        raise ValueError(f"{spec!r} is not a search agent (flatmc:..., ismcts:...)")
    warm.act_state(states[0])  # untimed: loads the kernels and networks
    walls, cpus = [], []
    for state in tqdm(states, desc=spec, leave=False):
        wall, cpu = time.perf_counter(), time.process_time()
        agent.act_state(state)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    cpu = sum(cpus)
    stepped = agent.playout_decisions + getattr(agent, "tree_decisions", 0)  # ismcts: descents
    return {
        "spec": spec,
        "wall_ms_mean": 1e3 * float(np.mean(walls)),
        "wall_ms_max": 1e3 * float(np.max(walls)),
        "cpu_ms_mean": 1e3 * float(np.mean(cpus)),
        "cpu_ms_max": 1e3 * float(np.max(cpus)),
        "sims_per_cpu_s": agent.simulations / cpu,
        "core_decisions_per_cpu_s": stepped / cpu,
    }


def core_speed(batch: int, steps: int = 200) -> float:
    """Decisions per CPU second of the core with random legal actions."""
    state = init(CONFIG, batch, seeds=1)
    rng, spent, done = np.random.default_rng(0), 0.0, 0
    for _ in range(steps):
        mask = legal_action_mask(state)
        noise = np.where(mask, rng.random(mask.shape), -1.0)
        actions = noise.argmax(axis=1)
        live = int((~is_terminal(state)).sum())
        cpu = time.process_time()
        step(state, actions)
        legal_action_mask(state)
        spent += time.process_time() - cpu
        done += live
        if live == 0:
            state = init(CONFIG, batch, seeds=done)
    return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--specs", nargs="+", default=SPECS, help="search specs (all)")
    parser.add_argument(
        "--backend", nargs="+", choices=BACKENDS, default=["numba"], help="core backends"
    )
    args = parser.parse_args()
    states = positions(args.positions)
    rows = [
        search_speed(f"{spec}:backend={backend}", states)
        for backend in args.backend
        for spec in args.specs
    ]
    core = {b: core_speed(b) for b in (256, 4096)}
    if args.json:
        print(json.dumps({"search": rows, "core": core}, indent=1))
        return
    print(f"{len(states)} positions, 2 players, basic; one game searched at a time")
    print(f"{'spec':<66} {'wall ms':>14} {'cpu ms':>14} {'sims/cpu-s':>11} {'core dec/cpu-s':>15}")
    for r in rows:
        wall = f"{r['wall_ms_mean']:.0f} (max {r['wall_ms_max']:.0f})"
        cpu = f"{r['cpu_ms_mean']:.0f} (max {r['cpu_ms_max']:.0f})"
        print(
            f"{r['spec']:<66} {wall:>14} {cpu:>14} {r['sims_per_cpu_s']:>11,.0f} "
            f"{r['core_decisions_per_cpu_s']:>15,.0f}"
        )
    for b, rate in core.items():
        print(f"core alone, random legal actions, B = {b}: {rate:,.0f} decisions/cpu-s")


if __name__ == "__main__":
    main()
