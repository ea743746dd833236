"""The web server (apps/serve.py) keeps players apart and its resources bounded, for every
game it serves: a game or upload opens only with its creator's token, on every endpoint;
abandoned and finished games are evicted (by a limit and by idle time, on an injected
clock) and memory falls back; JSON is strict (no NaN/Infinity, no coerced ints: a 422
naming the field); bodies are capped (413)."""

from __future__ import annotations

import gc
import json
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.routing import APIRoute  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import apps.asara.web  # noqa: E402
import apps.basari.web  # noqa: E402
import apps.serve  # noqa: E402
from apps.asara.cli import asara_parser  # noqa: E402
from apps.serve import MAX_BODY, TOKEN_HEADER, Store, create_app, is_local, main  # noqa: E402
from apps.webgame import web_games  # noqa: E402
from asara_env.asara.reference.record import GameRecord as AsaraRecord  # noqa: E402
from asara_env.asara.reference.record import replay as asara_replay  # noqa: E402
from asara_env.basari.reference.record import GameRecord as BasariRecord  # noqa: E402
from asara_env.basari.reference.record import replay as basari_replay  # noqa: E402
from tests.common.serve_client import LOCAL, NEW_GAME, auth, play_out, start  # noqa: E402

OWNED = re.compile(r"\{(game_id|upload_id)\}")  # the path parameters that name a held thing


def final_scores(game: str, record: dict[str, Any]) -> list[int]:
    """The final scores the record replays to, by the game's own engine."""
    if game == "asara":
        return list(asara_replay(AsaraRecord.from_dict(record)).prestige)
    return basari_replay(BasariRecord.from_dict(record)).score.tolist()


SCORE_COLUMN = {"asara": "prestige", "basari": "score"}


@pytest.fixture(params=web_games())
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------------ isolation
def owned_routes(app) -> list[tuple[str, str]]:
    """(method, path) of every API route about one game or replay, from the app itself, so
    that an endpoint added later is covered without a line here."""
    routes = [r for r in app.routes if isinstance(r, APIRoute)]
    with_ids = [(m, r.path) for r in routes for m in sorted(r.methods or ()) if "{" in r.path]
    unowned = [(m, p) for m, p in with_ids if not OWNED.search(p)]
    assert not unowned, f"routes with a path parameter but no game/replay id: {unowned}"
    return with_ids


def url_of(path: str, game: dict[str, Any], uploaded: dict[str, Any]) -> str:
    return path.format(game_id=game["id"], upload_id=uploaded["id"], k=0)


def test_a_second_client_without_the_token_gets_404_on_every_endpoint_of_anothers_game(
    game_name,
):
    app = create_app()
    alice, mallory = TestClient(app, base_url=LOCAL), TestClient(app, base_url=LOCAL)
    finished = play_out(alice, start(alice, game_name, seed=4))
    live = start(alice, game_name, seed=6)
    record = alice.get(f"/api/games/{finished['id']}/record", headers=auth(finished)).json()
    half = record | {"record": record["record"] | {"actions": record["record"]["actions"][:5]}}
    uploaded = alice.post(f"/api/uploads?game={game_name}", json=half).json()
    own = start(mallory, game_name, seed=7)  # mallory's own game, and a token of hers
    routes = owned_routes(app)
    assert {p for _, p in routes} >= {
        "/api/games/{game_id}",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/replay.svg",
        "/api/games/{game_id}/frames/{k}",
        "/api/uploads/{upload_id}/frames/{k}",
        "/api/uploads/{upload_id}/continue",
    }
    nobody = {"id": "0" * 12}
    for method, path in routes:
        for game in (finished, live):
            owner = uploaded if "{upload_id}" in path else game
            url = url_of(path, game, uploaded)
            body: dict[str, Any] | None = None
            if method == "POST" and owner is uploaded:  # valid: only the token is wrong
                body = {"opponents": NEW_GAME[game_name]["opponents"], "seat": 0}
            elif method == "POST":  # a valid move of the live game: only the token is wrong
                body = {"action": live["moves"][0]["id"], "decision": live["decisions"]}
            missing = mallory.request(method, url_of(path, nobody, nobody), json=body)
            assert missing.status_code == 404, (method, path)
            for headers in (
                {},
                {TOKEN_HEADER: ""},
                auth(own),  # a real token, of another game
                {TOKEN_HEADER: owner["token"].upper()},
                {TOKEN_HEADER: owner["token"][:-1]},
                {TOKEN_HEADER: owner["token"] + "x"},
            ):
                answer = mallory.request(method, url, json=body, headers=headers)
                assert answer.status_code == 404, (method, path, headers, answer.text)
                # the same answer as for an id that does not exist: existence is not told
                assert answer.json()["detail"] == missing.json()["detail"].replace(
                    nobody["id"], owner["id"]
                )
                assert owner["token"] not in answer.text
            if method == "GET" and game is finished and "replay.svg" not in path:
                assert alice.get(url, headers=auth(owner)).status_code == 200, path
    shown = alice.get(f"/api/games/{live['id']}", headers=auth(live)).json()
    assert shown["decisions"] == live["decisions"]  # mallory's moves changed nothing
    assert "token" not in shown
    move = {"action": live["moves"][0]["id"], "decision": live["decisions"]}
    url = f"/api/games/{live['id']}/moves"
    assert alice.post(url, json=move, headers=auth(live)).status_code == 200


