"""The native back-end's C contract (interpreter/native/rulecraft.h).

The fixed C (prelude.c, runtime.c, vector.c, the solver's units, solution_index.c) compiles against
the header alone, with no game's code, for one-word and many-word masks, with and without
the un-move tables; what it lacks then is exactly what the header says the generated code
provides. The solver's configuration, struct rc_solve_config, has the same layout in C and
in native_solve.py's ctypes mirror. And a solve through it still gives the Python solver's
positions, values and remoteness. The prelude's chain-search set, whose numbers hops.c reads,
keeps them as it grows.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dsl.load import load
from interpreter.native import build as native_build
from interpreter.native.cgen import fixed_c, generate_c
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.solver import solve

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native_solver import same_solution  # noqa: E402

NATIVE = Path(native_build.__file__).parent
CC = native_build.compiler()
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler here")
X86 = platform.machine() in ("x86_64", "AMD64")

# what the fixed C calls in the game's code (rulecraft.h, part 3): functions are the only
# names a compile without the game's code reports; the un-move tables are declared in full
PROVIDED = {"rc_legal", "rc_apply", "rc_chains", "rc_outcome"}


def macros(cells: int, nt: int, nc: int, ni: int, rules: int, undo: tuple[int, int] | None) -> dict:
    """rulecraft.h's configuration (part 1) for a made-up game."""
    out = {"RC_CELLS": cells, "RC_W": max(1, (cells + 63) // 64), "RC_NC": nc, "RC_NT": nt,
           "RC_NI": ni, "RC_P": 0, "RC_PH": 1, "RC_OUT": ni - 1, "RC_PLAYERS": 2, "RC_RULES": rules,
           "RC_UNDO": int(undo is not None)}
    if undo is not None:
        out["UNDO_N"], out["UNDO_NPH"] = undo
    return out


# every branch of the fixed C's #ifs on the configuration: one word of up to 32 cells (its
# own symmetry tables, and the AVX2 ones), one word past 32, several words; un-moves or not
CONFIGS = {
    "one word, 9 cells": (macros(9, 2, 2, 4, 3, None), []),
    "one word, 9 cells, un-moves, avx2": (macros(9, 2, 3, 5, 3, (2, 1)),
                                          ["-mavx2", "-mbmi2", "-mpopcnt"] if X86 else []),
    "one word, 37 cells, un-moves": (macros(37, 2, 2, 5, 5, (4, 2)), []),
    "one word, 64 cells, bmi2": (macros(64, 3, 4, 6, 4, None), ["-mbmi2", "-mpopcnt"] if X86 else []),
    "two words, 100 cells, un-moves": (macros(100, 2, 3, 4, 3, (2, 1)), []),
    "six words, 331 cells": (macros(331, 3, 3, 7, 6, None), []),
}


def compile_c(tmp_path: Path, text: str, defines: dict, flags: list[str]) -> subprocess.CompletedProcess:
    src = tmp_path / "contract.c"
    src.write_text(text)
    args = [CC, *flags, f"-I{NATIVE}", *(f"-D{k}={v}" for k, v in defines.items()), str(src)]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


@needs_cc
@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_fixed_c_compiles_against_the_header_alone(tmp_path, name):
    defines, isa = CONFIGS[name]
    # the build's flags, every warning reported; -Werror aside, as the game's functions are
    # declared and used but (with no game) never defined
    flags = [f for f in native_build.FLAGS if f not in ("-shared", "-fPIC", "-Werror")]
    driver = "".join(f'#include "{f}"\n' for f in ("prelude.c", "runtime.c", "vector.c", "solver.c",
                                                  "solution_index.c"))
    done = compile_c(tmp_path, driver, defines, ["-fsyntax-only", *flags, *isa])
    assert done.returncode == 0, done.stderr
    # gcc: "'rc_legal' used but never defined"; clang: "function 'rc_legal' has internal
    # linkage but is not defined"
    missing, other = set(), []
    for line in done.stderr.splitlines():
        if "warning:" not in line and "error:" not in line:
            continue
        found = re.search(r"['‘`]([A-Za-z_]\w*)['’] used but never defined|"
                          r"function '([A-Za-z_]\w*)' has internal linkage but is not defined", line)
        if found:
            missing.add(found.group(1) or found.group(2))
        else:
            other.append(line)
    assert other == [], done.stderr
    assert missing == PROVIDED, done.stderr


def test_a_games_translation_unit_holds_every_fixed_file_once():
    """cgen expands the fixed files' #includes: the build (and its cache key) sees every
    line; the header once, before the game's code, the solver's units in order. The game's
    own unit is the solver's up to the solver: the two libraries share the game's code."""
    gen = generate_c(load("tic-tac-toe"))
    source = gen.solver_source
    assert source.startswith(gen.source)
    assert '#include "' not in source
    assert source.count("#define RULECRAFT_H") == 1
    header = source.index("#define RULECRAFT_H")
    assert source.index("#define RC_CELLS") < source.index("#define RC_UNDO") < header
    assert header < source.index("static inline M m_zero") < source.index("int rc_legal(const S *s, Buf *out) {")
    units = re.findall(r'^#include "(solver/\w+\.c)"$', (NATIVE / "solver.c").read_text(), re.M)
    assert len(units) >= 8
    at = [source.index(fixed_c(u)) for u in units]
    assert at == sorted(at) and at[0] >= len(gen.source) > source.index("int64_t rc_perft(const uint64_t *st, int depth, int threads) {")
    assert fixed_c("solver.c").count("\n") > sum(fixed_c(u).count("\n") for u in units)


def _c_layout(tmp_path: Path, nt: int, ni: int) -> list[int]:
    """struct rc_solve_config's layout as the C compiler makes it, in config_layout's terms:
    the fields named after the ctypes mirror's (a name C does not have fails the build)."""
    config = native_solve.solve_config(nt, ni)
    prints = ["RC_NT", "RC_NI"]
    for struct, cname in ((config, "rc_solve_config"), (native_solve.SolveType, "rc_solve_type"),
                          (native_solve.SolveSlot, "rc_solve_slot")):
        prints.append(f"sizeof(struct {cname})")
        prints += [f"offsetof(struct {cname}, {field})" for field, _ in struct._fields_]
    body = "".join(f'    printf("%lld\\n", (long long)({p}));\n' for p in prints)
    text = f'#include "rulecraft.h"\n#include <stddef.h>\nint main(void) {{\n{body}    return 0;\n}}\n'
    exe = tmp_path / f"layout-{nt}-{ni}"
    done = compile_c(tmp_path, text, macros(40, nt, nt + 1, ni, 3, None), ["-std=gnu11", "-o", str(exe)])
    assert done.returncode == 0, done.stderr
    return [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()]


@needs_cc
@pytest.mark.parametrize("nt,ni", [(1, 3), (2, 4), (3, 5), (4, 8)])
def test_the_ctypes_config_mirrors_the_c_struct(tmp_path, nt, ni):
    config = native_solve.solve_config(nt, ni)
    assert _c_layout(tmp_path, nt, ni) == native_solve.config_layout(config, nt, ni)


@needs_cc
def test_a_library_checks_the_mirror_and_solves_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    game = Game(load("tic-tac-toe"), backend="native")
    native_solve._configure(game.native)  # the library's layout against the mirror
    c = game.native.solver
    assert c._solve_config is native_solve.solve_config(len(game.ruleset.types), len(game.native.int_slots))
    nat = solve(game, symmetry=True)
    assert nat.stats is not None and nat.stats.depth_first  # the native solver's
    same_solution(solve(Game(load("tic-tac-toe")), symmetry=True), nat)


CHAIN_SETS = r"""
#include "prelude.c"
#include <stdio.h>
/* key i: cell, removed, last direction and segments all from i (removed: i times an odd
   number, so no two keys are equal) */
static M removed_of(int i) { M r = m_zero(); r.w[0] = (uint64_t)i * 0x9E3779B97F4A7C15ULL; return r; }
int main(void) {
    int n = 300000;
    if (chainset_reset(&rc_expanded, 16)) return 1;
    for (int i = 0; i < n; i++)
        if (chainset_add(&rc_expanded, i % RC_CELLS, removed_of(i), i % 7 - 1, i % 3) != 1) return 2;
    for (int i = 0; i < n; i++) {
        if (chainset_find(&rc_expanded, i % RC_CELLS, removed_of(i), i % 7 - 1, i % 3) != i) return 3;
        if (chainset_add(&rc_expanded, i % RC_CELLS, removed_of(i), i % 7 - 1, i % 3) != 0) return 4;
    }
    if (rc_expanded.count != (uint32_t)n) return 5;
    if (chainset_find(&rc_expanded, 0, removed_of(1), -1, 0) != -1) return 6;
    if (chainset_reset(&rc_expanded, 16)) return 7;  /* the next search: none of these */
    if (chainset_find(&rc_expanded, 0, removed_of(0), -1, 0) != -1) return 8;
    if (chainset_add(&rc_expanded, 5, removed_of(9), 2, 0) != 1 || chainset_find(&rc_expanded, 5, removed_of(9), 2, 0) != 0) return 9;
    printf("%u\n", rc_expanded.mask + 1);
    return 0;
}
"""


@needs_cc
def test_a_chain_searchs_states_keep_their_numbers_as_the_set_grows(tmp_path):
    # hops.c reads a state's number (its id) after the search: the set doubles 15 times
    # here, from 16 slots, and every key keeps the id it was given and is found by it
    exe = tmp_path / "chain-sets"
    flags = [f for f in native_build.FLAGS if f not in ("-shared", "-fPIC", "-Werror")]
    done = compile_c(tmp_path, CHAIN_SETS, macros(64, 2, 2, 4, 3, None), [*flags, "-o", str(exe)])
    assert done.returncode == 0, done.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0 and int(run.stdout) >= 2 * 300_000


def test_the_python_thread_limit_is_the_solvers():
    # solve() and --threads refuse past MAX_THREADS; the C solver would clamp silently
    from interpreter.search.native_solve import MAX_THREADS
    found = re.search(r"#define SV_MAX_THREADS (\d+)", (NATIVE / "solver" / "base.c").read_text())
    assert found and int(found.group(1)) == MAX_THREADS


def test_the_python_error_codes_are_the_solvers():
    # native_solve.py turns the solver's return codes into messages and fallbacks: a code
    # renumbered on one side only would give the wrong message, or a silent fallback
    enum = re.search(r"enum \{ (SV_ERR_INDEX[^}]*)\}", (NATIVE / "solver" / "base.c").read_text())
    assert enum
    codes = {name: int(value) for name, value in re.findall(r"SV_ERR_(\w+) = (-\d+)", enum.group(1))}
    memory = re.search(r"#define RC_ERR_MEMORY \((-\d+)\)", (NATIVE / "rulecraft.h").read_text())
    assert memory
    codes["MEMORY"] = int(memory.group(1))
    for name in ("MEMORY", "STOP", "POSITIONS", "INDEX", "BLOCKS", "DISK"):
        assert getattr(native_solve, "ERR_" + name) == codes[name], name
