"""A web page to play ASARA against the agents: `asara-serve` (`asara serve`).

    asara-serve --port 8000          # then open http://127.0.0.1:8000

The page starts a game (players, variant, expansions, the opponents: the baseline agents of
`agents.asara.AGENTS` and the shipped models of `agents.models.MODELS["asara"]`, `ppo_2p`
and `ppo_4p`, a seed), draws the board as the person's seat sees it (R10,
`asara_env.asara.render_svg`), lets the person choose among the legal moves (clicking on the
board where a move has a place there, and always from the list of the moves' names), shows
the opponents' moves and the end-of-year and final scoring, and offers the game record for
download and replay. The models' former names here, `model:asara_2p` and `model:asara_4p`,
are still accepted, with a DeprecationWarning.

Nothing the person may not know (R10) reaches the page: the board is their seat's view,
the opponents' moves are named without their hidden cards
(`asara_env.asara.actions.public_description`), and the seed and the record, which tell every
card, come only once the game is over.

**Whose game is whose.** Creating a game (or uploading a record to replay) answers, once, with
its `id` and an unguessable `token` (`secrets.token_urlsafe(32)`). Every request about that
game or replay must carry the token in the `X-Game-Token` header; a missing or wrong token
gets the same 404 as an id that does not exist (nothing tells whether a game exists). No
endpoint lists games: the page keeps its own games' ids and tokens in the browser's
`localStorage`. A header, not a cookie: a browser sends cookies with requests other sites
make, and a custom header only with the page's own (no CORS is served), so no other site
can act in a game.

**Bounded resources** (`create_app`'s arguments; `asara-serve`'s flags):
- at most `max_games` games (`--max-games`, 200) and as many uploaded replays are held; a new
  one when full evicts the least recently used (each request to a game counts as a use),
  so the server always accepts new games and an active game is the last to go;
- a game or replay unused for `idle_seconds` (`--idle-minutes`, 60) is evicted; a finished
  game evicted either way is first written to `records_dir` (`--records DIR`, none by
  default) as `asara-<id>.json`, atomically (a temporary file renamed);
- a request body over `max_body` bytes (`--max-body-kib`, 256 KiB) gets 413 before it is read
  in full;
- JSON is parsed strictly: `NaN`, `Infinity` and numbers beyond a float's range are refused,
  and the requests' ints are strict (no `"2"`, `true` or `5.0`): a 422 naming the field;
- a held game's memory is bounded by the rules (its record and log grow by one entry per
  decision and a game ends); the shipped models are loaded once per process.
- it listens on 127.0.0.1 unless `--host` says otherwise, with a warning then.

The JSON API the page uses (every error is a 4xx with `{"detail": message}` and changes
nothing). A move is refused with 409 when it is illegal, the game is over, or `decision`
(the count of decisions the page saw) is stale, as after a double click. "token" marks the
requests that need the `X-Game-Token` header:

| request | answer |
|---|---|
| `GET /api/options` | agent names, models, variants, expansions |
| `POST /api/games` `{players, variant, expansions, opponents, seat, seed}` | 201, game + `token` |
| `GET /api/games/{id}` (token) | the game: `svg`, `moves` (`id`, `name`, `spots`), `log`, `final` |
| `POST /api/games/{id}/moves` `{action, decision}` (token) | the game after the move, replies |
| `GET /api/games/{id}/record` (token) | the game record (`GameRecord`), JSON, at the end |
| `GET /api/games/{id}/replay.svg?seconds=0.7` (token) | the whole game animated (SVG), at the end |
| `GET /api/games/{id}/frames/{k}` (token) | position k as the person's seat saw it (SVG) |
| `POST /api/replays` (a game record) | 201, `{id, token, frames, config}`: a game to step through |
| `GET /api/replays/{id}/frames/{k}` (token) | the position after k decisions in full (SVG) |

Opponents play with seeds derived from the game's seed (`derived_seed(seed, 1000 + seat)`,
as in the terminal game), so a seed and the person's moves give the same game again.
"""

from __future__ import annotations

