"""A solution read from a file of format 6 (block_file.py): C knows where a position is
(its block and index: solution_index.c's rc_solve_locate), and the chunks of the block's
bitset and values that answer are read from the file when first asked for."""

from __future__ import annotations

import ctypes
import shutil
import sys
import weakref
from bisect import bisect_right
from itertools import accumulate
from typing import BinaryIO

from interpreter.runtime.game import Game, State
from interpreter.search.block_file import CHUNK, BlockFile, chunks_of
from interpreter.search.codec import Codec
from interpreter.search.index_ranking import Ranking
from interpreter.search.native_solve import (NativeSolution, block_shapes, header_ranking, index_library,
                                             opened, solver_arguments)
from interpreter.search.solution_file import (BLOCKS_FORMAT, VALUE_NAMES, Bad, SolutionFileError,
                                              register_index_reader, write_index)
from interpreter.search.player_swap import PlayerSwap, swap_of
from interpreter.search.symmetry import Perm
from interpreter.native.library import NativeLibrary

BITS = CHUNK * 8  # indices a chunk of a bitset holds


class BlockSolution(NativeSolution):
    """A NativeSolution whose bitsets and values stay in the file until a lookup needs
    them (`chunks_read` says how many it read)."""

    def __init__(self, game: Game, lib: NativeLibrary, handle: int, n: int, start: State, stats: None,
                 perms: list[Perm], ranking: Ranking, fp: str, blocks: BlockFile,
                 swap: PlayerSwap | None = None):
        super().__init__(game, lib, handle, n, start, stats, perms, ranking, fp, swap)
        self._c, self._blocks = lib.solver, blocks
        blocks.set_shapes(block_shapes(self._c, handle), self._tally)
        self._starts = [0, *accumulate(s.count for s in blocks.shapes)]
        weakref.finalize(self, blocks.close)

    @property
    def chunks_read(self) -> int:
        return self._blocks.chunks_read

    def _tally(self, values: bytes) -> list[int]:
        out = (ctypes.c_uint64 * 4)()
        self._c.rc_solve_tally(values, len(values) // 2, out)
        return list(out)

    def _code(self, state: State) -> tuple[int, int]:
        where = (ctypes.c_uint64 * 2)()
        if not self._c.rc_solve_locate(self._handle, self._lib.flat(state), where):
            return 0, 0
        k, i = where
        reach, before = self._blocks.reach(k, i // BITS)
        bit = i % BITS
        bits = int.from_bytes(reach[:bit // 8 + 1], "little")  # its bit and those before it
        if not bits >> bit & 1:
            return 0, 0
        shape = self._blocks.shapes[k]
        if shape.ended:
            return shape.ended, 0
        at = 2 * (before + (bits & ((1 << bit) - 1)).bit_count())
        values = self._blocks.values(k, at // CHUNK)
        x = int.from_bytes(values[at % CHUNK:at % CHUNK + 2], sys.byteorder)
        return x & 3, x >> 2

    def position(self, i: int) -> State:
        if not 0 <= i < self._n:
            raise IndexError(f"position {i} of a solution of {self._n:,}")
        k = bisect_right(self._starts, i) - 1
        d = i - self._starts[k]
        shape = self._blocks.shapes[k]
        first = self._blocks.first_reach[k]
        counts = self._blocks.before[first:first + chunks_of(shape.words * 8)]
        c = bisect_right(counts, d) - 1
        reach, before = self._blocks.reach(k, c)
        left, w = d - before, 0
        while True:  # the word holding it, then the bit
            word = int.from_bytes(reach[8 * w:8 * w + 8], "little")
            if left < word.bit_count():
                break
            left, w = left - word.bit_count(), w + 1
        for _ in range(left):
            word &= word - 1
        index = c * BITS + 64 * w + (word & -word).bit_length() - 1
        buf = (ctypes.c_uint64 * self._lib.state_len)()
        self._c.rc_solve_unrank(self._handle, k, index, buf)
        return self._lib.unflat(buf)

    def counts(self) -> dict[str, int]:
        """Wins, losses and draws for the player to move: every chunk of values read."""
        out = {code: 0 for code in VALUE_NAMES}
        for k, shape in enumerate(self._blocks.shapes):
            if shape.ended:
                out[shape.ended] += shape.count
                continue
            for c in range(chunks_of(shape.values)):
                real = max(0, min(CHUNK, 2 * shape.count - c * CHUNK))
                tally = self._tally(self._blocks.values(k, c)[:real])
                for code in VALUE_NAMES:
                    out[code] += tally[code - 1]
        return {VALUE_NAMES[code]: out[code] for code in VALUE_NAMES}

    def save(self, path: str, compress: bool | None = None) -> None:
        """Format 6 (unless `compress` is False): the file it was read from, copied; format 5:
        every chunk read again into the index."""
        if compress is not False:
            shutil.copyfile(self._blocks.path, path)
            return
        entry = (len(self._blocks.directory) - 8) // max(1, len(self._blocks.shapes))

        def body(p: str) -> None:
            with open(p, "ab") as f:
                f.write(self._blocks.directory[:8])
                for k, shape in enumerate(self._blocks.shapes):
                    f.write(self._blocks.directory[8 + k * entry:8 + (k + 1) * entry])
                    for c in range(chunks_of(shape.words * 8)):
                        f.write(self._blocks.reach(k, c)[0])
                    for c in range(chunks_of(shape.values)):
                        f.write(self._blocks.values(k, c))

        write_index(path, self.header(), body)


def open_blocks(f: BinaryIO, size: int, start: int, header: dict, perms: list[Perm], root: State,
                game: Game, bad: Bad) -> BlockSolution:
    """The solution in the file of format 6 `f` (its header read, up to `start`): its
    directory and tables read and checked, its chunks read as lookups need them."""
    blocks = BlockFile(f, size, start, header, bad)
    try:
        lib = index_library(game)
        rk = header_ranking(game, header)
        handle = lib.solver.rc_solve_open_lazy(
            *solver_arguments(game, lib, Codec(game), perms, rk, swap_of(header), threads=1, tally_most=-1),
            blocks.directory, len(blocks.directory))
        return opened(game, lib, handle, perms, root, header, rk, BlockSolution, blocks=blocks)
    except SolutionFileError:
        blocks.close()
        raise
    except ValueError as e:
        blocks.close()
        raise bad(str(e)) from None


register_index_reader(BLOCKS_FORMAT, open_blocks)

__all__ = ["BlockSolution", "open_blocks"]
