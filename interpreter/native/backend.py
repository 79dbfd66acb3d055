"""Choosing the back-end: a Game's protocol routed through its native library.

The Python back-end stays compiled beside the native one: notation, captures and the
exact error a rule raises (a variable out of range, a chain search past its budget)
come from it, so a native game reads and writes the same texts and fails the same way.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from interpreter.native.build import NativeUnavailable, compiler

if TYPE_CHECKING:
    from interpreter.runtime.game import Action, Game, State

BACKENDS = ("auto", "python", "native")
_noticed: list[bool] = [False]


def attach(game: Game, backend: str) -> None:
    """Give `game` its native library: "native" routes its legal plies, apply and outcome
    through C as well as perft and playouts; "auto" (when a compiler is there) only the
    latter. ValueError for an unknown back-end, NativeUnavailable if "native" cannot be
    built."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown back-end '{backend}' (known: {', '.join(BACKENDS)})")
    if backend == "python":
        return
    try:
        if compiler() is None:
            raise NativeUnavailable("no C compiler found (set CC, or install one, e.g. "
                                    "`apt-get install gcc`)")
        from interpreter.native.library import NativeLibrary  # noqa: PLC0415 - ctypes only when used
        lib = NativeLibrary(game.ruleset, game._c.rules)
    except NativeUnavailable as e:
        if backend == "native":
            raise
        if not _noticed[0]:
            print(f"rulecraft: using the Python back-end: {str(e).splitlines()[0]}", file=sys.stderr)
            _noticed[0] = True
        return
    game.native = lib
    if backend == "auto":
        # Bulk work (perft, playouts) runs in C; a ply at a time stays in Python, which is
        # faster than crossing into C and converting the state for every call.
        return
    python_legal, python_apply, python_outcome = game.legal_actions, game.apply_unchecked, game.outcome

    def legal_actions(state: State) -> list[Action]:
        acts = lib.legal(state)
        return python_legal(state) if isinstance(acts, int) else acts  # Python raises the error

    def apply(state: State, action: Action) -> State:
        out = lib.apply(state, action)
        return python_apply(state, action) if isinstance(out, int) else out

    def iter_actions(state: State):
        yield from legal_actions(state)

    def outcome(state: State) -> int:
        return lib.outcome(state)

    game.legal_actions, game.apply_unchecked, game.iter_actions, game.outcome = \
        legal_actions, apply, iter_actions, outcome  # type: ignore[method-assign]
    del python_outcome
