"""The web application of `rulecraft serve` (Starlette), and `serve`, which runs it with
Uvicorn. Needs the optional extra `rulecraft[web]`.

Routes:
- `GET /`: the page; `GET /static/...`: its script and style (package data);
- `GET /api/rulesets`: the bundled rulesets' names; `GET /api/rulesets/NAME`: one's text;
- `POST /api/OP` (OP in api.OPS: check, view, play, machine, undo, record): a JSON
  object in, a JSON object out, answered by api.py in a worker process (worker.py).
Every error is a JSON object `{"error": message, ...}` with its HTTP status.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from importlib import resources
from typing import AsyncIterator, Callable

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulecraft.dsl.load import bundled_names

from . import api
from .worker import TIME_LIMIT, Pool

STATIC = str(resources.files(__package__) / "static")
LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"]
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def host_name(header: str) -> str:
    """A Host header's name without its port: `[::1]:8000` -> `[::1]`, `a:80` -> `a`."""
    if header.startswith("["):
        return header[:header.find("]") + 1]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class Guard:
    """Serves only requests naming an allowed host (so that no other site's page can
    reach this one by a name it controls), and adds HEADERS to every response."""

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

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + [
                    (k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
            await send(message)

        await self.app(scope, receive, sending)


def error(message: str, status: int) -> JSONResponse:
    """An error answer: `{"error": message}` with its status."""
    return JSONResponse({"error": message}, status_code=status)


async def _json_body(request: Request) -> object:
    """The request's JSON, read up to api.MAX_BODY bytes; api.ApiError otherwise."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise api.ApiError("send a JSON object (Content-Type: application/json)", 415)
    too_large = api.ApiError(f"the request is larger than the limit of {api.MAX_BODY // 1024} KB", 413)
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > api.MAX_BODY:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > api.MAX_BODY:
            raise too_large
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise api.ApiError("the request is not valid JSON", 400) from None


def make_app(workers: int = 2, limit: float = TIME_LIMIT, hosts: list[str] | None = None) -> Starlette:
    """The application: `workers` processes answer the API, each request within `limit`
    seconds; only requests naming one of `hosts` (default: this machine's) are served."""
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
            return error(f"no operation '{op[:40]}' (known: {', '.join(api.OPS)})", 404)
        try:
            data = await _json_body(request)
        except api.ApiError as e:
            return error(e.message, e.status)
        answer = await run_in_threadpool(pools[0].call, op, data)
        return JSONResponse(answer, status_code=answer.pop("status", 400) if "error" in answer else 200)

    routes = [Route("/", index), Route("/api/rulesets", rulesets),
              Route("/api/rulesets/{name}", ruleset), Route("/api/{op}", operation, methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=_HANDLERS, middleware=[
        Middleware(Guard, hosts=hosts or LOOPBACK)])


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
    return error(str(detail), status)


_HANDLERS = {HTTPException: _http_error, Exception: _http_error}


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


def serve(host: str, port: int, open_browser: bool, on_ready: Callable[[str], None] = print) -> None:
    """Serve the page on host:port until Ctrl-C (OSError when it cannot listen there);
    `on_ready(url)` is told the address once listening, and the browser opened on it."""
    sock = listening_socket(host, port)
    url = url_of(sock)
    hosts = LOOPBACK + [host] if host not in ("0.0.0.0", "::") else ["*"]
    config = uvicorn.Config(make_app(hosts=hosts), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    on_ready(url)
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, [url]).start()
    server.run(sockets=[sock])