import argparse
import contextlib
import hmac
import ipaddress
import json
import math
import secrets
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import numpy as np
from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agents.asara import AGENTS
from agents.asara.arena import AsaraAgent
from agents.models import MODELS as SHIPPED
from agents.registry import make_agent
from apps.asara.options import add_serve_arguments
from apps.asara.play import AGENT_SEED_OFFSET, move_head
from apps.command import parser as command_parser
from apps.command import run_main
from asara_env.asara.actions import (
    NUM_ACTIONS,
    describe_action,
    public_description,
)
from asara_env.asara.bridge import encode_view
from asara_env.asara.config import VARIANTS, GameConfig
from asara_env.asara.constants import FINAL_CATEGORIES, KNOWN_EXPANSIONS
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.record import GameRecord, replay
from asara_env.asara.reference.rules import illegal_reason, legal_actions
from asara_env.asara.reference.scoring import year_end_points
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render_svg import action_spots, animated_svg, replay_frames, svg_full, svg_view
from asara_env.common.errors import CorruptStateError
from asara_env.common.extras import MissingExtraError
from asara_env.common.files import atomic_write_text
from asara_env.common.seeding import derived_seed

WEB_DIR = Path(__file__).parent / "web"
MAX_SEED = 2**63
TOKEN_HEADER = "X-Game-Token"
MAX_GAMES = 200  # games held at once (and as many uploaded replays)
IDLE_SECONDS = 3600.0  # a game unused this long is evicted
MAX_BODY = 256 * 1024  # bytes of a request body
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}


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


# ------------------------------------------------------------------------ held things
T = TypeVar("T")


@dataclass
class Held(Generic[T]):
    token: str
    item: T
    used: float  # the clock's time of the last request about it


