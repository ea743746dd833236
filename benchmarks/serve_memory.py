"""The web page's server memory over many finished and abandoned games, of every game.

    python -m benchmarks.serve_memory [--games 300] [--max-games 50] [--json]

For each game the page serves, one app (apps/serve.py `create_app`, at most `--max-games`
games held, all for its one client, idle after 60 s on a clock moved by hand) is driven
through its JSON API: a warm-up of 20 games, then `--games` games started, every other one
played to its end by its first offered moves and the others abandoned after one move. The
process's resident memory (RSS, from /proc) and the Python heap (tracemalloc is not used:
it slows the drawing several times) are read after the warm-up, every quarter of the
games, and after the idle games are evicted; the games held are counted. Flat memory means
the finished and abandoned games are let go.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from apps.serve import TOKEN_HEADER, create_app
from apps.webgame import web_games

LOCAL = "http://127.0.0.1"  # the server answers only its loopback names

NEW_GAME: dict[str, dict[str, Any]] = {
    "asara": {"game": "asara", "players": 2, "variant": "basic", "opponents": ["random"]},
    "basari": {"game": "basari", "players": 3, "opponents": ["random", "random"]},
}
WARM_UP = 20
IDLE_SECONDS = 60.0
PAGE = os.sysconf("SC_PAGE_SIZE")


class Clock:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def rss_mib() -> float:
    """This process's resident memory, MiB."""
    resident = int(Path("/proc/self/statm").read_text().split()[1])
    return resident * PAGE / 2**20


def play(client: TestClient, game: str, seed: int, finish: bool) -> None:
    """One game: to its end by first moves, or abandoned after one move."""
    g = client.post("/api/games", json=NEW_GAME[game] | {"seed": seed}).json()
    headers = {TOKEN_HEADER: g["token"]}
    while not g["over"]:
        body = {"action": g["moves"][0]["id"], "decision": g["decisions"]}
        g = client.post(f"/api/games/{g['id']}/moves", json=body, headers=headers).json()
        if not finish:
            return


def measure(game: str, games: int, max_games: int) -> dict[str, Any]:
    """Memory (MiB) and games held after the warm-up, each quarter and the eviction."""
    clock = Clock()
    app = create_app(
        max_games=max_games, max_client_games=max_games, idle_seconds=IDLE_SECONDS, clock=clock
    )
    client = TestClient(app, base_url=LOCAL)
    for seed in range(WARM_UP):
        play(client, game, seed, finish=seed % 2 == 0)
    gc.collect()
    points = [("warm-up", WARM_UP, rss_mib(), len(app.state.games))]
    for n in range(games):
        play(client, game, WARM_UP + n, finish=n % 2 == 0)
        clock.now += 1.0
        if (n + 1) % max(1, games // 4) == 0:
            gc.collect()
            points.append(("started", WARM_UP + n + 1, rss_mib(), len(app.state.games)))
    clock.now += IDLE_SECONDS + 1
    client.get("/api/options")  # any request evicts the idle games
    gc.collect()
    points.append(("evicted", WARM_UP + games, rss_mib(), len(app.state.games)))
    rows = [{"when": w, "games": n, "rss_mib": round(m, 1), "held": h} for w, n, m, h in points]
    return {"game": game, "max_games": max_games, "points": rows}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--max-games", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = [measure(game, args.games, args.max_games) for game in web_games()]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for result in results:
        print(f"{result['game']} (at most {result['max_games']} games held):")
        for row in result["points"]:
            print(
                f"  {row['when']:>8} {row['games']:>5} games  RSS {row['rss_mib']:>7.1f} MiB"
                f"  held {row['held']}"
            )


if __name__ == "__main__":
    main()
