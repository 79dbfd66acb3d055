"""Find, read, parse, merge (variants over their base) and check a ruleset."""

from __future__ import annotations

import difflib
import os
from importlib import resources

from . import model as m
from .check import Ruleset, check
from .diagnostics import Diagnostic, RulesetError
from .parse import parse_source, read_source

MAX_VARIANT_DEPTH = 8
KEY_WORDS = {"game": "the title", "board": "the board", "players": "the players",
             "turn": "the turn", "variant": "the base", "compulsory": "the capture rule",
             "after": "`after each ply`"}


def bundled_dir() -> str:
    """The folder of the rulesets shipped inside the package."""
    return str(resources.files("rulecraft.rulesets"))


def bundled_names() -> list[str]:
    return sorted(f[:-5] for f in os.listdir(bundled_dir()) if f.endswith(".game"))


def resolve(name: str, relative_to: str | None = None) -> str:
    """A path for `name`: an existing file, else a sibling of `relative_to`, else a bundled ruleset."""
    candidates = [name]
    if relative_to is not None:
        here = os.path.dirname(relative_to)
        candidates += [os.path.join(here, name), os.path.join(here, name + ".game")]
    candidates.append(os.path.join(bundled_dir(), name + ".game"))
    if not name.endswith(".game"):
        candidates.append(name + ".game")
    for c in candidates:
        if os.path.isfile(c):
            return c
    if os.path.isdir(name):
        return name
    return name


def describe_key(key: tuple[str, str]) -> str:
    kind, name = key
    if not name:
        return KEY_WORDS.get(kind, kind)
    if kind == "turn" and name == "first":
        return "the first turn"
    return f"{kind} '{name}'"


def _decls_of(path: str, sources: dict[str, str], chain: list[str]) -> list[m.Decl]:
    text = read_source(path)
    sources[path] = text
    source = parse_source(text, path)
    errors: list[Diagnostic] = []
    seen: dict[tuple[str, str], m.Decl] = {}
    decls = []
    for d in source.decls:
        if d.key in seen and not isinstance(d, m.DropDecl):
            errors.append(Diagnostic(d.span, f"{describe_key(d.key)} is declared twice "
                                             f"(first at line {seen[d.key].span.line})"))
            continue
        seen[d.key] = d
        decls.append(d)
    variants = [d for d in decls if isinstance(d, m.VariantDecl)]
    if not variants:
        for d in decls:
            if d.is_new or isinstance(d, m.DropDecl):
                word = "new" if d.is_new else "drop"
                errors.append(Diagnostic(d.span, f"'{word}' is used only in a variant",
                                         'start the file with `variant of "BASE"`'))
        if errors:
            raise RulesetError(errors, sources)
        return decls
    v = variants[0]
    if len(chain) >= MAX_VARIANT_DEPTH:
        raise RulesetError([Diagnostic(v.span, f"variants nest more than {MAX_VARIANT_DEPTH} deep")], sources)
    base_path = resolve(v.base, relative_to=path)
    if not os.path.isfile(base_path):
        raise RulesetError([Diagnostic(v.span, f"base ruleset '{v.base}' not found",
                                       "name a file beside this one or a bundled ruleset")], sources)
    if os.path.abspath(base_path) in chain:
        raise RulesetError([Diagnostic(v.span, f"variant of '{v.base}' loops back to itself")], sources)
    base = _decls_of(base_path, sources, chain + [os.path.abspath(base_path)])
    merged = list(base)
    index = {d.key: i for i, d in enumerate(merged)}
    base_name = os.path.basename(base_path)[:-5] if base_path.endswith(".game") else base_path
    for d in decls:
        if isinstance(d, m.VariantDecl):
            continue
        if isinstance(d, m.DropDecl):
            key = (d.what, d.name)
            if key not in index:
                errors.append(Diagnostic(d.name_span, f"cannot drop {describe_key(key)}: "
                                                      f"{base_name} has no such declaration",
                                         _near(key, index)))
            else:
                merged[index[key]] = None  # type: ignore[call-overload]
            continue
        if d.is_new:
            if d.key in index:
                errors.append(Diagnostic(d.span, f"{base_name} already has {describe_key(d.key)}",
                                         "drop `new` to replace it"))
            else:
                index[d.key] = len(merged)
                merged.append(d)
        elif d.key in index and merged[index[d.key]] is not None:
            merged[index[d.key]] = d
        else:
            hint = _near(d.key, index) or "to add it to the base, start the line with `new`"
            errors.append(Diagnostic(_name_span(d), f"variant replaces {describe_key(d.key)}, "
                                                    f"which {base_name} does not have", hint))
    if errors:
        raise RulesetError(errors, sources)
    return [d for d in merged if d is not None]


def _near(key: tuple[str, str], index: dict) -> str | None:
    same = [name for kind, name in index if kind == key[0] and name]
    close = difflib.get_close_matches(key[1], same, n=1)
    return f"did you mean '{close[0]}'?" if close else None


def _name_span(d: m.Decl) -> m.Span:
    return getattr(d, "name_span", None) or getattr(d, "piece_span", None) or d.span


def load(name: str) -> Ruleset:
    """Load and check a ruleset by path or bundled name; raises RulesetError."""
    path = resolve(name)
    sources: dict[str, str] = {}
    decls = _decls_of(path, sources, [os.path.abspath(path)])
    if not decls:
        raise RulesetError([Diagnostic(None, "empty ruleset: no declarations", file=path)], sources)
    return check(decls, path, sources)
