"""Run each case in a forked worker, within a time and a memory budget, and classify it.

Outcomes:

| status     | meaning |
| ---------- | ------- |
| ok         | the input was accepted and everything run on it worked |
| clean      | a clean diagnostic: RulesetError, PositionError, IllegalActionError, ValueError of a
|            | solution file, or a CLI exit code 0/1/2 without a traceback |
| TRACEBACK  | any other exception |
| INVARIANT  | no exception, but a documented property failed (a text form that does not round-trip) |
| TIMEOUT    | over the CPU-time budget, or blocked past the wall-clock one (the stack where
|            | it was, from faulthandler) |
| MEMORY     | MemoryError under the memory budget (RLIMIT_AS, above what the worker had) |
| CRASH      | the worker died (a signal) without a report |
| CANARY     | a game file's text reached Python: the canary file or global exists |
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import json
import os
import pickle
import random
import re
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field

from .inputs import COLLIDER_SLOTS, Case, Context, collider_name, collider_ruleset
from .lsp_cases import eval_lsp
from .native_cases import eval_native
from .solver_cases import eval_solver
from .serve_cases import eval_serve
from .names import CANARY_NAME, canary_tripped, clear_canary

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILURES = ("TRACEBACK", "INVARIANT", "TIMEOUT", "MEMORY", "CRASH", "CANARY")
STATUSES = ("ok", "clean") + FAILURES
PROJECT_DIRS = ("dsl", "interpreter", "grammar", "rulesets")


class Invariant(AssertionError):
    """A documented property that does not hold (not an exception of the code under test).

    `kind` names the property (the failure's site, for deduplication)."""

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        self.kind = kind


@dataclass
class Outcome:
    status: str
    site: str = ""  # where it failed: file:line in function: exception type
    detail: str = ""  # the traceback's last lines, or the message
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)  # observations that are not failures

    def failed(self) -> bool:
        return self.status in FAILURES


# ---------------------------------------------------------------- crash sites
def _project_path(filename: str) -> str | None:
    if filename.startswith("<rulecraft"):
        return "<generated code>"
    path = os.path.abspath(filename)
    if path.startswith(REPO + os.sep):
        rel = os.path.relpath(path, REPO)
        if rel.split(os.sep)[0] in PROJECT_DIRS:
            return rel
    m = re.search(r"site-packages/rulecraft/(.*)$", filename)
    return m.group(1) if m else None


def site_of(exc: BaseException) -> str:
    """The innermost frame in the project's own code, and the exception's type."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for fr in reversed(frames):
        p = _project_path(fr.filename)
        if p is not None:
            where = f"{p}:{fr.lineno} in {fr.name}" if p != "<generated code>" else f"<generated code> in {fr.name}"
            break
    if not where and frames:
        fr = frames[-1]
        where = f"{os.path.basename(fr.filename)}:{fr.lineno} in {fr.name}"
    return f"{where}: {type(exc).__name__}"


def tail(exc: BaseException, lines: int = 14) -> str:
    text = "".join(traceback.format_exception(exc))
    out = text.rstrip().splitlines()
    return "\n".join(out[-lines:])


def _site_from_dump(dump: str) -> str:
    """The innermost project frame of a faulthandler dump ("File ..., line N in f")."""
    for line in dump.splitlines():
        m = re.match(r'\s*File "(.*)", line (\d+) in (\S+)', line)
        if m:
            p = _project_path(m.group(1))
            if p is not None:
                return f"{p}:{m.group(2)} in {m.group(3)}" if p != "<generated code>" else \
                    f"<generated code> in {m.group(3)}"
    return "(no project frame)"


# ---------------------------------------------------------------- evaluating a case
def write_files(case: Case, where: str) -> None:
    for name, content in case.files.items():
        path = os.path.join(where, name)
        if isinstance(content, bytes):
            data = content
        else:
            data = content.encode("utf-8", "surrogateescape")
        with open(path, "wb") as f:
            f.write(data)


def evaluate(case: Case, ctx: Context, work: str | None = None) -> Outcome:
    """Run one case in this process (the worker), in a fresh folder (`work`, which the
    caller then removes, else one made and removed here); exceptions of the code under
    test propagate. The canary is checked there, whatever happened."""
    own = work is None
    work = work or tempfile.mkdtemp(prefix="rcfuzz-")
    old = os.getcwd()
    tripped = None
    try:
        write_files(case, work)
        os.chdir(work)
        try:
            return EVALUATORS[case.category](case, ctx)
        finally:
            tripped = canary_tripped()
    finally:
        os.chdir(old)
        if own:
            shutil.rmtree(work, ignore_errors=True)
        if tripped:
            raise Canary(tripped)


class Canary(Exception):
    """A game file's text ran as Python (the canary file or global exists)."""


RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202e]")


def _diagnostic_notes(text: str) -> list[str]:
    notes = []
    if "\x1b" in text:
        notes.append("a message echoes a raw ESC (ANSI escape) to the terminal")
    elif RAW_CONTROL.search(text):
        notes.append("a message echoes a raw control character")
    return notes


def eval_ruleset(case: Case, ctx: Context, light: bool = False) -> Outcome:
    from dsl.diagnostics import RulesetError
    from dsl.load import load
    from interpreter import Game

    try:
        rs = load(case.main_file())
    except RulesetError as e:
        msg = e.format()
        if not msg.strip() or "Traceback" in msg:
            raise Invariant(f"an empty or odd diagnostic: {msg[:200]!r}")
        return Outcome("clean", detail=msg.splitlines()[0][:300], notes=_diagnostic_notes(msg))
    game = Game(rs)
    check_generated_code(game)
    rng = random.Random(str(case.params.get("seed", 0)))
    exercise(game, rng, playouts=1 if light else 3, max_plies=8 if light else 40)
    if not light:
        positions_check(game, rng)
        if rng.random() < SOLVE_SHARE:
            solve_check(game, rng)
    return Outcome("ok")


def positions_check(game, rng: random.Random) -> None:
    """Positions of this game other than reachable ones: a reachable position's text with
    board characters, values or the player changed; read (or refused), then played from."""
    from interpreter import PositionError

    from .chooser import RandomChooser
    from .inputs import reachable, shake_position

    ch = RandomChooser(rng.random())
    for _ in range(3):
        text = shake_position(ch, game.state_to_text(reachable(ch, game, 12)), game)
        try:
            s = game.state_from_text(text)
        except PositionError:
            continue
        exercise(game, rng, start=s, playouts=1, max_plies=10)


SOLVE_SHARE = 0.25  # of the accepted rulesets, the share also solved (a small bound)


def solve_check(game, rng: random.Random) -> None:
    """Solve the game (at most a few thousand positions), save the solution, read it back:
    the same values. SolveError (too many positions, not two players) is a clean refusal."""
    from interpreter.search.solver import Solution, SolveError, solve

    try:
        sol = solve(game, symmetry=rng.random() < 0.5, max_positions=3000, max_memory=200 << 20)
    except SolveError:
        return
    root = game.initial_state()
    value = sol.lookup(root)
    sol.best_actions(root)
    sol.analyze(root)
    sol.save("solved.sol")
    back = Solution.load("solved.sol", game)
    if back.lookup(root) != value:
        raise Invariant(f"a saved solution reads back with another value: {value} then {back.lookup(root)}",
                        kind="Solution.load(save(sol)) differs")


def eval_colliders(case: Case, ctx: Context) -> Outcome:
    """The rotation's ruleset; if it is refused, each slot alone (the others safe names),
    so that every collider is tried, and compiled where accepted, in every slot."""
    first = eval_ruleset(case, ctx, light=True)
    if first.status == "ok" and not case.params.get("risky"):
        return first
    accepted = first.status == "ok"
    for slot in COLLIDER_SLOTS[1:] if case.params.get("risky") else COLLIDER_SLOTS:
        text = collider_ruleset(case.params["rotation"], only=slot)
        with open("slot.game", "w", encoding="utf-8") as f:
            f.write(text)
        sub = Case("ruleset", {}, {"file": "slot.game", "seed": 0})
        try:
            out = eval_ruleset(sub, ctx, light=True)
        except Exception as e:  # report it with the slot that triggered it
            e.add_note(f"(the collider {collider_name(case.params['rotation'], slot)!r} in slot {slot}; "
                       f"the ruleset: collider_ruleset({case.params['rotation']}, only={slot!r}))")
            raise
        accepted += out.status == "ok"
    return Outcome("clean" if accepted == 0 else "ok", detail=first.detail)


