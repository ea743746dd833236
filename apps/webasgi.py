"""The web server's ASGI middleware (apps/serve.py), each a small piece around the app:
the body's size (`BodyLimit`), the idle sweep (`SweepIdle`) and who a request comes from
(`ClientIdentity`, `client_of`).

- `BodyLimit`: a body over `limit` bytes gets 413. The body is read and dropped first, up
  to `DRAIN_BYTES`, so that the answer arrives (a socket closed with unread bytes is
  reset, and the client sees a network error instead of the 413); the connection then
  stays open for the next request. A body announced beyond that is answered at once with
  `Connection: close`.
- `ClientIdentity`: a client is its address, which comes only from the connection unless
  the app is told to trust a proxy's `X-Forwarded-For` (`apps.serve.create_app(
  trust_proxy=...)`). On this machine's own address, where every browser has the same
  one, a client is a browser, known by a cookie the server signs (`HttpOnly`,
  `SameSite=Strict`): a local request without a valid one counts as the client of the
  address and gets one for its next requests. So two browsers on the default server are
  two clients; a cookie cannot be made up, and a remote client cannot multiply itself by
  asking for cookies (it would only by using more addresses).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import secrets
from http.cookies import SimpleCookie
from typing import Any

from fastapi import HTTPException, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from apps.weblimits import Store

DRAIN_BYTES = 16 * 2**20  # the most of a refused body read (and dropped) before its 413
COOKIE = "asara_client"  # the cookie naming the browser
CLIENT_KEY = "asara.client"  # the scope's entry naming the client
MAC_CHARS = 32  # hex characters of the cookie's signature


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is over the limit of {limit} bytes")


class BodyLimit:
    """ASGI middleware: a request whose body is over `limit` bytes gets 413, from its
    Content-Length before the app runs, or as soon as the bytes read pass the limit; the
    body is drained (up to `DRAIN_BYTES`) before the answer."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            drained = length.isdigit() and int(length) <= DRAIN_BYTES
            await self.refuse(send, drained and await drain(receive, 0))
            return
        received, ended, started = 0, False, False

        async def limited_receive() -> Message:
            nonlocal received, ended
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                ended = not message.get("more_body", False)
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
            await self.refuse(send, ended or await drain(receive, received))

    async def refuse(self, send: Send, drained: bool) -> None:
        """The 413; the connection closed unless the body was read in full."""
        body = json.dumps({"detail": BodyTooLarge(self.limit).detail}).encode()
        headers = [(b"content-type", b"application/json")]
        headers.append((b"content-length", str(len(body)).encode()))
        if not drained:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def drain(receive: Receive, read: int) -> bool:
    """Read and drop the rest of a body of which `read` bytes are read; whether it ended
    within `DRAIN_BYTES` (else the rest is left: the connection must close)."""
    while read <= DRAIN_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return False  # the client has gone
        read += len(message.get("body", b""))
        if not message.get("more_body", False):
            return True
    return False


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


class ClientIdentity:
    """ASGI middleware: names the client of every request in `scope[CLIENT_KEY]`: its
    address; on a loopback address, the browser of a valid signed cookie if any (a local
    request without one gets one)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app, self.key = app, secrets.token_bytes(32)

    def sign(self, browser: str) -> str:
        mac = hmac.new(self.key, browser.encode(), hashlib.sha256).hexdigest()[:MAC_CHARS]
        return f"{browser}.{mac}"

    def browser_of(self, scope: Scope) -> str | None:
        """The browser named by the request's valid cookie, if any."""
        header = dict(scope.get("headers") or []).get(b"cookie", b"").decode("latin-1")
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(header)
        except Exception:  # noqa: BLE001 - any malformed cookie header names no browser
            return None
        value = cookie[COOKIE].value if COOKIE in cookie else ""
        browser = value.rpartition(".")[0]
        if not browser or not hmac.compare_digest(self.sign(browser).encode(), value.encode()):
            return None
        return browser

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        if not is_loopback(address):
            scope[CLIENT_KEY] = f"address {address}"
            await self.app(scope, receive, send)
            return
        browser = self.browser_of(scope)
        if browser is not None:
            scope[CLIENT_KEY] = f"browser {browser}"
            await self.app(scope, receive, send)
            return
        scope[CLIENT_KEY] = f"address {address}"
        value = self.sign(secrets.token_urlsafe(16))
        cookie = f"{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict"

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_cookie)


def is_loopback(address: str) -> bool:
    """Whether `address` is this machine's (where every browser has the same address)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def client_of(request: Request) -> str:
    """Whose request this is, for the per-client limits (`ClientIdentity`)."""
    return str(request.scope.get(CLIENT_KEY, "address"))
