"""A web page to play ASARA and BASARI against the agents: `asara-serve` (`asara serve`),
or `basari-serve` (the same page, opening on BASARI).

    asara-serve --port 8000          # then open http://127.0.0.1:8000

The page picks a game; each game's page module (`apps/<game>/web.py`, found by name through
`apps.webgame.load_web_game`) says what a setup request, a seat's view, a move and a
record are, and this module is the server both share: sessions, tokens, eviction, limits,
errors, uploads and downloads. Opponents are every named agent of `agents.registry` but
`policy:model=PATH` (the search agents with their budget, `flatmc:sims=64`); `asara-serve`
loads the shipped models before it serves the page, so no game waits for one. Nothing the
person may not know reaches the page (each game's module says how); the seed and the
record, which tell every card and die, come only once the game is over.

**Whose game is whose.** Creating a game (or uploading a saved game) answers, once, with
its `id` and an unguessable `token` (`secrets.token_urlsafe(32)`). Every request about that
game or upload must carry the token in the `X-Game-Token` header; a missing or wrong token
gets the same 404 as an id that does not exist (nothing tells whether a game exists). No
endpoint lists games: the page keeps its own games' ids and tokens in the browser's
`localStorage`. A header, not a cookie: a browser sends cookies with requests other sites
make, and a custom header only with the page's own (no CORS is served), so no other site
can act in a game.

**Bounded resources** (`create_app`'s arguments; the commands' flags): every piece of work
a request can cause is bounded and checked when it arrives (docs/web.md has the table):
- at most `max_games` games (`--max-games`, 200) and as many uploads are held, at most
  `max_client_games` (`--max-client-games`, 20) of one client address; a new one evicts
  its client's least recently used when the client is at its limit, else, when full, the
  least recently used of the client holding the most (`apps.weblimits.Store`), so one
  client cannot empty another's games;
- a game or upload unused for `idle_seconds` (`--idle-minutes`, 60) is evicted; a finished
  game evicted either way is first written to `records_dir` (`--records DIR`, none by
  default) as `<game>-<id>.json`, atomically (a temporary file renamed);
- the games' work (new games, moves and the opponents' replies, uploads read, pictures)
  runs on `game_threads` threads (`--game-threads`, 4) with at most `game_queue`
  (`--game-queue`, 32) jobs waiting, 503 beyond (`apps.weblimits.Workers`); the request
  threads never run it, so slow opponents hold up no other request;
- a search opponent asks at most `apps.webgame.PAGE_SEARCH_LIMITS` per decision (400);
- a request body over `max_body` bytes (`--max-body-kib`, 256 KiB) gets 413 before it is read
  in full; an animated replay over `max_replay_bytes` (32 MiB, estimated from its first
  picture) gets 413, and one under it is sent a picture at a time;
- JSON is parsed strictly: `NaN`, `Infinity` and numbers beyond a float's range are refused,
  and the requests' ints are strict (no `"2"`, `true` or `5.0`): a 422 naming the field;
  answers escape every non-ASCII character, so a lone surrogate is echoed in a 422;
- a game's answer is encoded under its lock, and a read answers the snapshot published
  after the last whole move (`Session.publish`), never a half-made one;
- a request naming another `Host` than `allowed_hosts` (the loopback names and `--host`,
  plus `--allow-host`) gets 400; the API's own pages are off unless `api_docs`
  (`--api-docs`);
- a held game's memory is bounded by the rules (its record and log grow by one entry per
  decision and a game ends); the shipped models are loaded once per process;
- it listens on 127.0.0.1 unless `--host` says otherwise, with a warning then.

The JSON API the page uses (every error is a 4xx with `{"detail": message}` and changes
nothing). A move is refused with 409 when it is illegal, the game is over, or `decision`
(the count of decisions the page saw) is stale, as after a double click. "token" marks the
requests that need the `X-Game-Token` header:

| request | answer |
|---|---|
| `GET /api/options` | per game: players, agents (kind, search budget), its rules choices |
| `POST /api/games` `{game, players, opponents, seat, seed, ...}` | 201, game + `token` |
| `GET /api/games/{id}` (token) | the game: `board`, `moves`, `log`, `final`, ... |
| `POST /api/games/{id}/moves` `{action, decision}` (token) | the game after the move, replies |
| `GET /api/games/{id}/record` (token) | at the end: the record, who played it |
| `GET /api/games/{id}/replay.svg?seconds=0.7` (token) | at the end: the whole game animated (SVG) |
| `GET /api/games/{id}/frames/{k}` (token) | position k as the person's seat saw it (`{svg}`) |
| `POST /api/uploads?game=G&players=P` (a file's JSON) | 201, `{id, token, kind, frames, ...}` |
| `GET /api/uploads/{id}/frames/{k}` (token) | the upload's position k in full (`{svg}`) |
| `POST /api/uploads/{id}/continue` `{opponents, seat}` (token) | 201, game + `token` |

An upload is a record, a saved position, a terminal game's saved game or the page's own
download (whose lineup must name agents the page offers, one per seat); one of another game or
another number of players than `game` and `players` say is refused (400) naming both
configurations; `continue` starts a game at the upload's last position.

Opponents play with seeds derived from the game's seed (`derived_seed(seed, 1000 + seat)`,
as in the terminal games), so a seed and the person's moves give the same game again.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import math
import socket
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from apps.webgame import (
    Invalid,
    Loaded,
    Refused,
    Session,
    WebGame,
    load_web_game,
    preload_models,
    web_games,
)
from apps.weblimits import (
    LOOPBACK_NAMES,
    TOKEN_HEADER,
    HostCheck,
    SafeJSONResponse,
    Store,
    Workers,
)
from asara_env.common.errors import CorruptStateError
from asara_env.common.files import atomic_write_text
from asara_env.common.svg import animated_svg_parts
from commandline.command import add_serve_arguments, run_main
from commandline.command import parser as command_parser

WEB_DIR = Path(__file__).parent / "web"
MAX_SEED = 2**63
MAX_GAMES = 200  # games held at once (and as many uploaded replays)
MAX_CLIENT_GAMES = 20  # games (and uploads) held for one client address
GAME_THREADS = 4  # threads playing the games' moves (the opponents think there)
GAME_QUEUE = 32  # game jobs waiting for a thread; more get 503
MAX_REPLAY_BYTES = 32 * 2**20  # an animated replay's size, estimated before it is drawn
IDLE_SECONDS = 3600.0  # a game unused this long is evicted
MAX_BODY = 256 * 1024  # bytes of a request body
LOCAL_HOSTS = set(LOOPBACK_NAMES)
DEFAULT_GAME = "asara"  # a request that names no game (the page before it had two)


# ------------------------------------------------------------------------ strict JSON
class _Refused:
    """A JSON value the strict parser refuses, kept in place so the error can name its field."""

    def __init__(self, text: str, why: str) -> None:
        self.text, self.why = text, why


def _strict_float(text: str) -> float | _Refused:
    value = float(text)
    return value if math.isfinite(value) else _Refused(text, "a number beyond a float's range")


def _strict_int(text: str) -> int | _Refused:
    try:
        return int(text)
    except ValueError:  # beyond Python's int-from-string digit limit
        return _Refused(text[:20] + "...", "an integer of too many digits")


def _constant(text: str) -> _Refused:
    return _Refused(text, "not a JSON number (NaN and Infinity are not JSON)")


def strict_json(body: bytes) -> Any:
    """`body` as JSON, refusing `NaN`, `Infinity`, numbers beyond a float's range and
    integers of too many digits: RequestValidationError whose `loc` names the field."""
    try:
        data = json.loads(
            body, parse_constant=_constant, parse_float=_strict_float, parse_int=_strict_int
        )
    except json.JSONDecodeError as exc:
        error = {"type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error"}
        raise RequestValidationError([error | {"input": {}, "ctx": {"error": exc.msg}}]) from exc
    except (RecursionError, UnicodeDecodeError, ValueError) as exc:
        error = {"type": "json_invalid", "loc": ("body",), "msg": f"not JSON: {exc}"}
        raise RequestValidationError([error | {"input": {}}]) from exc
    errors = []
    todo: list[tuple[tuple[str | int, ...], Any]] = [(("body",), data)]
    while todo:  # no recursion: JSON may nest as deep as the body allows
        loc, value = todo.pop()
        if isinstance(value, _Refused):
            message = f"Input should be a finite number: {value.text} is {value.why}"
            errors.append(
                {"type": "finite_number", "loc": loc, "msg": message, "input": value.text}
            )
        elif isinstance(value, dict):
            todo.extend(((*loc, key), item) for key, item in value.items())
        elif isinstance(value, list):
            todo.extend(((*loc, k), item) for k, item in enumerate(value))
    if errors:
        raise RequestValidationError(sorted(errors, key=lambda e: str(e["loc"])))
    return data


class StrictJSONRequest(Request):
    """A request whose JSON body is parsed by `strict_json`."""

    async def json(self) -> Any:
        if not hasattr(self, "_strict_json"):
            self._strict_json = strict_json(await self.body())
        return self._strict_json


def _is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


class StrictJSONRoute(APIRoute):
    """Routes whose JSON bodies are parsed strictly before FastAPI sees them (its own body
    parsing turns any error but an HTTPException into a 400 naming nothing)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            request = StrictJSONRequest(request.scope, request.receive)
            if _is_json(request) and await request.body():
                await request.json()  # a RequestValidationError here becomes a 422
            return await handler(request)

        return strict_handler


