"""The checker's diagnostics as LSP diagnostics: the same messages and spans, every one.

A hint goes on a line of its own after the message (`hint: did you mean 'won'?`), where
every client shows it (Neovim's popup shows no related information). An error in a
variant's base is shown at the variant's `variant of "..."`, prefixed with its place in
the base, with related information pointing into the base for a client that takes it.
"""

from __future__ import annotations

import os

from lsprotocol import types

from dsl import syntax as syn
from dsl.diagnostics import MAX_MESSAGE, Diagnostic, clip, printable

from interpreter.apps.lsp.documents import Analysis
from interpreter.apps.lsp.positions import Units, to_range, uri_of, utf16

STOPPED = "too many errors; stopping"  # what `rulecraft check` says when the parser gives up


def _text(s: str) -> str:
    return printable(clip(s, MAX_MESSAGE))


def lsp_diagnostics(analysis: Analysis, uri: str, text: str, related: bool = True,
                    units: Units = utf16) -> list[types.Diagnostic]:
    """Every diagnostic of a document's analysis; `related`: the client takes related information."""
    out = [_one(d, analysis, uri, text, related, units) for d in analysis.diagnostics]
    if analysis.stopped and out:
        out.append(types.Diagnostic(range=out[-1].range, message=STOPPED, source="rulecraft",
                                    severity=types.DiagnosticSeverity.Warning))
    return out


def _where_base(analysis: Analysis, text: str, units: Units) -> types.Range:
    """Where a document shows what is wrong in its base: the quoted base's name."""
    own = analysis.files[0].decls if analysis.files else []
    variant = next((d for d in own if isinstance(d, syn.VariantDecl)), None)
    if variant is None:
        return types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    return to_range(variant.base_span or variant.span, text, units)


def _one(d: Diagnostic, analysis: Analysis, uri: str, text: str, related: bool,
         units: Units) -> types.Diagnostic:
    message, info = _text(d.message), []
    if d.span is None:
        where = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    elif d.span.file == analysis.path:
        where = to_range(d.span, text, units)
    else:  # in a base
        base = analysis.file(d.span.file)
        where = _where_base(analysis, text, units)
        message = f"{os.path.basename(d.span.file)}:{d.span.line}:{d.span.col}: {message}"
        if base is not None:
            info.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri_of(base.path, analysis.path, uri),
                                        range=to_range(d.span, base.text, units)),
                message=_text(d.message)))
    if d.hint:
        message += f"\nhint: {_text(d.hint)}"
    severity = types.DiagnosticSeverity.Warning if d.severity == "warning" else types.DiagnosticSeverity.Error
    return types.Diagnostic(range=where, message=message, severity=severity,
                            source="rulecraft", related_information=info if info and related else None)
