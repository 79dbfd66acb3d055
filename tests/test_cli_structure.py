"""How the command line's modules depend on each other: the main CLI (interpreter/apps/cli.py)
imports the modules that add commands, at the top, and no module imports it back (only
the entry point, inside its Ctrl-C guard)."""

from __future__ import annotations

import ast
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The installed package of each folder of the checkout (pyproject.toml's package-dir).
PACKAGES = {"rulecraft": "rulecraft", "grammar": "grammar", "dsl": "dsl",
            "interpreter": "interpreter", "rulesets": "rulesets"}
MAIN_CLI = "interpreter.apps.cli"
SUB_CLIS = ["interpreter.apps.play_cli", "interpreter.apps.replay_cli",
            "interpreter.apps.render_cli", "interpreter.apps.scenarios_cli",
            "interpreter.apps.solve_cli", "interpreter.apps.balance_cli",
            "interpreter.apps.lsp_cli", "interpreter.apps.web_cli"]


def modules() -> dict[str, str]:
    """{module name: path} of every Python module of the package."""
    out = {}
    for folder, package in PACKAGES.items():
        for root, _, names in os.walk(os.path.join(REPO, folder)):
            for name in names:
                if name.endswith(".py"):
                    path = os.path.join(root, name)
                    rel = os.path.relpath(path, os.path.join(REPO, folder))[:-3].split(os.sep)
                    parts = [package, *rel[:-1]] + ([] if rel[-1] == "__init__" else [rel[-1]])
                    out[".".join(parts)] = path
    return out


def imports(name: str, path: str) -> list[tuple[str, bool]]:
    """(module imported, whether at the module's top level) for each import of a module,
    `from P import x` counted as importing both P and P.x (x may be a module)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    top = {id(node) for node in tree.body}
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out.append((module, id(node) in top))
            out += [(f"{module}.{a.name}", id(node) in top) for a in node.names]
    return out


MODULES = modules()


def test_the_modules_are_found():
    assert {MAIN_CLI, "interpreter.apps.entry", "rulecraft.__main__", *SUB_CLIS} <= set(MODULES)


@pytest.mark.parametrize("name", sorted(set(MODULES) - {MAIN_CLI, "interpreter.apps.entry"}))
def test_no_module_imports_the_main_cli(name):
    found = [m for m, _ in imports(name, MODULES[name]) if m == MAIN_CLI]
    assert not found, f"{name} imports {MAIN_CLI}: the main CLI imports the sub-CLIs, not the reverse"


def test_only_the_entry_point_imports_the_main_cli_inside_a_function():
    # Inside `main`, so that Ctrl-C while the command line loads is caught.
    assert [top for m, top in imports("interpreter.apps.entry", MODULES["interpreter.apps.entry"])
            if m == MAIN_CLI] == [False]


def test_the_main_cli_imports_each_sub_cli_at_the_top():
    found = {m for m, top in imports(MAIN_CLI, MODULES[MAIN_CLI]) if top}
    assert set(SUB_CLIS) <= found
    assert "importlib" not in found  # no registration by import strings


# Imported by a command when it runs, not at every start (yaml and the scenario runner;
# the language server, which needs the optional pygls).
LAZY = {"interpreter.apps.scenarios", "interpreter.apps.scenarios.run_files",
        "interpreter.apps.lsp.server", "interpreter.apps.lsp.server.serve",
        "interpreter.apps.web.app", "interpreter.apps.web.app.serve"}


def test_the_sub_clis_import_no_other_cli_and_only_their_runners_inside_functions():
    for name in SUB_CLIS:
        found = imports(name, MODULES[name])
        assert not [m for m, _ in found if m in SUB_CLIS], f"{name} imports another sub-CLI"
        inside = {m for m, top in found if not top}
        assert inside <= LAZY, f"{name} imports inside a function: {inside - LAZY}"


def test_the_resolution_of_relative_imports():
    assert ("interpreter.apps.commands.UsageError", True) in imports(
        "interpreter.apps.solve_cli", MODULES["interpreter.apps.solve_cli"])
