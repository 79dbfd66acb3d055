"""The language server (pygls): diagnostics on open and on every change, hover, completion,
go to definition, find references and the outline of `.game` files, over stdio.

Every handler runs inside a guard: whatever a text makes go wrong is logged (on stderr, one
line; stdout carries the protocol) and the answer is empty, so no text brings the server
down. What the client sends is framed by framing.py and checked by rpc.py before a handler
sees it: damaged messages are answered by JSON-RPC errors.

A request about a document that is not open is answered by -32602 (rpc.NotOpen): the
server reads only the editor's texts (and the bases of a variant), never a document from
the disk. A position past the end of a document gets an empty answer; one outside the
protocol's range (negative, over 2**31 - 1, not an integer) gets -32602. The texts of the
open documents together are bounded (MAX_OPEN_CHARS, MAX_OPEN_DOCUMENTS): a document
that goes past the bound is forgotten, with a diagnostic saying so.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from dsl.file_text import BOM

from interpreter.apps.lsp.completion import completions
from interpreter.apps.lsp.diagnostics import lsp_diagnostics
from interpreter.apps.lsp.documents import Analysis, analyse, real_path
from interpreter.apps.lsp.framing import Damaged, Frames
from interpreter.apps.lsp.hover import hover
from interpreter.apps.lsp.navigation import definition, references
from interpreter.apps.lsp.positions import path_of
from interpreter.apps.lsp.rpc import GameProtocol, NotOpen, OneLineFormatter
from interpreter.apps.lsp.symbols import document_symbols

log = logging.getLogger("rulecraft.lsp")
F = TypeVar("F", bound=Callable[..., Any])

MAX_OPEN_CHARS = 64 * 1024 * 1024  # the texts of all open documents together
MAX_OPEN_DOCUMENTS = 1000


class GameServer(LanguageServer):
    """A pygls server that keeps each open document's analysis for the text it was made of."""

    def __init__(self) -> None:
        from rulecraft import __version__

        super().__init__("rulecraft", __version__, protocol_cls=GameProtocol)
        self.analyses: dict[str, tuple[str, Analysis]] = {}

    def text_of(self, uri: str) -> str:
        """An open document's text (NotOpen, -32602, for any other: the disk is not read)."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is None:
            raise NotOpen(uri)
        return document.source.removeprefix(BOM)

    def over_limit(self) -> str | None:
        """Why the open documents are too much to keep, or None."""
        documents = self.workspace.text_documents
        if len(documents) > MAX_OPEN_DOCUMENTS:
            return f"more than {MAX_OPEN_DOCUMENTS} documents are open"
        if sum(len(d.source) for d in documents.values()) > MAX_OPEN_CHARS:
            return f"the open documents hold more than {MAX_OPEN_CHARS} characters"
        return None

    def forget(self, uri: str, why: str) -> None:
        """Stop following a document (its requests get NotOpen), with a diagnostic saying why."""
        self.workspace.remove_text_document(uri)
        self.analyses.pop(uri, None)
        message = f"rulecraft lsp: this document is not followed: {why}; close documents and open it again"
        log.warning("%s (%s)", message, uri[:200])
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[
            types.Diagnostic(range=types.Range(start=types.Position(line=0, character=0),
                                               end=types.Position(line=0, character=0)),
                             message=message, severity=types.DiagnosticSeverity.Error, source="rulecraft")]))

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve the messages of `stdin` until `exit` or the end of the stream.

        Instead of pygls' reader: framing.py cuts the stream (bounded, resynchronising)
        and rpc.py answers what is wrong. A thread reads one frame ahead of the handlers."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        # Unbuffered by default: a buffered reader's lock, held by the reading thread, would
        # abort the interpreter's exit while that thread waits for input.
        frames = Frames(stdin or os.fdopen(os.dup(sys.stdin.fileno()), "rb", buffering=0))
        try:
            asyncio.run(self._serve(frames))
        except BrokenPipeError:
            log.error("rulecraft lsp: the client is gone (broken pipe)")
        except (KeyboardInterrupt, SystemExit):  # SystemExit: pygls' `exit`
            pass
        finally:
            self.shutdown()

    async def _serve(self, frames: Frames) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes | Damaged | None] = asyncio.Queue(maxsize=1)  # one frame ahead
        threading.Thread(target=_pump, args=(frames, loop, queue), daemon=True,
                         name="rulecraft-lsp-reader").start()
        while not self._stop_event.is_set():
            frame = await queue.get()
            if frame is None:
                break
            try:
                self.protocol.receive(frame)
            except (BrokenPipeError, SystemExit):
                raise
            except Exception:  # a bug of the server: logged, the session goes on
                log.exception("rulecraft lsp: a message failed")

    def analysis(self, uri: str) -> Analysis:
        """The analysis of an open document's current text (made again when the text changed)."""
        text = self.text_of(uri)
        kept = self.analyses.get(uri)
        if kept is not None and kept[0] == text:
            return kept[1]
        others = {path_of(u): d.source.removeprefix(BOM) for u, d in self.workspace.text_documents.items()
                  if u != unquote(uri)}
        made = analyse(path_of(uri), text, others)
        self.analyses[uri] = (text, made)
        return made

    def units(self, text: str) -> int:
        """The length of a text in the client's code units (UTF-16 unless it chose otherwise)."""
        return self.workspace.position_codec.client_num_units(text)

    def related(self) -> bool:
        """Whether the client takes diagnostics' related information (where an error in a
        variant's base points)."""
        caps = self.client_capabilities.text_document
        publish = caps.publish_diagnostics if caps else None
        return bool(publish and publish.related_information)


