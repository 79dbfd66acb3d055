"""The `serve` category: hostile HTTP clients against `rulecraft serve`.

A case is a few connections to the real server (interpreter/apps/web/app.py's application
and Uvicorn configuration, with short limits), each a list of byte chunks (kept as
latin-1 strings so that the case is JSON) sent with pauses, then read to the end or
dropped: malformed and damaged JSON, wrong content types, huge bodies, deep nesting,
damaged rulesets, unknown operations, bad paths, methods and Host headers, bad chunked
bodies, stalled heads and bodies, early disconnects, pipelined garbage, bursts.

`eval_serve` starts the server for the case in this process (the forked worker: its
event loop in the main thread, no thread before the fork), on an ephemeral port of
127.0.0.1 (only the loopback, ever), runs the connections, then stops it. ok: every
answer is a 2xx; clean: refused with a JSON error (or closed, for what is not a whole
request). An invariant fails for a 500, an error that is not JSON, a connection neither
answered nor closed within BOUND seconds, a closed connection owing an answer, a
traceback on the server's stderr, or a server that no longer answers a normal request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import time
from typing import TYPE_CHECKING, Iterator

from .case import Case
from .chooser import Chooser

try:  # imported once in the parent, before the workers fork (inputs and harness import this
    # module), rather than again in every worker: a third of a case's time otherwise
    import uvicorn  # noqa: F401

    from interpreter.apps.web import app as _web  # noqa: F401
    WEB = True
except ImportError:  # without the web extra: eval_serve says the case was not run
    WEB = False

if TYPE_CHECKING:  # inputs and harness import this module: no import of theirs at run time here
    from .harness import Outcome
    from .inputs import Context

BODY_TIMEOUT = 0.2  # the server's limits in this category: short, so that a stall is quick
HEAD_TIMEOUT = 0.2
IN_FLIGHT = 4
BOUND = 4.0  # seconds for a connection to be answered or closed, past the sending
START = 8.0  # seconds for the server to start
OPS = ["check", "view", "play", "machine", "undo", "record"]
LIGHT = ["tic-tac-toe", "3-spot", "3-spot-misere", "force-3", "three-musketeers"]
PLAYERS = ["random", "human", "mcts:20", "mcts:0.05s", "alphabeta:1", "alphabeta:2", "perfect", "mcts:0",
           "mcts:1e9", "mcts:999999999", "mcts:6s", "alphabeta:13", "perfect:/etc/passwd", "x" * 41, "", "mcts:",
           "alphabeta:-1", "random\x00", "\x1b[31mrandom"]
PLIES = ["b2", "a1", "c3", "pass", "a1-a2", "c1+c2-b3+c3", "a1xa2", "", " ", "z9", "b2b2", "1", "x" * 201,
         "é", "\x1b[2J", "\u202e", "a" * 5000]


# ---------------------------------------------------------------- requests as bytes
def _b(data: bytes) -> str:
    return data.decode("latin-1")


def http(method: str = "POST", path: str = "/api/check", body: bytes = b"",
         headers: list[tuple[str, str]] | None = None, host: str | None = "127.0.0.1",
         version: str = "HTTP/1.1", length: int | None = None, kind: str | None = "application/json") -> bytes:
    """A request's bytes; `length` other than len(body) announces a body that is not all there
    (None for `Content-Length` of the body, -1 for none)."""
    lines = [f"{method} {path} {version}"]
    if host is not None:
        lines.append(f"Host: {host}")
    if kind is not None and method not in ("GET", "HEAD"):
        lines.append(f"Content-Type: {kind}")
    if length != -1 and (method not in ("GET", "HEAD") or body):
        lines.append(f"Content-Length: {len(body) if length is None else length}")
    lines += [f"{k}: {v}" for k, v in headers or []]
    return "\r\n".join(lines).encode("latin-1", "replace") + b"\r\n\r\n" + body


def _conn(chunks: list[bytes], end: str = "read", answers: int = 1, pause: float = 0.0,
          head: bool = False) -> dict:
    """One connection: `chunks` sent `pause` seconds apart, then `end` ("read" to the end,
    "close": the client goes); `answers` due (0: whatever comes); `head`: a HEAD request."""
    return {"chunks": [_b(c) for c in chunks], "end": end, "answers": answers, "pause": pause, "head": head}


def api_body(ch: Chooser, ctx: Context) -> dict:
    """A request of one of OPS, its fields plausible, missing or damaged."""
    from .names import hostile_strings
    from .rulesets import mutate_bundled

    if ch.chance(0.25):  # a request as the page sends it, so that some are answered
        name = ch.choice(LIGHT)
        plies = ch.choice([[], ["b2"], ["b2", "a1"]]) if name == "tic-tac-toe" else []
        return {"ruleset": name, "plies": plies, "ply": ch.choice(["a3", "c1"]), "player": ch.choice(["random", "mcts:20"]),
                "players": ["human", "random"], "seed": ch.randint(0, 9)}
    out: dict = {}
    source = ch.weighted([(3, "name"), (3, "text"), (3, "damaged"), (1, "bad name"), (0.5, "none"), (0.5, "both")])
    if source in ("name", "both"):
        out["ruleset"] = ch.choice(LIGHT)
    if source in ("text", "both"):
        out["text"] = ctx.sources[ch.choice(LIGHT)]
    if source == "damaged":
        out["text"] = mutate_bundled(ch, {n: ctx.sources[n] for n in LIGHT if n in ctx.sources})[1]
    if source == "bad name":
        out["ruleset"] = ch.choice(["chess", "../../etc/passwd", "/etc/passwd", "", 5, None, ["tic-tac-toe"],
                                    {"a": 1}, "tic-tac-toe.game"] + hostile_strings()[:30])
    if ch.chance(0.8):
        out["plies"] = ch.weighted([(4, lambda: [ch.choice(PLIES) for _ in range(ch.randint(0, 6))]),
                                    (1, lambda: ["b2", "a1"] * ch.randint(1, 3000)),
                                    (1, lambda: ch.choice(["b2", 5, None, {"a": 1}, [1, 2], [["b2"]], True]))])()
    if ch.chance(0.5):
        out["ply"] = ch.choice(PLIES + [5, None, ["b2"]])
    if ch.chance(0.5):
        out["player"] = ch.choice(PLAYERS + [5, None])
    if ch.chance(0.4):
        out["players"] = ch.choice([["human", "human"], ["random", "mcts:20"], ["human"], [], "human", [1, 2],
                                    ["human"] * 3, ["x" * 41, "human"], ["perfect", "alphabeta:1"]])
    if ch.chance(0.3):
        out["seed"] = ch.choice([0, 1, -1, 2**32, 2**200, 1.5, "1", None, True])
    if ch.chance(0.2):
        out["select"] = ch.choice(["b2", "a1", "z9", 5, None, "x" * 300])
    if ch.chance(0.2):
        out["lenient"] = ch.choice([True, False, 1, "yes"])
    if ch.chance(0.1):
        out[ch.choice(["extra", "__proto__", "constructor", "\x00", "é" * 50])] = ch.choice([1, "x", [], {}])
    if "text" in out and "perfect" in json.dumps(out) and ch.chance(0.9):
        out.pop("text")  # solving a damaged big game first is slow by design: keep it to bundled names
        out["ruleset"] = "tic-tac-toe"
    return out


def json_garbage(ch: Chooser) -> bytes:
    """Text that is JSON now and then: random values, deep nesting, odd literals and bytes."""
    pick = ch.weighted([(2, "value"), (1, "deep"), (1, "broken"), (1, "bytes"), (1, "literal")])
    if pick == "value":
        def value(depth: int) -> object:
            kind = ch.randint(0, 7 if depth < 4 else 3)
            if kind == 0:
                return ch.choice([0, -1, 2**64, 1e308, 1.5, True, False, None])
            if kind in (1, 2, 3):
                return ch.choice(["", "x", "b2", "tic-tac-toe", "\x00", "\ud800", "é", "x" * 1000])
            if kind in (4, 5):
                return [value(depth + 1) for _ in range(ch.randint(0, 4))]
            return {ch.choice(["text", "ruleset", "plies", "ply", "player", "k"]): value(depth + 1)
                    for _ in range(ch.randint(0, 4))}
        return json.dumps(value(0)).encode()
    if pick == "deep":
        n = ch.choice([10, 1000, 20_000, 100_000])
        opener, closer = ch.choice([("[", "]"), ('{"a":', "}")])
        return (opener * n + "1" + closer * (n if ch.chance(0.7) else n // 2)).encode()
    if pick == "broken":
        return ch.choice([b"{", b"}", b'{"text": ', b"{'text': 'x'}", b'{"text": "x",}', b"[1,]", b"nul",
                          b'{"a": 1}{"b": 2}', b"\"\\ud800\"", b'{"text": "\\u00"}', b"\xef\xbb\xbf{}",
                          b"{\"text\": \"\x00\"}", b"1" * 5000, b"-", b"[" * 50])
    if pick == "bytes":
        return bytes(ch.randint(0, 255) for _ in range(ch.randint(0, 200)))
    return ch.choice([b"NaN", b"Infinity", b"-Infinity", b'{"seed": NaN}', b'{"seed": 1e400}', b"null",
                      b"true", b'"tic-tac-toe"', b"[]", b"{}", b'{"plies": [' + b"1," * 40_000 + b"1]}"])


def _body(ch: Chooser, ctx: Context) -> bytes:
    if ch.chance(0.6):
        return json.dumps(api_body(ch, ctx), ensure_ascii=ch.chance(0.7)).encode("utf-8", "surrogatepass")
    return json_garbage(ch)


BAD_PATHS = ["/api/", "/api/solve", "/api/check/", "/api/check/extra", "//api/check", "/api/CHECK", "/api/..%2fcheck",
             "/api/%00", "/api/%ff%fe", "/api/%1b[31m", "/api/" + "x" * 5000, "/../../etc/passwd",
             "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2f..%2fapi.py", "/static/", "/static/nope.js",
             "/static/app.js", "/api/rulesets/..%2f..%2fetc%2fpasswd", "/api/rulesets/%00", "/api/rulesets/" + "é" * 10,
             "/api/rulesets/tic-tac-toe", "/api/check?x=1&x=2", "/?" + "a=" * 2000, "*", "http://evil.example/",
             "/api/check#frag", "/index.html", "/%", "/\\..\\"]
HOSTS = ["127.0.0.1", "localhost", "[::1]", "127.0.0.1:1", "LOCALHOST", "evil.example", "127.0.0.1.evil.example", "",
         "localhost:99999", "[::1", "::1", "0.0.0.0", "127.1", "xn--e1afmkfd", "a" * 300, "127.0.0.1 , evil.example"]


def case_serve(ch: Chooser, ctx: Context, index: int) -> Case:
    """A few hostile connections to the server (see the module's docstring)."""
    kind = ch.weighted([(4, "api"), (2, "garbage-json"), (1, "content-type"), (1, "huge"), (1, "path"),
                        (1, "method"), (1, "host"), (1, "headers"), (1, "chunked"), (1, "stall-body"),
                        (1, "stall-head"), (1, "disconnect"), (1, "pipelined"), (1, "not-http"), (1, "burst")])
    conns = MAKERS[kind](ch, ctx)
    return Case("serve", {}, {"kind": kind, "connections": conns, "concurrent": kind == "burst", "seed": index})


def _api(ch: Chooser, ctx: Context) -> list[dict]:
    return [_conn([http(path=f"/api/{ch.choice(OPS)}", body=_body(ch, ctx))]) for _ in range(ch.randint(1, 2))]


def _garbage_json(ch: Chooser, ctx: Context) -> list[dict]:
    return [_conn([http(path=f"/api/{ch.choice(OPS)}", body=json_garbage(ch))])]


def _content_type(ch: Chooser, ctx: Context) -> list[dict]:
    kind = ch.choice([None, "", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                      "application/json; charset=latin-1", "APPLICATION/JSON", "application/json;", "application/jsonp",
                      "application/json\x00", "application/json, text/plain", " application/json ", "*/*"])
    return [_conn([http(path=f"/api/{ch.choice(OPS)}", body=_body(ch, ctx), kind=kind)])]


def _huge(ch: Chooser, ctx: Context) -> list[dict]:
    size = ch.choice([256 * 1024 - 10, 256 * 1024 + 1, 300_000, 1_000_000])
    body = json.dumps({"text": "#" * size}).encode()
    how = ch.choice(["length", "chunked", "lie-small", "lie-large"])
    if how == "length":  # refused before it is read (past the limit): the rest may meet a closed socket
        return [_conn([http(body=body)], answers=0 if len(body) > 256 * 1024 else 1)]
    if how == "chunked":
        chunk = b"%x\r\n%s\r\n" % (len(body), body) + b"0\r\n\r\n"
        return [_conn([http(body=chunk, length=-1, headers=[("Transfer-Encoding", "chunked")])], answers=0)]
    if how == "lie-small":  # the rest of the body reads as a next request: garbage
        return [_conn([http(body=body, length=ch.randint(0, 100))], answers=0)]
    return [_conn([http(body=body[:200_000], length=ch.randint(200_001, 250_000))], answers=0)]


def _path(ch: Chooser, ctx: Context) -> list[dict]:
    method = ch.choice(["GET", "POST"])
    return [_conn([http(method, ch.choice(BAD_PATHS), body=_body(ch, ctx) if method == "POST" else b"")],
                  answers=0)]


def _method(ch: Chooser, ctx: Context) -> list[dict]:
    method = ch.choice(["PUT", "DELETE", "OPTIONS", "HEAD", "TRACE", "PATCH", "CONNECT", "BREW", "get", "G\x00T",
                        "POST" * 100])
    path = ch.choice(["/", "/api/check", "/api/rulesets", "/static/app.js"])
    return [_conn([http(method, path, body=_body(ch, ctx) if ch.chance(0.5) else b"")], answers=0,
                  head=method == "HEAD")]


def _host(ch: Chooser, ctx: Context) -> list[dict]:
    host = ch.choice(HOSTS + [None])
    extra = [("Host", ch.choice(HOSTS))] if ch.chance(0.2) else []
    version = "HTTP/1.0" if ch.chance(0.3) else "HTTP/1.1"
    path = ch.choice(["/", "/api/rulesets", "/api/check"])
    method = "GET" if path != "/api/check" else "POST"
    return [_conn([http(method, path, body=_body(ch, ctx) if method == "POST" else b"", host=host, headers=extra,
                        version=version)], answers=0)]


def _headers(ch: Chooser, ctx: Context) -> list[dict]:
    pool = [("Expect", "100-continue"), ("Connection", "close"), ("Connection", "keep-alive, Upgrade"),
            ("Upgrade", "websocket"), ("Upgrade", "h2c"), ("HTTP2-Settings", "AAMAAABkAAQAAP__"),
            ("X-Long", "x" * ch.choice([100, 8000, 20_000])), ("Content-Length", "5"), ("Content-Length", "abc"),
            ("Content-Encoding", "gzip"), ("Accept-Encoding", "gzip, br"), ("Range", "bytes=0-10,5-1"),
            ("If-None-Match", "*"), ("Cookie", "a=" + "b" * 4000), ("Origin", "http://evil.example"),
            ("X-Forwarded-For", "1.2.3.4"), ("X-Forwarded-Host", "evil.example"), ("Transfer-Encoding", "gzip"),
            ("Content-Type", "text/plain"), ("\x01Bad", "x"), ("Bad Header", "x"), ("X", "a\x00b"),
            ("X-Folded", "a\r\n b")]
    headers = [ch.choice(pool) for _ in range(ch.randint(1, 4))]
    if ch.chance(0.2):
        headers += [(f"X-{i}", "y") for i in range(ch.choice([50, 200, 2000]))]
    method, path = ch.choice([("POST", f"/api/{ch.choice(OPS)}"), ("GET", "/"), ("GET", "/static/style.css")])
    return [_conn([http(method, path, body=_body(ch, ctx) if method == "POST" else b"", headers=headers)],
                  answers=0)]


def _chunked(ch: Chooser, ctx: Context) -> list[dict]:
    body = _body(ch, ctx)
    good = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in (body[:7], body[7:]) if p) + b"0\r\n\r\n"
    payload = ch.choice([good, good[:-2], b"zz\r\n", b"5\r\nabc\r\n", b"-1\r\n", b"ffffffffffffffff\r\n",
                         b"3;ext=1\r\nabc\r\n0\r\n\r\n", b"0\r\nX-Trailer: 1\r\n\r\n", good + b"garbage"])
    headers = [("Transfer-Encoding", ch.choice(["chunked", "Chunked", "gzip, chunked", "chunked, gzip"]))]
    both = ch.chance(0.2)  # Content-Length and Transfer-Encoding: smuggling's classic
    return [_conn([http(body=payload, length=len(payload) if both else -1, headers=headers)],
                  answers=1 if payload == good and not both and headers[0][1] == "chunked" else 0)]


