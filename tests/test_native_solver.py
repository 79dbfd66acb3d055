"""The native solver against the Python one: the same positions, values and remoteness."""

from __future__ import annotations

import ctypes
import json
import os
import sys
import tempfile

import pytest

from dsl.load import load
from interpreter.runtime.game import Game
from interpreter.runtime.limits import RuleLimitError
from interpreter.native import build as native_build
from interpreter.search import index_ranking, native_solve
from interpreter.search.solution import Solution
from interpreter.search.solver import SolveError, solve
from interpreter.search.symmetry import board_symmetries

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native import ROW, ruleset_files, generated_rulesets, load_text  # noqa: E402,F401 - the fixture

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")




def same_solution(a: Solution, b: Solution) -> None:
    assert list(a.keys) == list(b.keys)
    assert a.values == b.values
    assert list(a.remoteness) == list(b.remoteness)
    sa, sb = a.stats, b.stats
    assert (sa.positions, sa.edges, sa.terminal, sa.symmetries, sa.levels) == \
           (sb.positions, sb.edges, sb.terminal, sb.symmetries, sb.levels)


@pytest.mark.parametrize("name,symmetry", [("tic-tac-toe", False), ("tic-tac-toe", True),
                                           pytest.param("3-spot", False, marks=pytest.mark.slow),
                                           ("3-spot-score-rule", True),
                                           pytest.param("3-spot-optional-white", False, marks=pytest.mark.slow),
                                           pytest.param("force-3", True, marks=pytest.mark.slow)])
def test_the_bundled_games_solve_the_same(name, symmetry, native_calls):
    py = solve(Game(load(name)), symmetry=symmetry)
    nat = solve(Game(load(name), backend="native"), symmetry=symmetry)
    assert native_calls == [len(py)]
    same_solution(py, nat)


def test_hand_known_figures(native_calls):
    # tic-tac-toe: 5,478 legal positions, 765 up to the board's 8 symmetries, a draw
    g = Game(load("tic-tac-toe"), backend="native")
    assert len(solve(g)) == 5478 and len(solve(g, symmetry=True)) == 765
    assert solve(g).lookup(g.initial_state()) == ("draw", None)
    # a row of 3 cells, one man each, moving a step: the first to move is blocked at once
    row = ROW.replace("5 x 1", "2 x 1").replace("e1", "b1")
    g = Game(load_text(row, "two.game"), backend="native")
    sol = solve(g)
    assert len(sol) == 1 and sol.lookup(g.initial_state()) == ("lose", 0)
    assert native_calls == [5478, 765, 5478, 1]


def test_a_start_that_has_ended_is_one_terminal_position(native_calls):
    # one position, ended by its end rule before any ply: solved depth first, it was
    # counted twice among the terminal ones (as a position found ended, and with its block)
    text = ('game "Over before it starts"\nboard square 1 x 3\nplayers Black, White\n'
            'piece stone: owner each, symbol B/W\nsetup stone of White: a1\n'
            'ply go: move own stone step onto empty\n'
            'end at_once: White wins if count(stone) == 1\n')
    g = Game(load_text(text, "ended.game"), backend="native")
    sol = solve(g)
    assert native_calls == [1] and sol.stats.depth_first
    assert (sol.stats.positions, sol.stats.terminal) == (1, 1)
    assert sol.lookup(g.initial_state()) == ("lose", 0)


# Every batch with -m slow (each ruleset builds and solves a library: on a fresh machine,
# cold).
@pytest.mark.parametrize("batch,half", [pytest.param(0, 0, marks=pytest.mark.slow),
                                        pytest.param(0, 1, marks=pytest.mark.slow),
                                        pytest.param(1, None, marks=pytest.mark.slow),
                                        pytest.param(2, None, marks=pytest.mark.slow)])
def test_generated_rulesets_solve_the_same(batch, half, native_calls):
    solved = 0
    one_pass = 0
    texts = generated_rulesets(10, 100 + batch)
    for text in texts if half is None else texts[half * 5:half * 5 + 5]:
        results = []
        for backend in ("python", "native"):
            try:
                g = Game(load_text(text, f"s{batch}.game"), backend=backend)
                if len(g.players) != 2:
                    break
                results.append(solve(g, symmetry=True, max_positions=20_000))
            except (SolveError, RuleLimitError) as e:
                results.append(str(e))
        if len(results) == 2:
            if isinstance(results[0], str):
                assert results[0] == results[1]
            else:
                same_solution(*results)
                solved += 1
                # and the retrograde solve of the same game (an acyclic game: one pass, or
                # depth first where that fits)
                if results[1].stats.one_pass or results[1].stats.depth_first:
                    one_pass += 1
                    perms = board_symmetries(g, start=g.initial_state())
                    same_solution(results[1], _native(g, perms=perms, arcs_only=True))
    assert solved >= (3 if half is None else 1) and len(native_calls) >= (3 if half is None else 1) \
        and one_pass >= (1 if half in (None, 0) else 0)


