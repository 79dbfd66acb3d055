"""Building a game's C into a shared library with the machine's C compiler, cached.

A library is kept in the user's cache directory under a key made of the C source (which
holds every table of the ruleset and the generator's own text) and the compiler and its
flags, so a changed ruleset or generator builds anew and an unchanged one loads at once.
ctypes loads it: the standard library's own way to call C, so the core needs no other
dependency (cffi would be a fifth).
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from pathlib import Path

from interpreter.native.cgen import GENERATOR_VERSION

# -fwrapv: a counter's arithmetic wraps as two's complement (no undefined behaviour);
# the generated code is compiled with every warning an error (a warning is a generator bug),
# but for a comparison always true or false for its types (`count(x) <= 3000000000`), which
# a ruleset may well write, and gcc's array bounds, which it reports in loops that cannot
# run (a push on a board of one cell: `for (k = OFF[d]; k < OFF[d + 1]; k++) T[k]`, with
# an empty table); the tests and the fuzzer compare every generator with Python's instead.
FLAGS = ["-O2", "-std=gnu11", "-fPIC", "-shared", "-pthread", "-fwrapv", "-Wall", "-Wextra", "-Werror",
         "-Wno-unused-parameter", "-Wno-type-limits", "-Wno-array-bounds"]
# seconds: the largest C generate_c writes (csource.MAX_C_BYTES) builds in about 10
BUILD_TIMEOUT = 60


class NativeUnavailable(Exception):
    """The native back-end cannot be used here (no C compiler, or the build failed)."""


def one_line(e: NativeUnavailable) -> str:
    """Why a build failed, on one line: the reason, and the compiler's first error if it
    gave one (a notice is a line; that error is what a bug report needs)."""
    lines = str(e).splitlines()
    first = next((line for line in lines[1:] if ": error: " in line), None)
    if first is None:
        return lines[0].rstrip(":")
    where, error = first.split(": error: ", 1)
    return f"{lines[0].rstrip(':')}; its first error: {os.path.basename(where)}: {error}"


class NativeTooLarge(NativeUnavailable):
    """The ruleset's C would take too long to build (csource's limits): not built."""


def compiler() -> str | None:
    """The C compiler: $CC, else cc or gcc or clang on the PATH; None if there is none."""
    env = os.environ.get("CC")
    if env:
        return shutil.which(env)
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    return None


def cache_dir() -> Path:
    """Where built libraries are kept: $RULECRAFT_CACHE, else the user's cache directory."""
    root = os.environ.get("RULECRAFT_CACHE")
    if root:
        return Path(root) / "native"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulecraft" / "native"


# /proc/cpuinfo's name of an instruction set -> gcc's flag for it
CPU_FLAGS = {"popcnt": "-mpopcnt", "bmi1": "-mbmi", "bmi2": "-mbmi2", "abm": "-mlzcnt", "avx2": "-mavx2"}


@functools.cache
def cpu_flags() -> tuple[str, ...]:
    """The bit-manipulation and vector instruction sets an x86-64 processor lists
    (CPU_FLAGS): else a popcount is a call into libgcc, the solver packs cells bit by bit,
    the lowest bit is found with the slower `bsf`, and symmetries are tried one at a time.
    Part of the cache key, so a machine without them builds its own."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return ()
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split() for line in f if line.startswith("flags")), [])
    except OSError:
        return ()
    return tuple(flag for name, flag in CPU_FLAGS.items() if name in flags)


def build(source: str) -> Path:
    """The shared library of a C translation unit, built once (NativeUnavailable if not)."""
    cc = compiler()
    if cc is None:
        raise NativeUnavailable("no C compiler found (set CC, or install one, e.g. "
                                "`apt-get install gcc`)")
    flags = FLAGS + list(cpu_flags())
    key = hashlib.sha256("\0".join([str(GENERATOR_VERSION), cc, " ".join(flags), source]).encode()).hexdigest()
    folder = cache_dir()
    lib = folder / f"game-{key[:32]}.so"
    if lib.is_file():
        return lib
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        src = Path(tmp) / "game.c"
        src.write_text(source)
        out = Path(tmp) / "game.so"
        try:
            done = subprocess.run([cc, *flags, "-o", str(out), str(src)], capture_output=True, text=True,
                                  timeout=BUILD_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise NativeUnavailable(f"the C compiler did not finish within {BUILD_TIMEOUT} s") from None
        except OSError as e:
            raise NativeUnavailable(f"the C compiler failed to run: {e.strerror or e}") from None
        if done.returncode != 0:
            raise NativeUnavailable("the C compiler refused the generated code (a rulecraft bug):\n"
                                    + done.stderr[-4000:])
        os.replace(out, lib)  # atomic: another process sees the whole library or none
    return lib