def check_generated_code(game) -> None:
    """No name of the game file is an identifier of the generated code."""
    if re.search(rf"\b{CANARY_NAME}", game.python_rules.source):
        raise Invariant(f"the game file's name {CANARY_NAME} appears in the generated code")


def roundtrip(game, s) -> str:
    from interpreter import PositionError

    text = game.state_to_text(s)
    try:
        back = game.state_from_text(text)
    except PositionError as e:
        raise Invariant(f"state_from_text refuses state_to_text's own text {text!r}: {e}",
                        kind=f"state_from_text refuses its own text ({site_of(e)})") from None
    if back != s:
        raise Invariant(f"state_from_text(state_to_text(s)) != s for {text!r}: {s} read back as {back}",
                        kind="state_from_text(state_to_text(s)) != s")
    return text


MAX_PERFT_WIDTH = 400  # opening plies past which perft stops at depth 1


def exercise(game, rng: random.Random, start=None, perft_depth: int = 2, playouts: int = 2,
             max_plies: int = 30) -> None:
    """perft to depth 2, seeded random playouts with the text forms checked on the way."""
    from interpreter import perft

    s0 = game.initial_state() if start is None else start
    roundtrip(game, s0)
    game.render(s0)
    if len(game.legal_actions(s0)) > MAX_PERFT_WIDTH:
        perft_depth = 1  # a big board's tree: depth 2 would be the width squared
        # and each ply's text reads every legal ply's (about 6 us each): fewer plies
        max_plies = min(max_plies, 8)
    perft(game, s0, perft_depth)
    for _ in range(playouts):
        s = s0
        for _ in range(max_plies):
            if game.is_terminal(s):
                game.returns(s)
                break
            acts = game.legal_actions(s)
            if not acts:
                break
            if len(set(acts)) != len(acts):
                raise Invariant(f"legal_actions lists a ply twice in {game.state_to_text(s)!r}")
            for a in rng.sample(acts, min(2, len(acts))):
                text = game.action_to_text(s, a)
                back = game.action_from_text(s, text)
                if back != a:
                    raise Invariant(f"action_from_text(action_to_text(a)) != a for {text!r} in "
                                    f"{game.state_to_text(s)!r}: {a} read back as {back}",
                                    kind="action_from_text(action_to_text(a)) != a")
            s = game.apply(s, rng.choice(acts))
            roundtrip(game, s)
        game.render(s)
        game.returns(s)


def eval_position(case: Case, ctx: Context) -> Outcome:
    from interpreter import PositionError

    game = ctx.games[case.params["ruleset"]]
    try:
        s = game.state_from_text(case.params["text"])
    except PositionError as e:
        msg = str(e)
        if not msg:
            raise Invariant("a PositionError without a message")
        return Outcome("clean", detail=msg[:300], notes=_diagnostic_notes(msg))
    exercise(game, random.Random(str(case.params.get("seed", 0))), start=s, playouts=2, max_plies=20)
    return Outcome("ok")


def eval_ply(case: Case, ctx: Context) -> Outcome:
    from interpreter import IllegalActionError

    game = ctx.games[case.params["ruleset"]]
    s = game.state_from_text(case.params["state"])
    try:
        a = game.action_from_text(s, case.params["text"])
    except IllegalActionError as e:
        return Outcome("clean", detail=str(e)[:300], notes=_diagnostic_notes(str(e)))
    if a not in game.legal_actions(s):
        raise Invariant(f"action_from_text gave {a}, which is not legal")
    s2 = game.apply(s, a)
    roundtrip(game, s2)
    game.legal_actions(s2)
    return Outcome("ok")


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """The CLI in this process: (exit code, stdout, stderr). Exceptions propagate."""
    from interpreter.apps.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        sys.stdin = old_in
    return code, out.getvalue(), err.getvalue()


