"""What one call of a numba kernel costs in each form of handing it a core's state, for
both games' real states, and how long each game's kernels take to compile cold.

    python -m benchmarks.bench_kernel_calls [--batches 1 1024] [--calls 20000] [--compile]

The forms, each a kernel that reads two fields of every game of the batch (so the figure
is the call's overhead plus a loop the forms share):
- `positional`: every array an argument of its own (`kernel(games, *arrays)`);
- `tuple`: the arrays as one plain tuple (`kernel(games, arrays)`), named inside the
  kernel (`Arrays(*state)`);
- `namedtuple`: a `NamedTuple` instance of the arrays handed over as it is;
- `structref`: a numba structref holding the arrays, built once and reused (what a call
  costs once one exists; building one costs far more than a call).
Each figure is the median of five runs of `--calls` calls, in µs of CPU time per call.
`--compile` also compiles every game's kernels into an empty numba cache, one process a
game, and lists the compiled functions that took longest (numba's own compile events, less the
functions each compiled meanwhile).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from numba.core import types
from numba.experimental import structref

from asara_env.asara.config import GameConfig
from asara_env.basari.config import BasariConfig
from asara_env.games import load_core

REPEATS = 5


def state_arrays(game: str, batch: int) -> tuple[np.ndarray, ...]:
    """The arrays of a fresh `batch`-game state of `game`, in the core's field order."""
    if game == "asara":
        from asara_env.asara.core.state import ARRAY_FIELDS as names

        state = load_core("asara", "numpy").init(GameConfig(num_players=4), batch, seeds=0)
    else:
        from asara_env.basari.core.state import ARRAY_FIELDS as names

        state = load_core("basari", "numpy").init(BasariConfig(num_players=4), batch, seeds=0)
    return tuple(getattr(state, name) for name in names)


# --------------------------------------------------------------------------- the kernels
@numba.njit(inline="always")
def _work(phase: np.ndarray, legal: np.ndarray, games: np.ndarray) -> int:
    total = 0
    for b in games:
        total += phase[b] + legal.shape[-1]
    return total


def _kernels(names: list[str]) -> dict[str, Callable[..., Any]]:
    """The four forms' kernels for a state with fields `names` (`phase` and `legal`
    among them)."""
    make: Any = namedtuple  # its fields come from `names`, unknown to mypy
    bundle: Any = make("Bundle", names)
    at_phase, at_legal = names.index("phase"), names.index("legal")
    flags: dict[str, Any] = {"_nrt": False}

    def positional(games: np.ndarray, *arrays: np.ndarray) -> int:
        return _work(arrays[at_phase], arrays[at_legal], games)

    def plain(games: np.ndarray, state: tuple[np.ndarray, ...]) -> int:
        s: Any = bundle(*state)
        return _work(s.phase, s.legal, games)

    def named(games: np.ndarray, s: Any) -> int:
        return _work(s.phase, s.legal, games)

    @structref.register
    class StateType(types.StructRef):
        pass

    class StateProxy(structref.StructRefProxy):
        pass

    structref.define_proxy(StateProxy, StateType, names)

    def viaref(games: np.ndarray, s: Any) -> int:
        return _work(s.phase, s.legal, games)

    return {
        "positional": numba.njit(**flags)(positional),
        "tuple": numba.njit(**flags)(plain),
        "namedtuple": numba.njit(**flags)(named),
        "structref": numba.njit(viaref),  # a structref is reference counted
        "_bundle": bundle,
        "_proxy": StateProxy,
    }


def call_costs(game: str, batch: int, calls: int) -> dict[str, float]:
    """CPU µs per call of each form on `game`'s state of `batch` games."""
    from asara_env.asara.core.state import ARRAY_FIELDS as asara_names
    from asara_env.basari.core.state import ARRAY_FIELDS as basari_names

    names = list(asara_names if game == "asara" else basari_names)
    arrays = state_arrays(game, batch)
    k = _kernels(names)
    games = np.arange(batch, dtype=np.int64)
    nt = k["_bundle"](*arrays)
    ref = k["_proxy"](*arrays)
    calls_of = {
        "positional": lambda: k["positional"](games, *arrays),
        "tuple": lambda: k["tuple"](games, arrays),
        "namedtuple": lambda: k["namedtuple"](games, nt),
        "structref": lambda: k["structref"](games, ref),
    }
    out: dict[str, float] = {}
    for form, call in calls_of.items():
        call()  # compile
        runs = []
        for _ in range(REPEATS):
            t0 = time.process_time()
            for _ in range(calls):
                call()
            runs.append((time.process_time() - t0) / calls * 1e6)
        out[form] = statistics.median(runs)
    return out


# --------------------------------------------------------------------------- compile
_COMPILE_ONE = """
import importlib, json, sys, time
from numba.core import event
from asara_env import games
name = sys.argv[1]
with event.install_recorder("numba:compile") as rec:
    t0, c0 = time.perf_counter(), time.process_time()
    games.warm_up(name, importlib.import_module(games.game_card(name).compiled_core), notice=False)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
stack, own, count = [], {}, {}
for ts, ev in rec.buffer:
    f = ev.data["dispatcher"].py_func
    key = f.__module__ + "." + f.__name__
    if ev.is_start:
        stack.append([key, ts, 0.0])
        continue
    key, start, children = stack.pop()
    if stack:
        stack[-1][2] += ts - start
    own[key] = own.get(key, 0.0) + ts - start - children
    count[key] = count.get(key, 0) + 1
print(json.dumps({"wall": wall, "cpu": cpu, "own": own, "count": count}))
"""


def cold_compile(game: str) -> dict[str, Any]:
    """Wall and CPU seconds of `game`'s warm_up in a fresh process with an empty numba
    cache; each compiled function's own seconds (less those of the functions it compiled
    meanwhile) and how many times it was compiled (one per signature)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        done = subprocess.run(
            [sys.executable, "-c", _COMPILE_ONE, game],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 1024])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--compile", action="store_true", help="also time a cold compile")
    parser.add_argument("--top", type=int, default=12, help="slowest compiled functions shown")
    parser.add_argument("--games", nargs="+", default=["asara", "basari"])
    parser.add_argument("--no-calls", action="store_true", help="skip the call costs")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; CPU µs per call, median of {REPEATS}")
    for game in [] if args.no_calls else args.games:
        for batch in args.batches:
            costs = call_costs(game, batch, max(100, args.calls // max(1, batch // 64)))
            row = "  ".join(f"{form} {us:7.2f}" for form, us in costs.items())
            print(f"{game:6} B={batch:<5} {row}", flush=True)
    if args.compile:
        for game in args.games:
            r = cold_compile(game)
            print(f"{game}: cold warm_up {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU")
            print(f"  {len(r['count'])} functions, {sum(r['count'].values())} compilations")
            slowest = sorted(r["own"].items(), key=lambda kv: -kv[1])[: args.top]
            for name, seconds in slowest:
                print(f"  {seconds:6.2f} s  x{r['count'][name]}  {name}")


if __name__ == "__main__":
    main()
