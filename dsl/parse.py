"""Text of a .game file -> a `Source` of model declarations, or diagnostics.

The file is cut into declarations (each starts in column 1, continues on indented
lines) and each is parsed on its own, so every syntax error of a file is reported.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.lark import PostLex
from lark.exceptions import VisitError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from . import model as m
from .diagnostics import MAX_DIAGNOSTICS, Diagnostic, RulesetError, clip

MAX_FILE_BYTES = 64_000  # the largest bundled ruleset is under 2,000; Lark parses ~60-150 KB a second
MAX_NESTING = 60  # depth of one expression's tree
MAX_BRACKETS = 100  # parentheses and brackets open at once (checked before the parser runs)
MAX_NUMBER = 1_000_000_000
BOM = "\ufeff"
# Characters a ruleset may not hold (tabs and line ends aside): every C0 and C1 control
# character and DEL, the Unicode line and paragraph separators, and the bidirectional
# overrides and isolates, which would make the text read differently from how it parses.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

# What a designer calls each terminal, for "expected ..." messages.
TERMINAL_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": 'a quoted string (e.g. "Three Musketeers")',
    "CMP": "a comparison (==, <, >=, ...)",
    "ADD_OP": "an operator",
    "MUL_OP": "an operator",
    "NO_LEGAL_PLY": "'no legal ply'",
    "OPPONENTS": "'opponent's'",
    "$END": "the end of the declaration",
}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")  # a keyword, as opposed to punctuation
# Declarations that name something (their key is (keyword, NAME)).
NAMED_KINDS = ("region", "piece", "var", "ply", "end", "relation", "goal")


class _WholeWords(PostLex):
    """Makes every lexer state also try NAME, so keywords match whole words only.

    Without it, a state that expects only a keyword would read `winz` as `win` + `z`.
    """

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The LALR parser built from the packaged grammar: built once per process, and its
    tables kept between runs in the user's cache folder (building them is most of the
    time a short command takes)."""
    text = resources.files("rulecraft.grammar").joinpath("game.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", start="start", propagate_positions=True,
                maybe_placeholders=True, postlex=_WholeWords(), cache=_parser_cache(text))


def _parser_cache(grammar: str) -> str | bool:
    """Where Lark keeps the parser's tables: a file of the user's own cache folder (made
    private), named by the grammar's and Lark's versions; False (no cache) if there is
    none to be had or RULECRAFT_NO_CACHE is set."""
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return False
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulecraft")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not os.access(folder, os.W_OK) or os.stat(folder).st_uid != os.getuid():
            return False
    except (OSError, AttributeError):
        return False
    import lark

    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{digest}-lark{lark.__version__}.cache")


def _keywords(terminal_names) -> tuple[str, ...]:
    """The words of the string terminals among `terminal_names` (no punctuation, no regexps)."""
    terminals = {t.name: t for t in grammar_parser().terminals}
    words = {terminals[n].pattern.value for n in terminal_names
             if n in terminals and terminals[n].pattern.type == "str"
             and WORD.fullmatch(terminals[n].pattern.value)}
    return tuple(sorted(words))


@lru_cache(maxsize=1)
def declaration_keywords() -> tuple[str, ...]:
    """The keywords a declaration can begin with: what the parser accepts in its start state."""
    return _keywords(grammar_parser().parse_interactive("").accepts())


@lru_cache(maxsize=1)
def expression_keywords() -> tuple[str, ...]:
    """The keywords that are values of their own in an expression (empty, here, mover, ...)."""
    return _keywords(sym.name for rule in grammar_parser().rules if rule.origin.name == "atom"
                     for sym in rule.expansion if sym.is_term)


class UnreadableFile(Exception):
    """A file that cannot be a ruleset; the message says why and never quotes its contents."""


