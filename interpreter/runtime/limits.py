"""The bounds a compiled game keeps to, and the error raised when a position goes past one.

A ruleset that checks can still describe positions too large to handle (a chain with
more routes than memory holds) or values that grow without end. Such a rule fails while
play goes on, with a message that names it, instead of exhausting the machine.
"""

from __future__ import annotations

from collections.abc import Callable

from dsl.syntax import Span

MAX_CHAIN_STATES = 100_000  # states (cell, pieces removed, direction) searched for one piece's chains


class RuleLimitError(RuntimeError):
    """A rule went past one of the bounds above in some position: `file:line:col: error: ...`."""


def _where(span: Span | None) -> str:
    return f"{span.file}:{span.line}:{span.col}" if span is not None else "<ruleset>"


def _clip(value: int) -> str:
    text = str(value) if value.bit_length() < 200 else f"a number of {len(str(value))} digits"
    return text if len(text) <= 40 else text[:20] + "..."


def range_guard(span: Span | None, name: str, low: int, high: int) -> Callable[[int], None]:
    """What generated code calls when variable `name` is set outside `low..high`."""
    def out_of_range(value: int) -> None:
        raise RuleLimitError(f"{_where(span)}: error: variable '{name}' would be {_clip(value)}, "
                             f"outside its range {low}..{high}\n  hint: declare the range it "
                             f"needs (`var {name} = ... in LOW..HIGH`), or bound it in the rules")
    return out_of_range


def count_guard(span: Span | None, kind: str, high: int) -> Callable[[int], None]:
    """What generated code calls when a cell's count of the counted kind `kind` leaves 0..high."""
    def out_of_range(value: int) -> None:
        raise RuleLimitError(f"{_where(span)}: error: a cell would hold {_clip(value)} pieces of '{kind}', "
                             f"outside 0..{high}\n  hint: a count never goes below 0, nor past the "
                             f"{high} pieces the setup puts down")
    return out_of_range


def chain_guard(span: Span | None, rule: str, names: list[str], limit: int) -> Callable[[int], None]:
    """What generated code calls when one piece's chains need more than `limit` states."""
    def too_many(cell: int) -> None:
        raise RuleLimitError(f"{_where(span)}: error: ply '{rule}': the chains from {names[cell]} "
                             f"take more than {limit:,} states to list\n  hint: bound "
                             f"them with `chained up to N segments`, or make each segment remove "
                             f"fewer pieces")
    return too_many
