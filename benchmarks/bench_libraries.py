"""Decisions per second of ASARA through each RL library's env interface, beside the plain
AEC loop, in the same run.

    python -m benchmarks.bench_libraries [--players 2] [--seconds 5] [--json]

Every row plays uniformly random legal actions (the mask read where that library puts it)
for about `--seconds`, resetting finished games, and counts decisions (one action of the
seat to move); no learning, so the rows show what each library's wrapping costs (set-up
and Tianshou's numba compilation are not timed):

- `plain AEC loop`: `asara_env.env()`, `env.last()` / `env.step()` (the reference row)
- `PettingZoo turn-based parallel`: `turn_based_aec_to_parallel(asara_env.env())`
- `gymnasium.make (single agent)`: `asara_env/Asara-v0`, the other seats random
  (their decisions are counted too)
- `SuperSuit vec env (4 games)`: `concat_vec_envs_v1(pettingzoo_env_to_vec_env_v1(...))`
- `Tianshou collector (4 envs)`: `Collector` over `DummyVectorEnv` of `PettingZooEnv`,
  Tianshou's masked random policy in every seat
- `RLlib MultiAgentEnv adapter`: `asara_env.integrations.rllib.TurnBasedMultiAgentEnv`
- `AgileRL async vec env (2 games)`: `AsyncPettingZooVecEnv`, games in subprocesses

A library that is not installed is reported as missing (install the `integration` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
import warnings
from collections.abc import Callable

import numpy as np
from tqdm import tqdm

import asara_env
from benchmarks.random_play import aec_decisions_per_second


def _choose(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def plain_aec(players: int, seconds: float) -> float:
    env, rng = asara_env.env(num_players=players), np.random.default_rng(0)
    return aec_decisions_per_second(env, seconds, lambda mask: _choose(rng, mask))


def turn_based_parallel(players: int, seconds: float) -> float:
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    env, rng = (
        turn_based_aec_to_parallel(asara_env.env(num_players=players)),
        np.random.default_rng(0),
    )
    obs, _ = env.reset(seed=0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = {
            a: _choose(rng, o["action_mask"]) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, _, terminations, _, _ = env.step(actions)
        decisions += 1
        if all(terminations.values()):
            obs, _ = env.reset()
    return decisions / (time.perf_counter() - start)


def gymnasium_single(players: int, seconds: float) -> float:
    import gymnasium

    from asara_env.asara.gym_env import AsaraGymEnv  # registers asara_env/Asara-v0

    env, rng = gymnasium.make("asara_env/Asara-v0", num_players=players), np.random.default_rng(0)
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, AsaraGymEnv)
    game = unwrapped.game  # the AEC env inside: its core counts every seat's decisions
    _, info = env.reset(seed=0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, info = env.step(_choose(rng, info["action_mask"]))
        if terminated or truncated:
            decisions += int(game._core.decisions[0])
            _, info = env.reset()
    decisions += int(game._core.decisions[0])
    return decisions / (time.perf_counter() - start)


def supersuit_vec(players: int, seconds: float, games: int = 4) -> float:
    import supersuit as ss
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    parallel = turn_based_aec_to_parallel(asara_env.env(num_players=players))
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(parallel), games, num_cpus=0)
    rng = np.random.default_rng(0)
    obs, _ = vec.reset(seed=0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = np.asarray(obs["action_mask"], bool)
        moving = np.asarray(masks.any(axis=1))
        actions = np.array([_choose(rng, m) if any_ else 0 for m, any_ in zip(masks, moving)])
        obs, *_ = vec.step(actions)
        decisions += int(moving.sum())
    vec.close()
    return decisions / (time.perf_counter() - start)


def tianshou_collector(players: int, seconds: float, envs: int = 4) -> float:
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.data import Collector, CollectStats
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv

    def make() -> PettingZooEnv:
        return PettingZooEnv(asara_env.env(num_players=players))

    env = make()
    randoms = [
        MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
        for _ in range(players)
    ]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=randoms, env=env)
    venv = DummyVectorEnv([make for _ in range(envs)])
    venv.seed(0)
    collector = Collector[CollectStats](algorithm, venv)
    collector.reset()
    collector.collect(n_step=10 * envs)  # untimed: Tianshou's buffer compiles with numba
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += collector.collect(n_step=10 * envs).n_collected_steps
    return decisions / (time.perf_counter() - start)


def rllib_adapter(players: int, seconds: float) -> float:
    from asara_env.integrations.rllib import TurnBasedMultiAgentEnv

    env = TurnBasedMultiAgentEnv({"game": "asara", "num_players": players})
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        (mover,) = obs
        obs, _, terminateds, _, _ = env.step({mover: _choose(rng, obs[mover]["action_mask"])})
        decisions += 1
        if terminateds["__all__"]:
            obs, _ = env.reset()
    return decisions / (time.perf_counter() - start)


def agilerl_async(players: int, seconds: float, games: int = 2) -> float:
    from agilerl.vector.pz_async_vec_env import AsyncPettingZooVecEnv

    from asara_env.integrations.agilerl_ippo import ParallelFactory

    factory = ParallelFactory("asara", num_players=players)
    vec = AsyncPettingZooVecEnv([factory for _ in range(games)])
    rng = np.random.default_rng(0)
    _, info = vec.reset(seed=0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = {}
        for agent in vec.possible_agents:
            masks = np.asarray(info[agent]["action_mask"], bool)
            actions[agent] = np.array([_choose(rng, m) if m.any() else 0 for m in masks])
            decisions += int(masks.any(axis=1).sum())
        _, _, _, _, info = vec.step(actions)
    vec.close()
    return decisions / (time.perf_counter() - start)


ROWS: dict[str, Callable[[int, float], float]] = {
    "plain AEC loop": plain_aec,
    "PettingZoo turn-based parallel": turn_based_parallel,
    "gymnasium.make (single agent)": gymnasium_single,
    "SuperSuit vec env (4 games)": supersuit_vec,
    "Tianshou collector (4 envs)": tianshou_collector,
    "RLlib MultiAgentEnv adapter": rllib_adapter,
    "AgileRL async vec env (2 games)": agilerl_async,
}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    counts = sorted({n for card in asara_env.GAMES.values() for n in card.player_counts})
    p.add_argument("--players", type=int, default=2, choices=counts)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--json", action="store_true", help="print the rates as JSON too")
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    rates: dict[str, float | None] = {}
    for name, row in tqdm(ROWS.items(), desc="libraries", unit="row"):
        try:
            rates[name] = row(args.players, args.seconds)
        except ImportError as e:
            rates[name] = None
            tqdm.write(f"{name}: missing ({e.name or e})")
    base = rates["plain AEC loop"]
    assert base is not None  # the plain loop needs nothing beyond asara_env
    print(f"\nASARA {args.players} players, basic, random legal actions, {args.seconds:g} s a row")
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs\n")
    print(f"{'through':<34} {'decisions/s':>12} {'vs plain':>9}")
    for name, rate in rates.items():
        if rate is None:
            print(f"{name:<34} {'missing':>12}")
        else:
            print(f"{name:<34} {rate:>12,.0f} {rate / base:>8.2f}x")
    if args.json:
        print(json.dumps({"players": args.players, "seconds": args.seconds, "rates": rates}))


if __name__ == "__main__":
    main()
