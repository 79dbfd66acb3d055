"""The native back-end's rules: legal plies, apply and the result computed in C.

The Python rules stay compiled beside the native library: notation, captures and the
exact error a rule raises (a variable out of range, a chain search past its budget)
come from them, so a native game reads and writes the same texts and fails the same way.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Iterator

from dsl.model import Ruleset

from interpreter.native.build import NativeUnavailable, compiler
from interpreter.python.compile import PythonRules
from interpreter.runtime.protocol import Action, State

if TYPE_CHECKING:
    from interpreter.native.library import NativeLibrary

BACKENDS = ("auto", "python", "native")
_noticed: list[bool] = [False]


class NativeRules:
    """The runtime protocol's `Rules`, through a game's native library; where the C stops
    on a rule's error, the Python rules run the ply again and raise it."""

    name = "native"

    def __init__(self, python: PythonRules, lib: NativeLibrary):
        self.python, self.lib = python, lib

    def legal(self, state: State) -> list[Action]:
        acts = self.lib.legal(state)
        return self.python.legal(state) if isinstance(acts, int) else acts

    def iter_legal(self, state: State) -> Iterator[Action]:
        yield from self.legal(state)

    def apply(self, state: State, action: Action) -> State:
        out = self.lib.apply(state, action)
        return self.python.apply(state, action) if isinstance(out, int) else out

    def result(self, state: State) -> int:
        return self.lib.outcome(state)

    def captures(self, state: State, action: Action) -> int:
        return self.python.captures(state, action)


def native_library(ruleset: Ruleset, python: PythonRules, backend: str) -> NativeLibrary | None:
    """The game's native library for `backend` ("auto", "python", "native"): None for
    "python", and for "auto" when it cannot be built (with a one-line notice on stderr,
    once). ValueError for an unknown back-end, NativeUnavailable if "native" cannot be
    built."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown back-end '{backend}' (known: {', '.join(BACKENDS)})")
    if backend == "python":
        return None
    try:
        if compiler() is None:
            raise NativeUnavailable("no C compiler found (set CC, or install one, e.g. "
                                    "`apt-get install gcc`)")
        from interpreter.native.library import NativeLibrary  # noqa: PLC0415 - ctypes and the
        # C generator load only when a native game is made (a cost, not a cycle)
        return NativeLibrary(ruleset, python.rule_infos)
    except NativeUnavailable as e:
        if backend == "native":
            raise
        if not _noticed[0]:
            print(f"rulecraft: using the Python back-end: {str(e).splitlines()[0]}", file=sys.stderr)
            _noticed[0] = True
        return None
