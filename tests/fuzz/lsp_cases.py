"""The `lsp` category: a byte stream for the language server (interpreter/apps/lsp/), hostile
and valid messages mixed, always ending with a probe request whose answer proves the
server is alive.

The stream is the case's file `stream.bin`; params name the ids that must be answered
(`expect`: well-framed requests of valid JSON) and the probe's id. eval_lsp runs a fresh
server in this process (the worker), over a socket pair, on a thread: starting
`rulecraft lsp` takes about a second, a case here a fraction of it.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import select
import socket
import threading
import time
from typing import Any

from .chooser import Chooser
from .case import Case
from .rulesets import mutate_bundled

try:  # imported before the workers fork, so that each case does not pay for it
    from interpreter.apps.lsp import server as lsp_server
    from interpreter.apps.lsp.framing import MAX_MESSAGE_BYTES
    from interpreter.apps.lsp.rpc import OneLineFormatter
except ModuleNotFoundError:  # pygls is an optional extra
    lsp_server = None
    MAX_MESSAGE_BYTES = 4 * 1024 * 1024

PROBE_URI = "file:///fuzz/probe.game"  # opened first, never touched by the hostile messages
PROBE_TEXT = 'game "Probe"\nboard square 3 x 3\nplayers A, B\n'
DOC_URI = "file:///fuzz/doc.game"  # the hostile messages' document
PROBE_ID = 999_999
ANSWER_SECONDS = 6.0  # for the whole stream to be answered (the worker's budget is 10 s)

METHODS = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
           "textDocument/references", "textDocument/documentSymbol", "initialize", "initialized",
           "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "$/cancelRequest",
           "$/setTrace", "workspace/executeCommand", "textDocument/formatting", "no/such", "", "\x00",
           "textDocument/hover\n", "$/progress", "window/workDoneProgress/cancel"]
NOTIFICATIONS = {"initialized", "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
                 "$/cancelRequest", "$/setTrace", "$/progress"}
COORDINATES = [0, 1, 2, 5, 40, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 64, -(2 ** 63), 1.5, 1e300, True,
               None, "a", "0", [], {}]
URIS = [DOC_URI, "file:///nonexistent.game", "untitled:1", "", "file://", "file:///%00", "file:///" + "a" * 3000,
        "http://x/y.game", "\x1b[31m", "file:///fuzz/doc.game?x#y", "file:///fuzz/DOC.game"]


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _utf8(body: bytes) -> bool:
    """Whether a body is UTF-8 (a lone surrogate of a string is not)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _value(ch: Chooser, depth: int = 0) -> Any:
    """A random JSON value (shallow): what params get instead of their right shape."""
    kind = ch.weighted([(3, "scalar"), (1, "list"), (1, "dict")]) if depth < 3 else "scalar"
    if kind == "list":
        return [_value(ch, depth + 1) for _ in range(ch.randint(0, 3))]
    if kind == "dict":
        keys = ["textDocument", "position", "uri", "line", "character", "text", "context", "version",
                "contentChanges", "range", "id", "x"]
        return {ch.choice(keys): _value(ch, depth + 1) for _ in range(ch.randint(0, 4))}
    return ch.choice(COORDINATES + URIS + ["", "é", "\ud800", "\u202e", "game"])


