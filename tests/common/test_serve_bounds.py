"""Every piece of work a request to the web server (apps/serve.py) can cause is bounded,
checked when the request arrives: search budgets, the games' threads (slow opponents
never hold up other requests), an animated replay's size, the games one client holds,
undecodable text, reads racing a move, the `Host` a request names, the API's own pages,
and an upload's lineup. Also what loads: a terminal game's saved game opens on the page."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import threading
import tracemalloc
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi import HTTPException  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import apps.asara.web  # noqa: E402
import apps.serve  # noqa: E402
from apps.asara.cli import asara_parser  # noqa: E402
from apps.basari.web import ENGINE as BASARI_ENGINE  # noqa: E402
from apps.basari.web import make_session  # noqa: E402
from apps.serve import MAX_REPLAY_BYTES, allowed_hosts, create_app, main, running  # noqa: E402
from apps.webgame import PAGE_SEARCH_LIMITS, UPLOAD_FORMAT, web_games  # noqa: E402
from apps.weblimits import TOKEN_HEADER, Store, Workers, host_name  # noqa: E402
from apps.webrecord import Origin  # noqa: E402
from asara_env.basari.config import BasariConfig  # noqa: E402
from asara_env.basari.constants import BOARD  # noqa: E402
from asara_env.basari.reference.engine import new_game  # noqa: E402
from asara_env.basari.reference.rules import acting_seats, legal_actions  # noqa: E402
from asara_env.common.record import SavedGame  # noqa: E402
from tests.common.serve_client import LOCAL, NEW_GAME, auth, play_out, start  # noqa: E402

HANG_GUARD = 60.0  # seconds: only a server that hangs takes this long


@pytest.fixture(params=web_games())
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# ------------------------------------------------------------------------ search budgets
@pytest.mark.parametrize(
    "spec, limit",
    [
        ("flatmc:seconds=100000000", "3600"),  # over the registry's own range
        (f"ismcts:sims={10**12}", "1000000"),
        ("flatmc:seconds=8", "seconds=5"),  # in the registry's range, over the page's
        ("flatmc:sims=4096", "sims=2048"),
        ("ismcts:wave=1024", "wave=512"),
        ("flatmc:batch=4096", "batch=2048"),
    ],
)
def test_a_huge_search_budget_is_refused_naming_the_limit(spec, limit):
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    answer = client.post("/api/games", json=NEW_GAME["asara"] | {"opponents": [spec]})
    assert answer.status_code == 400, answer.text
    assert limit in answer.json()["detail"] and spec in answer.json()["detail"]
    assert len(app.state.games) == 0


def test_the_page_limits_are_inside_the_registrys_ranges():
    from agents.asara import ISMCTS_OPTIONS

    for key, limit in PAGE_SEARCH_LIMITS.items():
        assert ISMCTS_OPTIONS[key].allows(limit), key


# ------------------------------------------------------------------------ the games' threads
class Gate:
    """Opponents that wait at the gate when asked to move: slow thinking on demand."""

    def __init__(self, choose: Any) -> None:
        self.choose, self.open = choose, threading.Event()
        self.waiting = threading.Semaphore(0)

    def __call__(self, agent: Any, state: Any) -> int:
        self.waiting.release()
        assert self.open.wait(HANG_GUARD), "the test never opened the gate"
        return int(self.choose(agent, state))


def test_slow_opponents_leave_every_other_request_answered(monkeypatch):
    gate = Gate(apps.asara.web.choose)
    monkeypatch.setattr(apps.asara.web, "choose", gate)
    threads, queue, creates = 4, 32, 42
    body = NEW_GAME["asara"] | {"seat": 1}  # the opponent moves first: at the gate

    with running(game_threads=threads, game_queue=queue) as url, httpx.Client() as http:

        def create(_: int) -> int:  # each a browser of its own: one game each
            with httpx.Client(timeout=HANG_GUARD) as own:
                assert own.get(f"{url}/").status_code == 200
                return own.post(f"{url}/api/games", json=body).status_code

        with ThreadPoolExecutor(creates) as pool:
            answers = [pool.submit(create, i) for i in range(creates)]
            for _ in range(threads):  # every game thread is thinking
                assert gate.waiting.acquire(timeout=HANG_GUARD)
            try:  # the server's request threads are free: other requests are answered
                options = http.get(f"{url}/api/options", timeout=HANG_GUARD / 6)
                page = http.get(f"{url}/", timeout=HANG_GUARD / 6)
                # the gate stays shut until every create has reached the server: the
                # accepted ones wait for the gate, so the first answers are the refusals
                finished = as_completed(answers, timeout=HANG_GUARD)
                first = [next(finished).result() for _ in range(creates - threads - queue)]
            finally:
                gate.open.set()
            statuses = sorted(a.result() for a in answers)
    assert options.status_code == 200 and "asara" in options.json()["games"]
    assert page.status_code == 200
    assert first == [503] * (creates - threads - queue)
    # the queue held the jobs it could; the others were refused at once, naming the limits
    assert statuses.count(201) == threads + queue
    assert statuses.count(503) == creates - threads - queue


def test_a_full_queue_is_a_503_naming_the_limits(monkeypatch):
    gate = Gate(apps.asara.web.choose)
    monkeypatch.setattr(apps.asara.web, "choose", gate)
    body = NEW_GAME["asara"] | {"seat": 1}
    with running(game_threads=1, game_queue=0) as url, ThreadPoolExecutor(1) as pool:
        first = pool.submit(httpx.post, f"{url}/api/games", json=body, timeout=HANG_GUARD)
        assert gate.waiting.acquire(timeout=HANG_GUARD)
        try:
            busy = httpx.post(f"{url}/api/games", json=body, timeout=HANG_GUARD)
        finally:
            gate.open.set()
        assert first.result().status_code == 201
    assert busy.status_code == 503 and busy.headers["retry-after"]
    assert "1 game threads" in busy.json()["detail"] and "0 more jobs" in busy.json()["detail"]


# ------------------------------------------------------------------------ replays
def long_basari_game(archways: int, seed: int = 0) -> tuple[BasariConfig, list[list[int]]]:
    """A whole 2-player BASARI game of random moves on a board of `archways` archways."""
    board = np.tile(BOARD, (archways // len(BOARD) + 1, 1))[:archways]
    config = BasariConfig(num_players=2, board=board)
    state, rng, joints = new_game(config, seed), np.random.default_rng(seed), []
    while state.phase.name != "OVER":
        joint = [
            int(rng.choice(np.flatnonzero(legal_actions(state, s))))
            if s in acting_seats(state)
            else config.actions.noop
            for s in range(2)
        ]
        BASARI_ENGINE.step(state, joint)
        joints.append(joint)
    return config, joints


class Counted:
    """A drawing function that counts its pictures."""

    def __init__(self, draw: Any) -> None:
        self.draw, self.count = draw, 0

    def __call__(self, state: Any) -> str:
        self.count += 1
        return str(self.draw(state))


def held_session(app: Any, archways: int, draw: Counted) -> tuple[Any, dict[str, str]]:
    """A finished BASARI game on a board of `archways`, held by the app: (its session, the
    token header)."""
    config, joints = long_basari_game(archways)
    engine = dataclasses.replace(BASARI_ENGINE, draw_full=draw)
    session = make_session(Origin(engine, config, 0), joints, ["random"], 0)
    assert session.over
    session.id, token = app.state.games.add(session, "testclient")
    return session, {TOKEN_HEADER: token}


def test_a_1000_archway_replay_is_refused_at_once_naming_the_limit():
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    draw = Counted(BASARI_ENGINE.draw_full)
    session, headers = held_session(app, 1000, draw)
    assert len(session.decisions) > 7000
    tracemalloc.start()
    try:
        answer = client.get(f"/api/games/{session.id}/replay.svg", headers=headers)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.status_code == 413, answer.text[:200]
    assert f"limit of {MAX_REPLAY_BYTES // 2**20} MiB" in answer.json()["detail"]
    assert draw.count == 1  # only the first picture was drawn, to estimate the size
    print(f"1000 archways, {len(session.decisions)} decisions: peak {peak / 2**20:.1f} MiB")
    assert peak < 16 * 2**20  # one picture (~0.7 MB) and the request, not 8,000 pictures


def test_a_replay_is_sent_a_picture_at_a_time():
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    draw = Counted(BASARI_ENGINE.draw_full)
    session, headers = held_session(app, len(BOARD), draw)
    first_size = len(BASARI_ENGINE.draw_full(session.origin.state()))
    gc.collect()
    tracemalloc.start()
    try:
        answer = client.get(f"/api/games/{session.id}/replay.svg", headers=headers)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.status_code == 200, answer.text[:200]
    frames = len(session.decisions) + 1
    assert answer.text.count('class="frame"') == frames == draw.count
    assert answer.text.startswith("<svg") and answer.text.endswith("</svg>")
    # the response itself is about frames * first_size; the frames were never held at once
    total = len(answer.content)
    print(f"{frames} frames, {total / 2**20:.1f} MiB sent, peak traced {peak / 2**20:.1f} MiB")
    assert total > 20 * first_size


class Threads(Counted):
    """A drawing function that notes the threads it draws on."""

    def __init__(self, draw: Any) -> None:
        super().__init__(draw)
        self.threads: set[str] = set()

    def __call__(self, state: Any) -> str:
        self.threads.add(threading.current_thread().name)
        return super().__call__(state)


def test_every_picture_of_a_replay_is_drawn_on_the_game_threads_in_the_clients_place():
    app = create_app(game_threads=1, game_queue=3)  # one job of a client's at a time
    client = TestClient(app, base_url=LOCAL)
    draw = Threads(BASARI_ENGINE.draw_full)
    session, headers = held_session(app, len(BOARD), draw)
    for _ in range(2):  # the first replay's place is given back
        answer = client.get(f"/api/games/{session.id}/replay.svg", headers=headers)
        assert answer.status_code == 200, answer.text[:200]
    assert draw.count == 2 * (len(session.decisions) + 1)
    assert {name.split("_")[0] for name in draw.threads} == {"game-work"}, draw.threads
    small = create_app(game_threads=1, game_queue=3, max_replay_bytes=10_000)
    small_client = TestClient(small, base_url=LOCAL)
    session, headers = held_session(small, len(BOARD), Counted(BASARI_ENGINE.draw_full))
    for _ in range(2):  # a refused replay gives its place back too
        answer = small_client.get(f"/api/games/{session.id}/replay.svg", headers=headers)
        assert answer.status_code == 413


def test_a_clients_streams_count_against_its_share_of_the_game_threads():
    workers = Workers(4, 4)  # a client's share: 2 jobs

    async def scenario() -> None:
        holds = [workers.hold("mallory") for _ in range(workers.client_jobs)]
        with pytest.raises(HTTPException) as refused:
            workers.hold("mallory")
        assert refused.value.status_code == 503
        with pytest.raises(HTTPException):
            await workers.run(lambda: 0, "mallory")
        assert await workers.run(lambda: 1, "alice") == 1
        assert [await hold.run(lambda: 2) for hold in holds] == [2, 2]
        holds[0].release()
        holds[0].release()  # once only
        assert await workers.run(lambda: 3, "mallory") == 3
        holds.append(workers.hold("mallory"))
        with pytest.raises(HTTPException):
            workers.hold("mallory")

    try:
        asyncio.run(scenario())
    finally:
        workers.close()


class Stalled(Counted):
    """A replay's drawing function that draws its first picture and stalls at the next
    until the gate opens."""

    def __init__(self, draw: Any, gate: Gate) -> None:
        super().__init__(draw)
        self.gate = gate

    def __call__(self, state: Any) -> str:
        if self.count:
            self.gate.waiting.release()
            assert self.gate.open.wait(HANG_GUARD), "the test never opened the gate"
        return super().__call__(state)


def test_a_client_streaming_many_replays_takes_only_its_share(monkeypatch):
    monkeypatch.setattr(apps.asara.web, "svg_view", lambda view: "<svg/>")  # speed only
    app = create_app()  # 4 threads, 32 places: a client's share 9 jobs on 2 threads
    gate = Gate(None)
    replays = []
    for _ in range(12):
        session, headers = held_session(app, len(BOARD), Stalled(BASARI_ENGINE.draw_full, gate))
        replays.append((f"/api/games/{session.id}/replay.svg", headers))
    with (
        running(app=app) as url,
        httpx.Client(base_url=url, timeout=HANG_GUARD) as mallory,
        httpx.Client(base_url=url, timeout=HANG_GUARD) as alice,
        ThreadPoolExecutor(len(replays)) as pool,
    ):
        assert mallory.get("/").status_code == 200  # one browser: its cookie
        sent = [pool.submit(mallory.get, path, headers=h) for path, h in replays]
        try:
            assert gate.waiting.acquire(timeout=HANG_GUARD)  # mallory's replays draw
            game = alice.post("/api/games", json=NEW_GAME["asara"], timeout=HANG_GUARD / 6)
            assert game.status_code == 201, game.text
            refused = as_completed(sent, timeout=HANG_GUARD)  # the gate holds the others
            assert [next(refused).result().status_code for _ in range(3)] == [503] * 3
        finally:
            gate.open.set()
        statuses = sorted(future.result().status_code for future in sent)
    assert statuses == [200] * 9 + [503] * 3


def test_a_replay_over_the_limit_is_a_413():
    client = TestClient(create_app(max_replay_bytes=10_000), base_url=LOCAL)
    game = play_out(client, start(client, "basari"))
    answer = client.get(f"/api/games/{game['id']}/replay.svg", headers=auth(game))
    assert answer.status_code == 413 and "over this server's limit" in answer.json()["detail"]


# ------------------------------------------------------------------------ per client
def test_another_clients_games_survive_a_thousand_creations(monkeypatch):
    monkeypatch.setattr(apps.asara.web, "svg_view", lambda view: "<svg/>")  # speed only
    app = create_app()
    bob = TestClient(app, base_url=LOCAL, client=("10.0.0.2", 50000))
    mallory = TestClient(app, base_url=LOCAL, client=("10.0.0.3", 50000))
    bobs = start(bob, "asara")
    finished = play_out(bob, start(bob, "asara", seed=6))
    record = bob.get(f"/api/games/{finished['id']}/record", headers=auth(finished)).json()
    upload = bob.post("/api/uploads?game=asara", json=record).json()
    for _ in range(1000):
        start(mallory, "asara", seed=None)
    for _ in range(250):
        assert mallory.post("/api/uploads?game=asara", json=record).status_code == 201
    assert bob.get(f"/api/games/{bobs['id']}", headers=auth(bobs)).status_code == 200
    assert bob.get(f"/api/uploads/{upload['id']}/frames/0", headers=auth(upload)).status_code == 200
    assert len(app.state.games) == 2 + 20 and len(app.state.uploads) == 1 + 20


def test_a_full_store_evicts_from_the_client_holding_the_most():
    store: Store[str] = Store("game", 4, 100.0, lambda: 0.0, per_owner=2)
    a1, a2, b, c = (store.add(item, item[0])[0] for item in ("a1", "a2", "b", "c"))
    d = store.add("d", "d")[0]  # full: a holds the most, its least recently used goes
    assert store.held() == {a2, b, c, d}
    b2 = store.add("b2", "b")[0]  # full, each holds one: the least recently used goes
    assert store.held() == {b, c, d, b2}
    b3 = store.add("b3", "b")[0]  # b at its own limit: its own least recently used goes
    assert store.held() == {c, d, b2, b3}


# ------------------------------------------------------------------------ undecodable text
def test_a_lone_surrogate_is_a_422_not_a_500(game_name):
    client = TestClient(create_app(), base_url=LOCAL)
    game = start(client, game_name)
    headers = {"content-type": "application/json"}
    answer = client.post(
        f"/api/games/{game['id']}/moves",
        content='{"action": "\\ud800"}',
        headers=auth(game) | headers,
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"] == ["body", "action"]
    finished = play_out(client, start(client, game_name, seed=3))
    record = client.get(f"/api/games/{finished['id']}/record", headers=auth(finished)).json()
    half = record | {"record": record["record"] | {"actions": record["record"]["actions"][:3]}}
    upload = client.post(f"/api/uploads?game={game_name}", json=half).json()
    url = f"/api/uploads/{upload['id']}/continue"
    body = '{"opponents": ["\\ud800"], "seat": 0}'
    answer = client.post(url, content=body, headers=auth(upload) | headers)
    assert answer.status_code in (400, 422), answer.text
    answer = client.post(url, content='{"seat": "\\udfff"}', headers=auth(upload) | headers)
    assert answer.status_code == 422, answer.text
    answer = client.post("/api/games", content='{"game": "\\ud800"}', headers=headers)
    assert answer.status_code in (404, 422), answer.text


# ------------------------------------------------------------------------ torn reads
class ChangeOnRelease:
    """A session lock that, the moment it is released, changes the game's log as a move
    running right then would: an answer encoded after the release would show it."""

    def __init__(self, session: Any) -> None:
        self.session, self.lock = session, threading.Lock()

    def __enter__(self) -> None:
        self.lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self.session.log.append({"kind": "move", "decision": 10**6, "text": "torn"})
        self.lock.release()


def test_an_answer_is_encoded_before_the_game_can_change(game_name):
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    game = start(client, game_name)
    session = app.state.games.get(game["id"], game["token"])
    session.lock = ChangeOnRelease(session)
    body = {"action": game["moves"][0]["id"], "decision": game["decisions"]}
    moved = client.post(f"/api/games/{game['id']}/moves", json=body, headers=auth(game))
    shown = client.get(f"/api/games/{game['id']}", headers=auth(game))
    assert session.log[-1]["text"] == "torn"  # the change came right after the move
    for answer in (moved, shown):
        assert answer.status_code == 200
        assert "torn" not in answer.text
        log = answer.json()["log"]
        assert max([e["decision"] for e in log], default=0) <= answer.json()["decisions"]


def test_reads_racing_moves_always_see_one_whole_position():
    with running() as url, httpx.Client(timeout=HANG_GUARD) as http:
        body = NEW_GAME["asara"] | {"seed": 2, "opponents": ["greedy"]}
        game = http.post(f"{url}/api/games", json=body).json()
        done, torn = threading.Event(), []

        def read() -> None:
            with httpx.Client(timeout=HANG_GUARD) as own:
                while not done.is_set():
                    seen = own.get(f"{url}/api/games/{game['id']}", headers=auth(game)).json()
                    last = max([e["decision"] for e in seen["log"]], default=0)
                    if last > seen["decisions"]:
                        torn.append((last, seen["decisions"]))

        readers = [threading.Thread(target=read) for _ in range(3)]
        for reader in readers:
            reader.start()
        try:
            while not game["over"]:
                move = {"action": game["moves"][0]["id"], "decision": game["decisions"]}
                answer = http.post(
                    f"{url}/api/games/{game['id']}/moves", json=move, headers=auth(game)
                )
                game = answer.json() | {"token": game["token"]}
        finally:
            done.set()
            for reader in readers:
                reader.join(HANG_GUARD)
    assert torn == []


# ------------------------------------------------------------------------ Host, API pages
def test_a_foreign_host_is_refused_and_the_loopback_names_answered():
    app = create_app()
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""):
        answer = TestClient(app).get("/api/options", headers={"host": host})
        assert answer.status_code == 400, host
        assert "localhost" in answer.json()["detail"] and "--allow-host" in answer.json()["detail"]
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST"):
        assert TestClient(app).get("/api/options", headers={"host": host}).status_code == 200
    named = create_app(allowed_hosts=["games.example"])
    assert TestClient(named).get("/", headers={"host": "games.example:80"}).status_code == 200
    assert TestClient(named).get("/", headers={"host": "localhost"}).status_code == 400
    assert TestClient(create_app(allowed_hosts=["*"])).get("/").status_code == 200
    assert [host_name(h) for h in ("[::1]:80", "a.b:1", "::1", "A.B")] == [
        "::1",
        "a.b",
        "::1",
        "a.b",
    ]


def test_the_api_pages_are_served_only_when_asked_for():
    off = TestClient(create_app(), base_url=LOCAL)
    on = TestClient(create_app(api_docs=True), base_url=LOCAL)
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert off.get(path).status_code == 404, path
        assert on.get(path).status_code == 200, path


# ------------------------------------------------------------------------ uploads
def page_download(client: TestClient, game_name: str) -> dict[str, Any]:
    finished = play_out(client, start(client, game_name, seed=4))
    return dict(client.get(f"/api/games/{finished['id']}/record", headers=auth(finished)).json())


def test_an_uploaded_lineup_is_checked(game_name):
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    download = page_download(client, game_name)
    assert download["format"] == UPLOAD_FORMAT
    players = len(download["lineup"])
    bad = {
        "an unknown agent": [None, *["nosuch"] * (players - 1)],
        "one seat too many": [None, *["random"] * players],
        "a search over the page's limits": [None, *["flatmc:seconds=99"] * (players - 1)],
    }
    for why, lineup in bad.items():
        answer = client.post(
            f"/api/uploads?game={game_name}", json=download | {"lineup": lineup, "seat": 0}
        )
        assert answer.status_code == 400, (why, answer.text)
        assert "lineup" in answer.json()["detail"], why
    assert len(app.state.uploads) == 0
    assert client.post(f"/api/uploads?game={game_name}", json=download).status_code == 201


def test_a_terminal_games_saved_game_opens_on_the_page(game_name):
    client = TestClient(create_app(), base_url=LOCAL)
    record = page_download(client, game_name)["record"]
    players = record["config"]["num_players"]
    half = record | {"actions": record["actions"][:4]}
    seats: list[str | None] = ["random"] * players
    seats[1] = None
    saved = SavedGame(game_name, half, seats).to_dict()  # what `play --save` writes
    answer = client.post(f"/api/uploads?game={game_name}", json=saved)
    assert answer.status_code == 201, answer.text
    assert answer.json()["lineup"] == seats and answer.json()["seat"] == 1
    assert answer.json()["frames"] == 5 and not answer.json()["over"]
    other = "basari" if game_name == "asara" else "asara"
    wrong = client.post(f"/api/uploads?game={other}", json=saved)
    assert wrong.status_code == 400 and game_name.upper() in wrong.json()["detail"]


def test_the_refusal_of_a_non_game_reads_well():
    client = TestClient(create_app(), base_url=LOCAL)
    asara = client.post("/api/uploads?game=asara", json={"x": 1}).json()["detail"]
    basari = client.post("/api/uploads?game=basari", json={"x": 1}).json()["detail"]
    assert "neither an ASARA game record" in asara and "a ASARA" not in asara
    assert "neither a BASARI game record" in basari


def test_basari_seats_are_named_alike_on_the_board_and_in_the_log():
    client = TestClient(create_app(), base_url=LOCAL)
    game = start(client, "basari", seat=1)
    assert "player_" not in game["board"]["svg"] and "P1 (you)" in game["board"]["svg"]
    assert all("player_" not in entry["text"] for entry in game["log"])


# ------------------------------------------------------------------------ the command
@pytest.fixture
def no_serving(monkeypatch):
    """The command runs up to serving: uvicorn's loop and the models are left out."""
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(sockets))
    monkeypatch.setattr(apps.serve, "preload", lambda say=print: None)
    return served


