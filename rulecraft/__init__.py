"""rulecraft: a declarative language for abstract board games, and the interpreter that
plays, searches and checks them.

The stages are subpackages: `rulecraft.grammar`, `rulecraft.dsl` (parse and check a
ruleset), `rulecraft.interpreter` (compile, play, search) and `rulecraft.rulesets` (the
bundled games). `python -m rulecraft` is the `rulecraft` command. `__version__` is the
installed distribution's (pyproject.toml's `version`, the one place it is written).
"""

from __future__ import annotations

import pkgutil

# Python started in a checkout finds this folder first (sys.path[0] is the current
# directory), and the subpackages are not in it: the checkout keeps them in folders of
# their own. So the installed `rulecraft` folders are searched too.
__path__ = pkgutil.extend_path(__path__, __name__)


def __getattr__(name: str) -> str:
    # Looked up on first use: importlib.metadata is slow to import, and most runs never ask.
    if name == "__version__":
        from importlib.metadata import version

        return version("rulecraft")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
