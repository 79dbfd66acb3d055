"""The native solver's configuration as ctypes mirrors it: rulecraft.h's struct
rc_solve_config (and the structs in it), whose layout `native_solve._configure` checks
against the C compiler's (rc_solve_config_layout)."""

from __future__ import annotations

import ctypes
import functools


class SolveType(ctypes.Structure):
    """rulecraft.h's struct rc_solve_type: a piece type, as the index places its pieces."""
    _fields_ = [("size", ctypes.c_int32),     # cells a piece covers (more than 1: a wide type)
                ("level", ctypes.c_int32),    # 0: on the board; else on its carrier
                ("carrier", ctypes.c_int32),  # the type it stands on; -1: none
                ("nplace", ctypes.c_int32)]   # a wide type's placements in `place`; else 0


class SolveSlot(ctypes.Structure):
    """rulecraft.h's struct rc_solve_slot: an int slot's field of a packed key."""
    _fields_ = [("shift", ctypes.c_int64),    # its lowest bit in the key
                ("low", ctypes.c_int64),      # the values it may hold
                ("high", ctypes.c_int64)]


@functools.cache
def solve_config(n_types: int, n_ints: int) -> type[ctypes.Structure]:
    """rulecraft.h's struct rc_solve_config for a game of `n_types` piece types (RC_NT) and
    `n_ints` int slots (RC_NI): the solver's configuration, passed by pointer. Its field
    comments are in rulecraft.h; `_configure` checks it against the C compiler's layout."""
    class SolveConfig(ctypes.Structure):
        _fields_ = [("threads", ctypes.c_int32),
                    ("arcs_only", ctypes.c_int32),
                    ("max_memory", ctypes.c_uint64),
                    ("max_positions", ctypes.c_uint64),
                    ("tally_room", ctypes.c_int64),
                    ("tally_most", ctypes.c_int64),
                    ("sparse_above", ctypes.c_int64),
                    ("sparse_stays", ctypes.c_int32),
                    ("out_of_core", ctypes.c_int32),
                    ("depth_first", ctypes.c_int32),
                    ("nperm", ctypes.c_int32),
                    ("swap", ctypes.c_int32),
                    ("swap_type", ctypes.c_int32 * n_types),
                    ("swap_slot", ctypes.c_int32 * n_ints),
                    ("order", ctypes.c_int32 * n_types),
                    ("tier_weight", ctypes.c_int32 * n_types),
                    ("types", SolveType * n_types),
                    ("slots", SolveSlot * n_ints),
                    ("arrangements", ctypes.c_int32)]
    return SolveConfig


def config_layout(config: type[ctypes.Structure], n_types: int, n_ints: int) -> list[int]:
    """The numbers rc_solve_config_layout writes, as ctypes lays `config` out: RC_NT, RC_NI,
    then each struct's size and its fields' offsets (rc_solve_config, rc_solve_type,
    rc_solve_slot)."""
    out = [n_types, n_ints]
    for struct in (config, SolveType, SolveSlot):
        out += [ctypes.sizeof(struct)] + [getattr(struct, name).offset for name, _ in struct._fields_]
    return out
