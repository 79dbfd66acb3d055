"""Arrays of fixed-width integers as a solution file stores them: little-endian, whatever
the machine's byte order."""

from __future__ import annotations

import sys
from array import array


def little_endian(arr: array) -> bytes:
    """The bytes of `arr`, little-endian."""
    if sys.byteorder == "big":
        arr = array(arr.typecode, arr)
        arr.byteswap()
    return arr.tobytes()


def from_little(data: bytes, out: array) -> array:
    """`out` extended with the little-endian numbers of `data` (its typecode's width)."""
    more = array(out.typecode)
    more.frombytes(data)
    if sys.byteorder == "big":
        more.byteswap()
    out.extend(more)
    return out
