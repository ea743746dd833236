"""Every game's speed as a ratio to the peers people compare against, measured in one run.

    python -m benchmarks.bench_peers [--rounds 3] [--seconds 2] [--batches 1 4096] [--json]

Two tables, each row alternated with its peers over `--rounds` rounds (the machine's load
drifts; alternating spreads it over every row alike), each figure the median of its rounds:

- **Batched cores**, observation built every step (pgx builds it inside its `step`): each
  registered game's core on each backend (`init`, then per step `legal_action_mask`, a
  uniformly random legal action per deciding seat, `step`, `observe`, `autoreset`) beside
  pgx's connect four and othello (`jax.jit(jax.vmap(auto_reset(step, init)))`, the random
  legal action drawn inside the same jit, on JAX-CPU) at each batch size.
- **PettingZoo AEC loops** at one game: ASARA's AEC env and BASARI's parallel env on each
  backend beside PettingZoo's `connect_four_v3`, `texas_holdem_v4` and `chess_v6` (the
  full loop: `env.last()`, a random legal action from the mask, `env.step()`).

A *decision* is one seat's choice: one per unfinished game and step in a turn-based game;
in a simultaneous game every seat with a legal action other than the no-op. pgx and the
PettingZoo loops count one decision per step. The peers need the `bench` extra (pgx,
jax, pygame, rlcard, chess); a peer that is not installed is reported missing.
JAX's compilation and each game's first steps are run before timing; each backend's
first-call compile time is printed apart.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from tqdm import tqdm

from asara_env import games
from asara_env.common.backend import BACKENDS, numba_available
from asara_env.common.sampling import random_legal
from benchmarks.random_play import aec_decisions_per_second

NOOP = 0  # a simultaneous game's "nothing to do" action id
PGX_GAMES = ("connect_four", "othello")
AEC_PEERS = {
    "connect_four_v3": "pettingzoo.classic.connect_four_v3",
    "texas_holdem_v4": "pettingzoo.classic.texas_holdem_v4",
    "chess_v6": "pettingzoo.classic.chess_v6",
}
WARMUP_STEPS = 20

Runner = Callable[[float], float]  # seconds -> decisions per second


def decisions_in(mask: np.ndarray, live: np.ndarray, simultaneous: bool) -> int:
    """How many seats decide this step (see the module's definition of a decision)."""
    if simultaneous:
        return int(np.delete(mask, NOOP, axis=-1).any(axis=-1).sum())
    return int(live.sum())


def deciding(mask: np.ndarray) -> bool:
    """Whether one seat's mask int[A] has a legal id other than the no-op (the module's
    decision; `decisions_in` for one seat, without copying the mask)."""
    return bool(np.count_nonzero(mask) - bool(mask[NOOP]))


def core_runner(game: str, backend: str, batch: int) -> Runner:
    """A timed loop over `game`'s core on `backend` at `batch` games, observing every step."""
    card = games.game_card(game)
    core = games.load_core(game, backend)
    config = games.load_config(game)(num_players=max(card.player_counts))
    state = core.init(config, batch, seeds=0)
    rng = np.random.default_rng(0)

    def one_step() -> int:
        mask = core.legal_action_mask(state)
        live = ~core.is_terminal(state)
        core.step(state, random_legal(mask, rng))
        core.observe(state)
        core.autoreset(state)
        return decisions_in(mask, live, card.simultaneous)

    for _ in range(WARMUP_STEPS):
        one_step()

    def run(seconds: float) -> float:
        decisions, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            decisions += one_step()
        return decisions / (time.perf_counter() - start)

    return run


def pgx_runner(name: str, batch: int) -> Runner | None:
    """A timed loop over pgx's `name` at `batch` games, or None without pgx."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    auto_step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def one_step(state: Any, key: Any) -> tuple[Any, Any]:
        key, pick, reset = jax.random.split(key, 3)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        action = jax.random.categorical(pick, logits, axis=-1)
        return auto_step(state, action, jax.random.split(reset, batch)), key

    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, batch))
    for _ in range(WARMUP_STEPS):
        state, key = one_step(state, key)
    jax.block_until_ready(state)

    def run(seconds: float) -> float:
        nonlocal state, key
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            state, key = one_step(state, key)
            jax.block_until_ready(state.observation)
            steps += 1
        return steps * batch / (time.perf_counter() - start)

    return run


def env_runner(make: Callable[[], Any]) -> Runner:
    """A timed PettingZoo AEC loop over the env `make()` returns."""
    env = make()
    rng = np.random.default_rng(0)

    def choose(mask: np.ndarray) -> int:
        return int(random_legal(mask, rng))

    def run(seconds: float) -> float:
        return aec_decisions_per_second(env, seconds, choose)

    return run


def parallel_runner(game: str, backend: str) -> Runner:
    """A timed loop over a simultaneous game's PettingZoo parallel env (whole games)."""
    card = games.game_card(game)
    env = games.env_factory(game, "parallel_env")(
        num_players=max(card.player_counts), backend=backend
    )
    rng = np.random.default_rng(0)

    def run(seconds: float) -> float:
        decisions, seed, start = 0, 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            obs, _ = env.reset(seed=seed)
            while env.agents:
                masks = {a: obs[a]["action_mask"] for a in env.agents}
                decisions += sum(deciding(m) for m in masks.values())
                actions = {a: int(random_legal(m, rng)) for a, m in masks.items()}
                obs, *_ = env.step(actions)
            seed += 1
        return decisions / (time.perf_counter() - start)

    return run


def our_env_runner(game: str, backend: str) -> Runner:
    """Game `game`'s one-game env on `backend`: the AEC loop, or the parallel loop for a
    simultaneous game."""
    card = games.game_card(game)
    if card.simultaneous:
        return parallel_runner(game, backend)
    players = max(card.player_counts)
    return env_runner(lambda: games.make(game, num_players=players, backend=backend))


def peer_env_runner(module: str) -> Runner | None:
    """PettingZoo classic env `module`'s AEC loop, or None where it cannot be imported."""
    try:
        env_module = __import__(module, fromlist=["env"])
    except ImportError:
        return None
    return env_runner(env_module.env)


def backends() -> list[str]:
    """The backends this process can run."""
    return [b for b in BACKENDS if b != "numba" or numba_available()]


def compile_seconds(game: str, backend: str) -> float:
    """Seconds to load `game`'s core on `backend` and play its first step at one game
    (numba's compilation, or loading its on-disk cache)."""
    start = time.perf_counter()
    core_runner(game, backend, 1)
    return time.perf_counter() - start


def measure(rows: dict[str, Runner | None], rounds: int, seconds: float) -> dict[str, float]:
    """Median decisions/s of every row, the rows alternated within each round."""
    rates: dict[str, list[float]] = {name: [] for name, run in rows.items() if run is not None}
    for _ in tqdm(range(rounds), desc="rounds", leave=False):
        for name, run in rows.items():
            if run is not None:
                rates[name].append(run(seconds))
    return {name: statistics.median(r) for name, r in rates.items()}


def core_rows(batch: int, game_names: list[str]) -> dict[str, Runner | None]:
    rows: dict[str, Runner | None] = {}
    for game in game_names:
        for backend in backends():
            rows[f"{game} core ({backend})"] = core_runner(game, backend, batch)
    for name in PGX_GAMES:
        rows[f"pgx {name}"] = pgx_runner(name, batch)
    return rows


def env_rows(game_names: list[str]) -> dict[str, Runner | None]:
    rows: dict[str, Runner | None] = {}
    for game in game_names:
        for backend in backends():
            rows[f"{game} env ({backend})"] = our_env_runner(game, backend)
    for name, module in AEC_PEERS.items():
        rows[f"PettingZoo {name}"] = peer_env_runner(module)
    return rows


def print_table(title: str, rates: dict[str, float], peers: list[str]) -> None:
    present = [p for p in peers if p in rates]
    print(f"\n{title}")
    header = f"{'':34} {'decisions/s':>12}" + "".join(f" {'x ' + p:>24}" for p in present)
    print(header)
    for name, rate in rates.items():
        ratios = "".join(f" {rate / rates[p]:>24.2f}" for p in present)
        print(f"{name:34} {rate:>12,.0f}{ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="per row and round")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 4096])
    parser.add_argument("--games", nargs="+", default=list(games.available_games()))
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result: dict[str, Any] = {
        "compile_s": {
            f"{g} ({b})": round(compile_seconds(g, b), 2) for g in args.games for b in backends()
        },
        "core": {},
    }
    for batch in args.batches:
        result["core"][batch] = measure(core_rows(batch, args.games), args.rounds, args.seconds)
    result["env"] = measure(env_rows(args.games), args.rounds, args.seconds)
    result["machine"] = f"{platform.machine()}, {os.cpu_count()} cores"
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(result))
        return
    print(f"machine: {result['machine']}; load average {result['load_average']}")
    print("first step (compile or cache load), seconds:", result["compile_s"])
    pgx_peers = [f"pgx {n}" for n in PGX_GAMES]
    for batch, rates in result["core"].items():
        print_table(f"batched cores, B = {batch}, observing every step", rates, pgx_peers)
    env_peers = [f"PettingZoo {n}" for n in AEC_PEERS]
    print_table("one-game envs (PettingZoo loops)", result["env"], env_peers)


if __name__ == "__main__":
    main()
