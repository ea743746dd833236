"""The web server (apps/serve.py) holds under cheap requests and impersonation, on the real
server: a costly body holds up no other client, a client is a browser (its cookie) or its
connection's address (never a header it sends), and one client's work cannot starve
another's."""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import apps.asara.web  # noqa: E402
import apps.serve  # noqa: E402
from agents.base import RandomAgent  # noqa: E402
from apps.serve import TOKEN_HEADER, create_app, running  # noqa: E402
from tests.common.serve_client import LOCAL, NEW_GAME  # noqa: E402

HANG_GUARD = 60.0  # seconds: only a server that hangs takes this long
QUICK = 0.2  # seconds: another client's read answers within this, whatever one sends
STALL = 2.0  # seconds: no read waits this long (a body parsed on the event loop: ~1.4 s each)
NAN_BODY_BYTES = 240 * 1024
SENDERS = 8


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apps.asara.web, "svg_view", lambda view: "<svg/>")  # speed only


@pytest.fixture
def server() -> Iterator[str]:
    with running() as url:
        yield url


@contextlib.contextmanager
def browser(url: str) -> Iterator[httpx.Client]:
    """A client that keeps its cookies, as a browser does, having loaded the page."""
    with httpx.Client(base_url=url, timeout=HANG_GUARD) as http:
        assert http.get("/").status_code == 200
        yield http


def create(http: httpx.Client, **headers: str) -> dict[str, Any]:
    answer = http.post("/api/games", json=NEW_GAME["asara"], headers=headers)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def kept(http: httpx.Client, game: dict[str, Any]) -> bool:
    """Whether the server still holds `game`."""
    status = http.get(f"/api/games/{game['id']}", headers={TOKEN_HEADER: game["token"]})
    assert status.status_code in (200, 404)
    return status.status_code == 200


# ------------------------------------------------------------------------ costly bodies
def nan_body(size: int = NAN_BODY_BYTES) -> bytes:
    """A JSON object of `size` bytes holding a list of NaNs."""
    count = (size - len(b'{"a":[]}')) // len(b"NaN,")
    return b'{"a":[' + b",".join([b"NaN"] * count) + b"]}"


def test_eight_nan_bodies_leave_another_clients_read_quick(server):
    body = nan_body()
    assert len(body) > 0.99 * NAN_BODY_BYTES
    start = threading.Barrier(SENDERS + 1)

    def send(_: int) -> list[tuple[int, int]]:
        with httpx.Client(base_url=server, timeout=HANG_GUARD) as http:
            start.wait()
            answers = []
            for _ in range(2):
                answer = http.post(
                    "/api/uploads", content=body, headers={"content-type": "application/json"}
                )
                answers.append((answer.status_code, len(answer.content)))
            return answers

    with ThreadPoolExecutor(SENDERS) as pool, browser(server) as probe:
        assert probe.get("/api/options").status_code == 200  # the games' modules loaded
        sent = [pool.submit(send, k) for k in range(SENDERS)]
        start.wait()
        latencies: list[float] = []
        while not all(future.done() for future in sent) or len(latencies) < 5:
            began = time.perf_counter()
            assert probe.get("/api/options").status_code == 200
            latencies.append(time.perf_counter() - began)
        answers = [answer for future in sent for answer in future.result()]
    assert statistics.median(latencies) < QUICK and max(latencies) < STALL, latencies
    # each refused with a small answer (the request was 240 KB)
    assert all(status in (413, 422) and size < 1000 for status, size in answers), answers