def test_the_caps_stop_a_native_solve_as_a_python_one():
    g = Game(load("force-3"), backend="native")
    with pytest.raises(SolveError, match=r"^more than 1,000 positions are reachable$") as e:
        solve(g, max_positions=1000)
    assert e.value.limit == "positions"
    with pytest.raises(SolveError, match=r"^stopped at [\d,]+ positions: the solve would need "
                                         r"more than the memory cap of 20.0 MiB$") as e:
        solve(g, max_memory=20 << 20)
    assert e.value.limit == "memory"


def test_what_the_index_cannot_hold_is_solved_in_python(native_calls, capsys):
    # 12 x 12 cells and two piece types: keys of 288 bits, past the native solver's 128
    big = ROW.replace("5 x 1", "12 x 12").replace("e1", "l12").replace("step", "step orthogonal")
    nat = Game(load_text(big, "big.game"), backend="native")
    a = solve(nat, max_positions=50_000)
    assert capsys.readouterr().err == ("rulecraft: solving in Python, as the native solver "
                                       "cannot: a position takes 291 bits, past the 128 the "
                                       "native solver packs\n")
    b = solve(Game(load_text(big, "big.game")), max_positions=50_000)
    assert native_calls == []
    same_solution(a, b)


def test_a_rule_error_while_solving_is_the_python_error():
    text = ROW + "var x = 0 in 0..5\nafter each ply: x = x + 1\n"
    errors = []
    for backend in ("python", "native"):
        with pytest.raises(RuleLimitError) as e:
            solve(Game(load_text(text, "t.game"), backend=backend))
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "would be 6, outside its range 0..5" in errors[0]


def test_a_native_solution_is_saved_and_read_as_any(tmp_path):
    path = str(tmp_path / "f3.sol")
    nat = Game(load("force-3"), backend="native")
    sol = solve(nat, symmetry=True)
    sol.save(path)
    py = Game(load("force-3"))
    back = Solution.load(path, py)
    start = py.initial_state()
    assert back.lookup(start) == ("win", 9)
    assert back.best_actions(start) == sol.best_actions(start)


def test_solve_on_the_command_line_with_either_backend(capsys):
    from interpreter.apps import cli
    outs = []
    for b in ("python", "native"):
        assert cli.main(["solve", "3-spot", "--json", "--backend", b]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] == {"value": "win", "remoteness": 47, "positions": 177233,
                                  "best": ["c1+c2-a3+b3"],
                                  "winning": [{"ply": "c1+c2-a3+b3", "remoteness": 47},
                                              {"ply": "c1+c2-c2+c3", "remoteness": 51},
                                              {"ply": "c1+c2-b3+c3", "remoteness": 55}]}


def test_all_symmetries_merge_positions_the_setup_told_apart(capsys):
    # 3-Spot's west-east mirror moves the setup: --symmetry keeps it apart, --all-symmetries
    # folds it in; the values stay those of the plain solve (47 plies, see above)
    from interpreter.apps import cli
    outs = []
    for args in (["--backend", "python"], ["--backend", "native"]):
        assert cli.main(["solve", "3-spot", "--json", "--all-symmetries", *args]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]
    assert outs[0]["value"] == "win" and outs[0]["remoteness"] == 47
    assert 177233 / 2 <= outs[0]["positions"] < 177233


def test_threads_do_not_change_the_solution():
    g = Game(load("3-spot"), backend="native")
    from interpreter.search.progress import Progress
    one = native_solve.solve_native(g, g.initial_state(), [], Progress(False), None, None, threads=1)
    two = native_solve.solve_native(g, g.initial_state(), [], Progress(False), None, None, threads=2)
    same_solution(one, two)


SMALL_MUSKETEERS = '''game "Three Musketeers on 4 x 3"
board square 4 x 3
players Musketeers, Enemy
piece musketeer: owner Musketeers, symbol M
piece enemy: owner Enemy, symbol o
setup musketeer: a1, b2, d3
setup enemy: all other cells
ply capture: move musketeer step orthogonal onto enemy
ply advance: move enemy step orthogonal onto empty
end aligned: Enemy wins if line(count(musketeer), musketeer, orthogonal)
end stuck: Musketeers win if no legal ply
'''


def _native(game, **kw):
    from interpreter.search.progress import Progress
    return native_solve.solve_native(game, game.initial_state(), kw.pop("perms", []),
                                     Progress(False), None, None, **kw)