def _params(ch: Chooser, method: str, doc_text: str) -> Any:
    """Params for a method: right, nearly right, or anything."""
    how = ch.weighted([(3, "right"), (2, "position"), (1, "anything"), (0.5, "missing")])
    uri = ch.choice(URIS) if ch.chance(0.4) else DOC_URI
    position = {"line": ch.randint(0, 12), "character": ch.randint(0, 40)}
    if how == "position":
        position = {"line": ch.choice(COORDINATES), "character": ch.choice(COORDINATES)}
    if how == "anything":
        return _value(ch)
    if how == "missing":
        return {} if ch.chance(0.5) else None
    if method == "textDocument/didOpen":
        return {"textDocument": {"uri": uri, "languageId": "rulecraft", "version": ch.randint(0, 9), "text": doc_text}}
    if method == "textDocument/didChange":
        change: dict[str, Any] = {"text": doc_text}
        if ch.chance(0.5):
            change["range"] = {"start": position, "end": {"line": ch.choice(COORDINATES[:8]),
                                                          "character": ch.choice(COORDINATES[:8])}}
        return {"textDocument": {"uri": uri, "version": ch.randint(0, 9)}, "contentChanges": [change]}
    if method == "textDocument/didClose":
        return {"textDocument": {"uri": uri}}
    if method == "textDocument/documentSymbol":
        return {"textDocument": {"uri": uri}}
    if method == "$/cancelRequest":
        return {"id": ch.choice([1, PROBE_ID, "x", None])}
    params = {"textDocument": {"uri": uri}, "position": position}
    if method == "textDocument/references":
        params["context"] = {"includeDeclaration": ch.chance(0.5)}
    return params


def _document(ch: Chooser, ctx) -> str:
    kind = ch.weighted([(4, "mutant"), (1, "bundled"), (1, "variant"), (0.3, "huge"), (0.5, "hostile")])
    if kind == "mutant":
        return mutate_bundled(ch, ctx.sources)[1]
    name = ch.choice(sorted(ctx.sources))
    if kind == "bundled":
        return ctx.sources[name]
    if kind == "variant":
        return f'variant of "{name}"\ngame "V"\nply x: move own piece step onto emptyy\n'
    if kind == "huge":
        return "game " + "x" * ch.choice([64_001, 200_000, 3_000_000])
    return 'game "\U0001F600"\n' + ch.choice(["(" * 5000, "\x1b[2J", "\ud800", "\r" * 100, "\u2028" * 50, "é" * 9999])