def test_a_422_lists_a_few_errors_whatever_the_body():
    client = TestClient(create_app(), base_url=LOCAL)
    game = client.post("/api/games", json=NEW_GAME["asara"]).json()
    token = {TOKEN_HEADER: game["token"]}
    many_nans = b'{"action": [' + b",".join([b"NaN"] * 15_000) + b"]}"
    answer = client.post(
        f"/api/games/{game['id']}/moves",
        content=many_nans,
        headers=token | {"content-type": "application/json"},
    )
    assert answer.status_code == 422 and len(answer.content) < 2000
    detail = answer.json()["detail"]
    assert len(detail) == 6 and detail[-1]["msg"] == "and 14995 more"
    assert detail[0]["loc"][:2] == ["body", "action"]
    wrong = client.post("/api/uploads/x/continue", json={"opponents": [5] * 19_000})
    assert wrong.status_code == 422 and len(wrong.content) < 2000
    typed = client.post(
        f"/api/games/{game['id']}/moves", json={"action": "x" * 200_000}, headers=token
    )
    assert typed.status_code == 422 and len(typed.content) < 2000


def test_bodies_are_bounded_in_values_and_depth():
    client = TestClient(create_app(), base_url=LOCAL)
    many = client.post("/api/games", json=NEW_GAME["asara"] | {"opponents": [1] * 30_000})
    assert many.status_code == 413 and "20000" in many.json()["detail"]
    deep: Any = 1
    for _ in range(40):
        deep = {"a": deep}
    nested = client.post("/api/games", json=NEW_GAME["asara"] | {"x": deep})
    assert nested.status_code == 413 and "deeper than 32" in nested.json()["detail"]
    brackets = client.post(
        "/api/games",
        content=b"[" * 5000 + b"]" * 5000,
        headers={"content-type": "application/json"},
    )
    assert brackets.status_code == 413
    fine = client.post("/api/games", json=NEW_GAME["asara"] | {"opponents": ["x"] * 3000})
    assert fine.status_code == 400  # within the bounds: the game refuses the lineup


# ------------------------------------------------------------------------ who a client is
def test_a_spoofed_forwarded_for_is_held_to_one_clients_limit():
    with running(max_games=30) as url, browser(url) as victim:
        victims = [create(victim) for _ in range(3)]
        made = []
        for k in range(60):  # a fresh client each time, each naming another address
            with httpx.Client(base_url=url, timeout=HANG_GUARD) as spoofer:
                made.append(create(spoofer, **{"X-Forwarded-For": f"10.1.{k}.1"}))
        assert [kept(victim, game) for game in made] == [False] * 40 + [True] * 20
        assert all(kept(victim, game) for game in victims)


def test_two_browsers_on_the_default_server_keep_their_games(server):
    with browser(server) as alice, browser(server) as bob:
        alices = [create(alice) for _ in range(3)]
        bobs = [create(bob) for _ in range(25)]
        assert all(kept(alice, game) for game in alices)
        assert [kept(bob, game) for game in bobs] == [False] * 5 + [True] * 20


def test_a_proxy_is_trusted_only_when_named():
    def creations(app: Any, forwarded: str) -> list[dict[str, Any]]:
        proxy = TestClient(app, base_url=LOCAL, client=("10.0.0.9", 5000))
        made = []
        for _ in range(21):
            proxy.cookies.clear()  # a program that keeps no cookie
            answer = proxy.post(
                "/api/games", json=NEW_GAME["asara"], headers={"X-Forwarded-For": forwarded}
            )
            made.append(answer.json())
        return made

    trusting = create_app(trust_proxy=["10.0.0.9"])
    first, second = creations(trusting, "1.1.1.1"), creations(trusting, "2.2.2.2")
    assert len(trusting.state.games) == 40  # two clients, 20 each
    assert {first[-1]["id"], second[-1]["id"]} <= trusting.state.games.held()
    plain = create_app()
    creations(plain, "1.1.1.1")
    creations(plain, "2.2.2.2")
    assert len(plain.state.games) == 20  # one client: the proxy's address


def test_a_remote_client_is_its_address_whatever_cookies_it_gets():
    app = create_app()
    for _ in range(25):  # a fresh browser each time, from one address
        remote = TestClient(app, base_url=LOCAL, client=("10.0.0.5", 5000))
        assert remote.get("/").status_code == 200
        assert remote.post("/api/games", json=NEW_GAME["asara"]).status_code == 201
    assert len(app.state.games) == 20


