"""The language server (pygls): diagnostics on open and on every change, hover, completion,
go to definition, find references and the outline of `.game` files, over stdio.

Every handler runs inside a guard: whatever a text makes go wrong is logged (on stderr;
stdout carries the protocol) and the answer is empty, so no text brings the server down.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from rulecraft.dsl.file_text import BOM

from .completion import completions
from .diagnostics import lsp_diagnostics
from .documents import Analysis, analyse
from .hover import hover
from .navigation import definition, references
from .positions import path_of
from .symbols import document_symbols

log = logging.getLogger("rulecraft.lsp")
F = TypeVar("F", bound=Callable[..., Any])


class GameServer(LanguageServer):
    """A pygls server that keeps each open document's analysis for the text it was made of."""

    def __init__(self) -> None:
        from rulecraft import __version__

        super().__init__("rulecraft", __version__)
        self.analyses: dict[str, tuple[str, Analysis]] = {}

    def text_of(self, uri: str) -> str:
        return self.workspace.get_text_document(uri).source.removeprefix(BOM)

    def analysis(self, uri: str) -> Analysis:
        """The analysis of an open document's current text (made again when the text changed)."""
        text = self.text_of(uri)
        kept = self.analyses.get(uri)
        if kept is not None and kept[0] == text:
            return kept[1]
        others = {path_of(u): self.text_of(u) for u in self.workspace.text_documents if u != uri}
        made = analyse(path_of(uri), text, others)
        self.analyses[uri] = (text, made)
        return made

    def units(self, text: str) -> int:
        """The length of a text in the client's code units (UTF-16 unless it chose otherwise)."""
        return self.workspace.position_codec.client_num_units(text)

    def related(self) -> bool:
        """Whether the client shows diagnostics' related information (where hints go)."""
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


def publish_dependents(ls: GameServer, uri: str) -> None:
    """Check again the open variants of a document that changed (it is their base)."""
    changed = os.path.realpath(path_of(uri))
    for other, (_, analysis) in list(ls.analyses.items()):
        if other != uri and any(os.path.realpath(f.path) == changed for f in analysis.files[1:]):
            del ls.analyses[other]  # made with the base's text before
            publish(ls, other)


server = GameServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@guarded(None)
def did_open(ls: GameServer, params: types.DidOpenTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)
    publish_dependents(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@guarded(None)
def did_change(ls: GameServer, params: types.DidChangeTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)
    publish_dependents(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@guarded(None)
def did_close(ls: GameServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    publish_dependents(ls, uri)  # they read the base from the disk now


@server.feature(types.TEXT_DOCUMENT_HOVER)
@guarded(None)
def on_hover(ls: GameServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    return hover(ls.analysis(uri), path_of(uri), ls.text_of(uri), params.position, ls.units)


@server.feature(types.TEXT_DOCUMENT_COMPLETION)
@guarded([])
def on_completion(ls: GameServer, params: types.CompletionParams) -> list[types.CompletionItem]:
    uri = params.text_document.uri
    return completions(ls.analysis(uri), ls.text_of(uri), params.position, ls.units)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@guarded([])
def on_definition(ls: GameServer, params: types.DefinitionParams) -> list[types.Location]:
    uri = params.text_document.uri
    return definition(ls.analysis(uri), uri, ls.text_of(uri), params.position, ls.units)


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@guarded([])
def on_references(ls: GameServer, params: types.ReferenceParams) -> list[types.Location]:
    uri = params.text_document.uri
    return references(ls.analysis(uri), uri, ls.text_of(uri), params.position,
                      params.context.include_declaration, ls.units)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded([])
def on_symbols(ls: GameServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    uri = params.text_document.uri
    return document_symbols(ls.analysis(uri), ls.text_of(uri), ls.units)


def serve() -> None:
    """Speak LSP on stdin and stdout until the client says exit."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(name)s: %(message)s")
    # The protocol gets a stream of its own on stdout's file (pygls closes it at exit),
    # and sys.stdout goes to stderr meanwhile: a stray print cannot break the protocol.
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    real_stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        server.start_io(sys.stdin.buffer, protocol_out)
    finally:
        sys.stdout = real_stdout