def test_port_0_prints_the_port_it_bound(no_serving, capsys):
    main(["--port", "0"])
    (sock,) = no_serving[-1]
    port = sock.getsockname()[1]
    sock.close()
    assert port != 0
    assert f"open http://127.0.0.1:{port}/?game=asara" in capsys.readouterr().out


@pytest.mark.parametrize(
    "flags, named",
    [
        (["--host", "no-such-host.invalid"], "--host no-such-host.invalid"),
        (["--records", "FILE"], "argument --records"),
    ],
)
def test_a_bad_host_or_records_is_one_line_before_anything_loads(
    flags, named, no_serving, capsys, tmp_path, monkeypatch
):
    file = tmp_path / "afile.txt"
    file.write_text("x")
    monkeypatch.setattr(apps.serve, "create_app", lambda **_: pytest.fail("the app was made"))
    with pytest.raises(SystemExit) as exit_:
        main(["--port", "0", *[str(file) if f == "FILE" else f for f in flags]])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert named in err and err.count("\n") == 1 and "Traceback" not in err
    assert no_serving == []


def test_the_allowed_hosts_follow_the_flags(no_serving):
    parser = asara_parser()
    args = parser.parse_args(["serve", "--host", "192.168.1.5", "--allow-host", "games.lan"])
    assert {"192.168.1.5", "games.lan", "localhost"} <= set(allowed_hosts(args))
    args = parser.parse_args(["serve", "--host", "0.0.0.0"])
    assert "0.0.0.0" not in allowed_hosts(args)


def test_json_answers_are_ascii_safe():
    client = TestClient(create_app(), base_url=LOCAL)
    answer = client.post("/api/games", json=NEW_GAME["asara"] | {"opponents": ["zß\ud7ff"]})
    assert answer.status_code == 400
    json.loads(answer.content.decode("ascii"))
