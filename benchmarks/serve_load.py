"""A load test of the web page's server: many clients playing at once, with slow opponents.

    python -m benchmarks.serve_load [--clients 16] [--seconds 30] [--opponent flatmc:sims=64]

One server (apps/serve.py `running`, its default limits: 4 game threads, 32 jobs queued,
but `--max-client-games`, 200) on a free local port; `--clients` threads, each its own
HTTP client loading the page first and keeping its cookie as a browser does, start
ASARA games against `--opponent` (a search agent thinks on every move), read each game
and move until the game ends or 10 moves are made, again and again for `--seconds`;
meanwhile a probe asks `GET /api/options` every 0.2 s. Printed: the requests by route and
status (503: the queue, or the client's share of it, was full), each route's median, 95th
percentile and largest latency, the probe's largest latency, and the wall and CPU time of
the process (server and clients together).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from collections import defaultdict
from typing import Any

import httpx

from apps.serve import TOKEN_HEADER, running

MOVES_PER_GAME = 10
PROBE_EVERY = 0.2  # seconds between two probes of GET /api/options
TIMEOUT = 120.0


class Tally:
    """Latencies (seconds) by (route, status), from every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[tuple[str, int], list[float]] = defaultdict(list)

    def timed(
        self, route: str, http: httpx.Client, method: str, path: str, **kw: Any
    ) -> httpx.Response:
        start = time.perf_counter()
        answer = http.request(method, path, **kw)
        with self.lock:
            self.times[(route, answer.status_code)].append(time.perf_counter() - start)
        return answer


def player(url: str, opponent: str, until: float, tally: Tally, seed: int) -> None:
    """Games against `opponent` until the clock passes `until`."""
    body = {"game": "asara", "players": 2, "opponents": [opponent], "seat": 1}
    with httpx.Client(base_url=url, timeout=TIMEOUT) as http:
        http.get("/")  # the page, as a browser loads it first (and its cookie)
        while time.perf_counter() < until:
            seed += 1
            answer = tally.timed("create", http, "POST", "/api/games", json=body | {"seed": seed})
            if answer.status_code != 201:
                continue
            game = answer.json()
            headers = {TOKEN_HEADER: game["token"]}
            for _ in range(MOVES_PER_GAME):
                if game["over"] or time.perf_counter() >= until:
                    break
                path = f"/api/games/{game['id']}"
                tally.timed("read", http, "GET", path, headers=headers)
                move = {"action": game["moves"][0]["id"], "decision": game["decisions"]}
                answer = tally.timed(
                    "move", http, "POST", f"{path}/moves", json=move, headers=headers
                )
                if answer.status_code != 200:
                    break
                game = answer.json()


def probe(url: str, until: float, tally: Tally) -> None:
    with httpx.Client(base_url=url, timeout=TIMEOUT) as http:
        while time.perf_counter() < until:
            tally.timed("options", http, "GET", "/api/options")
            time.sleep(PROBE_EVERY)


def summary(tally: Tally) -> list[dict[str, Any]]:
    rows = []
    for (route, status), times in sorted(tally.times.items()):
        ordered = sorted(times)
        rows.append(
            {
                "route": route,
                "status": status,
                "requests": len(times),
                "median_ms": round(1000 * statistics.median(ordered), 1),
                "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
                "max_ms": round(1000 * ordered[-1], 1),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--opponent", default="flatmc:sims=64")
    parser.add_argument(
        "--max-client-games",
        type=int,
        default=200,
        help="games held per client (default 200)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    tally = Tally()
    wall, cpu = time.perf_counter(), time.process_time()
    with running(max_client_games=args.max_client_games) as url:
        warm_up = {"game": "asara", "opponents": [args.opponent]}
        httpx.post(f"{url}/api/games", json=warm_up, timeout=TIMEOUT)
        until = time.perf_counter() + args.seconds
        threads = [
            threading.Thread(target=player, args=(url, args.opponent, until, tally, 1000 * k))
            for k in range(args.clients)
        ]
        threads.append(threading.Thread(target=probe, args=(url, until, tally)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    rows = summary(tally)
    result = {
        "clients": args.clients,
        "seconds": args.seconds,
        "opponent": args.opponent,
        "wall_s": round(time.perf_counter() - wall, 1),
        "cpu_s": round(time.process_time() - cpu, 1),
        "load": os.getloadavg(),
        "rows": rows,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"{args.clients} clients against {args.opponent} for {args.seconds:g} s: "
        f"wall {result['wall_s']} s, CPU {result['cpu_s']} s, load {result['load']}"
    )
    for row in rows:
        print(
            f"  {row['route']:>8} {row['status']}  {row['requests']:>5} requests  median "
            f"{row['median_ms']:>8} ms  p95 {row['p95_ms']:>8} ms  max {row['max_ms']:>8} ms"
        )


if __name__ == "__main__":
    main()
