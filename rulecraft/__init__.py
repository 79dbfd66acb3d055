"""rulecraft: a declarative language for abstract board games, and the interpreter that
plays, searches and checks them.

The stages are subpackages: `rulecraft.grammar`, `rulecraft.dsl` (parse and check a
ruleset), `rulecraft.interpreter` (compile, play, search) and `rulecraft.rulesets` (the
bundled games). `python -m rulecraft` is the `rulecraft` command. `__version__` is the
installed distribution's (pyproject.toml's `version`, the one place it is written).
"""

from __future__ import annotations

import os
import sys

# Python started in a checkout finds this folder first (sys.path[0] is the current
# directory), and the subpackages are not in it: the checkout keeps them in folders of
# their own. So the installed `rulecraft` folders are searched too (what
# pkgutil.extend_path does, without importing pkgutil: 10 ms of every command's start).
__path__ = list(__path__) + [
    d for d in (os.path.join(p, __name__) for p in sys.path if isinstance(p, str))
    if os.path.isdir(d) and d not in __path__]


def __getattr__(name: str) -> str:
    # Looked up on first use: importlib.metadata is slow to import, and most runs never ask.
    if name == "__version__":
        from importlib.metadata import version

        return version("rulecraft")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