def _stall_body(ch: Chooser, ctx: Context) -> list[dict]:
    body = _body(ch, ctx)
    sent = body[:ch.randint(0, max(0, len(body) - 1))]
    request = http(path=f"/api/{ch.choice(OPS)}", body=sent, length=len(sent) + ch.randint(1, 5000))
    if ch.chance(0.4):  # trickled: a byte now and then, under the deadline each time
        return [_conn([request] + [b"x"] * ch.randint(1, 4), pause=0.1)]
    return [_conn([request])]


def _stall_head(ch: Chooser, ctx: Context) -> list[dict]:
    request = http(path=f"/api/{ch.choice(OPS)}", body=_body(ch, ctx))
    head = request[:request.find(b"\r\n\r\n") + ch.choice([0, 2, 3])]
    cut = head[:ch.randint(0, len(head))]
    if ch.chance(0.3):
        return [_conn([cut[k:k + 1] for k in range(min(3, len(cut)))] or [b""], pause=0.1, answers=0)]
    return [_conn([cut], answers=0)]


def _disconnect(ch: Chooser, ctx: Context) -> list[dict]:
    request = http(path=f"/api/{ch.choice(OPS)}", body=_body(ch, ctx) + b" " * ch.choice([0, 10, 70_000]))
    cut = ch.choice([len(request), ch.randint(0, len(request)), request.find(b"\r\n\r\n") + 4])
    conns = [_conn([request[:cut]], end="close", answers=0)]
    if ch.chance(0.3):  # a player thinking for a client that has gone
        body = json.dumps({"ruleset": "tic-tac-toe", "plies": [], "player": "mcts:0.2s"}).encode()
        conns.append(_conn([http(path="/api/machine", body=body)], end="close", answers=0))
    return conns