WIDE_MUSKETEERS = SMALL_MUSKETEERS.replace("4 x 3", "6 x 6").replace(
    "a1, b2, d3", "a1, c3, f6").replace("all other cells", "b1, a2, e6, f5, c4, d3")


@pytest.mark.parametrize("name", ["tic-tac-toe", "small-musketeers", "wide-musketeers"])
def test_the_one_pass_solve_matches_the_retrograde_ones(name):
    # every Musketeer ply removes an enemy and every ply of tic-tac-toe adds a mark, so the
    # blocks (piece counts and player) never repeat along a game: one pass, block by block.
    # 6 x 6 (36 cells) takes the symmetry tables of wide boards, with all 8 symmetries.
    texts = {"small-musketeers": SMALL_MUSKETEERS, "wide-musketeers": WIDE_MUSKETEERS}
    rs = load_text(texts[name], "m.game") if name in texts else load(name)
    nat = Game(rs, backend="native")
    perms = board_symmetries(nat, setups=False) if name == "wide-musketeers" else []
    assert len(perms) == (8 if perms else 0)
    one = _native(nat, perms=perms, depth_first=0)
    arcs = _native(nat, perms=perms, arcs_only=True)
    deep = _native(nat, perms=perms)
    py = solve(Game(rs), symmetry=perms)
    assert one.stats.one_pass and not arcs.stats.one_pass and not py.stats.one_pass
    assert deep.stats.depth_first and not one.stats.depth_first and not arcs.stats.depth_first
    same_solution(one, arcs)
    same_solution(one, py)
    same_solution(deep, py)
    if name == "small-musketeers":
        assert len(one) == 33776 and one.lookup(nat.initial_state()) == ("win", 17)


def test_few_pieces_among_many_cells_unrank_by_their_table(native_calls):
    # the 3 Musketeers among 25 cells: past 22 cells, placements of up to 7 pieces are
    # unranked by a table of their own (sv_few_combos); the keys the native solve copies
    # out are its positions unranked
    text = "M.o.M/.o.o./o.M.o/...../o...o Enemy"
    py_game, nat_game = Game(load("three-musketeers")), Game(load("three-musketeers"), backend="native")
    py = solve(py_game, start=py_game.state_from_text(text))
    nat = solve(nat_game, start=nat_game.state_from_text(text))
    assert native_calls == [len(py)] and len(py) == 27_529
    same_solution(py, nat)


GEESE = """game "Geese that stand still"
board square 6 x 6
players Geese, Fox
piece goose: owner Geese, symbol G
piece fox: owner Fox, symbol F
setup goose: a1, c1, e1, b3, d3, f3, a5, c6, e6, f6
setup fox: d4
ply stand: move goose step where count(goose) > 20
ply run: move fox step onto empty
ply eat: move fox step onto goose
turn: any or pass
end fed: Fox wins if count(goose) < 8
"""


def test_many_pieces_among_more_than_32_cells_rank_each_way(native_calls):
    # 36 cells, and geese the analysis lets stand anywhere (their step never comes): ten
    # geese rank by a table a nibble of cells, nine with one on rank 6 (cell 32 or past)
    # by a binomial a goose, eight by a binomial a goose from rows of 64 (sv_colex)
    rs = load_text(GEESE, "geese.game")
    ranked = index_ranking.ranking(rs, [1, 1], [0, 0], 0, [])
    assert ranked.order[0] == 0 and ranked.cells[0] == (1 << 36) - 1  # the premise
    py, nat = (solve(Game(rs, backend=b)) for b in ("python", "native"))
    assert native_calls == [len(py)]
    same_solution(py, nat)
    assert sorted({bin(py.codec.unpack(k)[0]).count("1") for k in py.keys}) == [7, 8, 9, 10]


def test_games_that_repeat_a_block_take_the_retrograde_solve():
    for name in ("3-spot", "force-3"):
        g = Game(load(name), backend="native")
        assert not solve(g).stats.one_pass


def test_a_solution_past_the_copy_limit_answers_from_the_native_tables(tmp_path):
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    copied = _native(g)
    kept = _native(g, copy_limit=0)
    assert isinstance(kept, native_solve.NativeSolution) and len(kept) == len(copied) == 33776
    assert kept.counts() == copied.counts()
    assert sum(kept.counts().values()) == 33776
    # every position along seeded random games, and each one's plies
    import random
    rng = random.Random(5)
    seen = 0
    for _ in range(30):
        s = g.initial_state()
        while True:
            assert kept.lookup(s) == copied.lookup(s) and s in kept
            assert kept.analyze(s) == copied.analyze(s)
            seen += 1
            if g.is_terminal(s):
                break
            s = g.apply_unchecked(s, rng.choice(g.legal_actions(s)))
    assert seen > 100
    # a position no game reaches from the start: three Musketeers alone
    lone = g.state_from_text(g.state_to_text(g.initial_state()).replace("o", "."))
    assert lone not in kept
    with pytest.raises(KeyError, match="not among those this solution holds"):
        kept.lookup(lone)


