"""The gate before ASARA's own search is folded into the shared one: the ladder's spec on
the shared search (agents/search/) against ASARA's own `ismcts`, head to head.

    python -m benchmarks.asara.search_gate [--games 200] [--chunk 20] [--seed 1000]
        [--widen 0.5] [--expand policy]

Two players, seats alternated (game g seats the shared search first when g is even),
games `--seed`, `--seed` + 1, ... on the numba core, `--chunk` games stepped together.
Both sides play `ismcts:128:playout=towers:horizon=10:value=margin`; the shared search
with `widen` and `expand` (ASARA's own defaults by default). A line per chunk, then the
shared search's win share with its Wilson 95% interval and each side's CPU ms per
searched decision: the gate asks the interval to hold 0.5 and the shared search's CPU per
decision to be within 1.2 times ASARA's own.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.asara.arena import play_batch
from agents.asara.ismcts import ISMCTSAgent
from agents.search.agent import GameSearchAgent
from asara_env.asara.config import GameConfig
from asara_env.common.outcome import win_shares
from training.evaluation.tournament_stats import wilson_interval

LADDER: dict[str, Any] = {"sims": 128, "playout": "towers", "horizon": 10, "value": "margin"}


class Timed:
    """An arena agent whose searched decisions and their CPU seconds are counted."""

    needs_state = True

    def __init__(self, agent: Any):
        self.agent, self.name = agent, agent.name
        self.cpu, self.decisions = 0.0, 0

    def act_games(self, state: Any, rows: NDArray[np.int64]) -> Any:
        began = time.process_time()
        out = self.agent.act_games(state, rows)
        self.cpu += time.process_time() - began
        self.decisions += len(rows)
        return out

    def act_batch(self, observations: Any, masks: Any) -> Any:
        raise TypeError("the gate's agents act on the core's state")

    def reseed(self, seed: int) -> None:
        self.agent.reseed(seed)

    def ms_per_decision(self) -> float:
        return 1000 * self.cpu / max(self.decisions, 1)


def run(games: int, chunk: int, seed: int, widen: float, expand: str) -> dict[str, Any]:
    """Play the gate's games; its figures (module docstring)."""
    own = Timed(ISMCTSAgent(1, backend="numba", **LADDER))
    shared = Timed(
        GameSearchAgent(
            2, game="asara", kind="ismcts", backend="numba", widen=widen, expand=expand, **LADDER
        )
    )
    seating = np.array([[0, 1], [1, 0]] * ((games + 1) // 2))[:games]
    seeds = np.arange(games, dtype=np.uint64) + np.uint64(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    shares: list[float] = []
    for lo in range(0, games, chunk):
        seats = seating[lo : lo + chunk]
        scores = play_batch(
            GameConfig(num_players=2),
            [shared, own],
            seats,
            seeds[lo : lo + chunk],
            batch_size=len(seats),
            backend="numba",
        )
        won = win_shares(scores)
        shares += np.where(seats[:, 0] == 0, won[:, 0], won[:, 1]).tolist()
        print(
            f"{len(shares)} games: shared search {np.mean(shares):.3f}; CPU ms per decision "
            f"shared {shared.ms_per_decision():.1f}, own {own.ms_per_decision():.1f}",
            flush=True,
        )
    low, high = wilson_interval(float(np.sum(shares)), games)
    return {
        "games": games,
        "widen": widen,
        "expand": expand,
        "shared_win_share": float(np.mean(shares)),
        "wilson95": [low, high],
        "shared_cpu_ms_per_decision": shared.ms_per_decision(),
        "own_cpu_ms_per_decision": own.ms_per_decision(),
        "wall_s": time.perf_counter() - wall,
        "cpu_s": time.process_time() - cpu,
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--chunk", type=int, default=20)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--widen", type=float, default=0.5)
    p.add_argument("--expand", default="policy", choices=("random", "policy"))
    a = p.parse_args(argv)
    if a.games < 1 or a.chunk < 1:
        p.error("--games and --chunk must be at least 1")
    print(json.dumps(run(a.games, a.chunk, a.seed, a.widen, a.expand), indent=1))


if __name__ == "__main__":
    main()