def guarded(default: Any) -> Callable[[F], F]:
    """A handler that logs any exception and answers `default` instead."""
    def wrap(handler: F) -> F:
        @functools.wraps(handler)
        def run(ls: GameServer, params: Any) -> Any:
            try:
                return handler(ls, params)
            except JsonRpcException:  # a refusal (NotOpen): answered as an error
                raise
            except Exception:  # any text at all: the server answers on
                log.exception("rulecraft lsp: %s failed", handler.__name__)
                return default
        return run  # type: ignore[return-value]
    return wrap


def publish(ls: GameServer, uri: str) -> None:
    """Send a document's diagnostics (all of them: an empty list once it is right)."""
    analysis = ls.analysis(uri)
    found = lsp_diagnostics(analysis, uri, ls.text_of(uri), ls.related(), ls.units)
    version = ls.workspace.get_text_document(uri).version
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version))


def _pump(frames: Frames, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue) -> None:
    """Hand the frames of the stream to the server's loop, one at a time (None: the end)."""
    while True:
        try:
            frame = frames.next()
        except Exception:  # the stream failed (closed under us): the end of the session
            log.warning("rulecraft lsp: reading failed", exc_info=True)
            frame = None
        try:
            asyncio.run_coroutine_threadsafe(queue.put(frame), loop).result()
        except Exception:  # noqa: BLE001 - the loop has ended
            return
        if frame is None:
            return


def publish_dependents(ls: GameServer, uri: str) -> None:
    """Check again the open variants of a document that changed (it is their base)."""
    changed = real_path(path_of(uri))
    for other, (_, analysis) in list(ls.analyses.items()):
        if other != uri and any(real_path(f.path) == changed for f in analysis.files[1:]):
            del ls.analyses[other]  # made with the base's text before
            publish(ls, other)


@guarded(None)
def did_open(ls: GameServer, params: types.DidOpenTextDocumentParams) -> None:
    if (why := ls.over_limit()) is not None:
        ls.forget(params.text_document.uri, why)
        return
    publish(ls, params.text_document.uri)
    publish_dependents(ls, params.text_document.uri)


@guarded(None)
def did_change(ls: GameServer, params: types.DidChangeTextDocumentParams) -> None:
    if (why := ls.over_limit()) is not None:
        ls.forget(params.text_document.uri, why)
        return
    publish(ls, params.text_document.uri)
    publish_dependents(ls, params.text_document.uri)


@guarded(None)
def did_close(ls: GameServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    publish_dependents(ls, uri)  # they read the base from the disk now


@guarded(None)
def on_hover(ls: GameServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    return hover(ls.analysis(uri), path_of(uri), ls.text_of(uri), params.position, ls.units)


@guarded([])
def on_completion(ls: GameServer, params: types.CompletionParams) -> list[types.CompletionItem]:
    uri = params.text_document.uri
    return completions(ls.analysis(uri), ls.text_of(uri), params.position, ls.units)


@guarded([])
def on_definition(ls: GameServer, params: types.DefinitionParams) -> list[types.Location]:
    uri = params.text_document.uri
    return definition(ls.analysis(uri), uri, ls.text_of(uri), params.position, ls.units)


@guarded([])
def on_references(ls: GameServer, params: types.ReferenceParams) -> list[types.Location]:
    uri = params.text_document.uri
    return references(ls.analysis(uri), uri, ls.text_of(uri), params.position,
                      params.context.include_declaration, ls.units)


@guarded([])
def on_symbols(ls: GameServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    uri = params.text_document.uri
    return document_symbols(ls.analysis(uri), ls.text_of(uri), ls.units)


FEATURES: dict[str, Callable[..., Any]] = {
    types.TEXT_DOCUMENT_DID_OPEN: did_open,
    types.TEXT_DOCUMENT_DID_CHANGE: did_change,
    types.TEXT_DOCUMENT_DID_CLOSE: did_close,
    types.TEXT_DOCUMENT_HOVER: on_hover,
    types.TEXT_DOCUMENT_COMPLETION: on_completion,
    types.TEXT_DOCUMENT_DEFINITION: on_definition,
    types.TEXT_DOCUMENT_REFERENCES: on_references,
    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL: on_symbols,
}


def make_server() -> GameServer:
    """A server with the features (a fresh one: a test or the fuzzer may run several)."""
    ls = GameServer()
    for method, handler in FEATURES.items():
        ls.feature(method)(handler)
    return ls


server = make_server()


def serve() -> None:
    """Speak LSP on stdin and stdout until the client says exit."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter())  # a line per record: no traceback, nothing unbounded
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    # The protocol gets a stream of its own on stdout's file (pygls closes it at exit),
    # and sys.stdout goes to stderr meanwhile: a stray print cannot break the protocol.
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    real_stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        server.start_io(None, protocol_out)
    finally:
        sys.stdout = real_stdout