def test_a_native_solution_saves_as_its_index_and_reads_back(tmp_path):
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    perms = board_symmetries(g, setups=False)
    copied = _native(g, perms=perms)
    for arcs_only in (False, True):  # the one-pass tables, and the arc solve's
        kept = _native(g, perms=perms, copy_limit=0, arcs_only=arcs_only)
        path = str(tmp_path / f"m{arcs_only}.sol")
        kept.save(path)
        with open(path, "rb") as f:
            assert f.read(8) == b"RCSOLVE5"
        # read by a game on the Python back-end: it builds the native library to read it
        py = Game(load_text(SMALL_MUSKETEERS, "m43.game"))
        back = Solution.load(path, py)
        assert isinstance(back, native_solve.NativeSolution) and len(back) == len(copied)
        assert back.counts() == copied.counts() and back.perms == perms
        s = py.initial_state()
        assert back.lookup(s) == copied.lookup(s) == ("win", 17)
        for a in py.legal_actions(s):
            t = py.apply_unchecked(s, a)
            assert back.lookup(t) == copied.lookup(t)
            assert back.analyze(t) == copied.analyze(t)
        again = str(tmp_path / "again.sol")
        back.save(again)  # a read solution saves the same index (the header has no time)
        one, two = open(path, "rb").read(), open(again, "rb").read()
        assert _body(one) == _body(two) and len(_body(one)) > 4000


def _body(data: bytes) -> bytes:
    return data[12 + int.from_bytes(data[8:12], "little"):-32]


def _index_file(tmp_path):
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    path = str(tmp_path / "m.sol")
    _native(g, copy_limit=0).save(path)
    return g, path, open(path, "rb").read()


def _reread(g, path, data):
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(ValueError) as e:
        Solution.load(path, g)
    return str(e.value).split(": ", 1)[1]


def test_a_damaged_index_file_is_refused(tmp_path):
    import hashlib
    g, path, data = _index_file(tmp_path)
    flipped = bytearray(data)
    flipped[-100] ^= 1
    assert _reread(g, path, bytes(flipped)) == "checksum mismatch: the file is damaged or was edited"

    def resealed(body: bytes) -> bytes:  # a file whose checksum is right, its body not
        return body + hashlib.sha256(body).digest()

    start = len(data) - 32 - len(_body(data))
    assert _reread(g, path, resealed(data[:-32] + b"\0" * 8)) == \
        "damaged: 8 bytes after the last block"
    assert _reread(g, path, resealed(data[:start + 100])) == \
        "damaged: block 0 does not have the shape its key gives it"
    many = bytearray(data[:-32])
    many[start:start + 8] = (1 << 40).to_bytes(8, sys.byteorder)
    assert _reread(g, path, resealed(bytes(many))) == \
        "damaged: 1099511627776 blocks, more than an index holds"
    sol = _native(g, copy_limit=0)
    shapes = native_solve.block_shapes(g.native.solver, sol._handle)
    last = len(data) - 32 - shapes[-1].values - 8  # the last word of the last block's bitset
    bits = bytearray(data[:-32])
    bits[last] ^= 1
    assert _reread(g, path, resealed(bytes(bits))) == \
        f"damaged: block {len(shapes) - 1}'s bits do not match its count"


