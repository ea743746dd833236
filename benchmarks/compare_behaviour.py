"""Whether two trees play the same games: digests of both games' play on both backends,
computed in each tree and compared name by name.

    python -m benchmarks.compare_behaviour BEFORE_DIR [AFTER_DIR] [--steps 120] [--models]
        [--search]

Each tree runs the same script in a fresh process (cwd and PYTHONPATH the tree, its own
empty numba cache, so that no kernel compiled from other sources is loaded). The digests
(sha256) cover, for every rules set listed below and both cores (numpy, numba): every
array of the state and the observation after every step of seeded random legal play with
autoreset; for ASARA also the determinisations (`hidden_core`), the compiled heuristic's
choices and the compiled leaf estimate on those states; for BASARI also `step_observe`.
`--models` adds the final scores of games of every shipped model against random on both
cores (needs the `train` extra). `--search` adds the searches' decisions (`SEARCHES`) on
positions of 2 and 4 players (`benchmarks.bench_search.positions`): per spec and player
count the actions, the root's visits and mean rewards of every edge (ISMCTS) and the
state of every random generator the agent holds after each decision (the same random
numbers consumed); the network-guided spec needs the `train` extra. Exit status 1 if any
digest differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DIGESTS = r"""
import hashlib, json, sys
import numpy as np
from asara_env.games import load_core

steps, with_models, with_search = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3] == "1"
out = {}

def digest(h, *arrays):
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())

def random_legal(legal, rng):
    return np.argmax(np.where(legal, rng.random(legal.shape), -1.0), axis=-1)

def asara(config, backend):
    from asara_env.asara.core.state import ARRAY_FIELDS
    core = load_core("asara", backend)
    state, rng = core.init(config, 24, seeds=7), np.random.default_rng(7)
    h = hashlib.sha256()
    for _ in range(steps):
        core.step(state, random_legal(state.legal, rng))
        core.autoreset(state)
        digest(h, *(getattr(state, f) for f in ARRAY_FIELDS), core.observe(state))
    return h.hexdigest(), state

def asara_agents(state, seed):
    from asara_env.asara.hidden_core import determinise_games
    from agents.asara.estimate_compiled import estimate
    from agents.asara.heuristic import TowersAgent
    from agents.asara.heuristic_compiled import choose_games
    from asara_env.asara.core.state import ARRAY_FIELDS
    rng = np.random.default_rng(seed)
    games = np.arange(len(state.phase))
    worlds = determinise_games(state, games, state.seat.astype(np.int64), rng)
    h = hashlib.sha256()
    digest(h, *(getattr(worlds, f) for f in ARRAY_FIELDS), estimate(state), estimate(worlds))
    live = games[state.legal.any(axis=1)]
    chosen = choose_games(TowersAgent.plan, state, live, state.legal[live], rng.random(len(live)))
    digest(h, chosen)
    return h.hexdigest()

def basari(config, backend):
    from asara_env.basari.core.state import ARRAY_FIELDS
    core = load_core("basari", backend)
    state, rng = core.init(config, 24, seeds=7), np.random.default_rng(7)
    h = hashlib.sha256()
    for i in range(steps):
        actions = random_legal(state.legal, rng)
        if backend == "numba" and i % 2:
            obs = core.step_observe(state, actions)
        else:
            core.step(state, actions)
            obs = core.observe(state)
        core.autoreset(state)
        digest(h, *(getattr(state, f) for f in ARRAY_FIELDS), obs)
    return h.hexdigest()

from asara_env.asara.config import GameConfig
from asara_env.basari.config import BasariConfig
ASARA = {
    "2p": GameConfig(num_players=2),
    "3p-pro-gifts": GameConfig(num_players=3, variant="pro", expansions=("gifts",)),
    "4p-pro-genie-gifts": GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts")),
    "4p-pro-genie": GameConfig(num_players=4, variant="pro", expansions=("genie",)),
}
for name, config in ASARA.items():
    for backend in ("numpy", "numba"):
        out[f"asara {name} {backend} play"], state = asara(config, backend)
    out[f"asara {name} agents"] = asara_agents(state, 3)
for p in (2, 3, 4):
    for backend in ("numpy", "numba"):
        out[f"basari {p}p {backend} play"] = basari(BasariConfig(num_players=p), backend)