# ------------------------------------------------------------------------ body size
class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is over the limit of {limit} bytes")


class BodyLimit:
    """ASGI middleware: a request whose body is over `limit` bytes gets 413, from its
    Content-Length before anything is read, or as soon as the bytes read pass the limit."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self.refuse(send)
            return
        received, started = 0, False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except BodyTooLarge:
            if started:
                raise
            await self.refuse(send)

    async def refuse(self, send: Send) -> None:
        body = json.dumps({"detail": BodyTooLarge(self.limit).detail}).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class SweepIdle:
    """ASGI middleware: every request first evicts the stores' idle items, so memory falls
    back once players leave, whatever they request."""

    def __init__(self, app: ASGIApp, stores: tuple[Store[Any], ...]) -> None:
        self.app, self.stores = app, stores

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for store in self.stores:
                store.sweep()
        await self.app(scope, receive, send)


# ------------------------------------------------------------------------ requests
class Move(BaseModel):
    """A move of the person: an action id, and the decisions the page had seen."""

    model_config = ConfigDict(strict=True, extra="forbid")

    action: int
    decision: int | None = None


class Continue(BaseModel):
    """Who plays an uploaded game on from its last position."""

    model_config = ConfigDict(strict=True, extra="forbid")

    opponents: list[str]
    seat: int = 0


def refusal(exc: Refused) -> HTTPException:
    return HTTPException(exc.status, exc.message)


def game_of(name: str) -> WebGame:
    try:
        return load_web_game(name)
    except Refused as exc:
        raise refusal(exc) from exc


def load_upload(game: str, data: object, players: int | None) -> Loaded:
    """`data` read as `game`'s record or saved game; 400 naming both configurations when
    it is another game's or has another number of players, or what is wrong with it."""
    try:
        loaded = game_of(game).load(data)
    except (CorruptStateError, ValueError, TypeError) as exc:
        problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        for other in web_games():
            found = _loads(other, data) if other != game else None
            if found is not None:
                raise HTTPException(
                    400,
                    f"this is a {found.describe()}; the page is set for {game.upper()}"
                    + (f" with {players} players" if players else "")
                    + ": choose that game to open it",
                ) from exc
        raise HTTPException(
            400, f"not a playable {game.upper()} game record or saved game: {problem}"
        ) from exc
    if players is not None and loaded.players != players:
        raise HTTPException(
            400,
            f"this is a {loaded.describe()}; the page is set for {game.upper()} with "
            f"{players} players: choose {loaded.players} players to open it",
        )
    return loaded


