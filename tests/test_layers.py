"""The stages import one way: every module of the project is in a layer, imports only
from its own layer and those below, and no module imports another that imports it back
(at the top or inside a function: a cycle broken by a late import is still a cycle).
Imports under `if TYPE_CHECKING:` are for annotations and do not count."""

from __future__ import annotations

import ast
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ("grammar", "dsl", "interpreter", "rulesets", "rulecraft")

# Lowest first. A module belongs to the first layer with a prefix of its name.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("the language", ("grammar", "dsl", "rulesets")),
    ("the runtime protocol", ("interpreter.runtime.protocol", "interpreter.runtime.actions",
                              "interpreter.runtime.layout", "interpreter.runtime.limits",
                              "interpreter.runtime.tables")),
    ("plans for both back-ends", ("interpreter.codegen",)),
    ("the Python back-end", ("interpreter.python",)),
    ("the native back-end", ("interpreter.native",)),
    ("text forms", ("interpreter.runtime.render", "interpreter.runtime.notation",
                    "interpreter.runtime.position_fields")),
    ("the game", ("interpreter.runtime.game",)),
    ("views of a game", ("interpreter.runtime.action_ids", "interpreter.runtime.observation",
                         "interpreter.runtime")),
    ("search", ("interpreter.search",)),
    ("the embedding API", ("interpreter.adapters", "interpreter")),
    ("the applications", ("interpreter.apps", "rulecraft")),
]


def modules() -> dict[str, str]:
    """Every module of the stages' folders: dotted name -> path."""
    found = {}
    for stage in STAGES:
        for folder, _, files in os.walk(os.path.join(REPO, stage)):
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(folder, f)
                    parts = os.path.relpath(path, REPO)[:-3].split(os.sep)
                    if parts[-1] == "__init__":
                        parts = parts[:-1]
                    found[".".join(parts)] = path
    return found


MODULES = modules()


def layer(name: str) -> int:
    best = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (name == p or name.startswith(p + ".")) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return best[0]


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(name: str) -> set[str]:
    """The project's modules `name` imports (the most specific module each import names)."""
    tree = ast.parse(open(MODULES[name], encoding="utf-8").read())
    skip = {id(n) for t in ast.walk(tree) if _type_checking_only(t) for b in t.body for n in ast.walk(b)}
    package = name if MODULES[name].endswith("__init__.py") else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        out |= {t for t in targets if t in MODULES and t != name}
    return out


GRAPH = {name: imports(name) for name in MODULES}


def test_every_module_is_in_a_layer():
    assert {name: layer(name) for name in MODULES}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name):
    up = sorted(t for t in GRAPH[name] if layer(t) > layer(name))
    assert not up, (f"{name} ({LAYERS[layer(name)][0]}) imports "
                    + ", ".join(f"{t} ({LAYERS[layer(t)][0]})" for t in up))


def test_no_import_cycles():
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for t in sorted(GRAPH[n]):
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[n] = 2

    for n in sorted(GRAPH):
        if n not in state:
            visit(n)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_check_sees_an_upward_import():
    # the test's own reading of imports: the game imports notation, notation does not import the game
    assert "interpreter.runtime.notation" in GRAPH["interpreter.runtime.game"]
    assert layer("interpreter.runtime.game") > layer("interpreter.runtime.notation")
    assert "interpreter.runtime.game" not in GRAPH["interpreter.runtime.notation"]
