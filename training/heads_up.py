"""Heads-up strength of one agent against another, resumable (basic rules by default).

    python -m training.heads_up SPEC OPPONENT --games 100 --seed 17 --chunk 10 --log FILE

Game g is the reference game `game_seeds(seed, 2, games)[g]`, with the agent in seat 0
when g is even and in seat 1 when g is odd (seats alternated). Games are played in chunks
of `chunk` games, each chunk one batch of the arena (the agents' searches of a chunk share
core batches) with fresh agents seeded `sub_seed(seed, 1, c)` and `sub_seed(seed, 2, c)`
for chunk c: a chunk's result depends only on the settings and its index. Each finished
chunk is appended to `--log` as one JSON line; a rerun with the same log plays only the
missing chunks (resume; other settings in the log are refused). The summary (wins with
shared wins split, the win rate and its 95% Wilson interval, CPU time per searched
decision) is printed and returned.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from agents.asara.arena import play_batch
from agents.registry import check_agent, make_agent
from asara_env.asara.config import VARIANTS, GameConfig
from asara_env.common.outcome import win_shares

from .tournament import game_seeds, sub_seed
from .tournament_stats import wilson_interval


def _chunk(settings: dict, c: int) -> dict:
    """Chunk c: its games' prestige, the agent's seats, its wins and its search work."""
    games, chunk, seed = settings["games"], settings["chunk"], settings["seed"]
    index = np.arange(c * chunk, min(games, (c + 1) * chunk))
    config = GameConfig(num_players=2, variant=settings["variant"])
    agent = make_agent("asara", settings["spec"], sub_seed(seed, 1, c))
    agents = [agent, make_agent("asara", settings["opponent"], sub_seed(seed, 2, c))]
    seating = np.array([[0, 1] if g % 2 == 0 else [1, 0] for g in index])
    seeds = game_seeds(seed, 2, games)[index]
    start, cpu = time.perf_counter(), time.process_time()
    prestige = play_batch(config, agents, seating, seeds, batch_size=len(index))
    wins = win_shares(prestige)[seating == 0]
    return {
        "chunk": c,
        "games": index.tolist(),
        "prestige": prestige.tolist(),
        "agent_seat": [0 if g % 2 == 0 else 1 for g in index],
        "wins": float(wins.sum()),
        "searches": int(getattr(agent, "searches", 0)),
        "cpu_s": time.process_time() - cpu,
        "wall_s": time.perf_counter() - start,
    }


def summary(settings: dict, chunks: list[dict]) -> dict:
    """Wins, win rate and Wilson interval over the chunks played so far."""
    games = sum(len(c["games"]) for c in chunks)
    wins = sum(c["wins"] for c in chunks)
    low, high = wilson_interval(wins, games)
    searches = sum(c["searches"] for c in chunks)
    return {
        **{k: settings[k] for k in ("spec", "opponent", "seed", "variant")},
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else float("nan"),
        "ci_low": low,
        "ci_high": high,
        "searches": searches,
        "cpu_s_per_search": sum(c["cpu_s"] for c in chunks) / max(searches, 1),
        "wall_s": sum(c["wall_s"] for c in chunks),
    }


def heads_up(
    spec: str,
    opponent: str,
    games: int = 100,
    seed: int = 17,
    chunk: int = 10,
    variant: str = "basic",
    log: str | Path | None = None,
    progress: bool = True,
) -> dict:
    """Play (or resume, from `log`) the heads-up match; the summary (see the module
    docstring)."""
    if games < 1 or chunk < 1:
        raise ValueError(f"games and chunk must be at least 1, got {games} and {chunk}")
    settings = {
        "spec": check_agent("asara", spec),
        "opponent": check_agent("asara", opponent),
        "games": games,
        "seed": seed,
        "chunk": chunk,
        "variant": variant,
    }
    chunks = _read_log(log, settings)
    todo = [c for c in range(-(-games // chunk)) if c not in {d["chunk"] for d in chunks}]
    for c in tqdm(todo, desc=f"{spec} vs {opponent}", unit="chunk", disable=not progress):
        chunks.append(_chunk(settings, c))
        if log is not None:
            with open(log, "a") as f:
                f.write(json.dumps(chunks[-1]) + "\n")
        if progress:
            tqdm.write(json.dumps(summary(settings, chunks)))
    return summary(settings, chunks)


def _read_log(log: str | Path | None, settings: dict) -> list[dict]:
    """The chunks already in the log (its first line holds the settings; written if new)."""
    if log is None:
        return []
    path = Path(log)
    if not path.exists() or path.stat().st_size == 0:
        path.write_text(json.dumps({"settings": settings}) + "\n")
        return []
    first, *rest = path.read_text().splitlines()
    if json.loads(first)["settings"] != settings:
        raise ValueError(f"{log} holds another match: {first}; use another --log")
    return [json.loads(line) for line in rest if line.strip()]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", help="the agent measured (an agent spec)")
    parser.add_argument("opponent", help="its opponent (an agent spec)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--chunk", type=int, default=10, help="games per batch (and per line)")
    parser.add_argument("--variant", choices=VARIANTS, default="basic")
    parser.add_argument("--log", help="JSON-lines file: appended per chunk, resumed from")
    args = parser.parse_args(argv)
    result = heads_up(
        args.spec, args.opponent, args.games, args.seed, args.chunk, args.variant, args.log
    )
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
