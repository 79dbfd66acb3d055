"""Where the generators' random choices come from: a seeded `random.Random` (the fuzzing
command) or hypothesis's `data` (the tests, so that a failing example shrinks).

Every choice is phrased so that its simplest value comes first: a shrinking hypothesis
run moves toward index 0, `False` and the low end of a range, which gives short
reproducers (fewer declarations, fewer mutations, smaller numbers).
"""

from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")


class Chooser:
    """The generators' whole interface to randomness."""

    def randint(self, lo: int, hi: int) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randint(0, len(seq) - 1)]

    def chance(self, p: float) -> bool:
        """True with probability p (shrinks to False)."""
        return self.randint(0, 999) >= 1000 - int(p * 1000)

    def weighted(self, options: Sequence[tuple[float, T]]) -> T:
        """One of the values, by weight (the first option is the simplest)."""
        total = sum(w for w, _ in options)
        x = self.randint(0, 9999) * total / 10000
        for w, v in options:
            if x < w:
                return v
            x -= w
        return options[-1][1]

    def subset(self, seq: Sequence[T], p: float = 0.3, at_least: int = 0) -> list[T]:
        out = [x for x in seq if self.chance(p)]
        while len(out) < min(at_least, len(seq)):
            x = self.choice(seq)
            if x not in out:
                out.append(x)
        return out

    def shuffled(self, seq: Sequence[T]) -> list[T]:
        items = list(seq)
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]
        return items


class RandomChooser(Chooser):
    def __init__(self, seed: object):
        self.rng = random.Random(str(seed))

    def randint(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DataChooser(Chooser):
    """Choices drawn from hypothesis's `st.data()`, so hypothesis can shrink them."""

    def __init__(self, data):
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def randint(self, lo: int, hi: int) -> int:
        return self.data.draw(self.st.integers(lo, hi))