def _loads(game: str, data: object) -> Loaded | None:
    with contextlib.suppress(CorruptStateError, ValueError, TypeError):
        return load_web_game(game).load(data)
    return None


# ------------------------------------------------------------------------ the app
def client_of(request: Request) -> str:
    """Whose request this is, for the per-client limits: the client's address."""
    return request.client.host if request.client is not None else ""


def rendered(content: Any, status: int = 200) -> Response:
    """`content` encoded now (under whatever lock the caller holds), not after the
    handler returns."""
    return SafeJSONResponse(content, status_code=status)


def replay_response(
    session: Session[Any], first: str, pictures: Iterator[str], seconds: float, limit: int
) -> StreamingResponse:
    """The game's animated replay, sent a picture at a time: `first`, then the rest of
    `pictures` (each drawn as it is sent); 413 naming the limit when its size, estimated
    from the first picture, is over `limit`."""
    count = len(session.decisions) + 1
    estimate = len(first.encode()) * count
    if estimate > limit:
        raise HTTPException(
            413,
            f"this game's animated replay would be about {estimate // 2**20} MiB ({count} "
            f"positions), over this server's limit of {limit // 2**20} MiB: replay it on "
            "the page position by position",
        )

    def frames() -> Iterator[str]:
        yield first
        yield from pictures

    name = f"{session.game}-{session.seed}-replay.svg"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    parts = animated_svg_parts(frames(), count, seconds)
    return StreamingResponse(parts, media_type="image/svg+xml", headers=headers)