if with_models:
    from agents.models import MODELS
    from agents.registry import make_agent
    from agents.asara.arena import play_batch as asara_batch
    from agents.basari.arena import play_batch as basari_batch
    seeds = np.arange(4, dtype=np.uint64)
    for game, names in MODELS.items():
        for name in names:
            players = int(name[-2])
            seating = np.tile(np.arange(players) % 2, (len(seeds), 1))
            for backend in ("numpy", "numba"):
                agents = [make_agent(game, name, 0), make_agent(game, "random", 0)]
                if game == "asara":
                    scores = asara_batch(GameConfig(num_players=players), agents, seating, seeds,
                                         backend=backend)
                else:
                    scores = basari_batch(BasariConfig(num_players=players), agents, seating,
                                          seeds, backend=backend)
                out[f"{game} model {name} vs random {backend}"] = hashlib.sha256(
                    np.asarray(scores).tobytes()).hexdigest()
if with_search:
    from agents.registry import make_agent
    from benchmarks.bench_search import positions

    def generators(agent):
        found = [agent.rng]
        policy = getattr(agent, "policy", None)
        if policy is not None and getattr(policy, "rng", None) is not None:
            found.append(policy.rng)
        return [repr(g.bit_generator.state) for g in found]

    def root_stats(agent):
        rows = []
        for root in getattr(agent, "last_roots", []):
            if root is None:
                rows.append(None)
                continue
            rows.append([(int(k), int(c.visits), int(c.avail), c.total.tolist())
                         for k, c in sorted(root.children.items())])
        return rows

    for game, spec, players in SEARCHES:
        agent = make_agent(game, spec + ":backend=numba", 0)
        h = hashlib.sha256()
        for p in players:
            found = positions(game, p, 2, seed=100 + p)
            for cases in found.values():
                for state, seat in cases:
                    games = np.zeros(1, np.int64)
                    if game == "asara":
                        acts = agent.act_games(state, games)
                    else:
                        acts = agent.act_seats(state, games, np.array([seat]))
                    h.update(repr((np.asarray(acts).tolist(), root_stats(agent),
                                   generators(agent))).encode())
        out[f"search {game} {spec} {players}"] = h.hexdigest()
print(json.dumps(out))
"""

# the searches whose decisions `--search` digests: (game, spec, player counts)
SEARCHES = [
    ("asara", "ismcts:128:playout=towers:horizon=10:value=margin", (2, 4)),
    ("asara", "ismcts:64:playout=towers:horizon=10:value=margin:widen=1", (2, 4)),
    ("asara", "ismcts:32:prior=ppo_2p:value=net:wave=16", (2,)),
    ("asara", "ismcts:48:playout=random:horizon=4:expand=random:wave=8", (2, 4)),
    ("asara", "flatmc:64:playout=towers:horizon=10:value=margin", (2, 4)),
    ("basari", "ismcts:64:playout=random:horizon=10", (2, 4)),
    ("basari", "gumbel:32:playout=random:horizon=10", (2, 4)),
    ("basari", "flatmc:64:playout=value:horizon=10", (2, 4)),
]


def digests(tree: Path, steps: int, models: bool, search: bool = False) -> dict[str, str]:
    """The digests computed in `tree`, in a fresh process with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": cache}
        env["OMP_NUM_THREADS"] = "1"
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                f"SEARCHES = {SEARCHES!r}\n" + DIGESTS,
                str(steps),
                "1" if models else "0",
                "1" if search else "0",
            ],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
        )
    if done.returncode:
        raise SystemExit(f"{tree}: the digest script failed:\n{done.stderr[-3000:]}")
    result: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=ROOT, help="default: this tree")
    parser.add_argument("--steps", type=int, default=120, help="steps of play per rules set")
    parser.add_argument("--models", action="store_true", help="also the shipped models' games")
    parser.add_argument("--search", action="store_true", help="also the searches' decisions")
    args = parser.parse_args()
    before = digests(args.before.resolve(), args.steps, args.models, args.search)
    print(f"before: {len(before)} digests from {args.before}", flush=True)
    after = digests(args.after.resolve(), args.steps, args.models, args.search)
    print(f"after:  {len(after)} digests from {args.after}", flush=True)
    differ = 0
    for name in sorted(before.keys() | after.keys()):
        same = before.get(name) == after.get(name)
        differ += not same
        print(f"{'same     ' if same else 'DIFFERENT'} {name}  {after.get(name, '-')[:16]}")
    print(f"{len(before) - differ} of {len(before)} digests the same")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