def _cli_outcome(code, out: str, err: str) -> Outcome:
    if "Traceback" in err or "Traceback" in out:
        raise Invariant(f"a traceback printed (exit {code}): {err[-600:]}")
    if code not in (0, 1, 2):
        raise Invariant(f"exit code {code!r} (0, 1 or 2 expected); stderr: {err[-300:]}")
    first = (err.strip().splitlines() or [""])[0][:300]
    return Outcome("ok" if code == 0 else "clean", detail=f"exit {code}: {first}", notes=_diagnostic_notes(err))


def eval_cli(case: Case, ctx: Context) -> Outcome:
    code, out, err = run_cli(case.params["argv"], case.params.get("stdin", ""))
    return _cli_outcome(code, out, err)


def eval_solution(case: Case, ctx: Context) -> Outcome:
    from dsl.load import load
    from interpreter import Game, load_game
    from interpreter.search.solver import Solution

    if case.params.get("missing"):
        raise Invariant("no solution file could be made for the solution category (solve failed)")
    ruleset = case.params["ruleset"]
    game = load_game(ruleset) if not ruleset.endswith(".game") else Game(load(ruleset))
    status = "ok"
    try:
        sol = Solution.load("sol.bin", game)
    except (ValueError, OSError) as e:
        status, detail = "clean", str(e)[:300]
    else:
        detail = "loaded"
        root = game.initial_state()
        try:  # an edited file, sealed again, may lack the children of what it holds
            for s in (root, game.state_from_text(case.params["position"])):
                if s in sol:
                    sol.lookup(s)
                    sol.analyze(s)
                    sol.best_actions(s)
        except ValueError as e:
            status, detail = "clean", str(e)[:300]
    argv = ["analyze", ruleset, "--position", case.params["position"], "--solution", "sol.bin"]
    if case.params.get("player"):
        argv = ["play", ruleset, "--players", "perfect:sol.bin,random", "--seed", "1", "--max-plies", "12"]
    cli = _cli_outcome(*run_cli(argv))
    return Outcome(status, detail=f"{detail}; cli {cli.detail}", notes=cli.notes)


EVALUATORS = {
    "ruleset-gen": eval_ruleset,
    "ruleset-grammar": eval_ruleset,
    "ruleset-mutant": eval_ruleset,
    "ruleset-variant": eval_ruleset,
    "ruleset": eval_ruleset,
    "colliders": eval_colliders,
    "position": eval_position,
    "ply": eval_ply,
    "scenario": eval_cli,
    "solution": eval_solution,
    "cli": eval_cli,
    "native": eval_native,
    "solver": eval_solver,
    "lsp": eval_lsp,
    "serve": eval_serve,
}


def classify(exc: BaseException) -> Outcome:
    if type(exc).__name__ == "RuleLimitError" and re.match(r"\S+:\d+:\d+: error: |<ruleset>: error: ", str(exc)):
        # interpreter/runtime/limits.py: a ruleset that checks went past a bound while playing (a
        # variable out of its range, too many chains): a diagnostic naming the rule, by design
        return Outcome("clean", detail=str(exc).splitlines()[0][:300], notes=["a rule limit reached in play"])
    if isinstance(exc, Invariant):
        notes = "\n".join(getattr(exc, "__notes__", []))
        return Outcome("INVARIANT", site=f"invariant: {exc.kind or _invariant_kind(str(exc))}",
                       detail=(str(exc)[:2000] + ("\n" + notes if notes else "")))
    if isinstance(exc, MemoryError):
        return Outcome("MEMORY", site=site_of(exc), detail=tail(exc))
    if isinstance(exc, RecursionError):
        return Outcome("TRACEBACK", site=site_of(exc), detail=tail(exc, 8))
    return Outcome("TRACEBACK", site=site_of(exc), detail=tail(exc))


