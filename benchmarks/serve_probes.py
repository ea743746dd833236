"""Two probes of the web page's server: costly bodies, and kept-alive connections.

    python -m benchmarks.serve_probes [--senders 8] [--rounds 100]

- Costly bodies: `--senders` clients each send two 240 KB JSON bodies of NaNs to `POST
  /api/uploads` while another client asks `GET /api/options` again and again. Printed: the
  bodies' wall and CPU time (the whole process), their answers' statuses and largest size,
  and the other client's median and largest latency.
- Kept-alive connections: `--rounds` `GET /api/options` on one connection to the socket
  `asara-serve` binds (`apps.serve.bound_socket`) and as many to uvicorn's own binding
  (`apps.serve.running`), in turn. Printed: each one's median latency.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from apps.serve import bound_socket, create_app, running

BODY_BYTES = 240 * 1024
TIMEOUT = 120.0


def nan_body(size: int = BODY_BYTES) -> bytes:
    count = (size - len(b'{"a":[]}')) // len(b"NaN,")
    return b'{"a":[' + b",".join([b"NaN"] * count) + b"]}"


def costly_bodies(senders: int) -> str:
    body = nan_body()

    with running() as url, ThreadPoolExecutor(senders) as pool:

        def send(_: int) -> list[tuple[int, int]]:
            with httpx.Client(base_url=url, timeout=TIMEOUT) as http:
                headers = {"content-type": "application/json"}
                answers = [http.post("/api/uploads", content=body, headers=headers) for _ in "ab"]
                return [(answer.status_code, len(answer.content)) for answer in answers]

        with httpx.Client(base_url=url, timeout=TIMEOUT) as probe:
            probe.get("/api/options")
            cpu, wall = time.process_time(), time.perf_counter()
            sent = [pool.submit(send, k) for k in range(senders)]
            latencies = []
            while not all(future.done() for future in sent):
                began = time.perf_counter()
                probe.get("/api/options")
                latencies.append(time.perf_counter() - began)
            answers = [answer for future in sent for answer in future.result()]
    return (
        f"{2 * senders} bodies in {time.perf_counter() - wall:.2f} s wall, "
        f"{time.process_time() - cpu:.2f} s CPU; statuses {sorted({s for s, _ in answers})}, "
        f"largest answer {max(n for _, n in answers)} bytes; the other client: "
        f"{len(latencies)} reads, median {1000 * statistics.median(latencies):.0f} ms, "
        f"largest {1000 * max(latencies):.0f} ms"
    )


def kept_alive(rounds: int) -> str:
    import uvicorn

    sock = bound_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    command = f"http://127.0.0.1:{sock.getsockname()[1]}"
    try:
        with running() as reference:
            clients = [httpx.Client(base_url=url, timeout=TIMEOUT) for url in (command, reference)]
            times: list[list[float]] = [[], []]
            for client in clients:
                client.get("/api/options")
            for _ in range(rounds):
                for client, took in zip(clients, times):
                    began = time.perf_counter()
                    client.get("/api/options")
                    took.append(time.perf_counter() - began)
            for client in clients:
                client.close()
    finally:
        server.should_exit = True
        thread.join(10)
    mine, uvicorns = (1000 * statistics.median(took) for took in times)
    return f"kept-alive GET median: asara-serve's socket {mine:.1f} ms, uvicorn's {uvicorns:.1f} ms"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--senders", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args(argv)
    print(kept_alive(args.rounds), flush=True)
    print(costly_bodies(args.senders), flush=True)


if __name__ == "__main__":
    main()
