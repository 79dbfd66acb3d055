"""How the parser, the checker and the loader are cut into modules: each module and function
of a bounded size, imports in one direction, and the names other code imports from
dsl.parse, dsl.check and dsl.load still there."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

DSL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "dsl")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60

# Each module with the modules of dsl/ it may import: layers, each importing only those below.
LAYERS = {
    "file_text": set(),
    "lark_parser": {"constructs"},
    "syntax_errors": {"syntax", "diagnostics", "lark_parser"},
    "to_syntax": {"syntax", "constructs"},
    "parse": {"syntax", "diagnostics", "file_text", "lark_parser", "syntax_errors", "to_syntax"},
    "check_state": {"board", "syntax", "diagnostics", "model"},
    "check_board": {"board", "syntax", "check_state"},
    "check_exprs": {"board", "syntax", "constructs", "check_board", "lark_parser"},
    "check_pieces": {"syntax", "model", "placements", "check_exprs", "pictures"},
    "check_rules": {"constructs", "syntax", "model", "check_exprs"},
    "check_ranges": {"model", "diagnostics"},
    "domains": {"model", "constructs"},
    "lint": {"model", "diagnostics", "domains"},
    "check": {"board", "model", "syntax", "diagnostics", "lower", "memory", "check_exprs", "check_pieces",
              "check_ranges", "check_rules", "check_state", "lint"},
    "load": {"syntax", "check", "diagnostics", "parse"},
}


def source(name: str) -> str:
    with open(os.path.join(DSL, name + ".py"), encoding="utf-8") as f:
        return f.read()


def dsl_imports(name: str) -> set[str]:
    """The modules of dsl/ that a module imports (`from dsl import x`, `from dsl.x import y`)."""
    found = set()
    for node in ast.walk(ast.parse(source(name))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[0] == "dsl":
                found |= {parts[1]} if len(parts) > 1 else {a.name for a in node.names}
    return found


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_modules_and_functions_are_short(name):
    text = source(name)
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    long = [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"dsl/{name}.py: functions over {MAX_FUNCTION_LINES} lines: {long}"


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_imports_point_one_way(name):
    assert dsl_imports(name) <= LAYERS[name], f"dsl/{name}.py imports {dsl_imports(name) - LAYERS[name]}"


def test_importing_the_checker_does_not_load_the_parser():
    # interpreter/apps/commands.py imports dsl.check for `Ruleset`: Lark stays unloaded.
    code = "import sys, dsl.check\nprint('lark' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize("module, names", [
    ("parse", ["BOM", "CONTROL", "MAX_BRACKETS", "MAX_FILE_BYTES", "MAX_NESTING", "MAX_NUMBER",
               "NAMED_KINDS", "TERMINAL_WORDS", "WORD", "ParsedSource", "UnreadableFile",
               "declaration_keywords", "expression_keywords", "grammar_parser", "intended_key",
               "parse_partial", "parse_source", "read_text", "split_declarations", "_parser_cache"]),
    ("check", ["BAD_SYMBOLS", "FUNCTIONS", "MAX_PIECE_SIZE", "RESERVED_NAMES", "TEXT_FIELDS",
               "TYPE_WORDS", "Ruleset", "cells_of_mask", "check"]),
    ("load", ["NotARuleset", "bundled_dir", "bundled_names", "describe_key", "find_ruleset", "load",
              "resolve"]),
])
def test_names_are_importable_where_they_were(module, names):
    import importlib

    loaded = importlib.import_module(f"dsl.{module}")
    assert [n for n in names if not hasattr(loaded, n)] == []


REPO = os.path.dirname(DSL)


def stage_modules() -> list[str]:
    out = []
    for stage in ("dsl", "interpreter", "rulecraft"):
        for folder, _, files in os.walk(os.path.join(REPO, stage)):
            out += [os.path.relpath(os.path.join(folder, f), REPO) for f in files if f.endswith(".py")]
    return sorted(out)


@pytest.mark.parametrize("path", stage_modules())
def test_every_module_of_the_stages_is_short(path):
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        text = f.read()
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    long = [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{path}: functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_model_and_the_constructs_never_load_the_back_end():
    # dsl/constructs name the back-end's types for type checkers only (TYPE_CHECKING).
    code = ("import sys, dsl.load, dsl.constructs, dsl.dump; "
            "from dsl.load import load; load('three-musketeers'); "
            "print([m for m in sys.modules if m.startswith('interpreter')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