# C901: the route handlers nested in it count toward its complexity; each is a few lines
def create_app(  # noqa: C901, PLR0913, PLR0915
    *,
    max_games: int = MAX_GAMES,
    max_client_games: int = MAX_CLIENT_GAMES,
    idle_seconds: float = IDLE_SECONDS,
    records_dir: Path | str | None = None,
    max_body: int = MAX_BODY,
    game_threads: int = GAME_THREADS,
    game_queue: int = GAME_QUEUE,
    max_replay_bytes: int = MAX_REPLAY_BYTES,
    allowed_hosts: Sequence[str] = LOOPBACK_NAMES,
    api_docs: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The web application, with its own stores of games and uploads: at most `max_games`
    of each and `max_client_games` of one client address (see `Store` for who is
    evicted), each evicted after `idle_seconds` unused (by `clock`), a finished game
    evicted written to `records_dir` first if given; request bodies over `max_body` bytes
    refused (413); the games' work on `game_threads` threads with `game_queue` more jobs
    waiting (503 beyond); animated replays over `max_replay_bytes` refused (413);
    requests naming another `Host` than `allowed_hosts` refused (400; "*" allows any);
    the API's own pages (/docs, /redoc, /openapi.json) only with `api_docs`."""
    if max_body < 1 or max_replay_bytes < 1:
        raise ValueError(
            f"max_body and max_replay_bytes must be positive, got {max_body}, {max_replay_bytes}"
        )
    records = None if records_dir is None else Path(records_dir)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)

    def save(session: Session[Any]) -> None:
        if records is not None and session.over:
            record = session.record()
            text = json.dumps(record)
            try:
                atomic_write_text(
                    records / f"{record['game']}-{session.id}.json", text, encoding="utf-8"
                )
            except OSError as exc:  # the disk's trouble must not fail a player's request
                warnings.warn(f"could not save the finished game {session.id}: {exc}", stacklevel=2)

    docs = {} if api_docs else {"docs_url": None, "redoc_url": None, "openapi_url": None}
    app = FastAPI(
        title="ASARA and BASARI",
        description=__doc__,
        default_response_class=SafeJSONResponse,
        **docs,  # type: ignore[arg-type]
    )
    app.router.route_class = StrictJSONRoute
    games: Store[Session[Any]] = Store(
        "game", max_games, idle_seconds, clock, save, per_owner=max_client_games
    )
    uploads: Store[Loaded] = Store(
        "upload", max_games, idle_seconds, clock, per_owner=max_client_games
    )
    workers = Workers(game_threads, game_queue)
    weakref.finalize(app, workers.close)
    app.add_middleware(SweepIdle, stores=(games, uploads))
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(HostCheck, allowed=allowed_hosts)  # the outermost: nothing runs for it
    app.state.games, app.state.uploads, app.state.workers = games, uploads, workers
    Token = Header(None, alias=TOKEN_HEADER, description="the token given at creation")

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        detail = exc.errors if isinstance(exc, Invalid) else exc.message
        return SafeJSONResponse({"detail": detail}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = jsonable_encoder(exc.errors())  # the input echoed, any text escaped
        return SafeJSONResponse({"detail": errors}, status_code=422)

    @app.exception_handler(HTTPException)
    async def refused_http(request: Request, exc: HTTPException) -> Response:
        headers = dict(exc.headers or {})
        return SafeJSONResponse({"detail": exc.detail}, exc.status_code, headers=headers)

    def created(session: Session[Any], owner: str) -> Response:
        """Hold a new session for `owner` and answer it (on a game thread: it draws)."""
        session.id, token = games.add(session, owner)
        with session.lock:
            return rendered(session.publish() | {"token": token}, 201)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/api/options")
    def options() -> dict[str, Any]:
        return {"games": {name: load_web_game(name).options() for name in web_games()}}

    @app.post("/api/games", status_code=201)
    async def create(request: dict[str, Any], http: Request) -> Response:
        body = dict(request)
        name = body.pop("game", DEFAULT_GAME)
        if not isinstance(name, str):
            raise HTTPException(422, f"game must be one of {list(web_games())}, got {name!r}")
        game, owner = game_of(name), client_of(http)
        return await workers.run(lambda: created(game.start(body), owner))

    @app.get("/api/games/{game_id}")
    def show(game_id: str, token: str | None = Token) -> Response:
        session = games.get(game_id, token)
        return Response(session.shown, media_type="application/json")

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, move: Move, token: str | None = Token) -> Response:
        session = games.get(game_id, token)

        def play() -> Response:
            with session.lock:
                session.play(move.action, move.decision)
                session.publish()
                return Response(session.shown, media_type="application/json")

        return await workers.run(play)

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str, token: str | None = Token) -> Response:
        session = games.get(game_id, token)
        if not session.over:
            raise HTTPException(
                409,
                "the record holds the seed, which tells every hidden card and die: it is "
                "offered once the game is over",
            )
        data = session.record()
        name = f"{data['game']}-{session.seed}.json"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return SafeJSONResponse(data, headers=headers)

    @app.get("/api/games/{game_id}/replay.svg")
    async def animated_replay(
        game_id: str,
        seconds: float = Query(0.7, gt=0, le=10, allow_inf_nan=False),
        token: str | None = Token,
    ) -> Response:
        session = games.get(game_id, token)
        if not session.over:
            raise HTTPException(
                409, "the replay shows every hidden card: it is offered once the game is over"
            )
        if not session.ANIMATES:
            raise HTTPException(404, "this game offers no animated picture; replay it on the page")
        pictures = session.pictures()
        first = await workers.run(lambda: next(pictures))
        return replay_response(session, first, pictures, seconds, max_replay_bytes)

    @app.get("/api/games/{game_id}/frames/{k}")
    async def game_frame(game_id: str, k: int, token: str | None = Token) -> Response:
        session = games.get(game_id, token)

        def draw() -> Response:
            with session.lock:
                return rendered(session.frame(k))

        return await workers.run(draw)

    @app.post("/api/uploads", status_code=201)
    async def upload(
        data: dict[str, Any],
        http: Request,
        game: str = Query(DEFAULT_GAME, description="the game the page is set for"),
        players: int | None = Query(None, ge=2, le=4, description="its number of players"),
    ) -> dict[str, Any]:
        loaded = await workers.run(lambda: load_upload(game, data, players))
        key, token = uploads.add(loaded, client_of(http))
        return loaded.to_json() | {"id": key, "token": token}

    @app.get("/api/uploads/{upload_id}/frames/{k}")
    async def upload_frame(upload_id: str, k: int, token: str | None = Token) -> dict[str, Any]:
        loaded = uploads.get(upload_id, token)
        return await workers.run(lambda: game_of(loaded.game).frame(loaded, k))

    @app.post("/api/uploads/{upload_id}/continue", status_code=201)
    async def resume(
        upload_id: str, request: Continue, http: Request, token: str | None = Token
    ) -> Response:
        loaded = uploads.get(upload_id, token)
        game, owner = game_of(loaded.game), client_of(http)
        return await workers.run(
            lambda: created(game.resume(loaded, request.opponents, request.seat), owner)
        )

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