@pytest.mark.parametrize("chunk", [64, 1 << 16])
def test_a_large_index_is_stored_in_chunks_and_read_as_lookups_need(tmp_path, monkeypatch, chunk):
    import zlib
    from interpreter.search import block_file, block_solution, native_solve as ns
    monkeypatch.setattr(block_file, "CHUNK", chunk)  # 64: blocks of many chunks
    monkeypatch.setattr(block_solution, "CHUNK", chunk)
    monkeypatch.setattr(block_solution, "BITS", chunk * 8)
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    sol = _native(g, copy_limit=0)
    plain, small = str(tmp_path / "plain.sol"), str(tmp_path / "small.sol")
    sol.save(plain)  # 33,776 positions: far below the size that is compressed by default
    monkeypatch.setattr(ns, "COMPRESS_ABOVE", 1000)
    sol.save(small)
    sol.save(str(tmp_path / "asked.sol"), compress=False)
    data, packed = open(plain, "rb").read(), open(small, "rb").read()
    assert open(tmp_path / "asked.sol", "rb").read() == data and data[:8] == b"RCSOLVE5"
    hlen = int.from_bytes(packed[8:12], "little")
    header = json.loads(packed[12:12 + hlen])
    assert packed[:8] == b"RCSOLVE6" and (12 + hlen) % 8 == 0
    assert (header["format"], header["compression"], header["blocks"], header["chunk_bytes"]) == \
        (6, "zlib", 26, chunk)
    # the directory, the tables, then format 5's bodies in chunks, each compressed
    body = _body(data)
    directory = packed[12 + hlen:12 + hlen + header["directory_bytes"]]
    at, n = 12 + hlen + len(directory), header["chunks"]
    offsets = [int.from_bytes(packed[at + 8 * k:at + 8 * k + 8], "little") for k in range(n + 1)]
    data_at = at + 8 * (n + 1 + header["reach_chunks"]) + 32
    chunks = [zlib.decompress(packed[data_at + a:data_at + b]) for a, b in zip(offsets, offsets[1:])]
    assert data_at + offsets[-1] == len(packed) and max(map(len, chunks)) == min(chunk, max(map(len, chunks)))
    entry = (len(directory) - 8) // 26
    rebuilt, i = directory[:8], 0
    for k, shape in enumerate(ns.block_shapes(g.native.solver, sol._handle)):
        rebuilt += directory[8 + k * entry:8 + (k + 1) * entry]
        for _ in range(block_file.chunks_of(shape.words * 8) + block_file.chunks_of(shape.values)):
            rebuilt += chunks[i]
            i += 1
    assert rebuilt == body and i == n and (chunk < 1024 or len(packed) < len(data) / 3)
    back = Solution.load(small, g)
    assert back.chunks_read == 2  # opening read the start's: a chunk of bits, one of values
    assert len(back) == len(sol) == 33776
    for i in range(0, len(sol), 7):
        s = sol.position(i)
        assert back.lookup(s) == sol.lookup(s) and back.position(i) == s
    lone = g.state_from_text(g.state_to_text(g.initial_state()).replace("o", "."))
    assert lone not in back and lone not in sol
    assert back.counts() == sol.counts()
    again = str(tmp_path / "again.sol")
    back.save(again, compress=False)  # read back, it saves the same index
    assert _body(open(again, "rb").read()) == body
    back.save(again)
    assert open(again, "rb").read() == packed


def _blocks_file(tmp_path):
    """A file of format 6 and its parts: head (magic, header), directory, the reach chunks'
    counts, the chunks (compressed)."""
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    path = str(tmp_path / "m6.sol")
    _native(g, copy_limit=0).save(path, compress=True)
    data = open(path, "rb").read()
    hlen = int.from_bytes(data[8:12], "little")
    header = json.loads(data[12:12 + hlen])
    at, n, r = 12 + hlen + header["directory_bytes"], header["chunks"], header["reach_chunks"]
    numbers = [int.from_bytes(data[at + 8 * k:at + 8 * k + 8], "little") for k in range(n + 1 + r)]
    data_at = at + 8 * (n + 1 + r) + 32
    chunks = [data[data_at + a:data_at + b] for a, b in zip(numbers, numbers[1:n + 1])]
    return g, path, data[:12 + hlen], data[12 + hlen:at], numbers[n + 1:], chunks


def _sealed(head: bytes, directory: bytes, before: list[int], chunks: list[bytes]) -> bytes:
    """A file of format 6 of these parts, its offsets and checksum made right."""
    import hashlib
    offsets = [0]
    for c in chunks:
        offsets.append(offsets[-1] + len(c))
    tables = b"".join(o.to_bytes(8, "little") for o in offsets + before)
    return head + directory + tables + hashlib.sha256(head + directory + tables).digest() + b"".join(chunks)