def test_no_endpoint_lists_games_or_tells_their_ids(game_name):
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    game = start(client, game_name)
    assert client.get("/api/games").status_code == 405
    routes = [r for r in app.routes if isinstance(r, APIRoute)]
    for route in routes:
        if "GET" in (route.methods or ()) and "{" not in route.path:
            answer = client.get(route.path)
            assert game["id"] not in answer.text and game["token"] not in answer.text
    assert len({start(client, game_name)["token"] for _ in range(5)} | {game["token"]}) == 6
    assert len(game["token"]) >= 43  # secrets.token_urlsafe(32): 256 bits


def test_the_seed_stays_hidden_until_the_end_for_the_owner_too(game_name):
    client = TestClient(create_app(), base_url=LOCAL)
    game = start(client, game_name, seed=123)
    assert game["seed"] is None and "123" not in json.dumps(game["config"])
    url = f"/api/games/{game['id']}/record"
    assert client.get(url, headers=auth(game)).status_code == 409


# ------------------------------------------------------------------------ bounded resources
TRACEBACK_FRAMES = 6  # deep enough to see the project's frame behind most library allocations
PROJECT_FILES = [
    tracemalloc.Filter(True, f"*/{package}/*", all_frames=True)
    for package in ("apps", "asara_env", "agents")
]


def project_memory() -> int:
    """Bytes held now by allocations made through the project's own code (the server's
    thread included; not other threads a previous test in this process left running)."""
    snapshot = tracemalloc.take_snapshot().filter_traces(PROJECT_FILES)
    return sum(stat.size for stat in snapshot.statistics("filename"))


def test_a_thousand_abandoned_games_leave_the_games_held_and_memory_bounded(monkeypatch, game_name):
    # each game's board picture is drawn for each answer and never held: a stub keeps
    # tracemalloc (which slows the drawing's many small allocations ~7x) to seconds
    monkeypatch.setattr(apps.asara.web, "svg_view", lambda view: "<svg/>")
    monkeypatch.setattr(apps.basari.web, "svg_of", lambda state, seat: "<svg/>")
    clock = Clock()
    app = create_app(max_games=40, max_client_games=40, idle_seconds=30, clock=clock)
    client = TestClient(app, base_url=LOCAL)
    held = app.state.games
    for _ in range(50):  # warm up: imports, caches, the agents' first game
        start(client, game_name, seed=None)
    gc.collect()
    tracemalloc.start(TRACEBACK_FRAMES)
    try:
        baseline = project_memory()
        sizes = []
        for n in range(1000):
            start(client, game_name, seed=None)
            clock.now += 1 if n < 500 else 0  # first the idle time binds, then the limit
            assert len(held) <= 40
            if n in (249, 499, 749, 999):
                gc.collect()
                sizes.append(project_memory() - baseline)
        assert len(held) == 40  # the last 500 came at once: the limit held them to 40
        clock.now += 31
        client.get("/api/options")  # any request evicts the idle games
        assert len(held) == 0
        gc.collect()
        after = project_memory() - baseline
    finally:
        tracemalloc.stop()
    print(f"traced memory after 250/500/750/1000 games: {sizes}, after eviction: {after}")
    # without eviction each abandoned game held about 8.6 KiB: 1,000 held would be ~8.6 MB
    assert max(sizes) < 2 * 2**20, sizes
    assert sizes[-1] - sizes[0] < 1 * 2**20, sizes  # no growth with the games created
    assert after < 1 * 2**20, after  # a thousand held games would be ~8.6 MB