@contextlib.contextmanager
def running(host: str = "127.0.0.1", port: int = 0, **limits: Any) -> Iterator[str]:
    """Run the server in a background thread (port 0: any free port); yields its URL.
    `limits` are `create_app`'s arguments."""
    import uvicorn

    config = uvicorn.Config(create_app(**limits), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError(f"the server could not start on {host}:{port}")
            time.sleep(0.02)
        bound = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://{host}:{bound}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def is_local(host: str) -> bool:
    """Whether `host` is this machine's loopback interface only."""
    if host.lower() in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def usage_error(prog: str, message: str) -> NoReturn:
    """One line on stderr, exit status 2 (nothing has started)."""
    print(f"{prog}: error: {message} (--help lists the options)", file=sys.stderr)
    raise SystemExit(2)


def bound_socket(host: str, port: int) -> socket.socket:
    """A socket listening on `host`:`port` (0: a free port); OSError naming what failed."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def checked_records(prog: str, records: Path | None) -> Path | None:
    """`--records`, created if missing; a usage error if it is a file or cannot be made."""
    if records is None:
        return None
    if records.exists() and not records.is_dir():
        usage_error(prog, f"argument --records: {records} is a file, not a folder")
    try:
        records.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        usage_error(prog, f"argument --records: cannot make the folder {records}: {exc.strerror}")
    return records


def allowed_hosts(args: argparse.Namespace) -> list[str]:
    """The `Host` names the server answers: the loopback names, `--host` itself when it is
    one address (not 0.0.0.0 or ::), and every `--allow-host`."""
    hosts = [*LOOPBACK_NAMES, *args.allow_host]
    if args.host not in ("0.0.0.0", "::", ""):
        hosts.append(args.host)
    return hosts


def preload(say: Callable[[str], None] = print) -> None:
    """Load every game's shipped models, each game's in turn, saying which and how long
    it took; a model that cannot load is left to fail its own games. Games against a
    model wait for it (`apps.webgame.preload_models`)."""
    for game in web_games():
        start = time.perf_counter()
        say(f"loading the shipped {game.upper()} models in the background ...")
        try:
            names = preload_models(game)
        except (ImportError, OSError) as exc:
            warnings.warn(f"the shipped {game} models cannot be loaded: {exc}", stacklevel=2)
            continue
        took = time.perf_counter() - start
        say(f"the shipped {game.upper()} models are loaded ({', '.join(names)}; {took:.0f} s)")


def serve(args: argparse.Namespace, game: str = DEFAULT_GAME, prog: str = "asara-serve") -> None:
    """Run the web page on `args.host`:`args.port` until interrupted, with the limits of
    `args`; the page opens on `game`'s setup. The address and `--records` are checked
    first (a usage error, exit status 2), the page is served at once, and the shipped
    models load in the background."""
    import uvicorn

    records = checked_records(prog, args.records)
    try:
        sock = bound_socket(args.host, args.port)
    except OSError as exc:
        usage_error(prog, f"cannot listen on --host {args.host} --port {args.port}: {exc}")
    app = create_app(
        max_games=args.max_games,
        max_client_games=args.max_client_games,
        idle_seconds=args.idle_minutes * 60,
        records_dir=records,
        max_body=args.max_body_kib * 1024,
        game_threads=args.game_threads,
        game_queue=args.game_queue,
        allowed_hosts=allowed_hosts(args),
        api_docs=args.api_docs,
    )
    if not is_local(args.host):
        warnings.warn(
            f"listening on {args.host}, not only on this machine (127.0.0.1): anyone who can "
            "reach it can start games here (each game still needs its own token)",
            stacklevel=2,
        )
    port = sock.getsockname()[1]
    where = f"[{args.host}]" if ":" in args.host else args.host
    print(f"open http://{where}:{port}/?game={game} in a browser (Ctrl-C stops)", flush=True)
    threading.Thread(target=preload, kwargs={"say": _say}, daemon=True).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])


def _say(text: str) -> None:
    print(text, flush=True)


@run_main("asara-serve")
def main(argv: list[str] | None = None) -> None:
    """`asara-serve` (also `asara serve`): run the web page of both games on a local port."""
    parser = command_parser("asara-serve", "Play ASARA and BASARI in a browser.")
    add_serve_arguments(parser)
    serve(parser.parse_args(argv))


@run_main("basari-serve")
def main_basari(argv: list[str] | None = None) -> None:
    """`basari-serve`: the same page, opening on BASARI."""
    parser = command_parser("basari-serve", "Play BASARI and ASARA in a browser.")
    add_serve_arguments(parser)
    serve(parser.parse_args(argv), "basari", "basari-serve")


if __name__ == "__main__":
    main()
