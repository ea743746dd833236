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

**Who is a client** (for the per-client limits below): its address, the connection's:
`X-Forwarded-For` and the like are ignored unless `trust_proxy` (`--trust-proxy
ADDRESSES`) names the proxy they come from. On this machine's own address (where every
browser has the same one) a client is a browser, known by a cookie the server signs
(`apps.webasgi.ClientIdentity`; it names the browser, it opens no game); a local request
without a valid one counts as the client of the address. So two browsers on the default
server are two clients, and no request can claim another's identity.

**Bounded resources** (`create_app`'s arguments; the commands' flags): every piece of work
a request can cause is bounded and checked when it arrives (docs/web.md has the table):
- at most `max_games` games (`--max-games`, 200) and as many uploads are held, at most
  `max_client_games` (`--max-client-games`, 20) of one client; a new one evicts
  its client's least recently used when the client is at its limit, else, when full, the
  least recently used of the client holding the most (`apps.weblimits.Store`), so one
  client cannot empty another's games;
- a game or upload unused for `idle_seconds` (`--idle-minutes`, 60) is evicted; a finished
  game evicted either way is first written to `records_dir` (`--records DIR`, none by
  default) as `<game>-<id>.json`, atomically (a temporary file renamed);
- the games' work (new games, moves and the opponents' replies, uploads read, pictures)
  runs on `game_threads` threads (`--game-threads`, 4) with at most `game_queue`
  (`--game-queue`, 32) jobs waiting, one client's on at most half the threads and in at
  most a quarter of the places, the clients taking free threads in turn; 503 beyond
  (`apps.weblimits.Workers`); the request threads never run it, so slow opponents hold
  up no other request, and one client's work never starves another's;
- a search opponent asks at most `apps.webgame.PAGE_SEARCH_LIMITS` per decision (400);
- a request body over `max_body` bytes (`--max-body-kib`, 256 KiB) gets 413, the body read
  and dropped first (up to 16 MiB) so that the answer arrives; a JSON body that may hold
  over 20,000 values, or nests deeper than 32, gets 413 before it is parsed
  (`apps.webjson`); an animated replay over `max_replay_bytes` (32 MiB, estimated from its first
  picture) gets 413, and one under it is sent a picture at a time;
- JSON is parsed strictly: `NaN`, `Infinity` and numbers beyond a float's range are refused,
  and the requests' ints are strict (no `"2"`, `true` or `5.0`): a 422 naming the field,
  listing at most five errors; the parse and the validation run on a worker thread, not
  on the event loop; answers escape every non-ASCII character, so a lone surrogate is
  echoed in a 422;
- a game's answer is encoded under its lock, and a read answers the snapshot published
  after the last whole move (`Session.publish`), never a half-made one;
- a request whose `Host` is not exactly one of `allowed_hosts` (the loopback names and
  `--host`, plus `--allow-host`), with an optional numeric port, gets 400; the API's own
  pages are off unless `api_docs` (`--api-docs`);
- a held game's memory is bounded by the rules (its record and log grow by one entry per
  decision and a game ends); the shipped models are loaded once per process;
- it listens on 127.0.0.1 unless `--host` says otherwise, with a warning then, and sends
  every answer at once (`TCP_NODELAY` on every connection).

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
import socket
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from apps.webasgi import BodyLimit, ClientIdentity, SweepIdle, client_of
from apps.webgame import Session, preload_models, web_games
from apps.webjson import StrictJSONRoute, strict_json
from apps.weblimits import LOOPBACK_NAMES, TOKEN_HEADER, HostCheck, SafeJSONResponse, Store, Workers
from apps.webroutes import (
    DEFAULT_GAME,
    Served,
    add_ended_routes,
    add_error_handlers,
    add_game_routes,
    add_page_routes,
    add_upload_routes,
)
from asara_env.common.files import atomic_write_text
from commandline.command import add_serve_arguments, run_main
from commandline.command import parser as command_parser

__all__ = [
    "MAX_BODY",
    "MAX_REPLAY_BYTES",
    "TOKEN_HEADER",
    "Store",
    "allowed_hosts",
    "client_of",
    "create_app",
    "is_local",
    "main",
    "running",
    "serve",
    "strict_json",
]

WEB_DIR = Path(__file__).parent / "web"
MAX_GAMES = 200  # games held at once (and as many uploaded replays)
MAX_CLIENT_GAMES = 20  # games (and uploads) held for one client
GAME_THREADS = 4  # threads playing the games' moves (the opponents think there)
GAME_QUEUE = 32  # game jobs waiting for a thread; more get 503
MAX_REPLAY_BYTES = 32 * 2**20  # an animated replay's size, estimated before it is drawn
IDLE_SECONDS = 3600.0  # a game unused this long is evicted
MAX_BODY = 256 * 1024  # bytes of a request body
LISTEN_BACKLOG = 128
LOCAL_HOSTS = set(LOOPBACK_NAMES)


