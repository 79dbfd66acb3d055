"""Sorted keys of more than 64 bits held as two arrays of 64-bit words.

A native solve copied into a `Solution` had its wide keys (3-A-Side's, Tricouleur's)
made into one Python int each: for 20 million positions, half the command's time and
over a gigabyte. `WideKeys` keeps the words as the solver gives them and makes an int
only for the key asked for (a binary search asks for a few dozen).
"""

from __future__ import annotations

from array import array
from typing import Iterator, overload

from interpreter.search.words import from_little, little_endian

WORD = 64


class WideKeys:
    """A sorted sequence of keys, key i being `hi[i] << 64 | lo[i]`: indexing, slicing,
    iteration and length, as a list of ints would give them."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: array, hi: array):
        if len(lo) != len(hi):
            raise ValueError(f"{len(lo)} low words for {len(hi)} high words")
        self.lo, self.hi = lo, hi

    @classmethod
    def from_words(cls, lo: memoryview, hi: memoryview, n: int) -> WideKeys:
        """The first n keys of two buffers of native 64-bit words (a solver's output)."""
        lo_a, hi_a = array("Q"), array("Q")
        lo_a.frombytes(lo.cast("B")[:8 * n])
        hi_a.frombytes(hi.cast("B")[:8 * n])
        return cls(lo_a, hi_a)

    @classmethod
    def from_bytes(cls, raw: bytes, width: int) -> WideKeys:
        """The keys of `raw`, `width` bytes each (9 to 16), little-endian: to_bytes's inverse."""
        if not 8 < width <= 16:
            raise ValueError(f"keys of {width} bytes are not two words each")
        n = len(raw) // width
        lo, hi = bytearray(8 * n), bytearray(8 * n)
        for j in range(8):
            lo[j::8] = raw[j::width]
        for j in range(width - 8):
            hi[j::8] = raw[8 + j::width]
        return cls(from_little(lo, array("Q")), from_little(hi, array("Q")))

    def __len__(self) -> int:
        return len(self.lo)

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self.hi[j] << WORD | self.lo[j] for j in range(*i.indices(len(self)))]
        return self.hi[i] << WORD | self.lo[i]

    def __iter__(self) -> Iterator[int]:
        return (h << WORD | w for h, w in zip(self.hi, self.lo))

    def to_bytes(self, width: int) -> bytes:
        """Every key as `width` bytes (9 to 16), little-endian, one after another: the
        words interleaved by strided copies, never an int a key."""
        n = len(self)
        lo, hi = little_endian(self.lo), little_endian(self.hi)
        out = bytearray(width * n)
        for j in range(8):
            out[j::width] = lo[j::8]
        for j in range(width - 8):
            out[8 + j::width] = hi[j::8]
        return bytes(out)