def _damaged(ch: Chooser, ctx, body: bytes) -> bytes:
    """Framing or bytes gone wrong around a (valid or not) body."""
    kind = ch.weighted([(2, "headerless"), (2, "long"), (2, "short"), (1, "junk"), (1, "huge"), (1, "header"),
                        (1, "utf8"), (1, "nan"), (1, "deep"), (1, "array"), (1, "truncated"), (0.5, "number")])
    if kind == "headerless":
        return body + ch.choice([b"", b"\r\n", b"\n\n"])
    if kind == "long":
        return b"Content-Length: %d\r\n\r\n" % (len(body) + ch.choice([1, 3, 20, 5000, 10 ** 6])) + body
    if kind == "short":
        return b"Content-Length: %d\r\n\r\n" % ch.randint(0, max(len(body) - 1, 0)) + body
    if kind == "junk":
        return bytes(ch.randint(0, 255) for _ in range(ch.randint(1, 300)))
    if kind == "huge":
        n = ch.choice([MAX_MESSAGE_BYTES + 1, 10 ** 12, 10 ** 19])
        return b"Content-Length: %d\r\n\r\n" % n + body[:ch.randint(0, len(body))]
    if kind == "header":
        return ch.choice([b"Content-Length: abc\r\n\r\n", b"Content-Length: -1\r\n\r\n", b"Content-Length:\r\n\r\n",
                          b"Content-Length: 5", b"Content-Length: 5\r\n", b"X" * 5000 + b"\r\n\r\n",
                          b"Content-Type: text\r\n\r\n", b"Content-Length: 1e3\r\n\r\n", b"\r\n" * 50,
                          b"Content-Length: " + b"9" * 30 + b"\r\n\r\n"]) + body
    if kind == "utf8":
        i = ch.randint(0, len(body))
        return frame(body[:i] + ch.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"]) + body[i:])
    if kind == "nan":
        return frame(b'{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": ' +
                     ch.choice([b"NaN", b"Infinity", b"-Infinity"]) + b"}")
    if kind == "deep":
        d = ch.choice([65, 1000, 100_000])
        open_, close = ch.choice([(b"[", b"]"), (b'{"a":', b"}")])
        return frame(b'{"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": '
                     + open_ * d + b"1" + close * d + b"}")
    if kind == "array":
        return frame(ch.choice([b"[]", b"[{}]", b'"x"', b"1", b"null", b"true"]))
    if kind == "truncated":
        return frame(body[:ch.randint(0, max(len(body) - 1, 0))])
    return frame(b'{"jsonrpc": "2.0", "id": ' + b"9" * ch.choice([400, 5000]) + b', "method": "x"}')


def case_lsp(ch: Chooser, ctx, index: int) -> Case:
    """A session: initialize, open the probe's document, hostile and valid messages, the probe."""
    out = [frame(encode({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"processId": None, "rootUri": None, "capabilities": {}}})),
           frame(encode({"jsonrpc": "2.0", "method": "initialized", "params": {}})),
           frame(encode({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
               "uri": PROBE_URI, "languageId": "rulecraft", "version": 1, "text": PROBE_TEXT}}}))]
    expect, kinds = [1], []
    next_id = 100
    for _ in range(ch.randint(1, 8)):
        method = ch.choice(METHODS) if ch.chance(0.5) else ch.choice(METHODS[:5] + METHODS[7:9])
        doc_text = _document(ch, ctx) if method in ("textDocument/didOpen", "textDocument/didChange") else ""
        params = _params(ch, method, doc_text)
        notify = method in NOTIFICATIONS if ch.chance(0.9) else method not in NOTIFICATIONS
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if not notify:
            next_id += 1
            message["id"] = next_id if ch.chance(0.9) else str(next_id)
        body = encode(message)
        if len(body) > MAX_MESSAGE_BYTES or ch.chance(0.6):  # valid framing and JSON: it must be answered
            if len(body) <= MAX_MESSAGE_BYTES and not notify and _utf8(body):
                expect.append(message["id"])
            out.append(frame(body))
            kinds.append(method or "(empty method)")
        else:
            out.append(_damaged(ch, ctx, body))
            kinds.append("damaged " + (method or "(empty method)"))
    out.append(frame(encode({"jsonrpc": "2.0", "id": PROBE_ID, "method": "textDocument/hover",
                             "params": {"textDocument": {"uri": PROBE_URI}, "position": {"line": 0, "character": 1}}})))
    return Case("lsp", {"stream.bin": b"".join(out)},
                {"expect": expect, "probe": PROBE_ID, "messages": kinds, "seed": index})


