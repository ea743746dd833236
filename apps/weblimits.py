"""The web server's bounds (apps/serve.py), each a small piece checked when a request arrives:
who may hold how many games (`Store`), where the games' work runs (`Workers`), which
`Host` a request may name (`HostCheck`), and JSON answers that encode any text
(`SafeJSONResponse`).

- `Store`: at most `limit` items in all and `per_owner` of one owner (a client);
  a new item evicts its owner's least recently used one when the owner is at its limit,
  else, when the store is full, the least recently used item of the owner holding the
  most. So one client creating games evicts only its own, unless every client holds as
  few as it.
- `Workers`: a game's work (a new game, a move, the opponents' replies, an upload read)
  runs on a pool of `threads` threads with at most `queue` jobs waiting, one client's on
  at most half the threads and in at most a quarter of the places; a job beyond that is
  refused at once (503, naming the limits). The server's request threads only wait for
  it without blocking, so every other request is answered meanwhile, and a client's job
  finds a thread whatever another client has asked for.
- `HostCheck`: a request whose `Host` header is not exactly an allowed host (with an
  optional numeric port) gets 400 naming them (a page on another site that resolves its
  own name to this machine, "DNS rebinding", cannot reach the server).
- `SafeJSONResponse`: JSON with every non-ASCII character escaped, so that text the
  client sent (a lone UTF-16 surrogate included) is echoed without an encoding error.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import secrets
import threading
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from fastapi import HTTPException
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_HEADER = "X-Game-Token"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")  # the Host names allowed by default
ANY_HOST = "*"
BUSY_RETRY_SECONDS = 5  # the Retry-After of a 503 from a full queue
CLIENT_SHARES = 4  # one client may hold a quarter of the game threads and queue places
# a Host header: a name, a bracketed IPv6 address or a bare one, then an optional port
HOST_HEADER = re.compile(
    r"(?:\[(?P<address>[0-9a-f:.]+)\]|(?P<name>[^:\[\]]*)|(?P<bare>[0-9a-f:.]*:[0-9a-f:.]*))"
    r"(?::[0-9]{1,5})?"
)
T = TypeVar("T")
R = TypeVar("R")


class SafeJSONResponse(JSONResponse):
    """A JSON answer whose non-ASCII characters are escaped (`\\uXXXX`): any `str`
    encodes, a lone surrogate too."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False).encode("ascii")


# ------------------------------------------------------------------------ held things
@dataclass
class Held(Generic[T]):
    token: str
    item: T
    owner: str  # who created it: a client (`apps.webasgi.client_of`)
    used: float  # the clock's time of the last request about it