def read_text(path: str) -> str:
    """The text of a ruleset file; raises UnreadableFile for anything that is not one.

    Only a regular file is read (a directory, a device, a FIFO or a socket is refused
    without waiting on it), at most MAX_FILE_BYTES of it, and only if it is UTF-8 text
    without NUL bytes. A byte-order mark at its start is dropped.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise UnreadableFile("no such file") from None
    except IsADirectoryError:
        raise UnreadableFile("is a directory, not a ruleset file") from None
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        raise UnreadableFile(f"cannot read: {getattr(e, 'strerror', None) or e}") from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise UnreadableFile("is a directory, not a ruleset file")
        if not stat.S_ISREG(kind):
            raise UnreadableFile("is not a regular file (a device, a pipe or a socket), not a ruleset file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise UnreadableFile(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFile(f"file is larger than the limit of {MAX_FILE_BYTES:,} bytes")
    if b"\0" in data:
        raise UnreadableFile("not a text file (it contains NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UnreadableFile(f"not UTF-8 text (bad byte at offset {e.start})") from None
    return text.removeprefix(BOM)


def read_source(path: str, display: str | None = None) -> str:
    """Read a ruleset file, refusing what cannot be a ruleset with a clear diagnostic."""
    try:
        return read_text(path)
    except UnreadableFile as e:
        raise RulesetError([Diagnostic(None, str(e), file=display or path)]) from None


def split_declarations(text: str) -> list[tuple[int, str]]:
    """Cut the text into (first line number, declaration text) at lines starting in column 1.

    Lines are cut at `\n` only (a `\r` before it dropped), as the parser counts them.
    """
    chunks: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        stripped = line.strip()
        starts = bool(line) and not line[0].isspace() and not stripped.startswith("#")
        if starts or (stripped and not stripped.startswith("#") and not chunks):
            chunks.append((number, [line]))
        elif chunks:
            chunks[-1][1].append(line)
    return [(first, "\n".join(lines)) for first, lines in chunks]


def _position(chunk: str, pos: int, first_line: int) -> tuple[int, int]:
    """The file line and column of offset `pos` of a chunk that starts at `first_line`."""
    return first_line + chunk.count("\n", 0, pos), pos - chunk.rfind("\n", 0, pos)


def _control_character(chunk: str, path: str, first_line: int) -> Diagnostic | None:
    found = CONTROL.search(chunk)
    if found is None:
        return None
    line, col = _position(chunk, found.start(), first_line)
    return Diagnostic(m.Span(path, line, col, line, col + 1),
                      f"control character U+{ord(found.group()):04X} is not allowed; a ruleset is "
                      f"plain text (tabs and line ends aside)",
                      "delete it (most editors do not show it; it may have come with pasted text)")


_BRACKETS = re.compile(r'[(\[)\]]|"[^"\n]*"?|#[^\n]*')


def _too_many_brackets(chunk: str, path: str, first_line: int) -> Diagnostic | None:
    """Parentheses and brackets open more than MAX_BRACKETS deep (outside strings and
    comments): found before the parser runs, so that neither it nor the recursive walks
    over its trees see them."""
    if chunk.count("(") + chunk.count("[") <= MAX_BRACKETS:
        return None
    depth = 0
    for found in _BRACKETS.finditer(chunk):
        c = found.group()
        if c in "([":
            depth += 1
            if depth > MAX_BRACKETS:
                line, col = _position(chunk, found.start(), first_line)
                return Diagnostic(m.Span(path, line, col, line, col + 1),
                                  f"{'parentheses' if c == '(' else 'brackets'} nested more than "
                                  f"{MAX_BRACKETS} deep",
                                  "split the expression into regions or simpler rules")
        elif c in ")]":
            depth = max(0, depth - 1)
    return None


@dataclass
class ParsedSource(m.Source):
    """A file parsed as far as it goes: the declarations that parsed, and the others.

    `errors` are the syntax diagnostics; `broken` holds, for each declaration that did not
    parse, the key (model.py) it would have had as far as its text shows: ("ply", "hop"),
    ("board", ""), or ("", NAME) when not even its keyword is recognisable. The checker
    uses these keys not to report what follows from the missing declarations.
    """

    errors: list[Diagnostic] = field(default_factory=list)
    broken: list[tuple[str, str]] = field(default_factory=list)
    stopped: bool = False  # parsing stopped after MAX_DIAGNOSTICS errors: the rest is unread


def parse_source(text: str, path: str) -> m.Source:
    """Parse a whole file; raises RulesetError with every syntax error found."""
    source = parse_partial(text, path)
    if source.errors:
        raise RulesetError(source.errors, {path: source.text}, stopped=source.stopped)
    return source


def parse_partial(text: str, path: str) -> ParsedSource:
    """Parse every declaration of a file, keeping those that parse and noting the others.

    A byte-order mark at the start is dropped (the returned source's `text` is without it).
    After MAX_DIAGNOSTICS errors the rest of the file is left unread (`stopped`).
    """
    text = text.removeprefix(BOM)
    diagnostics: list[Diagnostic] = []
    decls: list[m.Decl] = []
    broken: list[tuple[str, str]] = []
    for first_line, chunk in split_declarations(text):
        if len(diagnostics) >= MAX_DIAGNOSTICS:
            return ParsedSource(path, text, decls, diagnostics, broken, stopped=True)
        count = len(diagnostics)
        refused = (_control_character(chunk, path, first_line)
                   or _too_many_brackets(chunk, path, first_line))
        tree = None
        if refused:
            diagnostics.append(refused)
        else:
            try:
                tree = grammar_parser().parse(chunk)
            except UnexpectedInput as e:
                diagnostics.append(_syntax_diagnostic(e, chunk, path, first_line))
        depth_error = tree is not None and _too_deep(tree, path, first_line)
        if depth_error:
            diagnostics.append(depth_error)
        elif tree is not None:
            try:
                decls.append(_ToModel(path, first_line - 1).transform(tree))
            except VisitError as wrapped:
                e = wrapped.orig_exc
                if not isinstance(e, _NumberTooLarge):
                    raise
                diagnostics.append(Diagnostic(e.span, f"number {e.text} is larger than the limit of "
                                              f"{MAX_NUMBER:,}"))
        if len(diagnostics) > count:
            broken.append(intended_key(chunk))
    return ParsedSource(path, text, decls, diagnostics, broken)


_TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|--|#[^\n]*|\S')


def intended_key(chunk: str) -> tuple[str, str]:
    """The key of the declaration a chunk of text would make, read from its first words.

    For a chunk that does not parse: `ply hop: move own piece hop` -> ("ply", "hop");
    `boadr square 3` -> ("board", "") (a misspelt keyword is taken for the nearest one).
    """
    words = [w for w in _TOKEN.findall(chunk) if not w.startswith("#")]
    if words[:1] == ["new"]:
        words = words[1:]
    if not words:
        return ("", "")
    keyword, rest = words[0], words[1:]
    if keyword not in declaration_keywords():
        close = difflib.get_close_matches(keyword, declaration_keywords(), n=1)
        if not close:
            return ("", rest[0] if rest and WORD.fullmatch(rest[0]) else "")
        keyword = close[0]
    name = rest[0] if rest and WORD.fullmatch(rest[0]) else ""
    if keyword == "first":
        return ("turn", "first")
    if keyword in NAMED_KINDS:
        return (keyword, name)
    if keyword == "setup":
        if name == "board":
            return ("setup", "board")
        piece = name
        owner = rest[2] if len(rest) > 2 and rest[1] == "of" and WORD.fullmatch(rest[2]) else None
        return ("setup", piece + (f"/{owner}" if owner else ""))
    if keyword == "link":
        if len(rest) >= 3 and rest[1] == "--":
            return ("link", "--".join(sorted((rest[0], rest[2]))))
        return ("link", "")
    if keyword == "remove":
        cells = []
        for i, w in enumerate(rest):
            if i % 2 == 0 and WORD.fullmatch(w):
                cells.append(w)
            elif i % 2 == 0 or w != ",":
                break
        return ("remove", ",".join(cells))
    return (keyword, "")


# ------------------------------------------------------------------ syntax errors

def _expected_words(expected: set[str]) -> list[str]:
    terminals = {t.name: t for t in grammar_parser().terminals}
    words = set()
    for name in expected:
        if name in TERMINAL_WORDS:
            words.add(TERMINAL_WORDS[name])
        elif name in terminals and terminals[name].pattern.type == "str":
            words.add(f"'{terminals[name].pattern.value}'")
        else:
            words.add(name.lower())
    ordered = sorted(words, key=lambda w: (not w.startswith("'"), w))
    return ordered


def _acceptable(e: UnexpectedInput) -> set[str]:
    """The terminals the parser would have accepted where it stopped.

    Asked of the parser itself: an LALR state's lookaheads (`e.expected`) also hold tokens
    that would fail a few reductions later.
    """
    parser = getattr(e, "interactive_parser", None)
    if parser is not None:
        accepted = set(parser.accepts())
        if getattr(getattr(e, "token", None), "type", None) == "$END":
            accepted.discard("$END")
        if accepted:
            return accepted
    return set(getattr(e, "expected", None) or [])


def _join(words: list[str]) -> str:
    if len(words) > 8:
        words = words[:7] + ["..."]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _syntax_diagnostic(e: UnexpectedInput, chunk: str, path: str, first_line: int) -> Diagnostic:
    line = (e.line if e.line and e.line > 0 else chunk.count("\n") + 1) + first_line - 1
    col = e.column if e.column and e.column > 0 else 1
    hint = None
    if isinstance(e, UnexpectedCharacters):
        char = chunk[e.pos_in_stream] if e.pos_in_stream < len(chunk) else "?"
        message = f"unexpected character {char!r}"
        width = 1
    elif isinstance(e, UnexpectedToken) and e.token.type != "$END":
        tok = e.token
        acceptable = _acceptable(e)
        expected = _expected_words(acceptable)
        at_start = e.state is not None and not e.token_history and tok.start_pos == 0
        if at_start or (tok.line == 1 and tok.column == 1):
            message = ("expected a declaration (game, board, players, piece, setup, ply, turn, end, ...), "
                       f"found '{clip(str(tok))}'")
            close = difflib.get_close_matches(str(tok), declaration_keywords(), n=1)
            if close:
                hint = f"did you mean '{close[0]}'?"
        else:
            message = f"expected {_join(expected)}, found '{clip(str(tok))}'"
            close = difflib.get_close_matches(str(tok), _keywords(acceptable), n=1)
            if close:
                hint = f"did you mean '{close[0]}'?"
        width = max(1, len(str(tok)))
    else:
        expected = _acceptable(e)
        message = "the declaration ends too early"
        if expected:
            message += f": expected {_join(_expected_words(expected))}"
        lines = chunk.rstrip().split("\n")
        last = lines[-1] if chunk.strip() else ""
        line = first_line + len(lines) - 1
        col = len(last) + 1
        width = 1
    span = m.Span(path, line, col, line, col + width)
    return Diagnostic(span, message, hint)


def _too_deep(tree: Tree, path: str, first_line: int) -> Diagnostic | None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line = getattr(meta, "line", 1) + first_line - 1
            col = getattr(meta, "column", 1)
            return Diagnostic(m.Span(path, line, col, line, col + 1),
                              f"expression nested more than {MAX_NESTING} deep",
                              "split it into regions or simpler rules")
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
    return None


# ------------------------------------------------------------------ tree -> model

class _NumberTooLarge(Exception):
    def __init__(self, span: m.Span, text: str):
        self.span, self.text = span, text


class _ToModel(Transformer):
    """Builds model nodes; `line_offset` maps chunk lines back to file lines."""

    def __init__(self, path: str, line_offset: int):
        super().__init__()
        self.path = path
        self.offset = line_offset

    # ---- positions
    def tok_span(self, tok: Token) -> m.Span:
        return m.Span(self.path, tok.line + self.offset, tok.column,
                      tok.end_line + self.offset, tok.end_column)

    def meta_span(self, meta) -> m.Span:
        if getattr(meta, "empty", True):
            return m.Span(self.path, self.offset + 1, 1, self.offset + 1, 2)
        return m.Span(self.path, meta.line + self.offset, meta.column,
                      meta.end_line + self.offset, meta.end_column)

    def span_of(self, item) -> m.Span:
        if isinstance(item, Token):
            return self.tok_span(item)
        return item.span

    def to_int(self, tok: Token) -> int:
        if len(tok) > 10 or int(tok) > MAX_NUMBER:
            raise _NumberTooLarge(self.tok_span(tok), str(tok) if len(tok) < 20 else str(tok)[:16] + "...")
        return int(tok)

    def named(self, tok: Token) -> tuple[str, m.Span]:
        return (str(tok), self.tok_span(tok))

    # ---- declarations
    def start(self, c):
        new, decl = c
        decl.is_new = new is not None
        return decl

    @v_args(meta=True)
    def game_decl(self, meta, c):
        return m.GameDecl(self.meta_span(meta), title=c[0][1:-1])

    @v_args(meta=True)
    def variant_decl(self, meta, c):
        decl = m.VariantDecl(self.meta_span(meta), base=c[0][1:-1])
        decl.base_span = self.tok_span(c[0])  # the quoted base, where errors about it point
        return decl

    @v_args(meta=True)
    def board_decl(self, meta, c):
        shape, width, height, options = c
        return m.BoardDecl(self.meta_span(meta), shape=str(shape), width=self.to_int(width),
                           height=self.to_int(height) if height is not None else None,
                           options=options or [])

    @v_args(meta=True)
    def remove_decl(self, meta, c):
        return m.RemoveDecl(self.meta_span(meta), cells=c[0])

    @v_args(meta=True)
    def goal_decl(self, meta, c):
        return m.GoalDecl(self.meta_span(meta), name=str(c[0]), name_span=self.tok_span(c[0]),
                          cells=c[1], dirs=c[2])

    @v_args(meta=True)
    def link_decl(self, meta, c):
        return m.LinkDecl(self.meta_span(meta), a=self.named(c[0]), b=self.named(c[1]))

    @v_args(meta=True)
    def players_decl(self, meta, c):
        return m.PlayersDecl(self.meta_span(meta), names=c[0])

    @v_args(meta=True)
    def region_decl(self, meta, c):
        return m.RegionDecl(self.meta_span(meta), name=str(c[0]), name_span=self.tok_span(c[0]),
                            items=c[1])

    @v_args(meta=True)
    def piece_decl(self, meta, c):
        decl = m.PieceDecl(self.meta_span(meta), name=str(c[0]), name_span=self.tok_span(c[0]))
        for prop, value in c[1:]:
            if prop == "owner":
                decl.owner = value
            elif prop == "neutral":
                decl.neutral = True
            elif prop == "size":
                decl.size = value
            elif prop == "reserve":
                decl.reserve = value
            elif prop == "on":
                decl.on = value
            elif prop == "symbol":
                decl.symbols = value
        return decl

    def owner(self, c):
        return ("owner", self.named(c[0]))

    def neutral(self, c):
        return ("neutral", True)

    def size(self, c):
        return ("size", self.to_int(c[0]))

    def reserve(self, c):
        return ("reserve", self.to_int(c[0]))

    def on(self, c):
        return ("on", self.named(c[0]))

    def symbol(self, c):
        symbols = []
        for tok in c:
            if tok is not None:
                text = str(tok)[1:-1] if tok.type == "STRING" else str(tok)
                symbols.append((text, self.tok_span(tok)))
        return ("symbol", symbols)

    @v_args(meta=True)
    def var_decl(self, meta, c):
        name, per_player, value, low, high = c
        bounds = {} if low is None else {"low": low, "high": high, "declared_range": True}
        return m.VarDecl(self.meta_span(meta), name=str(name), name_span=self.tok_span(name),
                         per_player=per_player is not None, initial=value, **bounds)

    def per_player(self, c):
        return True

    def signed_number(self, c):
        neg, num = c
        value = self.to_int(num)
        return -value if neg is not None else value

    @v_args(meta=True)
    def setup_decl(self, meta, c):
        piece, owner, cells = c
        return m.SetupDecl(self.meta_span(meta), piece=str(piece), piece_span=self.tok_span(piece),
                           owner=self.named(owner) if owner is not None else None,
                           items=None if cells == "rest" else cells)

    @v_args(meta=True)
    def setup_board(self, meta, c):
        return m.SetupBoardDecl(self.meta_span(meta),
                                rows=[(str(t)[1:-1], self.tok_span(t)) for t in c])

    @v_args(meta=True)
    def relation_decl(self, meta, c):
        return m.RelationDecl(self.meta_span(meta), name=str(c[0]), name_span=self.tok_span(c[0]),
                              pairs=list(c[1:]))

    def relation_pair(self, c):
        return (self.named(c[0]), self.named(c[1]))

    @v_args(meta=True)
    def compulsory_decl(self, meta, c):
        return m.CompulsoryDecl(self.meta_span(meta), maximum=c[0] is not None)

    @v_args(meta=True)
    def after_decl(self, meta, c):
        return m.AfterDecl(self.meta_span(meta), effects=list(c))

    def setup_rest(self, c):
        return "rest"

    @v_args(meta=True)
    def ply_decl(self, meta, c):
        name, (owner, kind, kind_span, motion), onto, where, then = c
        return m.PlyDecl(self.meta_span(meta), name=str(name), name_span=self.tok_span(name),
                         owner=owner, kind=kind, kind_span=kind_span, motion=motion,
                         onto=onto, where=where, effects=then or [])

    def move_action(self, c):
        return c[0] + (c[1],)

    @v_args(meta=True)
    def place_action(self, meta, c):
        # The selector is inlined in the grammar so that LALR does not merge its
        # lookaheads with `move`'s (which would muddle "expected ..." messages).
        return self.selector(c) + (m.Motion(self.meta_span(meta), "place"),)

    def selector(self, c):
        owner, kind = c
        return (owner, str(kind), self.tok_span(kind))

    def owner_q(self, c):
        return str(c[0])

    @v_args(meta=True)
    def step(self, meta, c):
        return m.Motion(self.meta_span(meta), "step", dirs=c[0])

    @v_args(meta=True)
    def slide(self, meta, c):
        dirs, least, limit, chained, segments = c
        return m.Motion(self.meta_span(meta), "slide", dirs=dirs, limit=limit,
                        least=self.to_int(least) if least is not None else None,
                        chained=chained is not None,
                        segments=self.to_int(segments) if segments is not None else None)

    @v_args(meta=True)
    def walk(self, meta, c):
        return m.Motion(self.meta_span(meta), "walk", dirs=c[0], limit=c[1])

    @v_args(meta=True)
    def push(self, meta, c):
        return m.Motion(self.meta_span(meta), "push", dirs=c[1], count=self.to_int(c[0]))

    @v_args(meta=True)
    def anywhere(self, meta, c):
        return m.Motion(self.meta_span(meta), "anywhere")

    @v_args(meta=True)
    def leap(self, meta, c):
        return m.Motion(self.meta_span(meta), "leap", dirs=c[0])

    def onto(self, c):
        return c[0]

    def where(self, c):
        return c[0]

    def then(self, c):
        return list(c)

    @v_args(meta=True)
    def assign(self, meta, c):
        name, index, op, value, guard = c
        return m.Effect(self.meta_span(meta), var=str(name), var_span=self.tok_span(name),
                        index=index, op=op, value=value, guard=guard)

    @v_args(meta=True)
    def remove(self, meta, c):
        span = self.meta_span(meta)
        return m.Effect(span, var="", var_span=span, index=None, op="", value=c[0], kind="remove")

    @v_args(meta=True)
    def reset(self, meta, c):
        span = self.meta_span(meta)
        return m.Effect(span, var="", var_span=span, index=None, op="", value=None, kind="reset")

    @v_args(meta=True)
    def turn_to(self, meta, c):
        span = self.meta_span(meta)
        return m.Effect(span, var="", var_span=span, index=None, op="", value=None, kind="turn",
                        player=self._player_ref(c[0]))

    def assign_op(self, c):
        return str(c[0])

    @v_args(meta=True)
    def turn_decl(self, meta, c):
        return m.TurnDecl(self.meta_span(meta), first=c[0] is not None, phases=list(c[1:]))

    @v_args(meta=True)
    def phase(self, meta, c):
        when_possible = c[-1] is not None
        items = [self.named(t) for t in c[:-1]]
        return m.Phase(self.meta_span(meta), items, when_possible)

    def when_possible(self, c):
        return True

    @v_args(meta=True)
    def end_decl(self, meta, c):
        name, (result, player), cond = c
        effects = player if result == "effects" else []
        return m.EndDecl(self.meta_span(meta), name=str(name), name_span=self.tok_span(name),
                         result=result, player=None if effects else player, cond=cond,
                         effects=effects)

    def _player_ref(self, tok: Token) -> m.Expr:
        if tok.type == "NAME":
            return m.Name(self.tok_span(tok), name=str(tok))
        return m.Keyword(self.tok_span(tok), word=str(tok))

    def wins(self, c):
        return ("wins", self._player_ref(c[0]))

    def loses(self, c):
        return ("loses", self._player_ref(c[0]))

    def draw(self, c):
        return ("draw", None)

    def end_effects(self, c):
        return ("effects", list(c))

    # A drop's target is the key (model.py) of the declaration it drops.
    @v_args(meta=True)
    def drop_named(self, meta, c):
        what, name = c
        return m.DropDecl(self.meta_span(meta), what=what, name=str(name),
                          name_span=self.tok_span(name), target=(what, str(name)))

    def droppable(self, c):
        return str(c[0])

    def undroppable(self, c):
        return str(c[0])

    @v_args(meta=True)
    def drop_link(self, meta, c):
        a, b = str(c[0]), str(c[1])
        span = self.tok_span(c[0])
        end = self.tok_span(c[1])
        return m.DropDecl(self.meta_span(meta), what="link", name=f"{a} -- {b}",
                          name_span=m.Span(span.file, span.line, span.col, end.end_line, end.end_col),
                          target=("link", "--".join(sorted((a, b)))))

    @v_args(meta=True)
    def drop_remove(self, meta, c):
        cells = c[0]
        first, last = cells[0][1], cells[-1][1]
        return m.DropDecl(self.meta_span(meta), what="remove",
                          name=", ".join(name for name, _ in cells),
                          name_span=m.Span(first.file, first.line, first.col, last.end_line, last.end_col),
                          target=("remove", ",".join(name for name, _ in cells)))

    @v_args(meta=True)
    def drop_setup(self, meta, c):
        piece, owner = c
        name = str(piece) + (f" of {owner}" if owner is not None else "")
        first, last = self.tok_span(piece), self.tok_span(owner if owner is not None else piece)
        return m.DropDecl(self.meta_span(meta), what="setup", name=name,
                          name_span=m.Span(first.file, first.line, first.col, last.end_line, last.end_col),
                          target=("setup", str(piece) + (f"/{owner}" if owner is not None else "")))

    def _drop_whole(self, meta, what: str, name: str = "") -> m.DropDecl:
        """`drop` of a declaration named by its keywords alone: the whole line is its name."""
        span = self.meta_span(meta)
        return m.DropDecl(span, what=what, name=name, name_span=span, target=(what, name))

    @v_args(meta=True)
    def drop_setup_board(self, meta, c):
        return self._drop_whole(meta, "setup", "board")

    @v_args(meta=True)
    def drop_compulsory(self, meta, c):
        return self._drop_whole(meta, "compulsory")

    @v_args(meta=True)
    def drop_after(self, meta, c):
        return self._drop_whole(meta, "after")

    @v_args(meta=True)
    def drop_first_turn(self, meta, c):
        return self._drop_whole(meta, "turn", "first")

    @v_args(meta=True)
    def drop_required(self, meta, c):
        return self._drop_whole(meta, c[0])

    def name_list(self, c):
        return [self.named(t) for t in c]

    def expr_list(self, c):
        return list(c)

    # ---- expressions
    @v_args(meta=True)
    def or_(self, meta, c):
        return m.BoolOp(self.meta_span(meta), op="or", left=c[0], right=c[1])

    @v_args(meta=True)
    def and_(self, meta, c):
        return m.BoolOp(self.meta_span(meta), op="and", left=c[0], right=c[1])

    @v_args(meta=True)
    def not_(self, meta, c):
        return m.Not(self.meta_span(meta), operand=c[0])

    @v_args(meta=True)
    def compare(self, meta, c):
        return m.Compare(self.meta_span(meta), op=str(c[1]), left=c[0], right=c[2])

    @v_args(meta=True)
    def within(self, meta, c):
        return m.Compare(self.meta_span(meta), op="in", left=c[0], right=c[1])

    @v_args(meta=True)
    def binop(self, meta, c):
        return m.BinOp(self.meta_span(meta), op=str(c[1]), left=c[0], right=c[2])

    @v_args(meta=True)
    def negate(self, meta, c):
        return m.Negate(self.meta_span(meta), operand=c[0])

    def number(self, c):
        return m.Num(self.tok_span(c[0]), value=self.to_int(c[0]))

    @v_args(meta=True)
    def name(self, meta, c):
        return m.Name(self.tok_span(c[0]), name=str(c[0]))

    @v_args(meta=True)
    def index(self, meta, c):
        return m.Index(self.meta_span(meta), name=str(c[0]), index=c[1])

    @v_args(meta=True)
    def call(self, meta, c):
        return m.Call(self.meta_span(meta), func=str(c[0]), args=c[1] or [])

    @v_args(meta=True)
    def owned(self, meta, c):
        if len(c) == 1:
            return m.Owned(self.meta_span(meta), owner=None, kind="piece")
        return m.Owned(self.meta_span(meta), owner=c[0], kind=str(c[1]))

    @v_args(meta=True)
    def keyword(self, meta, c):
        word = " ".join(str(c[0]).split())
        return m.Keyword(self.tok_span(c[0]), word=word)