def _invariant_kind(message: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "…", message)[:90]


def evaluate_safely(case: Case, ctx: Context, work: str | None = None) -> Outcome:
    """evaluate() with every exception classified and the canary checked (in the worker)."""
    clear_canary()
    begin = time.perf_counter()
    try:
        out = evaluate(case, ctx, work)
    except Canary as exc:
        out = Outcome("CANARY", site="canary: " + str(exc), detail=tail(exc))
    except BaseException as exc:  # noqa: BLE001 - classifying is the point
        if isinstance(exc, KeyboardInterrupt):
            raise
        out = classify(exc)
    out.seconds = time.perf_counter() - begin
    return out


# ---------------------------------------------------------------- the forked worker
@dataclass
class Budget:
    """What one case may use.

    The time is CPU time (RLIMIT_CPU), so that a case is not failed for the machine being
    busy; a case that blocks instead of computing is stopped by the wall clock, `wall_factor`
    times as long. The memory is address space beyond what the worker has when it forks:
    what the parent process already maps (libraries, numpy's buffers) depends on what it
    ran before, and is not the case's."""
    seconds: float = 10.0
    memory: int = 1 << 30  # bytes of address space
    wall_factor: float = 6.0

    @property
    def wall(self) -> float:
        return self.seconds * self.wall_factor


def _address_space() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _limit(which: int, soft: int) -> None:
    hard = resource.getrlimit(which)[1]
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):
        pass


def _child(case_or_maker, ctx: Context, budget: Budget, wfd: int, dump_path: str, work: str) -> None:
    _limit(resource.RLIMIT_AS, _address_space() + budget.memory)
    _limit(resource.RLIMIT_CPU, max(1, round(budget.seconds)))
    _limit(resource.RLIMIT_CORE, 0)  # SIGXCPU's and SIGSEGV's default actions write no core file
    dump = open(dump_path, "w")
    faulthandler.enable(dump)
    # Over the CPU time: the stack, then SIGXCPU's default action ends the worker.
    faulthandler.register(signal.SIGXCPU, file=dump, all_threads=True, chain=True)
    faulthandler.dump_traceback_later(budget.wall, exit=True, file=dump)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 3000))
    case = None
    try:
        case = case_or_maker() if callable(case_or_maker) else case_or_maker
        out = evaluate_safely(case, ctx, work)
    except BaseException as exc:  # noqa: BLE001 - a generator's own failure
        out = Outcome("TRACEBACK", site="(generator) " + site_of(exc), detail=tail(exc))
    faulthandler.cancel_dump_traceback_later()
    payload = pickle.dumps((out, case if out.failed() and callable(case_or_maker) else None))
    with os.fdopen(wfd, "wb") as w:
        w.write(payload)


class Running:
    def __init__(self, pid: int, rfd: int, dump: str, work: str, deadline: float, tag):
        self.pid, self.rfd, self.dump, self.work, self.deadline, self.tag = pid, rfd, dump, work, deadline, tag
        self.data = bytearray()
        self.begin = time.perf_counter()


def start(case_or_maker, ctx: Context, budget: Budget, tag=None) -> Running:
    rfd, wfd = os.pipe()
    fd, dump = tempfile.mkstemp(prefix="rcfuzz-dump-")
    os.close(fd)
    work = tempfile.mkdtemp(prefix="rcfuzz-")  # removed by finish(): a worker killed cannot
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the worker
        code = 0
        try:
            os.close(rfd)
            devnull = os.open(os.devnull, os.O_RDWR)
            os.dup2(devnull, 0)
            os.dup2(devnull, 1)
            _child(case_or_maker, ctx, budget, wfd, dump, work)
        except BaseException:  # noqa: BLE001
            code = 3
        finally:
            os._exit(code)
    os.close(wfd)
    return Running(pid, rfd, dump, work, time.monotonic() + budget.wall + 5, tag)