class _Log(logging.Handler):
    """The server's log as `rulecraft lsp` writes it (one line a record), and the exceptions in it."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []
        self.exceptions: list[str] = []
        self.line_format = OneLineFormatter()

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.line_format.format(record))
        if record.exc_info and record.exc_info[1] is not None:
            self.exceptions.append(self.line_format.format(record))


def _read_messages(data: bytearray) -> list[dict]:
    """Whole framed messages at the start of `data` (taken from it); Invariant if not framed JSON-RPC."""
    from .harness import Invariant

    found = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return found
        headers = bytes(data[:end]).split(b"\r\n")
        m = re.fullmatch(rb"Content-Length: (\d+)", headers[0])
        if not m or any(not h.startswith(b"Content-Type: ") for h in headers[1:]):
            raise Invariant(f"output not framed: {bytes(data[:200])!r}", kind="output not framed")
        n = int(m.group(1))
        if len(data) < end + 4 + n:
            return found
        body = bytes(data[end + 4:end + 4 + n])
        del data[:end + 4 + n]
        try:
            message = json.loads(body)
        except ValueError:
            raise Invariant(f"output not JSON: {body[:200]!r}", kind="output not JSON") from None
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            raise Invariant(f"output not JSON-RPC: {body[:200]!r}", kind="output not JSON-RPC")
        found.append(message)


def _uses(stream: bytes, msg_id: Any) -> int:
    """How many messages of the stream may carry `msg_id` (its JSON after an `"id":` key)."""
    value = json.dumps(msg_id).encode()
    return sum(stream.count(b'"id":' + gap + value) for gap in (b"", b" "))


def eval_lsp(case: Case, ctx):
    """Feed the stream to a fresh server; ok if all is answered by results, clean if by
    JSON-RPC errors; Invariant for a traceback, an exception, an unanswered request or probe,
    output that is not framed JSON-RPC."""
    from .harness import Invariant, Outcome

    if lsp_server is None:
        return Outcome("ok", detail="pygls is not installed", notes=["the lsp category needs pygls"])
    stream = case.files["stream.bin"]
    stream = stream if isinstance(stream, bytes) else stream.encode("utf-8", "surrogateescape")
    expect, probe = list(case.params["expect"]) + [case.params["probe"]], case.params["probe"]
    log = _Log()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    root.handlers, root.level = [log], logging.WARNING
    uncaught: list[str] = []
    old_hook = threading.excepthook
    threading.excepthook = lambda a: uncaught.append(f"{a.exc_type.__name__}: {a.exc_value}")
    ours, theirs = socket.socketpair()
    stderr = io.StringIO()
    answers: dict[Any, list[dict]] = {}
    try:
        with contextlib.redirect_stderr(stderr):
            ls = lsp_server.make_server()
            server = threading.Thread(target=ls.start_io, args=(theirs.makefile("rb"), theirs.makefile("wb")),
                                      daemon=True)
            server.start()
            threading.Thread(target=_send, args=(ours, stream), daemon=True).start()
            data, deadline = bytearray(), time.monotonic() + ANSWER_SECONDS
            while any(i not in answers for i in expect) and time.monotonic() < deadline:
                if not select.select([ours], [], [], 0.05)[0]:
                    continue  # no timeout on the socket: it would cut the sending thread short
                chunk = ours.recv(1 << 16)
                if not chunk:
                    break
                data += chunk
                for m in _read_messages(data):
                    if "id" in m and "method" not in m:
                        answers.setdefault(m["id"], []).append(m)
            ours.shutdown(socket.SHUT_WR)  # the end of the stream: the server stops
            server.join(2.0)
    finally:
        threading.excepthook = old_hook
        root.handlers, root.level = saved
        ours.close()
    err = stderr.getvalue() + "\n".join(log.lines)
    if "Traceback" in err:
        raise Invariant(f"a traceback on stderr: {err[-1500:]}", kind="traceback on stderr")
    if uncaught or log.exceptions:
        first = (uncaught + log.exceptions)[0]
        raise Invariant(f"an exception in the server: {first[:600]}",
                        kind="exception: " + re.sub(r"\(|\)|'[^']*'|\d+", "", first.split(":", 2)[-1])[:80])
    if probe not in answers:
        raise Invariant(f"the probe was not answered; stderr: {err[-600:]}", kind="probe not answered")
    value = (answers[probe][0].get("result") or {}).get("contents", {}).get("value", "")
    if not value.startswith("**`game`**"):
        raise Invariant(f"the probe's answer is wrong: {answers[probe][0]}"[:600], kind="probe answered wrong")
    missing = [i for i in expect if i not in answers]
    if missing:
        raise Invariant(f"requests not answered: {missing}; stderr: {err[-600:]}", kind="request not answered")
    # an id the stream gives several requests (damaged ones among them) is answered as often
    twice = [i for i, found in answers.items() if i is not None and len(found) > max(1, _uses(stream, i))]
    if twice:
        raise Invariant(f"requests answered twice: {twice}", kind="answered twice")
    if server.is_alive():
        raise Invariant("the server did not stop at the end of its input", kind="no stop at the end")
    errors = [m["error"] for found in answers.values() for m in found if "error" in m]
    if errors:
        return Outcome("clean", detail=f"{len(errors)} errors, first: {errors[0]}"[:300])
    return Outcome("ok", detail=f"{len(answers)} answers")


def _send(sock: socket.socket, data: bytes) -> None:
    with contextlib.suppress(OSError):  # the evaluation may end first
        sock.sendall(data)