def test_the_least_recently_used_game_is_evicted_first_and_a_used_one_stays(game_name):
    clock = Clock()
    app = create_app(max_games=3, idle_seconds=100, clock=clock)
    client = TestClient(app, base_url=LOCAL)
    first, second, third = (start(client, game_name) for _ in range(3))
    clock.now += 10
    assert client.get(f"/api/games/{first['id']}", headers=auth(first)).status_code == 200
    start(client, game_name)  # full: the least recently used, `second`, goes
    assert app.state.games.held() >= {first["id"], third["id"]}
    assert client.get(f"/api/games/{second['id']}", headers=auth(second)).status_code == 404
    clock.now += 95  # `third` was last used 105 s ago, `first` 95 s ago
    assert client.get(f"/api/games/{third['id']}", headers=auth(third)).status_code == 404
    assert client.get(f"/api/games/{first['id']}", headers=auth(first)).status_code == 200


def test_finished_games_are_saved_atomically_when_evicted_and_unfinished_ones_dropped(
    tmp_path, game_name
):
    clock = Clock()
    records = tmp_path / "records"
    app = create_app(max_games=2, idle_seconds=60, records_dir=records, clock=clock)
    client = TestClient(app, base_url=LOCAL)
    done = play_out(client, start(client, game_name, seed=8))
    unfinished = start(client, game_name, seed=9)
    start(client, game_name, seed=10)  # full: `done`, the least recently used, is saved
    path = records / f"{game_name}-{done['id']}.json"
    assert sorted(p.name for p in records.iterdir()) == [path.name]  # no temporary file left
    saved = json.loads(path.read_text())
    assert saved["game"] == game_name and saved["lineup"][saved["seat"]] is None
    column = SCORE_COLUMN[game_name]
    assert final_scores(game_name, saved["record"]) == [r[column] for r in done["final"]["rows"]]
    done2 = play_out(client, start(client, game_name, seed=11))  # evicts `unfinished`
    clock.now += 61
    client.get("/api/options")  # idle: every game goes, the finished one saved
    assert len(app.state.games) == 0
    saved = {p.name for p in records.iterdir()}
    names = {p.name for p in records.iterdir()}
    assert names == {path.name, f"{game_name}-{done2['id']}.json"}
    assert f"{game_name}-{unfinished['id']}.json" not in names


def test_uploads_are_bounded_too(game_name):
    clock = Clock()
    app = create_app(max_games=2, idle_seconds=60, clock=clock)
    client = TestClient(app, base_url=LOCAL)
    game = play_out(client, start(client, game_name))
    record = client.get(f"/api/games/{game['id']}/record", headers=auth(game)).json()
    for _ in range(5):
        answer = client.post(f"/api/uploads?game={game_name}", json=record)
        assert answer.status_code == 201
    assert len(app.state.uploads) == 2
    clock.now += 61
    client.get("/api/options")
    assert len(app.state.uploads) == 0


def test_a_store_refuses_bad_limits():
    with pytest.raises(ValueError, match="at least 1 item"):
        Store("game", 0, 10, Clock())
    with pytest.raises(ValueError, match="at least 1 item"):
        Store("game", 5, float("nan"), Clock())


# ------------------------------------------------------------------------ strict JSON
BAD_NUMBERS = {
    "NaN": "NaN",
    "Infinity": "Infinity",
    "-Infinity": "-Infinity",
    "1e400": "1e400",
    "string": '"2"',
    "bool": "true",
    "float": "5.0",
}


@pytest.mark.parametrize("value", BAD_NUMBERS.values(), ids=BAD_NUMBERS.keys())
@pytest.mark.parametrize("where", ["new game", "move"])
def test_nan_infinity_and_coerced_ints_get_422_naming_the_field(value, where, game_name):
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    game = start(client, game_name)
    fields: tuple[str, ...]
    if where == "new game":
        fields, url, headers = ("players", "seat", "seed"), "/api/games", {}
        good = NEW_GAME[game_name] | {"seat": 0, "seed": 5}
    else:
        fields, url, headers = ("action", "decision"), f"/api/games/{game['id']}/moves", auth(game)
        good = {"action": game["moves"][0]["id"], "decision": game["decisions"]}
    for name in fields:
        text = json.dumps(good)
        text = text.replace(f'"{name}": {json.dumps(good[name])}', f'"{name}": {value}')
        assert value in text
        headers = headers | {"content-type": "application/json"}
        answer = client.post(url, content=text, headers=headers)
        assert answer.status_code == 422, (name, value, answer.text)
        detail = answer.json()["detail"]
        assert [e["loc"] for e in detail] == [["body", name]], detail
    assert len(app.state.games) == 1  # nothing was started
    shown = client.get(f"/api/games/{game['id']}", headers=auth(game)).json()
    assert shown["decisions"] == game["decisions"]  # nothing was played