def test_the_command_trusts_only_the_proxies_it_names(monkeypatch):
    import uvicorn

    made: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: sockets[0].close())
    monkeypatch.setattr(apps.serve, "preload", lambda say=print: None)
    monkeypatch.setattr(apps.serve, "create_app", lambda **limits: made.append(limits))
    apps.serve.main(["--port", "0"])
    apps.serve.main(["--port", "0", "--trust-proxy", "10.0.0.9,10.0.0.10", "--trust-proxy", "::1"])
    assert [limits["trust_proxy"] for limits in made] == [[], ["10.0.0.9", "10.0.0.10", "::1"]]


def test_a_forged_cookie_names_no_browser():
    app = create_app()
    client = TestClient(app, base_url=LOCAL, client=("127.0.0.1", 5000))
    assert "asara_client" in client.get("/").cookies
    genuine = client.cookies["asara_client"]
    forged = genuine.rpartition(".")[0] + "." + "0" * 32
    mallory = TestClient(
        app, base_url=LOCAL, client=("127.0.0.1", 5001), cookies={"asara_client": forged}
    )
    answer = mallory.get("/api/options")
    assert answer.status_code == 200 and answer.cookies["asara_client"] != forged


@pytest.mark.parametrize("value", ['"\\351.x"', "\u00e9.x", "a.b.c", '"'])
def test_a_cookie_of_any_text_names_no_browser_and_is_answered(value):
    """An escape in a quoted cookie unquotes to a non-ASCII value: it names no browser."""
    client = TestClient(app := create_app(), base_url=LOCAL, client=("127.0.0.1", 5000))
    cookie = f"asara_client={value}".encode("latin-1")
    answer = client.post("/api/games", json=NEW_GAME["asara"], headers={"cookie": cookie})
    assert answer.status_code == 201 and answer.cookies["asara_client"] != value
    assert len(app.state.games) == 1


# ------------------------------------------------------------------------ fair game threads
class SlowOpponents:
    """Opponents that wait at the gate, but the random ones, which move at once."""

    def __init__(self, choose: Any) -> None:
        self.choose, self.open = choose, threading.Event()
        self.waiting = threading.Semaphore(0)

    def __call__(self, agent: Any, state: Any) -> int:
        if not isinstance(agent, RandomAgent):
            self.waiting.release()
            assert self.open.wait(HANG_GUARD), "the test never opened the gate"
        return int(self.choose(agent, state))


def test_a_clients_create_and_move_are_answered_while_another_holds_40_slow_creates(
    monkeypatch, server
):
    gate = SlowOpponents(apps.asara.web.choose)
    monkeypatch.setattr(apps.asara.web, "choose", gate)
    slow = NEW_GAME["asara"] | {"seat": 1, "opponents": ["greedy"]}
    with browser(server) as mallory, browser(server) as alice, ThreadPoolExecutor(40) as pool:
        held = [pool.submit(mallory.post, "/api/games", json=slow) for _ in range(40)]
        try:
            assert gate.waiting.acquire(timeout=HANG_GUARD)  # mallory's searches think
            game = alice.post("/api/games", json=NEW_GAME["asara"], timeout=HANG_GUARD / 6)
            assert game.status_code == 201, game.text
            body = {"action": game.json()["moves"][0]["id"], "decision": 0}
            moved = alice.post(
                f"/api/games/{game.json()['id']}/moves",
                json=body,
                headers={TOKEN_HEADER: game.json()["token"]},
                timeout=HANG_GUARD / 6,
            )
            assert moved.status_code == 200, moved.text
            refused = as_completed(held, timeout=HANG_GUARD)  # the gate holds the others
            assert [next(refused).result().status_code for _ in range(31)] == [503] * 31
        finally:
            gate.open.set()
        statuses = sorted(future.result().status_code for future in held)
    # mallory's share: a quarter of the 4 threads and 32 places; the rest refused at once
    assert statuses == [201] * 9 + [503] * 31
