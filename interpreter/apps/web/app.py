"""The web application of `rulecraft serve` (Starlette), and `serve`, which runs it with
Uvicorn. Needs the optional extra `rulecraft[web]`.

Routes:
- `GET /`: the page; `GET /static/...`: its script and style (package data);
- `GET /api/rulesets`: the bundled rulesets' names; `GET /api/rulesets/NAME`: one's text;
- `POST /api/OP` (OP in api.OPS: check, view, play, machine, undo, record): a JSON
  object in, a JSON object out, answered by api.py in a worker process (worker.py).
Every error is a JSON object `{"error": message, ...}` with its HTTP status.

Hostile clients are bounded (docs/WEB.md, Limits): a request's head must arrive within
HEAD_TIMEOUT seconds and its body within BODY_TIMEOUT (408), at most MAX_IN_FLIGHT
requests are answered at once (503 past that, with Retry-After), and a client that
disconnects mid-request is dropped quietly.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
from importlib import resources
from typing import Any, AsyncIterator, Callable

import anyio
import h11
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from dsl.diagnostics import printable
from dsl.load import bundled_names

from interpreter.apps.web import api
from interpreter.apps.web.worker import TIME_LIMIT, Pool

STATIC = str(resources.files(__package__) / "static")
LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"]
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
BODY_TIMEOUT = 5.0  # seconds for a request's whole body to arrive (408 past it)
HEAD_TIMEOUT = 5.0  # seconds for a request's line and headers to arrive (closed past it)
MAX_IN_FLIGHT = 32  # requests answered at once; more are refused (503) rather than queued
RETRY_AFTER = 1  # seconds, said in a refusal's Retry-After
MAX_CONNECTIONS = 256  # open connections; past them Uvicorn itself refuses (a plain 503)
MAX_HEAD = 16 * 1024  # bytes of a request's line and headers (h11's own default, made explicit)
KEEP_ALIVE = 5  # seconds an idle connection is kept open

log = logging.getLogger("rulecraft.web")


def host_name(header: str) -> str:
    """A Host header's name without its port: `[::1]:8000` -> `[::1]`, `a:80` -> `a`."""
    if header.startswith("["):
        return header[:header.find("]") + 1]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class Guard:
    """Serves only requests naming an allowed host (so that no other site's page can
    reach this one by a name it controls), and adds HEADERS to every response. A `Range`
    header is dropped: the page's files are small, and Starlette answers a bad range in
    plain text, where every error here is JSON."""

    def __init__(self, app: ASGIApp, hosts: list[str]) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
        if "*" not in self.hosts and host_name(host) not in self.hosts:
            response: Response = error(f"this server answers only for {', '.join(sorted(self.hosts))}", 400)
            await response(scope, receive, send)
            return
        scope["headers"] = [(k, v) for k, v in scope["headers"] if k.lower() not in (b"range", b"if-range")]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + [
                    (k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
            await send(message)

        await self.app(scope, receive, sending)


class Busy:
    """Refuses a request (503, with Retry-After) while `limit` others are being answered,
    so that a burst costs a short answer each instead of a queue that grows memory."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            response = error(f"the server is busy (more than {self.limit} requests at once): "
                             "try again in a moment", 503, {"Retry-After": str(RETRY_AFTER)})
            await response(scope, receive, send)
            return
        self.in_flight += 1  # one event loop: no lock needed
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1


def error(message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    """An error answer: `{"error": message}` with its status."""
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _json_body(request: Request, timeout: float) -> object:
    """The request's JSON, read up to api.MAX_BODY bytes within `timeout` seconds;
    api.ApiError otherwise (ClientDisconnect when the client went away)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise api.ApiError("send a JSON object (Content-Type: application/json)", 415)
    too_large = api.ApiError(f"the request is larger than the limit of {api.MAX_BODY // 1024} KB", 413)
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > api.MAX_BODY:
        raise too_large
    body = bytearray()
    # a deadline on the whole body, not on each chunk: a byte a second would pass the latter
    with anyio.move_on_after(timeout) as deadline:
        async with contextlib.aclosing(request.stream()) as stream:
            async for chunk in stream:
                body += chunk
                if len(body) > api.MAX_BODY:
                    raise too_large
    if deadline.cancelled_caught:
        raise api.ApiError(f"the request did not arrive within the limit of {timeout:g} seconds", 408)
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise api.ApiError("the request is not valid JSON", 400) from None


def make_app(workers: int = 2, limit: float = TIME_LIMIT, hosts: list[str] | None = None,
             body_timeout: float = BODY_TIMEOUT, max_in_flight: int = MAX_IN_FLIGHT) -> Starlette:
    """The application: `workers` processes answer the API, each request within `limit`
    seconds; only requests naming one of `hosts` (default: this machine's) are served, at
    most `max_in_flight` at once, each body read within `body_timeout` seconds."""
    pools: list[Pool] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pools.append(await run_in_threadpool(Pool, workers, limit))
        try:
            yield
        finally:
            pools.pop().close()

    async def index(request: Request) -> Response:
        return FileResponse(f"{STATIC}/index.html", media_type="text/html")

    async def rulesets(request: Request) -> Response:
        return JSONResponse({"names": bundled_names()})

    async def ruleset(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            return JSONResponse({"name": name, "text": api.bundled_text(name)})
        except api.ApiError as e:
            return error(e.message, e.status)

    async def operation(request: Request) -> Response:
        op = request.path_params["op"]
        if op not in api.OPS:
            return error(f"no operation '{printable(op)[:40]}' (known: {', '.join(api.OPS)})", 404)
        try:
            data = await _json_body(request, body_timeout)
        except api.ApiError as e:
            # the body was not read to its end: the connection cannot carry another request
            return error(e.message, e.status, {"Connection": "close"} if e.status in (408, 413) else None)
        answer = await run_in_threadpool(pools[0].call, op, data)
        return JSONResponse(answer, status_code=answer.pop("status", 400) if "error" in answer else 200)

    routes = [Route("/", index), Route("/api/rulesets", rulesets),
              Route("/api/rulesets/{name}", ruleset), Route("/api/{op}", operation, methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=_HANDLERS, middleware=[
        Middleware(Guard, hosts=hosts or LOOPBACK), Middleware(Busy, limit=max_in_flight)])


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
    return error(str(detail), status)


async def _gone(request: Request, exc: Exception) -> Response:
    # The client closed the connection mid-request: nobody is left to answer, and it is
    # no fault of the server's (Starlette would log a traceback for it otherwise).
    log.info("%s %s: the client closed the connection before the whole request arrived",
             request.method, request.url.path)
    return Response(status_code=400)  # Uvicorn drops it: the connection is closed


_HANDLERS = {HTTPException: _http_error, ClientDisconnect: _gone, Exception: _http_error}


class HttpProtocol(H11Protocol):
    """Uvicorn's HTTP/1.1 protocol with a deadline on each request's head and JSON
    errors. Uvicorn times out only an idle connection, and its timer stops at the first
    byte: a client sending part of a head, then nothing, would hold a connection for
    ever. Here a connection that has not sent a whole head `head_timeout` seconds after
    it opened or after its last answer is closed."""

    head_timeout = HEAD_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_expired, self.cycle)

    def _head_expired(self, cycle: object) -> None:
        # no request began since the timer was set (or the one that did is answered)
        busy = self.cycle is not None and not self.cycle.response_complete
        if self.cycle is cycle and not busy and not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot read: a JSON error, as every other error (Uvicorn's own is text)."""
        body = json.dumps({"error": "the request is not valid HTTP/1.1"}).encode()
        try:
            for event in (h11.Response(status_code=400, reason=b"Bad Request", headers=[
                              (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                              (b"connection", b"close")] + [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]),
                          h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
        except h11.LocalProtocolError:
            pass  # an answer was already under way on this connection: only close it
        if self.cycle is not None and not self.cycle.response_complete:
            # the request being answered (whose body went bad) is over: what the app
            # sends for it now is dropped (Uvicorn would send a second response, and fail)
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()


def server_config(app: ASGIApp, head_timeout: float = HEAD_TIMEOUT) -> uvicorn.Config:
    """Uvicorn's configuration for `app`, with the bounds on connections (HttpProtocol's
    deadline on a head, MAX_CONNECTIONS, MAX_HEAD, KEEP_ALIVE)."""
    protocol = type("HttpProtocol", (HttpProtocol,), {"head_timeout": head_timeout})
    return uvicorn.Config(app, log_level="warning", lifespan="on", http=protocol,
                          limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=KEEP_ALIVE,
                          h11_max_incomplete_event_size=MAX_HEAD)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (port 0: any free one) and listening; OSError if not."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's address on a listening socket."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def serve(host: str, port: int, open_browser: bool, on_ready: Callable[[str], None] = print,
          body_timeout: float = BODY_TIMEOUT, head_timeout: float = HEAD_TIMEOUT,
          max_in_flight: int = MAX_IN_FLIGHT, workers: int = 2) -> None:
    """Serve the page on host:port until Ctrl-C (OSError when it cannot listen there);
    `on_ready(url)` is told the address once listening, and the browser opened on it.
    The keywords are the limits of make_app and HttpProtocol (shorter in tests)."""
    sock = listening_socket(host, port)
    url = url_of(sock)
    hosts = LOOPBACK + [host] if host not in ("0.0.0.0", "::") else ["*"]
    app = make_app(workers=workers, hosts=hosts, body_timeout=body_timeout, max_in_flight=max_in_flight)
    server = uvicorn.Server(server_config(app, head_timeout))
    on_ready(url)
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, [url]).start()
    server.run(sockets=[sock])