def saver(records: Path | None) -> Callable[[Session[Any]], None]:
    """What an evicted game goes through: a finished one written to `records` (if any) as
    `<game>-<id>.json`, atomically; the disk's trouble is a warning, never a failed request."""

    def save(session: Session[Any]) -> None:
        if records is not None and session.over:
            record = session.record()
            path = records / f"{record['game']}-{session.id}.json"
            try:
                atomic_write_text(path, json.dumps(record), encoding="utf-8")
            except OSError as exc:
                warnings.warn(f"could not save the finished game {session.id}: {exc}", stacklevel=2)

    return save


def create_app(  # noqa: PLR0913 - one argument per limit
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
    trust_proxy: Sequence[str] = (),
    api_docs: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The web application, with its own stores of games and uploads: at most `max_games`
    of each and `max_client_games` of one client (see `Store` for who is evicted), each
    evicted after `idle_seconds` unused (by `clock`), a finished game evicted written to
    `records_dir` first if given; request bodies over `max_body` bytes refused (413); the
    games' work on `game_threads` threads with `game_queue` more jobs waiting (503
    beyond); animated replays over `max_replay_bytes` refused (413); requests naming
    another `Host` than `allowed_hosts` refused (400; "*" allows any); a client's address
    taken from `X-Forwarded-For` only on connections from the `trust_proxy` addresses;
    the API's own pages (/docs, /redoc, /openapi.json) only with `api_docs`."""
    if max_body < 1 or max_replay_bytes < 1:
        raise ValueError(
            f"max_body and max_replay_bytes must be positive, got {max_body}, {max_replay_bytes}"
        )
    records = None if records_dir is None else Path(records_dir)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    docs = {} if api_docs else {"docs_url": None, "redoc_url": None, "openapi_url": None}
    app = FastAPI(
        title="ASARA and BASARI",
        description=__doc__,
        default_response_class=SafeJSONResponse,
        **docs,  # type: ignore[arg-type]
    )
    app.router.route_class = StrictJSONRoute
    served = Served(
        Store("game", max_games, idle_seconds, clock, saver(records), per_owner=max_client_games),
        Store("upload", max_games, idle_seconds, clock, per_owner=max_client_games),
        Workers(game_threads, game_queue),
        max_replay_bytes,
    )
    weakref.finalize(app, served.workers.close)
    add_middleware(app, served, max_body, allowed_hosts, trust_proxy)
    app.state.games, app.state.uploads = served.games, served.uploads
    app.state.workers = served.workers
    add_error_handlers(app)
    add_page_routes(app, WEB_DIR)
    add_game_routes(app, served)
    add_ended_routes(app, served)
    add_upload_routes(app, served)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def add_middleware(
    app: FastAPI,
    served: Served,
    max_body: int,
    allowed_hosts: Sequence[str],
    trust_proxy: Sequence[str],
) -> None:
    """From the outside in: a trusted proxy's client address, the `Host` check (nothing
    runs for a foreign host), the client's identity, the body's size, the idle sweep."""
    app.add_middleware(SweepIdle, stores=(served.games, served.uploads))
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(ClientIdentity)
    app.add_middleware(HostCheck, allowed=allowed_hosts)
    if trust_proxy:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(trust_proxy))


def uvicorn_config(app: FastAPI, **where: Any) -> Any:
    """uvicorn's settings for `app`: its own proxy headers off (`create_app` trusts a
    proxy only when told), warnings only."""
    import uvicorn

    return uvicorn.Config(app, log_level="warning", proxy_headers=False, **where)


@contextlib.contextmanager
def running(
    host: str = "127.0.0.1", port: int = 0, app: FastAPI | None = None, **limits: Any
) -> Iterator[str]:
    """Run `app` (by default `create_app`'s, `limits` its arguments) in a background
    thread (port 0: any free port); yields its URL."""
    import uvicorn

    served = app if app is not None else create_app(**limits)
    server = uvicorn.Server(uvicorn_config(served, host=host, port=port))
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
    """A TCP socket listening on `host`:`port` (0: a free port); OSError naming what
    failed. Made with its protocol named (TCP), so that asyncio sets `TCP_NODELAY` on
    every connection it accepts (with protocol 0 it does not, and every answer waits for
    the client's delayed acknowledgement, ~40 ms)."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
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
        trust_proxy=[n.strip() for arg in args.trust_proxy for n in arg.split(",") if n.strip()],
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
    uvicorn.Server(uvicorn_config(app)).run(sockets=[sock])


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