def finish(run: Running, killed: bool) -> tuple[Outcome, Case | None]:
    os.close(run.rfd)
    _, status = os.waitpid(run.pid, 0)
    shutil.rmtree(run.work, ignore_errors=True)
    try:
        with open(run.dump, errors="replace") as f:
            dump = f.read()
    finally:
        os.remove(run.dump)
    seconds = time.perf_counter() - run.begin
    if run.data and not killed:
        try:
            out, case = pickle.loads(bytes(run.data))
            return out, case
        except Exception:  # noqa: BLE001 - a truncated report
            pass
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if "Timeout" in dump or killed or sig == signal.SIGXCPU:
        what = "over the CPU time at " if sig == signal.SIGXCPU else "timeout at "
        return Outcome("TIMEOUT", site=what + _site_from_dump(dump), detail=_dump_tail(dump),
                       seconds=seconds), None
    if sig == signal.SIGKILL:
        return Outcome("MEMORY", site="killed (SIGKILL: out of memory?)", detail=_dump_tail(dump),
                       seconds=seconds), None
    what = f"signal {signal.Signals(sig).name}" if sig else f"exit status {os.WEXITSTATUS(status)}"
    return Outcome("CRASH", site=f"worker died ({what}) at {_site_from_dump(dump)}", detail=_dump_tail(dump),
                   seconds=seconds), None


def _dump_tail(dump: str) -> str:
    lines = [l for l in dump.splitlines() if l.strip()]
    return "\n".join(lines[:16])


def run_case(case: Case, ctx: Context, budget: Budget | None = None) -> Outcome:
    """One case in a fresh forked worker (the test suite's entry)."""
    run = start(case, ctx, budget or Budget())
    killed = _wait(run)
    return finish(run, killed)[0]


def _wait(run: Running) -> bool:
    while True:
        left = run.deadline - time.monotonic()
        if left <= 0:
            os.kill(run.pid, signal.SIGKILL)
            return True
        ready, _, _ = select.select([run.rfd], [], [], left)
        if ready:
            chunk = os.read(run.rfd, 1 << 16)
            if not chunk:
                return False
            run.data += chunk


def run_many(makers, ctx: Context, budget: Budget, jobs: int, on_result) -> None:
    """Run the cases (callables making each case in the worker) `jobs` at a time;
    on_result(tag, outcome, case_or_None) is called as each finishes."""
    pending = list(makers)
    pending.reverse()
    running: dict[int, Running] = {}
    while pending or running:
        while pending and len(running) < jobs:
            tag, maker = pending.pop()
            r = start(maker, ctx, budget, tag)
            running[r.rfd] = r
        now = time.monotonic()
        timeout = max(0.0, min(r.deadline for r in running.values()) - now)
        ready, _, _ = select.select(list(running), [], [], timeout)
        for fd in ready:
            r = running[fd]
            chunk = os.read(fd, 1 << 16)
            if chunk:
                r.data += chunk
                continue
            del running[fd]
            out, case = finish(r, killed=False)
            on_result(r.tag, out, case)
        now = time.monotonic()
        for fd, r in list(running.items()):
            if now >= r.deadline:
                os.kill(r.pid, signal.SIGKILL)
                del running[fd]
                out, case = finish(r, killed=True)
                on_result(r.tag, out, case)