def test_a_damaged_file_of_format_6_is_refused_when_opened_or_when_a_chunk_is_read(tmp_path):
    import zlib
    g, path, head, directory, before, chunks = _blocks_file(tmp_path)
    good = _sealed(head, directory, before, chunks)
    assert good == open(path, "rb").read()
    assert _reread(g, path, good[:-1]) == \
        f"truncated or extended: {len(good) - 1:,} bytes where its table announces {len(good):,}"
    flipped = bytearray(good)
    flipped[len(head) + 20] ^= 1  # in the directory
    assert _reread(g, path, bytes(flipped)) == "checksum mismatch: the file is damaged or was edited"
    entry = len(directory[8:]) // 26
    words = 8 + entry - 16  # block 0's words, after its key
    assert _reread(g, path, _sealed(head, directory[:words] + b"\1" * 8 + directory[words + 8:], before,
                                    chunks)) == "damaged: block 0 does not have the shape its key gives it"
    header = json.loads(head[12:])
    header["chunks"] -= 1
    blob = json.dumps(header).encode()
    blob += b" " * (-(12 + len(blob)) % 8)
    fewer = head[:8] + len(blob).to_bytes(4, "little") + blob
    assert _reread(g, path, _sealed(fewer, directory, before, chunks[:-1])) == \
        "damaged: its tables do not fit its directory"
    assert _reread(g, path, _sealed(head, directory, [1 << 40] + before[1:], chunks)) == \
        "damaged: block 0's counts are out of order"
    # a damaged chunk is found when a lookup first needs it, not before
    with open(path, "wb") as f:
        f.write(good)
    sound = Solution.load(path, g)
    assert sound.chunks_read == 2
    from interpreter.search.block_file import chunks_of
    where = (ctypes.c_uint64 * 2)()
    sound._c.rc_solve_locate(sound._handle, sound._lib.flat(g.initial_state()), where)
    start_block, shapes, first = where[0], sound._blocks.shapes, sound._blocks.first
    raw = [zlib.decompress(c) for c in chunks]
    # a bitset's chunk and a chunk of values, of a block other than the start's
    b = next(b for b, sh in enumerate(shapes) if b != start_block and sh.values and raw[first[b]][:8] != bytes(8))
    k, values = first[b], first[b] + chunks_of(shapes[b].words * 8)
    cases = {
        "data": (k, chunks[k][:6] + bytes([chunks[k][6] ^ 0xFF]) + chunks[k][7:],
                 f"damaged: chunk {k} cannot be decompressed (Error -3 while decompressing data: "),
        "short": (k, zlib.compress(raw[k][:-8]),
                  f"damaged: chunk {k} does not decompress to the {len(raw[k]):,} bytes its block's shape gives it"),
        "long": (k, zlib.compress(raw[k] + bytes(1 << 20)),
                 f"damaged: chunk {k} does not decompress to the {len(raw[k]):,} bytes its block's shape gives it"),
        "bits": (k, zlib.compress(bytes(8) + raw[k][8:]), "'s bits do not match its count"),
        "code": (values, zlib.compress(bytes(2) + raw[values][2:]), " holds a value code of 0"),
    }
    for name, (j, chunk, message) in cases.items():
        with open(path, "wb") as f:
            f.write(_sealed(head, directory, before, chunks[:j] + [chunk] + chunks[j + 1:]))
        sol = Solution.load(path, g)  # opens: the start's chunks are sound
        with pytest.raises(ValueError) as e:  # the first position of block b, then its value
            sol.lookup(sol.position(sol._starts[b]))
        assert message in str(e.value).split(": ", 1)[1], name


def test_a_damaged_compressed_index_of_format_5_is_refused(tmp_path, monkeypatch):
    """Earlier versions compressed a large index of format 5 whole: still read."""
    import zlib
    g, path, data = _index_file(tmp_path)
    body = _body(data)
    head = data[:len(data) - 32 - len(body)]

    def packed(z: bytes, **header) -> bytes:  # the index replaced by `z`, resealed
        fields = {"compression": "zlib", "body_bytes": len(body), **header}
        return _with_header(head + z + bytes(32), **fields)

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    z = zlib.compress(body)
    assert _reread(g, path, packed(z[:-9])) == \
        "damaged: its compressed index does not end where the file does"
    assert _reread(g, path, packed(z + b"more")) == \
        "damaged: its compressed index does not end where the file does"
    assert _reread(g, path, packed(b"not zlib")).startswith(
        "damaged: its compressed index cannot be decompressed (Error -3 while decompressing")
    assert _reread(g, path, packed(z, body_bytes=len(body) + 8)) == \
        f"damaged: its index decompresses to {len(body):,} bytes where its header announces " \
        f"{len(body) + 8:,}"
    assert _reread(g, path, packed(zlib.compress(body + bytes(1 << 25)))) == \
        f"damaged: its index decompresses to more than the {len(body):,} bytes its header announces"
    assert _reread(g, path, packed(z, compression="lz4")) == \
        'header field \'compression\' must be "zlib", found "lz4"'
    assert _reread(g, path, _with_header(data, body_bytes=len(body))) == \
        "header fields 'compression' and 'body_bytes' go together"
    assert [n for n in os.listdir(tmp_path) if n.startswith("rulecraft-index-")] == []


