"""Go to definition and find references of declared names, across a variant and its bases.

A name is found where the grammar reads a NAME (words.py), and is what the declarations
in force say it is (a variant's over its base's): the definition of a name the base
declares is in the base's file. Cells, directions and built-in regions are defined by
the board declaration.
"""

from __future__ import annotations

from lsprotocol import types

from dsl import syntax as syn

from interpreter.apps.lsp.documents import Analysis, Declared, names_of
from interpreter.apps.lsp.positions import Units, from_position, to_range, uri_of, utf16


def _target(analysis: Analysis, path: str, text: str, pos: types.Position,
            units: Units) -> Declared | None:
    line, col = from_position(text, pos, units)
    word = analysis.word_at(path, line, col)
    return analysis.resolve(word) if word is not None else None


def _location(analysis: Analysis, span: syn.Span, uri: str, units: Units) -> types.Location | None:
    view = analysis.file(span.file)
    if view is None:
        return None
    return types.Location(uri=uri_of(span.file, analysis.path, uri), range=to_range(span, view.text, units))


def definition(analysis: Analysis, uri: str, text: str, pos: types.Position,
               units: Units = utf16) -> list[types.Location]:
    """Where the name at a position is declared (its name in the declaration)."""
    d = _target(analysis, analysis.path, text, pos, units)
    found = _location(analysis, d.span, uri, units) if d is not None else None
    return [found] if found else []


def references(analysis: Analysis, uri: str, text: str, pos: types.Position,
               include_declaration: bool = True, units: Units = utf16) -> list[types.Location]:
    """Every place, in the document and its bases, that names what the name at a position names."""
    d = _target(analysis, analysis.path, text, pos, units)
    if d is None:
        return []
    declarations = {n.span for f in analysis.files for decl in f.decls for n in names_of(decl)}
    found = []
    for w in analysis.occurrences(d):
        if include_declaration or w.span not in declarations:
            loc = _location(analysis, w.span, uri, units)
            if loc is not None:
                found.append(loc)
    return found

