"""Find, read, parse, merge (variants over their base) and check a ruleset."""

from __future__ import annotations

import difflib
import os
import re
from importlib import resources

from dsl import syntax as syn
from dsl.check import Ruleset, check
from dsl.diagnostics import Diagnostic, RulesetError, clip, source_lines
from dsl.parse import NAMED_KINDS, WORD, UnreadableFile, checked_text, parse_partial, read_text

MAX_VARIANT_DEPTH = 8
KEY_WORDS = {"game": "the title", "board": "the board", "players": "the players",
             "turn": "the turn", "variant": "the base", "compulsory": "the capture rule",
             "after": "`after each ply`"}
# What a variant cannot drop (every game has one), with how to replace it instead.
REQUIRED = {"game": 'game "..."', "board": "board ...", "players": "players ...", "turn": "turn: ..."}
# Declarations without which nothing else can be checked: a syntax error in one stops there.
FOUNDATIONS = ("variant", "board", "players")


def bundled_dir() -> str:
    """The folder of the rulesets shipped inside the package."""
    return str(resources.files("rulesets"))


def bundled_names() -> list[str]:
    """The seed games and their variants (rulesets/), not the library."""
    return sorted(f[:-5] for f in os.listdir(bundled_dir()) if f.endswith(".game"))


def library_dir() -> str:
    """The folder of the library of classic games (rulesets/library/)."""
    return os.path.join(bundled_dir(), "library")


def library_names() -> list[str]:
    """The classic games of the library, named like bundled rulesets (`hex-3x3`)."""
    return sorted(f[:-5] for f in _listdir(library_dir()) if f.endswith(".game"))


def _bundled_path(name: str) -> str:
    """Where the bundled ruleset `name` (or `name.game`) would be: rulesets/, else the library."""
    file = name if name.endswith(".game") else name + ".game"
    seed = os.path.join(bundled_dir(), file)
    library = os.path.join(library_dir(), file)
    return library if not os.path.isfile(seed) and os.path.isfile(library) else seed


class NotARuleset(Exception):
    """A name that names no ruleset: `reason` says why ("not found", "no such file", ...),
    never quoting the contents of any file; `close` is a ruleset name near it, if any."""

    def __init__(self, reason: str, close: str | None = None):
        super().__init__(reason)
        self.reason, self.close = reason, close

    def hint(self, what: str) -> str | None:
        """What to write instead; `what` is how rulesets are named where the name was."""
        if self.reason == "no such file":
            return None
        known = f"{what}: {', '.join(bundled_names())}"
        return f"did you mean '{self.close}'? (or {known})" if self.close else known


def _is_bare(name: str) -> bool:
    """A name without a folder: `3-spot`, `3-spot.game` (not `./x`, `../x.game`, `/etc/x`)."""
    seps = [os.sep] + ([os.altsep] if os.altsep else [])
    return bool(name) and name not in (".", "..") and not any(sep in name for sep in seps)


def find_ruleset(name: str, beside: str | None = None) -> str:
    """The path of the ruleset file that `name` names; raises NotARuleset.

    A ruleset is named by a path ending in `.game` or by a bare name (no folder, no
    suffix such as `.txt`). Nothing else is ever read, so no other file's lines can end up in an error.

    - In a file (`beside` is the folder of the file that names it: `variant of "..."`):
      a path is relative to that folder; a bare NAME is NAME.game in that folder, else
      the bundled ruleset NAME. The current directory plays no part.
    - A bundled ruleset is a seed game's (rulesets/) or, failing that, a library game's
      (rulesets/library/).
    - On the command line (`beside` is None): a path is relative to the current
      directory; a bare NAME is the bundled ruleset NAME, else NAME.game in the
      current directory.

    A bare `NAME.game` that is not there is also looked for among the bundled rulesets.
    The file found must be a `.game` file once links are followed.
    """
    bundled = _bundled_path(name)
    is_bundled = _is_bare(name) and os.path.isfile(bundled)
    folder = "" if beside is None else beside
    if name.endswith(".game"):
        candidates = [os.path.join(folder, name)] + ([bundled] if is_bundled else [])
    elif _is_bare(name) and not os.path.splitext(name)[1]:
        local = os.path.join(folder, name + ".game")
        bundled_first = beside is None
        candidates = [c for c, ok in ((bundled, bundled_first and is_bundled), (local, True),
                                      (bundled, not bundled_first and is_bundled)) if ok]
    else:
        raise NotARuleset("not a ruleset file: its name does not end in .game")
    path = next((c for c in candidates if os.path.lexists(c)), None)
    if path is None:
        if name.endswith(".game"):
            raise NotARuleset("no such file")
        mine = {f[:-5] for f in _listdir(folder or os.curdir) if f.endswith(".game")}
        close = difflib.get_close_matches(name, sorted(set(bundled_names()) | set(library_names()) | mine), n=1)
        raise NotARuleset("not found", close[0] if close else None)
    if not os.path.realpath(path).endswith(".game"):
        raise NotARuleset("not a ruleset file: a link to a file whose name does not end in .game")
    return path


