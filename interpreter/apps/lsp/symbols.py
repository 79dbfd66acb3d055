"""The outline of a document: one symbol per declaration that parses, in order (the players
as children of their line)."""

from __future__ import annotations

from lsprotocol import types

from dsl import syntax as syn
from dsl.diagnostics import clip, source_lines

from interpreter.apps.lsp.documents import Analysis
from interpreter.apps.lsp.positions import Units, to_range, utf16

K = types.SymbolKind
# A declaration's keyword (the first part of its key) -> the kind of its symbol.
KINDS = {"game": K.String, "variant": K.Module, "board": K.Struct, "remove": K.Property,
         "link": K.Property, "goal": K.Constant, "players": K.Enum, "region": K.Namespace,
         "piece": K.Class, "var": K.Variable, "setup": K.Constructor, "ply": K.Function,
         "turn": K.Event, "end": K.Event, "relation": K.Operator, "compulsory": K.Property,
         "after": K.Event}


def document_symbols(analysis: Analysis, text: str, units: Units = utf16) -> list[types.DocumentSymbol]:
    """The declarations of the document itself (not of its base)."""
    if not analysis.files:
        return []
    lines = source_lines(text)
    return [_symbol(d, lines, text, units) for d in analysis.files[0].decls]


def _heading(d: syn.Decl, lines: list[str]) -> str:
    """A declaration without a name of its own, as written: its first line, up to its `:`."""
    first = lines[d.span.line - 1][d.span.col - 1:] if d.span.line <= len(lines) else ""
    return clip(first.split(":", 1)[0].strip() if ":" in first else first.strip(), 60) or d.key[0]


def _symbol(d: syn.Decl, lines: list[str], text: str, units: Units) -> types.DocumentSymbol:
    name = getattr(d, "name", "")
    named = bool(name) and not isinstance(d, syn.DropDecl)
    where = to_range(d.span, text, units)
    children = None
    if isinstance(d, syn.PlayersDecl):
        children = [types.DocumentSymbol(name=n, kind=K.EnumMember, range=to_range(s, text, units),
                                         selection_range=to_range(s, text, units), detail="player")
                    for n, s in d.names]
    kind = K.Null if isinstance(d, syn.DropDecl) else KINDS.get(d.key[0], K.Object)
    return types.DocumentSymbol(
        name=name if named else _heading(d, lines), kind=kind, range=where,
        selection_range=to_range(getattr(d, "name_span", None), text, units) if named else where,
        detail=d.key[0] if named else None, children=children)
