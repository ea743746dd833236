"""The web server's routes (apps/serve.py has the table of requests): each handler checks
the game's token, hands the game's work to the fair pool of game threads
(`apps.weblimits.Workers`, by the client of `apps.webasgi.client_of`) and answers; the
error handlers turn every refusal into a 4xx with `{"detail": ...}`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict
from starlette.types import Receive, Scope, Send

from apps.webasgi import client_of
from apps.webgame import Invalid, Loaded, Refused, Session, WebGame, load_web_game, web_games
from apps.webjson import capped_errors
from apps.weblimits import TOKEN_HEADER, Hold, SafeJSONResponse, Store, Workers
from asara_env.common.errors import CorruptStateError
from asara_env.common.svg import animated_svg_parts

DEFAULT_GAME = "asara"  # a request that names no game (the page before it had two)
Token = Header(None, alias=TOKEN_HEADER, description="the token given at creation")


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


@dataclass
class Served:
    """What the routes share: the stores of games and uploads, the game threads, and the
    largest animated replay sent."""

    games: Store[Session[Any]]
    uploads: Store[Loaded]
    workers: Workers
    max_replay_bytes: int

    def created(self, session: Session[Any], owner: str) -> Response:
        """Hold a new session for `owner` and answer it (on a game thread: it draws)."""
        session.id, token = self.games.add(session, owner)
        with session.lock:
            return rendered(session.publish() | {"token": token}, 201)


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


def rendered(content: Any, status: int = 200) -> Response:
    """`content` encoded now (under whatever lock the caller holds), not after the
    handler returns."""
    return SafeJSONResponse(content, status_code=status)


class HeldStream(StreamingResponse):
    """A streamed answer whose parts are computed in a place held in a client's share of
    the game threads, given back when the answer ends however it ends."""

    def __init__(self, parts: Iterator[str], hold: Hold, headers: dict[str, str]) -> None:
        self.hold = hold
        super().__init__(self._computed(parts), media_type="image/svg+xml", headers=headers)

    async def _computed(self, parts: Iterator[str]) -> AsyncIterator[str]:
        while (part := await self.hold.run(lambda: next(parts, None))) is not None:
            yield part

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.hold.release()


def replay_response(
    session: Session[Any],
    first: str,
    pictures: Iterator[str],
    seconds: float,
    limit: int,
    hold: Hold,
) -> StreamingResponse:
    """The game's animated replay, sent a picture at a time: `first`, then the rest of
    `pictures`, each drawn as it is sent in `hold`'s place on the game threads; 413 naming
    the limit when its size, estimated from the first picture, is over `limit`."""
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
    return HeldStream(animated_svg_parts(frames(), count, seconds), hold, headers)


def add_error_handlers(app: FastAPI) -> None:
    """Every refusal a 4xx with `{"detail": ...}`; a 422 lists at most a few errors."""

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        detail = capped_errors(exc.errors) if isinstance(exc, Invalid) else exc.message
        return SafeJSONResponse({"detail": detail}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return SafeJSONResponse({"detail": capped_errors(list(exc.errors()))}, status_code=422)

    @app.exception_handler(HTTPException)
    async def refused_http(request: Request, exc: HTTPException) -> Response:
        headers = dict(exc.headers or {})
        return SafeJSONResponse({"detail": exc.detail}, exc.status_code, headers=headers)


def add_page_routes(app: FastAPI, web_dir: Any) -> None:
    """The page and its choices."""

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(web_dir / "index.html")

    @app.get("/api/options")
    def options() -> dict[str, Any]:
        return {"games": {name: load_web_game(name).options() for name in web_games()}}


def add_game_routes(app: FastAPI, served: Served) -> None:
    """A game created, read and moved."""
    games, workers = served.games, served.workers

    @app.post("/api/games", status_code=201)
    async def create(request: dict[str, Any], http: Request) -> Response:
        body = dict(request)
        name = body.pop("game", DEFAULT_GAME)
        if not isinstance(name, str):
            raise HTTPException(422, f"game must be one of {list(web_games())}, got {name!r}")
        game, owner = game_of(name), client_of(http)
        return await workers.run(lambda: served.created(game.start(body), owner), owner)

    @app.get("/api/games/{game_id}")
    def show(game_id: str, token: str | None = Token) -> Response:
        session = games.get(game_id, token)
        return Response(session.shown, media_type="application/json")

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, move: Move, http: Request, token: str | None = Token) -> Response:
        session = games.get(game_id, token)

        def play() -> Response:
            with session.lock:
                session.play(move.action, move.decision)
                session.publish()
                return Response(session.shown, media_type="application/json")

        return await workers.run(play, client_of(http))


def add_ended_routes(app: FastAPI, served: Served) -> None:
    """A game's record, animated replay and positions."""
    games, workers = served.games, served.workers

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
        http: Request,
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
        hold = workers.hold(client_of(http))
        try:
            first = await hold.run(lambda: next(pictures))
            return replay_response(session, first, pictures, seconds, served.max_replay_bytes, hold)
        except BaseException:
            hold.release()
            raise

    @app.get("/api/games/{game_id}/frames/{k}")
    async def game_frame(
        game_id: str, k: int, http: Request, token: str | None = Token
    ) -> Response:
        session = games.get(game_id, token)

        def draw() -> Response:
            with session.lock:
                return rendered(session.frame(k))

        return await workers.run(draw, client_of(http))


def add_upload_routes(app: FastAPI, served: Served) -> None:
    """A saved game or record uploaded, shown and continued."""
    uploads, workers = served.uploads, served.workers

    @app.post("/api/uploads", status_code=201)
    async def upload(
        data: dict[str, Any],
        http: Request,
        game: str = Query(DEFAULT_GAME, description="the game the page is set for"),
        players: int | None = Query(None, ge=2, le=4, description="its number of players"),
    ) -> dict[str, Any]:
        owner = client_of(http)
        loaded = await workers.run(lambda: load_upload(game, data, players), owner)
        key, token = uploads.add(loaded, owner)
        return loaded.to_json() | {"id": key, "token": token}

    @app.get("/api/uploads/{upload_id}/frames/{k}")
    async def upload_frame(
        upload_id: str, k: int, http: Request, token: str | None = Token
    ) -> dict[str, Any]:
        loaded = uploads.get(upload_id, token)
        return await workers.run(lambda: game_of(loaded.game).frame(loaded, k), client_of(http))

    @app.post("/api/uploads/{upload_id}/continue", status_code=201)
    async def resume(
        upload_id: str, request: Continue, http: Request, token: str | None = Token
    ) -> Response:
        loaded = uploads.get(upload_id, token)
        game, owner = game_of(loaded.game), client_of(http)
        return await workers.run(
            lambda: served.created(game.resume(loaded, request.opponents, request.seat), owner),
            owner,
        )