def _pipelined(ch: Chooser, ctx: Context) -> list[dict]:
    requests = [http(path=f"/api/{ch.choice(OPS)}", body=_body(ch, ctx)) for _ in range(ch.randint(1, 3))]
    tail = ch.choice([b"", b"garbage\r\n\r\n", b"\x16\x03\x01\x02\x00", b"GET / HTTP/1.1\r\n", b"\r\n" * 10,
                      b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n{"])
    return [_conn([b"".join(requests) + tail], answers=len(requests))]


def _not_http(ch: Chooser, ctx: Context) -> list[dict]:
    data = ch.choice([b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(32)),  # a TLS hello
                      b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", b"\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                      b"GET / HTTP/1.1\nHost: 127.0.0.1\n\n", b"\x00" * 100, b"SSH-2.0-OpenSSH_9.0\r\n",
                      bytes(ch.randint(0, 255) for _ in range(ch.randint(1, 300)))])
    return [_conn([data], answers=0)]


def _burst(ch: Chooser, ctx: Context) -> list[dict]:
    return [_conn([http(path=f"/api/{ch.choice(['check', 'view'])}", body=json.dumps(
        {"ruleset": ch.choice(LIGHT), "plies": []}).encode())]) for _ in range(ch.randint(IN_FLIGHT, 4 * IN_FLIGHT))]


MAKERS = {"api": _api, "garbage-json": _garbage_json, "content-type": _content_type, "huge": _huge, "path": _path,
          "method": _method, "host": _host, "headers": _headers, "chunked": _chunked, "stall-body": _stall_body,
          "stall-head": _stall_head, "disconnect": _disconnect, "pipelined": _pipelined, "not-http": _not_http,
          "burst": _burst}


# ---------------------------------------------------------------- running a case
@contextlib.contextmanager
def _stderr_to_file() -> Iterator[list[str]]:
    """fd 2 (this process's and the server's workers') into a file; its text in the list after."""
    import sys

    out: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 2)
        try:
            yield out
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            out.append(f.read().decode("utf-8", "replace"))


async def _exchange(port: int, conn: dict) -> dict:
    """Send a connection's chunks, then read to the end within BOUND seconds: {"data",
    "state": "eof" | "reset" | "held" | "left"}."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data, state = b"", "eof"
    try:
        try:
            for k, chunk in enumerate(conn["chunks"]):
                if k and conn["pause"]:
                    await asyncio.sleep(conn["pause"])
                writer.write(chunk.encode("latin-1"))
                await writer.drain()
        except ConnectionError:
            pass  # the server closed it (a refusal before the body was read): read what it said
        if conn["end"] == "close":
            writer.transport.abort()
            return {"data": b"", "state": "left"}
        deadline = time.monotonic() + BOUND
        while True:
            left = deadline - time.monotonic()
            try:
                chunk = await asyncio.wait_for(reader.read(65536), max(left, 0.001))
            except asyncio.TimeoutError:
                return {"data": data, "state": "held"}
            except ConnectionError:
                return {"data": data, "state": "reset"}
            if not chunk:
                return {"data": data, "state": state}
            data += chunk
            if conn["answers"] and len(_responses(data, conn["head"])[0]) >= conn["answers"]:
                return {"data": data, "state": "answered"}  # no need to wait for the idle close
    finally:
        writer.transport.abort()


def _responses(data: bytes, head: bool = False) -> tuple[list[tuple[int, dict[str, str], bytes]], bytes]:
    """The whole responses in `data` (1xx left out), and what is left after them."""
    out = []
    while b"\r\n\r\n" in data:
        top, _, rest = data.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        try:
            status = int(lines[0].split()[1])
        except (IndexError, ValueError):
            return out, data
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        if 100 <= status < 200:
            data = rest
            continue
        if head and not out or status in (204, 304):
            size = 0
        elif "content-length" in headers:
            size = int(headers["content-length"])
        else:
            size = len(rest)  # (chunked: only Uvicorn's own plain 500 is, and it closes after)
        if len(rest) < size:
            return out, data
        out.append((status, headers, rest[:size]))
        data = rest[size:]
    return out, data


async def _session(params: dict) -> tuple[list[dict], dict]:
    """The server up for the case, the connections run, a normal request, the server down."""
    import uvicorn

    from interpreter.apps.web.app import LOOPBACK, listening_socket, make_app, server_config

    sock = listening_socket("127.0.0.1", 0)  # the loopback only
    port = sock.getsockname()[1]
    app = make_app(workers=1, hosts=LOOPBACK + ["127.0.0.1"], body_timeout=BODY_TIMEOUT, max_in_flight=IN_FLIGHT)
    server = uvicorn.Server(server_config(app, HEAD_TIMEOUT))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        deadline = time.monotonic() + START
        while not server.started:
            if task.done() or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {task.exception() if task.done() else 'timeout'}")
            await asyncio.sleep(0.01)
        conns = params["connections"]
        if params.get("concurrent"):
            results = list(await asyncio.gather(*(_exchange(port, c) for c in conns)))
        else:
            results = [await _exchange(port, c) for c in conns]
        after = await _exchange(port, _conn([http("GET", "/api/rulesets")]))
    finally:
        server.should_exit = True
        try:
            await asyncio.wait_for(task, 10)
        except asyncio.TimeoutError:
            server.force_exit = True
    return results, after


def eval_serve(case: Case, ctx: Context) -> Outcome:
    """Run the case against the server (see the module's docstring)."""
    from .harness import Invariant, Outcome

    if not WEB:
        return Outcome("clean", detail="not run: the web extra (starlette, uvicorn) is not installed",
                       notes=["the serve category needs pip install 'rulecraft[web]'"])
    with _stderr_to_file() as err:
        results, after = asyncio.run(_session(case.params))
    errors = err[0]
    for k, got in enumerate(results):  # first: a held request's cancelling at the end is a traceback too
        if got["state"] == "held":
            raise Invariant(f"connection {k}: neither answered nor closed within {BOUND:g} s "
                            f"(got {got['data'][:200]!r})", kind="no answer within the bound")
    if "Traceback" in errors:
        start = errors.find("Traceback")
        raise Invariant(f"a traceback on the server's stderr: {errors[max(0, start - 200):start + 300]} [...] "
                        f"{errors[-700:]}", kind="traceback on the server's stderr")
    statuses, messages = [], []
    for k, (conn, got) in enumerate(zip(case.params["connections"], results)):
        answers, rest = _responses(got["data"], conn["head"])
        if rest and got["state"] == "eof":
            raise Invariant(f"connection {k}: a truncated or unreadable answer: {rest[:300]!r}",
                            kind="a truncated answer")
        if len(answers) < conn["answers"] and got["state"] == "eof":
            raise Invariant(f"connection {k}: closed with {len(answers)} answers of {conn['answers']} due",
                            kind="closed without an answer")
        for n, (status, headers, body) in enumerate(answers):
            statuses.append(status)
            if status < 400:
                continue
            try:
                # (the answer to a HEAD has no body, by HTTP: its type says what it would be)
                message = "(HEAD)" if conn["head"] and n == 0 else json.loads(body)["error"]
                assert isinstance(message, str) and message
            except (ValueError, KeyError, TypeError, AssertionError):
                raise Invariant(f"connection {k}: a {status} whose body is not a JSON error: {body[:300]!r}",
                                kind="an error that is not JSON") from None
            if not headers.get("content-type", "").startswith("application/json"):
                raise Invariant(f"connection {k}: a {status} as {headers.get('content-type')!r}",
                                kind="an error that is not JSON")
            if status == 500:
                raise Invariant(f"connection {k}: a 500: {message[:300]}", kind="a 500 answer")
            messages.append(f"{status}: {message[:120]}")
    got, _ = _responses(after["data"])
    if not got or got[0][0] != 200:
        raise Invariant(f"after the case the server does not answer a normal request: {after['data'][:300]!r}",
                        kind="the server stopped answering")
    ok = bool(statuses) and all(s < 400 for s in statuses)
    detail = f"{case.params['kind']}: {' '.join(map(str, statuses)) or 'no answer (closed)'}"
    return Outcome("ok" if ok else "clean", detail=(detail + ("; " + messages[0] if messages else ""))[:300])