def test_an_index_file_needs_the_native_backend(tmp_path, monkeypatch):
    g, path, data = _index_file(tmp_path)
    py = Game(load_text(SMALL_MUSKETEERS, "m43.game"))
    monkeypatch.setattr(native_build, "compiler", lambda: None)
    with pytest.raises(ValueError) as e:
        Solution.load(path, py)
    assert str(e.value).endswith("a solution of format 5 or 6 (the native solver's index) is read "
                                 "by the native back-end: no C compiler found (set CC, or install "
                                 "one, e.g. `apt-get install gcc`)")


def test_the_portable_bit_packing_solves_the_same(monkeypatch):
    # without -mbmi2 the ranking packs cells with a loop instead of pext/pdep, and without
    # -mavx2 the symmetries are tried one at a time instead of 8 lanes at once
    rs = load_text(SMALL_MUSKETEERS, "m43.game")
    fast_game = Game(rs, backend="native")
    fast = _native(fast_game, perms=board_symmetries(Game(rs), setups=False))
    had_either = bool({"-mbmi2", "-mavx2"} & set(native_build.cpu_flags()))
    monkeypatch.setattr(native_build, "cpu_flags", lambda: ("-mpopcnt",))
    slow_game = Game(rs, backend="native")
    assert (slow_game.native.path != fast_game.native.path) == had_either  # built without them
    slow = _native(slow_game, perms=board_symmetries(Game(rs), setups=False))
    same_solution(fast, slow)


def _with_header(data: bytes, pad: bool = True, **changes) -> bytes:
    """A format-5 file with its header changed (and its checksum made right again)."""
    import hashlib
    hlen = int.from_bytes(data[8:12], "little")
    header = json.loads(data[12:12 + hlen])
    header.update(changes)
    blob = json.dumps(header).encode()
    if pad:
        blob += b" " * (-(12 + len(blob)) % 8)
    body = data[:8] + len(blob).to_bytes(4, "little") + blob + _body(data)
    return body + hashlib.sha256(body).digest()


def test_an_index_file_whose_header_is_wrong_is_refused(tmp_path):
    g, path, data = _index_file(tmp_path)
    other = "big" if sys.byteorder == "little" else "little"
    assert _reread(g, path, _with_header(data, byte_order=other)) == \
        f'written on a machine of another byte order ("{other}"; this one is {sys.byteorder})'
    assert _reread(g, path, _with_header(data, positions=33777)) == \
        "holds 33,776 positions where its header announces 33,777"
    unpadded = _with_header(data, pad=False, title="Three Musketeers on 4 x 3!")
    if (12 + int.from_bytes(unpadded[8:12], "little")) % 8:
        assert _reread(g, path, unpadded) == "damaged: its index does not start at a multiple of 8 bytes"
    elsewhere = g.state_to_text(g.initial_state()).replace("Moo", "oMo", 1)
    assert _reread(g, path, _with_header(data, root=elsewhere)) == \
        "its start position (header field 'root') is not among its positions"
    # the sorted-keys format has no byte order
    three = str(tmp_path / "three.sol")
    _native(g).save(three)
    raw = open(three, "rb").read()
    assert _reread(g, three, _with_header(raw, byte_order=sys.byteorder)) == \
        'unknown header field "byte_order"'