# ---------------------------------------------------------------- failures on disk
def save_case(case: Case, outcome: Outcome, folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    write_files(case, folder)
    if case.category == "colliders":  # each slot alone, as eval_colliders tries them
        for slot in COLLIDER_SLOTS:
            with open(os.path.join(folder, f"slot-{slot}.game"), "w", encoding="utf-8") as f:
                f.write(collider_ruleset(case.params["rotation"], only=slot))
    with open(os.path.join(folder, "case.json"), "w", encoding="utf-8") as f:
        json.dump({"category": case.category, "label": case.label, "params": case.params,
                   "files": sorted(case.files)}, f, indent=1, ensure_ascii=True)
    with open(os.path.join(folder, "outcome.txt"), "w", encoding="utf-8", errors="backslashreplace") as f:
        f.write(f"{outcome.status}\n{outcome.site}\n\n{outcome.detail}\n\n{reproducer(case)}\n")


def load_case(folder: str) -> Case:
    with open(os.path.join(folder, "case.json"), encoding="utf-8") as f:
        meta = json.load(f)
    files: dict[str, str | bytes] = {}
    for name in meta["files"]:
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        files[name] = data if name.endswith((".bin", ".sol")) or name == "b.game" else \
            data.decode("utf-8", "surrogateescape")
    return Case(meta["category"], files, meta["params"], meta.get("label", ""))


def reproducer(case: Case) -> str:
    """How to see the failure by hand."""
    p = case.params
    if case.category in ("ruleset-gen", "ruleset-grammar", "ruleset-mutant", "colliders"):
        return f"reproduce: rulecraft check {p['file']} && rulecraft perft {p['file']} --depth 2"
    if case.category == "position":
        return f"reproduce: rulecraft info {p['ruleset']} --position {json.dumps(p['text'])}"
    if case.category == "ply":
        return (f"reproduce (Python): g = load_game({p['ruleset']!r}); "
                f"s = g.state_from_text({p['state']!r}); g.action_from_text(s, {p['text']!r})")
    if case.category in ("scenario", "cli"):
        stdin = f" < stdin ({p.get('stdin')!r})" if p.get("stdin") else ""
        return "reproduce: rulecraft " + " ".join(json.dumps(a) if not re.fullmatch(r"[\w./:,+-]+", a) else a
                                                  for a in p["argv"]) + stdin
    if case.category == "solution":
        return (f"reproduce: rulecraft analyze {p['ruleset']} --position {json.dumps(p['position'])} "
                f"--solution sol.bin")
    return ""


def replay(folder: str) -> int:
    """Run a saved case in this process, printing the exception in full."""
    case = load_case(folder)
    ctx = Context()
    work = os.path.abspath(folder)
    old = os.getcwd()
    os.chdir(work)
    try:
        out = EVALUATORS[case.category](case, ctx)
        print(f"{out.status}: {out.detail}")
        return 0
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        return 1
    finally:
        os.chdir(old)


def minimize(case: Case, target: Outcome, ctx: Context, budget: Budget, tries: int = 80) -> Case:
    """Greedy deletion of lines, then of tokens, in the case's main text while the failure
    (status and site) stays the same. Each try is a forked run."""
    key = _text_key(case)
    if key is None or target.status == "TIMEOUT":
        return case
    import copy

    def same(c: Case) -> bool:
        out = run_case(c, ctx, budget)
        return out.status == target.status and out.site == target.site

    def get(c: Case) -> str:
        return c.files[key] if isinstance(key, str) and key in c.files else c.params[key[1]]

    def put(c: Case, text: str) -> Case:
        c2 = copy.deepcopy(c)
        if isinstance(key, str):
            c2.files[key] = text
        else:
            c2.params[key[1]] = text
        return c2

    best = case
    for unit in ("line", "token"):
        text = get(best)
        parts = text.split("\n") if unit == "line" else re.split(r"(\s+)", text)
        chunk = max(1, len(parts) // 2)
        while chunk >= 1 and tries > 0:
            i, progress = 0, False
            while i < len(parts) and tries > 0:
                trial = parts[:i] + parts[i + chunk:]
                joined = ("\n" if unit == "line" else "").join(trial)
                if not joined.strip():
                    i += chunk
                    continue
                tries -= 1
                cand = put(best, joined)
                if same(cand):
                    best, parts, progress = cand, trial, True
                else:
                    i += chunk
            if not progress:
                chunk //= 2
    return best


def _text_key(case: Case):
    if case.category.startswith("ruleset"):
        return "fuzz.game"
    if case.category == "scenario":
        return "fuzz.yaml"
    if case.category in ("position", "ply"):
        return ("params", "text")
    return None


def to_dict(outcome: Outcome) -> dict:
    return asdict(outcome)
