"""`rulecraft lsp` against a hostile client: a real session over stdio, fed raw bytes
(damaged framing, damaged JSON, bad params, out-of-range positions, huge messages). Each
damage gets its exact JSON-RPC answer, stderr never holds a traceback, and the request
after it (a probe) is answered at once."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_lsp import read_frames

ROOT = Path(__file__).resolve().parent.parent
OPEN = "file:///hostile/open.game"  # opened by the session, never on the disk
TEXT = 'game "Hostile"\nboard square 3 x 3\nplayers Blue, Red\n'


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def message(**fields) -> bytes:
    return frame(json.dumps({"jsonrpc": "2.0", **fields}).encode("utf-8"))


def hover(msg_id: int, uri: str = OPEN, line=0, character=1) -> bytes:
    return message(id=msg_id, method="textDocument/hover",
                   params={"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})


def error(msg_id, code: int, text: str) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": text}}


class RawClient:
    """Starts `python -m rulecraft lsp`, writes raw bytes, reads framed answers (and stderr)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "rulecraft", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT / "tests")
        self.inbox: queue.Queue = queue.Queue()
        self.stderr: list[str] = []
        self.next_id = 100
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(l.decode("utf-8", "replace") for l in self.proc.stderr),
                         daemon=True).start()

    def _read(self) -> None:
        read_frames(self.proc.stdout, self.inbox)

    def write(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def exchange(self, data: bytes, timeout: float = 5, pause_at: int | None = None) -> list[dict]:
        """Write `data` and a probe (a hover on the open document); the answers to what came
        before the probe, once the probe is answered (within `timeout` seconds). `pause_at`:
        write that many bytes, wait a moment, then the rest."""
        self.next_id += 1
        probe = self.next_id
        data += hover(probe)
        if pause_at is not None:
            self.write(data[:pause_at])
            time.sleep(0.3)
            data = data[pause_at:]
        self.write(data)
        answers, deadline = [], time.monotonic() + timeout
        while True:
            m = self.inbox.get(timeout=max(deadline - time.monotonic(), 0.01))
            assert m is not None, "the server stopped: " + "".join(self.stderr)
            if "method" in m:  # diagnostics; a request of the server's gets null
                if "id" in m:
                    self.write(message(id=m["id"], result=None))
                continue
            if m.get("id") == probe:
                assert m["result"]["contents"]["value"].startswith("**`game`**"), m
                assert not any("Traceback" in line for line in self.stderr), "".join(self.stderr)
                return answers
            answers.append(m)


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("pygls", reason="the language server needs pygls: pip install 'rulecraft[lsp]'")
    c = RawClient()
    c.write(message(id=1, method="initialize", params={"processId": None, "rootUri": None, "capabilities": {}}))
    assert c.inbox.get(timeout=30)["result"]["serverInfo"]["name"] == "rulecraft"
    c.write(message(method="initialized", params={}))
    c.write(message(method="textDocument/didOpen", params={"textDocument": {
        "uri": OPEN, "languageId": "rulecraft", "version": 1, "text": TEXT}}))
    assert c.exchange(b"") == []
    yield c
    c.write(message(id=2, method="shutdown") + message(method="exit"))
    assert c.proc.wait(timeout=10) == 0
    assert not any("Traceback" in line for line in c.stderr), "".join(c.stderr)


def test_a_body_that_is_not_json(client):
    assert client.exchange(frame(b"{not json")) == [error(None, -32700, (
        "Parse error: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"))]
    assert client.exchange(frame(b'{"jsonrpc": "2.0", "id": 3, "method": NaN}')) == [
        error(None, -32700, "Parse error: NaN is not JSON")]
    assert client.exchange(frame(b"")) == [
        error(None, -32700, "Parse error: Expecting value: line 1 column 1 (char 0)")]


def test_a_body_that_is_not_an_object(client):
    assert client.exchange(frame(b"[1, 2]") + frame(b'"x"')) == [
        error(None, -32600, "Invalid Request: a message is a JSON object")] * 2


def test_json_nested_100000_deep(client):
    deep = (b'{"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": '
            + b"[" * 100_000 + b"]" * 100_000 + b"}")
    assert client.exchange(frame(deep)) == [error(None, -32700, "Parse error: JSON nested deeper than 64 levels")]
    just = message(id=3, method="workspace/symbol", params={"query": "x", "d": json.loads("[" * 62 + "]" * 62)})
    assert client.exchange(just) == [error(3, -32601, "Method not found: workspace/symbol")]


def test_invalid_requests(client):
    assert client.exchange(message(id=1.5, method="textDocument/hover")) == [
        error(None, -32600, "Invalid Request: id must be a string or an integer")]
    assert client.exchange(frame(b'{"id": 4, "method": "shutdown"}')) == [
        error(4, -32600, 'Invalid Request: jsonrpc must be "2.0"')]
    assert client.exchange(message(id=5, method=7)) == [error(5, -32600, "Invalid Request: method must be a string")]
    assert client.exchange(message(id=6)) == [
        error(6, -32600, "Invalid Request: neither a request, a notification nor a response")]
    assert client.exchange(message(id=7, method="initialize", params={"capabilities": {}})) == [
        error(7, -32600, "Invalid Request: the server is already initialized")]
    assert client.exchange(message(id="eight", method="no/such")) == [error("eight", -32601, "Method not found: no/such")]
    assert client.exchange(message(method="no/such", params={})) == []  # a notification: no answer


def test_invalid_params(client):
    assert client.exchange(message(id=9, method="textDocument/hover", params={"textDocument": {}})) == [
        error(9, -32602, "Invalid params: required field missing @ $.params.textDocument.uri; "
                         "required field missing @ $.params.position")]
    assert client.exchange(message(id=10, method="textDocument/hover", params=5)) == [
        error(10, -32602, "Invalid params: params must be an object or an array")]
    assert client.exchange(message(id=11, method="textDocument/completion", params=[])) == [
        error(11, -32602, "Invalid params: invalid value for type, expected TextDocumentIdentifier @ "
                          "$.params.textDocument; invalid value for type, expected Position @ $.params.position")]
    # A notification with bad params is dropped (logged); so is a change to a document not open.
    bad_change = message(method="textDocument/didChange", params={"textDocument": {"uri": "file:///x.game"}})
    unopened_change = message(method="textDocument/didChange", params={
        "textDocument": {"uri": "file:///x.game", "version": 2}, "contentChanges": [{"text": "x"}]})
    assert client.exchange(bad_change + unopened_change) == []


@pytest.mark.parametrize("line, expected", [
    (-1, "Invalid params: Position.line should be in range [0:2147483647], but was -1 @ $.params.position"),
    (2 ** 64, "Invalid params: Position.line should be in range [0:2147483647], but was "
              "18446744073709551616 @ $.params.position"),
    ("a", "Invalid params: invalid value for type, expected int @ $.params.position.line"),
])
def test_positions_out_of_the_protocols_range(client, line, expected):
    assert client.exchange(hover(12, line=line)) == [error(12, -32602, expected)]


def test_positions_past_the_end_get_empty_answers(client):
    end = 2 ** 31 - 1
    assert client.exchange(hover(13, line=end, character=end)) == [{"jsonrpc": "2.0", "id": 13, "result": None}]
    assert client.exchange(hover(14, line=1, character=end)) == [{"jsonrpc": "2.0", "id": 14, "result": None}]
    completion = message(id=15, method="textDocument/completion",
                         params={"textDocument": {"uri": OPEN}, "position": {"line": end, "character": end}})
    [answer] = client.exchange(completion)
    assert answer["id"] == 15 and isinstance(answer["result"], list)


def test_a_document_that_is_not_open_is_not_read_from_the_disk(client, tmp_path):
    on_disk = tmp_path / "real.game"
    on_disk.write_text(TEXT)
    for msg_id, uri in ((16, "file:///nonexistent.game"), (17, on_disk.as_uri())):
        for method in ("textDocument/completion", "textDocument/hover", "textDocument/definition"):
            request = message(id=msg_id, method=method,
                              params={"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}})
            assert client.exchange(request) == [
                error(msg_id, -32602, f"Invalid params: the document {uri} is not open")]
    symbols = message(id=18, method="textDocument/documentSymbol", params={"textDocument": {"uri": on_disk.as_uri()}})
    assert client.exchange(symbols) == [error(18, -32602, f"Invalid params: the document {on_disk.as_uri()} is not open")]


def test_a_message_without_content_length(client):
    headerless = json.dumps({"jsonrpc": "2.0", "id": 19, "method": "shutdown"}).encode()
    assert client.exchange(headerless) == [error(None, -32700, "Parse error: expected a Content-Length header")]
    assert client.exchange(b"Content-Type: x\r\n\r\n{}") == [
        error(None, -32700, "Parse error: expected a Content-Length header")]
    assert client.exchange(b"Content-Length: -5\r\n\r\n{}") == [
        error(None, -32700, "Parse error: expected a Content-Length header")]
    assert client.exchange(b"\xff" * 5000 + b"\r\n") == [
        error(None, -32700, "Parse error: expected a Content-Length header")]


def test_a_wrong_content_length(client):
    body = json.dumps({"jsonrpc": "2.0", "id": 20, "method": "no/such"}).encode()
    # Too long: the body ends where the next message's header begins.
    assert client.exchange(b"Content-Length: %d\r\n\r\n" % (len(body) + 500) + body) == [
        error(20, -32601, "Method not found: no/such")]
    assert client.exchange(b"Content-Length: %d\r\n\r\n" % (len(body) + 3) + body) == [
        error(20, -32601, "Method not found: no/such")]  # the header is there already: no wait
    # Too long by 20 bytes, which arrive alone: the body takes the next header's start
    # ("Content-Length: 169\r"), and that message is still read.
    first = b"Content-Length: %d\r\n\r\n" % (len(body) + 20) + body
    assert client.exchange(first, pause_at=len(first) + 20) == [
        error(None, -32700, "Parse error: Extra data: line 1 column 50 (char 49)")]
    # Too short: a damaged body, then bytes outside a message.
    assert client.exchange(b"Content-Length: 10\r\n\r\n" + body) == [
        error(None, -32700, "Parse error: Expecting ':' delimiter: line 1 column 11 (char 10)"),
        error(None, -32700, "Parse error: expected a Content-Length header")]


def test_a_body_of_invalid_utf8(client):
    assert client.exchange(frame(b'{"jsonrpc": "2.0", "id": 21, "method": "x\xff\xfe"}')) == [
        error(None, -32700, "Parse error: invalid UTF-8 at byte 41")]
    assert client.exchange(frame(b'{"jsonrpc": "2.0", "id": 21, "method": "\xed\xa0\x80"}')) == [
        error(None, -32700, "Parse error: invalid UTF-8 at byte 40")]  # a surrogate


def test_a_huge_announcement_that_never_arrives(client):
    started = time.monotonic()
    assert client.exchange(b"Content-Length: 1000000000000\r\n\r\n{\"jsonrpc\"") == [
        error(None, -32600, "Invalid Request: a message of 1000000000000 bytes is larger than "
                            "the limit of 4194304 bytes")]
    assert time.monotonic() - started < 2


def test_huge_documents(client):
    uri = "file:///hostile/huge.game"
    open_ = lambda n: message(method="textDocument/didOpen", params={"textDocument": {  # noqa: E731
        "uri": uri, "languageId": "rulecraft", "version": 1, "text": "game " + "x" * n}})
    # 20 MB: refused as a whole (the document is not open), nothing kept.
    huge = open_(20_000_000)
    size = len(huge) - len(b"Content-Length: 20000176\r\n\r\n")
    assert size == 20_000_176
    assert client.exchange(huge + hover(22, uri)) == [
        error(None, -32600, f"Invalid Request: a message of {size} bytes is larger than the limit of 4194304 bytes"),
        error(22, -32602, f"Invalid params: the document {uri} is not open")]
    # 3 MB: open, over the loader's limit: its diagnostic, empty answers.
    assert client.exchange(open_(3_000_000) + hover(23, uri)) == [{"jsonrpc": "2.0", "id": 23, "result": None}]
    close = message(method="textDocument/didClose", params={"textDocument": {"uri": uri}})
    assert client.exchange(close + hover(24, uri)) == [
        error(24, -32602, f"Invalid params: the document {uri} is not open")]