class Store(Generic[T]):
    """At most `limit` items, at most `per_owner` (default: `limit`) of one owner, each
    under a short id and opened only with its secret token. A new item evicts its owner's
    least recently used item when the owner holds `per_owner`; otherwise, when the store
    is full, the least recently used item of the owner holding the most. An item unused
    for `idle` seconds (by `clock`, monotonic) is evicted at the next `add`, `get` or
    `sweep` (the app sweeps at every request). `evicted(item)` is called for each item
    evicted, outside the store's lock. Thread-safe."""

    def __init__(
        self,
        what: str,
        limit: int,
        idle: float,
        clock: Callable[[], float],
        evicted: Callable[[T], None] | None = None,
        per_owner: int | None = None,
    ) -> None:
        if limit < 1 or not idle > 0 or (per_owner is not None and per_owner < 1):
            raise ValueError(
                f"a store holds at least 1 item (of each owner) for a positive time, got "
                f"{limit}, {per_owner}, {idle}"
            )
        self.what, self.limit, self.idle, self.clock = what, limit, idle, clock
        self.per_owner = limit if per_owner is None else min(per_owner, limit)
        self.evicted = evicted
        self._items: OrderedDict[str, Held[T]] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def held(self) -> set[str]:
        """The ids held now (for the server's own use and tests: no endpoint shows them)."""
        with self._lock:
            return set(self._items)

    def add(self, item: T, owner: str = "") -> tuple[str, str]:
        """Hold `item` for `owner`; its new (id, token). The id is not secret (the page
        shows it)."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            gone = self._sweep()
            victim = self._victim(owner)
            if victim is not None:
                gone.append(self._items.pop(victim).item)
            while (key := secrets.token_hex(6)) in self._items:
                pass
            self._items[key] = Held(token, item, owner, self.clock())
        self._evict(gone)
        return key, token

    def _victim(self, owner: str) -> str | None:
        """The id to evict before `owner` adds an item, if any (see the class)."""
        counts = Counter(held.owner for held in self._items.values())
        if counts[owner] >= self.per_owner:
            return next(k for k, held in self._items.items() if held.owner == owner)
        if len(self._items) < self.limit:
            return None
        most = max(counts.values())
        return next(k for k, held in self._items.items() if counts[held.owner] == most)

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


# ------------------------------------------------------------------------ the games' work
Job = tuple[Callable[[], Any], "Future[Any]", bool]  # the job, its result, whether it counts


class Workers:
    """A pool of `threads` threads for the games' work, with at most `queue` jobs waiting
    for one, shared fairly between clients: one client's jobs run on at most
    `client_threads` threads (half of them), and at most `client_jobs` of its jobs (a
    quarter of the threads and queue places) are running or waiting at once; the waiting
    clients take the free threads in turn. `run` refuses a job beyond these at once (503).
    A job whose client has gone still finishes once started (its game must not be left
    half-moved); one not yet started is dropped."""

    def __init__(self, threads: int, queue: int) -> None:
        if threads < 1 or queue < 0:
            raise ValueError(f"threads must be >= 1 and queue >= 0, got {threads}, {queue}")
        self.threads, self.queue = threads, queue
        self.client_threads = max(1, threads // 2)
        self.client_jobs = max(1, (threads + queue) // CLIENT_SHARES)
        self._lock = threading.Lock()
        self._waiting: dict[str, deque[Job]] = {}  # in turn: the first takes the next thread
        self._running: Counter[str] = Counter()
        self._jobs: Counter[str] = Counter()  # running or waiting, by client
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="game-work")

    async def run(self, job: Callable[[], R], client: str = "") -> R:
        """`job()`'s result, computed on the pool while the caller's event loop goes on."""
        with self._lock:
            self._admit(client)
            self._jobs[client] += 1
            future: Future[R] = self._enqueue(job, client, counted=True)
        return await asyncio.wrap_future(future)

    def hold(self, client: str = "") -> Hold:
        """One of `client`'s places, held for a series of jobs (a streamed answer's) until
        released: taken now or refused now (503), like a job's."""
        with self._lock:
            self._admit(client)
            self._jobs[client] += 1
        return Hold(self, client)

    async def run_held(self, job: Callable[[], R], client: str) -> R:
        """`job()`'s result, computed on the pool in `client`'s turn, in a place it holds."""
        with self._lock:
            future: Future[R] = self._enqueue(job, client, counted=False)
        return await asyncio.wrap_future(future)

    def release(self, client: str) -> None:
        """Give back a place `hold` took."""
        with self._lock:
            self._jobs[client] -= 1
            self._jobs += Counter()
            self._dispatch()

    def _enqueue(self, job: Callable[[], R], client: str, counted: bool) -> Future[R]:
        """Queue `job` in `client`'s turn (under the lock)."""
        future: Future[R] = Future()
        self._waiting.setdefault(client, deque()).append((job, future, counted))
        self._dispatch()
        return future

    def _admit(self, client: str) -> None:
        """503 if the pool or `client`'s share of it is full."""
        if self._jobs.total() >= self.threads + self.queue:
            raise busy(
                f"the server is busy: its {self.threads} game threads are working and "
                f"{self.queue} more jobs wait (its limits); try again in a moment"
            )
        if self._jobs[client] >= self.client_jobs:
            raise busy(
                f"this client already has {self.client_jobs} game jobs running or waiting, "
                f"its share of the server's {self.threads} game threads and {self.queue} "
                "queue places; try again in a moment"
            )

    def _dispatch(self) -> None:
        """Start waiting jobs while threads are free, each client's first in turn (under
        the lock)."""
        while self._running.total() < self.threads:
            client = next(
                (c for c in self._waiting if self._running[c] < self.client_threads), None
            )
            if client is None:
                return
            jobs = self._waiting.pop(client)
            job, future, counted = jobs.popleft()
            if jobs:
                self._waiting[client] = jobs  # to the end of the turn
            self._running[client] += 1
            self._pool.submit(self._work, client, job, future, counted)

    def _work(
        self, client: str, job: Callable[[], Any], future: Future[Any], counted: bool
    ) -> None:
        """Run `job` and give back its place before its caller hears of the outcome, so a
        client answered can be admitted again at once."""
        outcome: tuple[bool, Any] | None = None
        try:
            if future.set_running_or_notify_cancel():
                try:
                    outcome = (True, job())
                except BaseException as exc:  # noqa: BLE001 - the caller gets it
                    outcome = (False, exc)
        finally:
            with self._lock:
                self._running[client] -= 1
                self._jobs[client] -= counted
                self._jobs += Counter()  # drops the clients with none
                self._running += Counter()
                self._dispatch()
            if outcome is not None:
                done, value = outcome
                if done:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    def close(self) -> None:
        """Let the pool's idle threads end (jobs running finish)."""
        self._pool.shutdown(wait=False)


class Hold:
    """A place in `client`'s share of `workers`, held until `release` (once, however
    often called)."""

    def __init__(self, workers: Workers, client: str) -> None:
        self.workers, self.client = workers, client
        self._held = True

    async def run(self, job: Callable[[], R]) -> R:
        """`job()`'s result, computed on the game threads in this place."""
        return await self.workers.run_held(job, self.client)

    def release(self) -> None:
        if self._held:
            self._held = False
            self.workers.release(self.client)


def busy(message: str) -> HTTPException:
    return HTTPException(503, message, headers={"Retry-After": str(BUSY_RETRY_SECONDS)})


# ------------------------------------------------------------------------ Host header
def host_name(header: str) -> str | None:
    """The host of a `Host` header, without its port, lower case (`[::1]:8000` is `::1`);
    None unless the header is exactly a name or address with an optional numeric port
    (`localhost:evil` and `[::1]evil.example` are None)."""
    match = HOST_HEADER.fullmatch(header.strip().lower())
    if match is None:
        return None
    return match["address"] or match["name"] or match["bare"]


class HostCheck:
    """ASGI middleware: a request whose `Host` is not one of `allowed` (names or
    addresses, without port; `*` allows any) gets 400 naming the allowed ones."""

    def __init__(self, app: ASGIApp, allowed: Collection[str]) -> None:
        self.app = app
        names = (host_name(h) if h != ANY_HOST else h for h in allowed)
        self.allowed = frozenset(name for name in names if name is not None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or ANY_HOST in self.allowed:
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if host_name(header) in self.allowed:
            await self.app(scope, receive, send)
            return
        message = (
            f"this server answers requests for the host(s) {sorted(self.allowed)}, not "
            f"{header!r} (asara-serve --allow-host NAME adds one)"
        )
        response = SafeJSONResponse({"detail": message}, status_code=400)
        await response(scope, receive, send)