def test_index_files_with_forged_block_headers_are_refused_or_sound(tmp_path):
    # every word of the block headers (key, words, count) set to edge values, the checksum
    # made right again: the C checks each block before a lookup reads it (no crash)
    import hashlib
    import random
    import struct
    g, path, data = _index_file(tmp_path)
    lib, nt = g.native, len(g.ruleset.types)
    key_bytes = 8 * (nt + lib.ni + (lib.nc - nt + 1) * lib.words)
    body = _body(data)
    start = len(data) - 32 - len(body)
    heads, at = [], 8
    for _ in range(struct.unpack_from("<Q", body, 0)[0]):
        heads.append(at)
        ended = struct.unpack_from("<q", body, at + 8 * (nt + lib.ni - 1))[0] >= 0
        words, count = struct.unpack_from("<QQ", body, at + key_bytes)
        at += key_bytes + 16 + 8 * words + (0 if ended else count * 2 + (-(count * 2) % 8))
    assert at == len(body)
    rng = random.Random(7)
    outcomes = set()
    for _ in range(120):
        forged = bytearray(body)
        value = rng.choice([0, 1, -1, 2, 25, 1 << 31, 1 << 40, (1 << 63) - 1, -(1 << 63)])
        struct.pack_into("<q", forged, rng.choice(heads) + 8 * rng.randrange(key_bytes // 8 + 2), value)
        whole = data[:start] + bytes(forged)
        with open(path, "wb") as f:
            f.write(whole + hashlib.sha256(whole).digest())
        try:
            sol = Solution.load(path, g)
        except ValueError as e:
            assert ": damaged: " in str(e) or "positions where its header announces" in str(e) \
                or "start position" in str(e), str(e)
            outcomes.add("refused")
        else:
            sol.counts()
            outcomes.add("loaded")
    assert "refused" in outcomes


def test_keys_past_64_bits_solve_and_save_as_the_python_solvers(tmp_path):
    # 3-A-Side with one man a side: 115-bit keys, kept as two arrays of words (WideKeys)
    # when the native solve is copied into Python, and written to a file word by word
    from interpreter.search.solution_file import CHECKSUM_BYTES, MAGIC
    from interpreter.search.wide_keys import WideKeys
    text = open(os.path.join(os.path.dirname(__file__), "..", "rulesets", "3-a-side.game")).read()
    for side, cells in (("North", "e2, g2, i2"), ("South", "e6, g6, i6")):
        assert f"setup man of {side}: {cells}" in text
        text = text.replace(f"setup man of {side}: {cells}", f"setup man of {side}: {cells.split(', ')[1]}")
    nat, py = (solve(Game(load_text(text, "one-man.game"), backend=b), symmetry=True) for b in ("native", "python"))
    assert nat.codec.bits == 115 and isinstance(nat.keys, WideKeys) and len(nat) == 79_768
    assert list(nat.keys) == list(py.keys) and nat.values == py.values
    assert list(nat.remoteness) == list(py.remoteness)
    assert nat.keys[5:9] == py.keys[5:9] and nat.keys[-1] == py.keys[-1]
    assert nat.lookup(nat.root) == py.lookup(py.root)
    bodies = []
    for sol, name in ((nat, "n.sol"), (py, "p.sol")):
        sol.save(str(tmp_path / name))
        data = (tmp_path / name).read_bytes()
        at = len(MAGIC)
        header = int.from_bytes(data[at:at + 4], "little")
        bodies.append(data[at + 4 + header:-CHECKSUM_BYTES])  # the header has the seconds
    assert bodies[0] == bodies[1]
    back = Solution.load(str(tmp_path / "n.sol"), nat.game)  # read as words too
    assert isinstance(back.keys, WideKeys) and list(back.keys) == list(py.keys)
    assert back.lookup(back.root) == py.lookup(py.root)


def test_wide_keys_bytes_are_each_keys_little_endian_bytes():
    from array import array

    from interpreter.search.wide_keys import WideKeys
    keys = [0, 1, (1 << 64) - 1, 1 << 64, (5 << 64) | 7, (1 << 100) + 3, (1 << 127) | (1 << 63)]
    wide = WideKeys(array("Q", [k & ((1 << 64) - 1) for k in keys]), array("Q", [k >> 64 for k in keys]))
    assert list(wide) == keys and len(wide) == 7 and wide[3] == 1 << 64 and wide[2:5] == keys[2:5]
    for width in (9, 12, 16):
        fits = [k for k in keys if k < 1 << (8 * width)]
        part = WideKeys(array("Q", [k & ((1 << 64) - 1) for k in fits]), array("Q", [k >> 64 for k in fits]))
        assert part.to_bytes(width) == b"".join(k.to_bytes(width, "little") for k in fits)
        assert list(WideKeys.from_bytes(part.to_bytes(width), width)) == fits


class _Unbuildable:
    """A library whose solver the compiler refuses (as a generator bug would make it)."""

    def __init__(self, why: str):
        self.why = why

    @property
    def solver(self):
        raise native_build.NativeUnavailable(self.why)


@pytest.mark.parametrize("why, notice", [
    ("the C compiler refused the generated code (a rulecraft bug):\n"
     "In function 'sv_rank',\n    inlined from 'sv_locate' at /root/.cache/x/tmp1/game.c:3516:15:\n"
     "/root/.cache/x/tmp1/game.c:2640:17: error: 'rt' may be used uninitialized [-Werror=maybe-uninitialized]\n"
     " 2640 |         r += rt * b->stride[t];\ncc1: all warnings being treated as errors\n",
     "the C compiler refused the generated code (a rulecraft bug); its first error: game.c:2640:17: "
     "'rt' may be used uninitialized [-Werror=maybe-uninitialized]"),
    ("the C compiler did not finish within 60 s", "the C compiler did not finish within 60 s"),
])
def test_a_solver_that_cannot_be_built_says_why_on_one_line(why, notice):
    # the notice is one line; a compiler's refusal keeps its first error, for the bug report
    with pytest.raises(native_solve.NativeSolveUnsupported) as e:
        native_solve._configure(_Unbuildable(why))
    assert str(e.value) == f"its solver cannot be built: {notice}"