def _listdir(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def resolve(name: str, relative_to: str | None = None) -> str:
    """A path for `name` (find_ruleset, beside the file `relative_to` if given), else `name`."""
    try:
        return find_ruleset(name, None if relative_to is None else os.path.dirname(relative_to))
    except NotARuleset:
        return name


def describe_key(key: tuple[str, str]) -> str:
    """A declaration's key as messages name it: "end 'won'", "the first turn", "link b3 -- b5"."""
    kind, name = key
    if not name:
        return KEY_WORDS.get(kind, kind)
    if kind == "turn" and name == "first":
        return "the first turn"
    if kind == "setup" and name == "board":
        return "`setup board`"
    if kind in ("link", "remove"):
        return f"{kind} {_shown(key)}"
    return f"{kind} '{_shown(key)}'"


def _shown(key: tuple[str, str]) -> str:
    """The name part of a key as written in a file: `man of North`, `b3 -- b5`, `a4, m4`."""
    kind, name = key
    if kind == "setup":
        return name.replace("/", " of ")
    if kind == "link":
        return name.replace("--", " -- ")
    if kind == "remove":
        return name.replace(",", ", ")
    return name


def _twice(d: syn.Decl, first: syn.Decl) -> Diagnostic:
    what, line = describe_key(d.key), first.span.line
    drops = isinstance(d, syn.DropDecl) + isinstance(first, syn.DropDecl)
    if drops == 2:
        return Diagnostic(d.span, f"{what} is dropped twice (first at line {line})")
    if drops == 1:
        hint = "a declaration replaces the base's, in its place: the `drop` is not needed"
        if d.key[0] == "end":
            hint += f"; to check it elsewhere, `end {d.key[1]} before OTHER: ...`"
        return Diagnostic(d.span, f"{what} is both dropped and declared (line {line})", hint)
    return Diagnostic(d.span, f"{what} is declared twice (first at line {line})")


def _decls_of(path: str, text: str, sources: dict[str, str], chain: list[str],
              errors: list[Diagnostic], given: dict[str, str] | None = None
              ) -> tuple[list[syn.Decl] | None, set[tuple[str, str]]]:
    """The declarations of `path` (whose text is `text`), merged over its base if it is a variant.

    Adds every diagnostic found to `errors` and returns (declarations, broken keys): the
    declarations are None when they cannot be checked (a duplicate, a variant naming what
    its base lacks, a broken `variant of`); the broken keys are those of the declarations
    with syntax errors (parse.ParsedSource.broken), in this file or its bases, that no
    declaration made up for. Errors that leave nothing to merge raise at once.
    """
    source = parse_partial(text, path)
    sources[path] = source.text
    errors.extend(source.errors)
    if source.stopped:  # too many errors: the rest of the file is unread, so stop here
        raise RulesetError(errors, sources, stopped=True)
    broken = set(source.broken)
    decls, problems = _once_each(source.decls)
    variants = [d for d in decls if isinstance(d, syn.VariantDecl)]
    if ("variant", "") in broken:  # its base is unknown: nothing more can be said
        errors.extend(problems)
        return None, broken
    if not variants:
        problems += _variant_words(decls)
        errors.extend(problems)
        return (None if problems else decls), broken
    base_path, real, base_text = _read_base(variants[0], path, chain, errors, sources, given or {})
    base, base_broken = _decls_of(base_path, base_text, sources, chain + [real], errors, given)
    if base is None:
        errors.extend(problems)
        return None, broken | base_broken
    merged, unmerged = _merge(base, decls, base_path, base_broken)
    problems += unmerged
    errors.extend(problems)
    if problems:
        return None, broken | base_broken
    return merged, broken | base_broken


def _once_each(decls: list[syn.Decl]) -> tuple[list[syn.Decl], list[Diagnostic]]:
    """The declarations of one file without those whose key came before, and an error for each."""
    problems: list[Diagnostic] = []
    seen: dict[tuple[str, str], syn.Decl] = {}
    kept = []
    is_variant = any(isinstance(d, syn.VariantDecl) for d in decls)
    for d in decls:
        if isinstance(d, syn.DropDecl) and not is_variant:
            kept.append(d)  # refused later, whatever it names
            continue
        if d.key in seen:
            problems.append(_twice(d, seen[d.key]))
            continue
        seen[d.key] = d
        kept.append(d)
    return kept, problems


def _variant_words(decls: list[syn.Decl]) -> list[Diagnostic]:
    """An error for each `new` and `drop` in a file that is not a variant."""
    problems = []
    for d in decls:
        if d.is_new or isinstance(d, syn.DropDecl):
            word = "new" if d.is_new else "drop"
            problems.append(Diagnostic(d.span, f"'{word}' is used only in a variant",
                                       'start the file with `variant of "BASE"`'))
    return problems


def _read_base(v: syn.VariantDecl, path: str, chain: list[str], errors: list[Diagnostic],
               sources: dict[str, str], given: dict[str, str]) -> tuple[str, str, str]:
    """(path, real path, text) of the base that `variant of` names; raises RulesetError
    (with `errors` before it) when there is none to read, or it would nest too deep or loop."""
    where = v.base_span or v.span
    shown = clip(v.base)
    if len(chain) > MAX_VARIANT_DEPTH:  # `chain` holds this file and the variants above it
        raise RulesetError(errors + [Diagnostic(where, f"variants nest more than {MAX_VARIANT_DEPTH} deep: "
                                                       f"{' -> '.join(_short(p) for p in chain)} -> ...",
                                                f"a variant of a variant works up to {MAX_VARIANT_DEPTH} deep")],
                           sources)
    known = _given_base(v.base, path, given)
    if known is not None:
        return known, known, given[known]
    try:
        base_path = find_ruleset(v.base, beside=os.path.dirname(path))
    except NotARuleset as e:
        if e.reason == "no such file":
            message, hint = f"base ruleset '{shown}' not found", "a path is relative to this file's folder"
        else:
            message = f"base ruleset '{shown}' not found" if e.reason == "not found" else \
                f"base ruleset '{shown}': {e.reason}"
            hint = e.hint("a base is a .game file (a path from this file's folder, or NAME for "
                          "NAME.game beside it) or a bundled ruleset")
        raise RulesetError(errors + [Diagnostic(where, message, hint)], sources) from None
    real = os.path.realpath(base_path)
    if real in chain:
        loop = [_short(p) for p in chain[chain.index(real):]] + [_short(real)]
        raise RulesetError(errors + [Diagnostic(where, f"base ruleset '{shown}' makes a loop: "
                                                       f"{' -> '.join(loop)}",
                                                "a ruleset cannot be a variant of itself")],
                           sources)
    try:
        return base_path, real, read_text(base_path)
    except UnreadableFile as e:
        raise RulesetError(errors + [Diagnostic(where, f"base ruleset '{shown}': {e}")], sources) from None


def _given_base(base: str, path: str, given: dict[str, str]) -> str | None:
    """The key of `given` that `variant of "BASE"` in the file `path` names, if any."""
    for name in (base, base + ".game"):
        for folder in (os.path.dirname(path), bundled_dir()):
            if os.path.join(folder, name) in given:
                return os.path.join(folder, name)
    return None


def _merge(base: list[syn.Decl], decls: list[syn.Decl], base_path: str,
           base_broken: set[tuple[str, str]]) -> tuple[list[syn.Decl], list[Diagnostic]]:
    """A variant's declarations over its base's, each replacing, adding (`new`) or dropping
    one; and an error for each that cannot. Takes out of `base_broken` the keys of the
    broken declarations that the variant's make up for.
    """
    problems: list[Diagnostic] = []
    merged: list[syn.Decl | None] = list(base)
    index = {d.key: i for i, d in enumerate(merged)}
    moves = [d for d in decls if isinstance(d, syn.EndDecl) and d.before is not None]
    base_name = os.path.basename(base_path)[:-5] if base_path.endswith(".game") else base_path
    for d in decls:
        if isinstance(d, syn.VariantDecl):
            continue
        if isinstance(d, syn.DropDecl):
            if d.key[0] in REQUIRED and not d.key[1]:
                problems.append(Diagnostic(d.span, f"cannot drop {describe_key(d.key)}: a variant "
                                                   f"replaces it instead",
                                           f"write the variant's own `{REQUIRED[d.key[0]]}` line"))
            elif d.key in index:
                merged[index[d.key]] = None
            elif d.key not in base_broken:  # a declaration with a syntax error is dropped anyway
                problems.append(Diagnostic(d.name_span, f"cannot drop {describe_key(d.key)}: "
                                                        f"{base_name} has no such declaration",
                                           _near(d.key, index)))
            continue
        if d.is_new and d.key in index:
            problems.append(Diagnostic(d.span, f"{base_name} already has {describe_key(d.key)}",
                                       "drop `new` to replace it"))
        elif d.is_new or d.key in base_broken:  # an addition, or making up for a broken one
            base_broken.discard(d.key)
            index[d.key] = len(merged)
            merged.append(d)
        elif d.key in index:
            merged[index[d.key]] = d
        else:
            hint = _near(d.key, index) or "to add it to the base, start the line with `new`"
            problems.append(Diagnostic(_name_span(d), f"variant replaces {describe_key(d.key)}, "
                                                      f"which {base_name} does not have", hint))
    for d in moves:  # `end NAME before OTHER`: moved just before the base's end OTHER
        other, span = d.before
        at = next((i for i, x in enumerate(merged) if x is not None and x.key == ("end", other)), None)
        if at is None or merged[at] is d:
            problems.append(Diagnostic(span, f"no end rule '{other}' in {base_name} to go before",
                                       _near(("end", other), index)))
            continue
        if d in merged:
            merged[merged.index(d)] = None
            merged.insert(at, d)
        d.before = None
    return [d for d in merged if d is not None], problems


def _short(path: str) -> str:
    """A ruleset's file as a loop is shown: its name without `.game`."""
    return os.path.basename(path).removesuffix(".game")


def _near(key: tuple[str, str], index: dict) -> str | None:
    same = {name: (kind, name) for kind, name in index if kind == key[0] and name}
    close = difflib.get_close_matches(key[1], list(same), n=1)
    return f"did you mean '{_shown(same[close[0]])}'?" if close else None


def _name_span(d: syn.Decl) -> syn.Span:
    return getattr(d, "name_span", None) or getattr(d, "piece_span", None) or d.span


def _follows_from(d: Diagnostic, broken_names: set[str], sources: dict[str, str]) -> bool:
    """Whether a checker diagnostic is about a name whose declaration has a syntax error.

    Such a diagnostic (`unknown ply 'hop'`, `unknown piece 'q'` at `own q`, ...) quotes
    the name and points at it; it says nothing the syntax error does not.
    """
    quoted = set(re.findall(r"'([^']*)'", d.message)) & broken_names
    if not quoted or d.span is None:
        return False
    s = d.span
    lines = source_lines(sources.get(s.file, ""))[s.line - 1:s.end_line]
    if not lines:
        return False
    lines[-1] = lines[-1][:s.end_col - 1]  # the last line first: it may be the first too
    lines[0] = lines[0][s.col - 1:]
    return bool(quoted & set(WORD.findall("\n".join(lines))))


def load(name: str) -> Ruleset:
    """Load and check a ruleset by path or bundled name; raises RulesetError.

    Every error of the files is reported at once: declarations with syntax errors are left
    out, the others are merged and checked, and the checker is told which declarations are
    missing (their keys) so that it does not report what follows from their absence.
    """
    try:
        path = find_ruleset(name)
    except NotARuleset as e:
        reason = "no such ruleset" if e.reason == "not found" else e.reason
        raise RulesetError([Diagnostic(None, reason, e.hint("a path to a .game file, or a bundled ruleset"),
                                       file=name or "''")]) from None
    try:
        text = read_text(path)
    except UnreadableFile as e:
        raise RulesetError([Diagnostic(None, str(e), file=path)]) from None
    return _load(path, text)


def load_text(text: str, name: str = "<text>", given: dict[str, str] | None = None) -> Ruleset:
    """Check a ruleset given as a string; raises RulesetError. `name` stands for its file in
    messages, and its folder is where a variant's base is looked for (bundled names work
    anywhere). A base whose path is a key of `given` (a Ruleset's `sources`) is read there."""
    if "\0" in name:  # no file can be named so (os.path would raise ValueError)
        raise RulesetError([Diagnostic(None, "a file name cannot hold a NUL character", file=name)])
    try:
        text = checked_text(text)
    except UnreadableFile as e:
        raise RulesetError([Diagnostic(None, str(e), file=name)]) from None
    return _load(name, text, given)


def _load(path: str, text: str, given: dict[str, str] | None = None) -> Ruleset:
    sources: dict[str, str] = {}
    errors: list[Diagnostic] = []
    decls, broken = _decls_of(path, text, sources, [os.path.realpath(path)], errors, given)
    if decls is None or any(kind in FOUNDATIONS for kind, _ in broken):
        raise RulesetError(errors, sources)
    if not decls:
        raise RulesetError(errors or [Diagnostic(None, "empty ruleset: no declarations", file=path)],
                           sources)
    # Only a name-declaring kind names something the rules may refer to.
    keys = tuple(sorted((kind, name if kind in NAMED_KINDS or not kind else "") for kind, name in broken))
    try:
        ruleset = check(decls, path, sources, keys)
    except RulesetError as e:
        names = {name for _, name in keys if name}
        raise RulesetError(errors + [d for d in e.diagnostics if not _follows_from(d, names, sources)],
                           sources) from None
    if errors:
        raise RulesetError(errors, sources)
    return ruleset
