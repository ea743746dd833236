"""The web server's connections (apps/serve.py), on the real server: the `asara-serve`
command answers a kept-alive connection as fast as uvicorn's own binding (TCP_NODELAY), a
body over the limit gets its 413 (not a reset connection), and the `Host` header must
name an allowed host exactly."""

from __future__ import annotations

import http.client
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import apps.serve  # noqa: E402
from apps.serve import bound_socket, create_app, main, running  # noqa: E402

HANG_GUARD = 60.0  # seconds: only a server that hangs takes this long
ROUNDS = 40  # requests timed on each server
NOISE = 0.010  # seconds: the busy machine's jitter, well under the ~40 ms of a held answer
UPLOADS = 30
LARGE_UPLOAD = 4 * 2**20  # bytes: a large saved game, over the limit
CHUNK = 64 * 1024


@pytest.fixture
def asara_serve(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The `asara-serve` command itself serving on a free port in a thread (the shipped
    models left unloaded); yields its URL."""
    import uvicorn

    monkeypatch.setattr(apps.serve, "preload", lambda say=print: None)
    servers: list[Any] = []
    run = uvicorn.Server.run

    def recorded(self: Any, sockets: Any = None) -> None:
        servers.append(self)
        run(self, sockets=sockets)

    monkeypatch.setattr(uvicorn.Server, "run", recorded)
    thread = threading.Thread(target=main, args=(["--port", "0"],), daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG_GUARD
    while not (servers and servers[0].started):
        assert thread.is_alive() and time.monotonic() < deadline, "asara-serve did not start"
        time.sleep(0.02)
    port = servers[0].servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        servers[0].should_exit = True
        thread.join(HANG_GUARD)


def test_the_listening_socket_is_tcp():
    sock = bound_socket("127.0.0.1", 0)
    try:  # asyncio sets TCP_NODELAY on the connections of a socket made for TCP only
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()


def test_asara_serve_answers_a_kept_alive_connection_as_fast_as_uvicorns_binding(asara_serve):
    with running() as reference:
        clients = [
            httpx.Client(base_url=url, timeout=HANG_GUARD) for url in (asara_serve, reference)
        ]
        times: list[list[float]] = [[], []]
        for client in clients:
            client.get("/api/options")  # the connection opened, the options loaded
        for _ in range(ROUNDS):  # in turn, so that both see the same load
            for client, took in zip(clients, times, strict=True):
                began = time.perf_counter()
                assert client.get("/api/options").status_code == 200
                took.append(time.perf_counter() - began)
        for client in clients:
            client.close()
    command, uvicorns = (statistics.median(took) for took in times)
    assert command <= 2 * uvicorns + NOISE, (command, uvicorns)


@pytest.mark.parametrize("chunked", [False, True])
def test_every_upload_over_the_limit_on_a_reused_connection_reads_its_413(chunked):
    """As a browser sends it: the whole body, then the answer read (`http.client` reports
    a reset connection, where httpx would read an answer sent before the reset)."""
    body = b"x" * LARGE_UPLOAD

    def content() -> Iterator[bytes]:
        for start in range(0, len(body), CHUNK):
            yield body[start : start + CHUNK]

    answers = []
    with running() as url:
        where = urlsplit(url)
        connection = http.client.HTTPConnection(str(where.hostname), where.port, timeout=HANG_GUARD)
        try:
            for _ in range(UPLOADS):
                connection.request("GET", "/api/options")  # the connection is in use
                assert connection.getresponse().read()
                connection.request(
                    "POST",
                    "/api/uploads",
                    body=content() if chunked else body,
                    headers={"Content-Type": "application/json"},
                    encode_chunked=chunked,
                )
                answer = connection.getresponse()
                answer.read()
                answers.append(answer.status)
        finally:
            connection.close()
    assert answers == [413] * UPLOADS


@pytest.mark.parametrize(
    "host",
    ["localhost:evil", "[::1]evil.example", "localhost:", "localhost:80:80", "[::1]:x", "[::1"],
)
def test_a_host_that_only_begins_with_an_allowed_one_is_refused(host):
    answer = TestClient(create_app()).get("/api/options", headers={"host": host})
    assert answer.status_code == 400