class Store(Generic[T]):
    """At most `limit` items, each under a short id and opened only with its secret token.
    Adding to a full store evicts the least recently used item; an item unused for
    `idle` seconds (by `clock`, monotonic) is evicted at the next `add`, `get` or `sweep`
    (the app sweeps at every request). `evicted(item)` is called for each item evicted,
    outside the store's lock. Thread-safe."""

    def __init__(
        self,
        what: str,
        limit: int,
        idle: float,
        clock: Callable[[], float],
        evicted: Callable[[T], None] | None = None,
    ) -> None:
        if limit < 1 or not idle > 0:
            raise ValueError(
                f"a store holds at least 1 item for a positive time, got {limit}, {idle}"
            )
        self.what, self.limit, self.idle, self.clock = what, limit, idle, clock
        self.evicted = evicted
        self._items: OrderedDict[str, Held[T]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def held(self) -> set[str]:
        """The ids held now (for the server's own use and tests: no endpoint shows them)."""
        with self._lock:
            return set(self._items)

    def add(self, item: T) -> tuple[str, str]:
        """Hold `item`; its new (id, token). The id is not secret (the page shows it)."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            gone = self._sweep()
            while len(self._items) >= self.limit:
                gone.append(self._items.popitem(last=False)[1].item)
            while (key := secrets.token_hex(6)) in self._items:
                pass
            self._items[key] = Held(token, item, self.clock())
        self._evict(gone)
        return key, token

    def get(self, key: str, token: str | None) -> T:
        """The item under `key` if `token` is its token; otherwise the same 404 whether or
        not the id exists."""
        with self._lock:
            gone = self._sweep()
            held = self._items.get(key)
            expected = held.token if held is not None else "-" * 43
            if not hmac.compare_digest(expected.encode(), (token or "").encode()) or held is None:
                found = None
            else:
                held.used = self.clock()
                self._items.move_to_end(key)
                found = held.item
        self._evict(gone)
        if found is None:
            raise HTTPException(
                404, f"no {self.what} with id {key!r} for this {TOKEN_HEADER} (or none sent)"
            )
        return found

    def sweep(self) -> None:
        """Evict the items idle for longer than `idle`."""
        with self._lock:
            gone = self._sweep()
        self._evict(gone)

    def _sweep(self) -> list[T]:
        now, gone = self.clock(), []
        while self._items:
            key, held = next(iter(self._items.items()))
            if now - held.used <= self.idle:
                break
            del self._items[key]
            gone.append(held.item)
        return gone

    def _evict(self, items: list[T]) -> None:
        if self.evicted is not None:
            for item in items:
                self.evicted(item)


# ------------------------------------------------------------------------ requests
class NewGame(BaseModel):
    """A game to start; the person sits in `seat`, the opponents fill the other seats."""

    model_config = ConfigDict(strict=True, extra="forbid")

    players: int = Field(2, description="2..4")
    variant: str = "basic"
    expansions: list[str] = []
    opponents: list[str] = Field(["random"], description="agent or shipped model names")
    seat: int = 0
    seed: int | None = Field(None, ge=0, lt=MAX_SEED)


class Move(BaseModel):
    """A move of the person: an action id, and the decisions the page had seen."""

    model_config = ConfigDict(strict=True, extra="forbid")

    action: int
    decision: int | None = None


# ------------------------------------------------------------------------ opponents
# the web page's names for the shipped models until they were named as everywhere else
# (`agents.models.MODELS["asara"]`): `model:asara_2p` is `ppo_2p`, `model:asara_4p` is `ppo_4p`
MODELS = SHIPPED["asara"]
DEPRECATED_MODEL_NAMES = {f"model:{Path(f).stem}": name for name, f in MODELS.items()}


def opponent_name(name: str) -> str:
    """`name` as the registry names it: a deprecated `model:NAME` becomes its shipped
    model's name (with a DeprecationWarning); ValueError for an unknown opponent."""
    if name in DEPRECATED_MODEL_NAMES:
        new = DEPRECATED_MODEL_NAMES[name]
        warnings.warn(
            f"the opponent name {name!r} is deprecated; use {new!r}", DeprecationWarning, 2
        )
        return new
    if name.startswith("model:"):
        raise ValueError(f"unknown model {name!r}; shipped models: {sorted(MODELS)}")
    if name not in AGENTS and name not in MODELS:
        known = sorted(AGENTS) + sorted(MODELS)
        raise ValueError(f"unknown opponent {name!r}; known: {known}")
    return name


def opponent(name: str, seed: int) -> AsaraAgent:
    """The agent playing as `name` (a baseline agent's or a shipped model's name), seeded."""
    name = opponent_name(name)
    try:
        return make_agent("asara", name, seed)
    except MissingExtraError as exc:  # pragma: no cover - the train extra is installed in CI
        raise ValueError(str(exc)) from exc


# ------------------------------------------------------------------------ what others see
# ------------------------------------------------------------------------ one game
@dataclass
class Game:
    """One game of the person (in `seat`) against agents, and what happened so far."""

    id: str
    seat: int
    names: list[str | None]  # per seat: the opponent's name, None for the person
    record: GameRecord
    state: State
    agents: dict[int, AsaraAgent]
    log: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def label(self, seat: int) -> str:
        return f"P{seat} ({self.names[seat] or 'you'})"

    def apply(self, action: int) -> None:
        """Play one legal action and log it, with the scoring a year end brings."""
        state, mover, year = self.state, self.state.seat, self.state.year
        step(state, action)
        self.record.actions.append(int(action))
        n = len(self.record.actions)
        text = public_description(action, mover, self.seat)
        self.log.append({"kind": "move", "decision": n, "seat": mover, "text": text})
        if state.year != year or state.is_over:
            self.log_year_end(year, n)
        if state.is_over:
            self.log.append({"kind": "final", "decision": n, "text": self.final_text()})

    def log_year_end(self, year: int, n: int) -> None:
        """R6.2's points of every seat (the towers and the Caliph do not change at the
        year's end, so the position after it gives them)."""
        state = self.state
        points = [
            year_end_points(state.towers[s], state.caliph == s) for s in range(len(self.names))
        ]
        gains = ", ".join(f"{self.label(s)} +{p}" for s, p in enumerate(points))
        text = f"end of year {year} scoring (R6.2): {gains}"
        self.log.append({"kind": "year", "decision": n, "text": text, "points": points})

    def final_text(self) -> str:
        best = max(self.state.prestige)
        won = [self.label(s) for s, p in enumerate(self.state.prestige) if p == best]
        return f"final scoring: winner(s) {', '.join(won)}"

    def advance(self) -> None:
        """Let the opponents move until it is the person's turn or the game is over."""
        while not self.state.is_over and self.state.seat != self.seat:
            mover = self.state.seat
            mask = np.zeros(NUM_ACTIONS, bool)
            mask[legal_actions(self.state)] = True
            observation = encode_view(seat_view(self.state, mover))
            self.apply(int(self.agents[mover].act(observation, mask)))

    def play(self, move: Move) -> None:
        """The person's move; HTTPException (nothing changed) if it is not legal now."""
        if self.state.is_over:
            raise HTTPException(409, "the game is over: no more moves")
        if move.decision is not None and move.decision != len(self.record.actions):
            raise HTTPException(
                409,
                f"stale move: it was chosen at decision {move.decision}, the game is at "
                f"decision {len(self.record.actions)}",
            )
        if not 0 <= move.action < NUM_ACTIONS:
            raise HTTPException(400, f"action ids are 0..{NUM_ACTIONS - 1}, got {move.action}")
        reason = illegal_reason(self.state, move.action)
        if reason is not None:
            name = describe_action(move.action)
            raise HTTPException(409, f"illegal move {move.action} ({name}): {reason}")
        self.apply(move.action)
        self.advance()

    def summary(self) -> dict[str, Any]:
        """The game's id, configuration and progress; the seed (which tells every hidden
        card, R10) only once the game is over."""
        return {
            "id": self.id,
            "config": self.record.config.to_dict(),
            "seed": self.record.seed if self.state.is_over else None,
            "seat": self.seat,
            "players": [self.label(s) for s in range(len(self.names))],
            "decisions": len(self.record.actions),
            "over": self.state.is_over,
        }

    def to_json(self) -> dict[str, Any]:
        """Everything the page shows: board, moves, log, final scoring."""
        state = self.state
        yours = not state.is_over and state.seat == self.seat
        moves = legal_actions(state) if yours else []
        return self.summary() | {
            "year": state.year,
            "phase": state.phase.name,
            "to_move": state.seat,
            "your_turn": yours,
            "prestige": list(state.prestige),
            "svg": svg_view(seat_view(state, self.seat)),
            "moves": [self.move_json(a) for a in moves],
            "log": self.log,
            "final": self.final_json(),
        }

    @staticmethod
    def move_json(action: int) -> dict[str, Any]:
        head, label = move_head(action)
        name, spots = describe_action(action), action_spots(action)
        return {"id": action, "name": name, "head": head, "label": label, "spots": spots}

    def final_json(self) -> dict[str, Any] | None:
        if self.state.final is None:
            return None
        rows = [
            {"player": self.label(s), **points, "prestige": self.state.prestige[s]}
            for s, points in enumerate(self.state.final)
        ]
        best = max(self.state.prestige)
        won = [self.label(s) for s, p in enumerate(self.state.prestige) if p == best]
        return {"categories": [*FINAL_CATEGORIES, "total"], "rows": rows, "winners": won}


def start_game(request: NewGame) -> Game:
    """A new game as requested, the opponents moved up to the person's first turn;
    ValueError naming what is wrong with the request."""
    config = GameConfig(
        num_players=request.players, variant=request.variant, expansions=tuple(request.expansions)
    )
    if len(request.opponents) != config.num_players - 1:
        raise ValueError(
            f"{config.num_players} players need {config.num_players - 1} opponent(s), "
            f"got {len(request.opponents)}"
        )
    if not 0 <= request.seat < config.num_players:
        raise ValueError(f"seat must be in 0..{config.num_players - 1}, got {request.seat}")
    seed = request.seed
    if seed is None:
        seed = cast(int, np.random.SeedSequence().entropy) % MAX_SEED  # an int when unseeded
    names: list[str | None] = [opponent_name(name) for name in request.opponents]
    names.insert(request.seat, None)
    agents = {
        s: opponent(name, derived_seed(seed, AGENT_SEED_OFFSET + s))
        for s, name in enumerate(names)
        if name is not None
    }
    game = Game(
        "",  # the store names it
        request.seat,
        names,
        GameRecord(config, seed),
        new_game(config, seed),
        agents,
    )
    game.advance()
    return game


def replayed(record: GameRecord, k: int) -> State:
    """The position after the record's first k actions."""
    if not 0 <= k <= len(record.actions):
        raise HTTPException(404, f"frame must be in 0..{len(record.actions)}, got {k}")
    state = new_game(record.config, record.seed)
    for action in record.actions[:k]:
        step(state, action)
    return state


def svg_response(svg: str) -> Response:
    return Response(svg, media_type="image/svg+xml")


# ------------------------------------------------------------------------ the app
# C901: the route handlers nested in it count toward its complexity; each is a few lines
def create_app(  # noqa: C901
    *,
    max_games: int = MAX_GAMES,
    idle_seconds: float = IDLE_SECONDS,
    records_dir: Path | str | None = None,
    max_body: int = MAX_BODY,
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The web application, with its own stores of games and replays: at most `max_games`
    of each (the least recently used evicted for a new one), each evicted after
    `idle_seconds` unused (by `clock`), a finished game evicted written to `records_dir`
    first if given; request bodies over `max_body` bytes refused (413)."""
    if max_body < 1:
        raise ValueError(f"max_body must be a positive number of bytes, got {max_body}")
    records = None if records_dir is None else Path(records_dir)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)

    def save(game: Game) -> None:
        if records is not None and game.state.is_over:
            text = json.dumps(game.record.to_dict())
            try:
                atomic_write_text(records / f"asara-{game.id}.json", text, encoding="utf-8")
            except OSError as exc:  # the disk's trouble must not fail a player's request
                warnings.warn(f"could not save the finished game {game.id}: {exc}", stacklevel=2)

    app = FastAPI(title="ASARA", description=__doc__)
    app.router.route_class = StrictJSONRoute
    games: Store[Game] = Store("game", max_games, idle_seconds, clock, save)
    replays: Store[GameRecord] = Store("replay", max_games, idle_seconds, clock)
    app.add_middleware(SweepIdle, stores=(games, replays))
    app.add_middleware(BodyLimit, limit=max_body)  # the outermost: nothing runs for a 413
    app.state.games, app.state.replays = games, replays
    Token = Header(None, alias=TOKEN_HEADER, description="the token given at creation")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/api/options")
    def options() -> dict[str, Any]:
        return {
            "agents": sorted(AGENTS),
            "models": sorted(MODELS),
            "variants": list(VARIANTS),
            "expansions": list(KNOWN_EXPANSIONS),
            "players": [2, 3, 4],
        }

    @app.post("/api/games", status_code=201)
    def create(request: NewGame) -> dict[str, Any]:
        try:
            game = start_game(request)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from exc
        game.id, token = games.add(game)
        return game.to_json() | {"token": token}

    @app.get("/api/games/{game_id}")
    def show(game_id: str, token: str | None = Token) -> dict[str, Any]:
        return games.get(game_id, token).to_json()

    @app.post("/api/games/{game_id}/moves")
    def move(game_id: str, move: Move, token: str | None = Token) -> dict[str, Any]:
        game = games.get(game_id, token)
        with game.lock:
            game.play(move)
            return game.to_json()

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str, token: str | None = Token) -> JSONResponse:
        game = games.get(game_id, token)
        if not game.state.is_over:
            raise HTTPException(
                409,
                "the record holds the seed, which tells every hidden card (R10): it is "
                "offered once the game is over",
            )
        name = f"asara-{game.record.seed}.json"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return JSONResponse(game.record.to_dict(), headers=headers)

    @app.get("/api/games/{game_id}/replay.svg")
    def animated_replay(
        game_id: str,
        seconds: float = Query(0.7, gt=0, le=10, allow_inf_nan=False),
        token: str | None = Token,
    ) -> Response:
        game = games.get(game_id, token)
        if not game.state.is_over:
            raise HTTPException(
                409, "the replay shows every hidden card: it is offered once the game is over"
            )
        svg = animated_svg(replay_frames(game.record), seconds)
        name = f"asara-{game.record.seed}-replay.svg"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    @app.get("/api/games/{game_id}/frames/{k}")
    def game_frame(game_id: str, k: int, token: str | None = Token) -> Response:
        game = games.get(game_id, token)
        return svg_response(svg_view(seat_view(replayed(game.record, k), game.seat)))

    @app.post("/api/replays", status_code=201)
    def upload(record: dict[str, Any]) -> dict[str, Any]:
        try:
            loaded = GameRecord.from_dict(record)
            replay(loaded)  # every action must be legal in turn
        except (CorruptStateError, ValueError) as exc:
            raise HTTPException(400, f"not a playable game record: {exc}") from exc
        key, token = replays.add(loaded)
        frames = len(loaded.actions) + 1
        return {"id": key, "token": token, "frames": frames, "config": loaded.config.to_dict()}

    @app.get("/api/replays/{replay_id}/frames/{k}")
    def replay_frame(replay_id: str, k: int, token: str | None = Token) -> Response:
        return svg_response(svg_full(replayed(replays.get(replay_id, token), k)))

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


def serve(args: argparse.Namespace) -> None:
    """Run the web page on `args.host`:`args.port` until interrupted, with the limits of
    `args` (`max_games`, `idle_minutes`, `records`, `max_body_kib`)."""
    import uvicorn

    app = create_app(
        max_games=args.max_games,
        idle_seconds=args.idle_minutes * 60,
        records_dir=args.records,
        max_body=args.max_body_kib * 1024,
    )
    if not is_local(args.host):
        warnings.warn(
            f"listening on {args.host}, not only on this machine (127.0.0.1): anyone who can "
            "reach it can start games here (each game still needs its own token)",
            stacklevel=2,
        )
    print(f"ASARA: open http://{args.host}:{args.port} in a browser (Ctrl-C stops)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


@run_main("asara-serve")
def main(argv: list[str] | None = None) -> None:
    """`asara-serve` (also `asara serve`): run the web page on a local port."""
    parser = command_parser("asara-serve", "Play ASARA in a browser.")
    add_serve_arguments(parser)
    serve(parser.parse_args(argv))


if __name__ == "__main__":
    main()