def test_nan_deep_in_a_request_names_its_place():
    client = TestClient(create_app(), base_url=LOCAL)
    body = '{"config": {"num_players": 2}, "seed": 1, "actions": [3, 4, NaN]}'
    answer = client.post("/api/uploads", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert [e["loc"] for e in answer.json()["detail"]] == [["body", "actions", 2]]
    BASIC_2P = NEW_GAME["asara"] | {"seed": 5}
    answer = client.post("/api/games", json=BASIC_2P | {"expansions": [1]})
    assert answer.status_code == 422 and answer.json()["detail"][0]["loc"] == [
        "body",
        "expansions",
        0,
    ]
    answer = client.post("/api/games", json=BASIC_2P | {"sead": 5})  # a typo is not ignored
    assert answer.status_code == 422 and answer.json()["detail"][0]["loc"] == ["body", "sead"]


def test_malformed_json_gets_422_not_500():
    client = TestClient(create_app(), base_url=LOCAL)
    headers = {"content-type": "application/json"}
    bodies = [
        b"{",
        b"[[1, 2], [3}",
        b'{"players": 2,}',
        b"\xff\xfe\x00",
        b'{"seed": 9' + b"9" * 5000 + b"}",
    ]
    for body in bodies:
        answer = client.post("/api/games", content=body, headers=headers)
        assert answer.status_code == 422, (body[:20], answer.text)
    deep = client.post("/api/games", content=b"[" * 100_000, headers=headers)
    assert deep.status_code == 413, deep.text  # a bound, checked before the parse


# ------------------------------------------------------------------------ body size
def test_an_oversized_body_gets_413_before_it_is_read():
    app = create_app()
    client = TestClient(app, base_url=LOCAL)
    big = json.dumps({"config": {"num_players": 2}, "seed": 1, "pad": "x" * MAX_BODY})
    answer = client.post("/api/uploads", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and str(MAX_BODY) in answer.json()["detail"]

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(MAX_BODY // 1000 + 10):
            yield b"x" * 1000

    answer = client.post("/api/uploads", content=chunks())
    assert answer.status_code == 413
    small = TestClient(create_app(max_body=100), base_url=LOCAL)
    basic = NEW_GAME["asara"] | {"seed": 5}
    assert small.post("/api/games", json=basic | {"expansions": ["x" * 100]}).status_code == 413
    assert small.post("/api/games", json=basic).status_code == 201
    assert len(app.state.uploads) == 0


# ------------------------------------------------------------------------ where it listens
def test_it_listens_on_localhost_by_default_and_warns_otherwise(monkeypatch, tmp_path):
    import uvicorn

    served = []

    def run(server, sockets):
        served.append((server.config.app, sockets[0].getsockname()[0]))
        sockets[0].close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(apps.serve, "preload", lambda say=print: None)  # the models: not needed
    main(["--port", "0"])
    app, host = served[-1]
    assert host == "127.0.0.1" and is_local(host)
    assert app.state.games.limit == 200 and app.state.games.idle == 3600
    assert app.state.games.per_owner == 20
    with pytest.warns(UserWarning, match="listening on 0.0.0.0, not only on this machine"):
        main(["--host", "0.0.0.0", "--port", "0", "--max-games", "7", "--idle-minutes", "0.5"])
    assert served[-1][0].state.games.limit == 7 and served[-1][0].state.games.idle == 30
    args = asara_parser().parse_args(["serve", "--port", "0", "--records", str(tmp_path / "r")])
    args.run(args)  # `asara serve` too
    assert served[-1][1] == "127.0.0.1" and (tmp_path / "r").is_dir()
    assert [is_local(h) for h in ("localhost", "::1", "127.0.0.2", "0.0.0.0", "example.org")] == [
        True,
        True,
        True,
        False,
        False,
    ]


@pytest.mark.parametrize(
    "flag", ["--max-games=0", "--idle-minutes=-1", "--idle-minutes=nan", "--max-body-kib=x"]
)
def test_bad_limits_are_usage_errors(flag, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([flag])
    assert exit_.value.code == 2
    assert flag.split("=")[0] in capsys.readouterr().err


def test_records_dir_is_created(tmp_path: Path):
    create_app(records_dir=tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()
