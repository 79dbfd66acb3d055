"""The `solve`, `analyze` and `verify` subcommands (`register`, called by interpreter/apps/cli.py).

    rulecraft solve FILE [--position TEXT] [--json] [--symmetry] [--save PATH] [--proof]
                         [--max-positions N] [--max-memory SIZE] [--out-of-core]
                         [--cluster ADDRESS] [--tier-dir PATH]
    rulecraft analyze FILE --position TEXT [--json] [--symmetry] [--solution PATH]
                           [--max-positions N] [--max-memory SIZE] [--out-of-core]
                           [--cluster ADDRESS] [--tier-dir PATH]
    rulecraft verify FILE --solution PATH [--samples N] [--seed S] [--json]

A solve stopped by a cap (positions, memory) or by running out of memory is a usage
error (exit 2), its message on stderr; with --json, `{"error": "..."}` is printed too.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from interpreter.apps.commands import (UsageError, add_command, emit_json, load_or_report,
    start_state)
from interpreter.runtime.game import Game, State
from interpreter.search.cluster import ClusterUnavailable
from interpreter.search.proof import proof_value
from interpreter.search.solver import (AUTO, BY_TIERS, MAX_THREADS, NOT_BY_TIERS, OutOfMemory,
    Solution, SolveError, parse_size, printable, solve)
from interpreter.search.symmetry import board_symmetries
from interpreter.search.verify import verify

# positions `verify` reports one by one (it counts them all)
SHOWN_PROBLEMS = 20


def _setup(args) -> tuple[Game, State]:
    game = load_or_report(args.file)
    return game, start_state(game, args.position)


def _fail(args, message: str):
    """A usage error; with --json, the JSON object `{"error": message}` on stdout first."""
    if args.json:
        emit_json({"error": message})
    return UsageError(message)


def _stopped(args, e: SolveError):
    """The usage error for a search stopped by a cap, with a word on how to raise it."""
    message = OUT_OF_MEMORY if isinstance(e, OutOfMemory) else str(e)
    if e.limit == "memory":
        message += ("; --max-memory SIZE sets another cap" if args.max_memory is not None else
                    " (three quarters of the memory available); --max-memory SIZE sets another")
    elif e.limit == "positions":
        message += " (--max-positions)"
    return _fail(args, message)


OUT_OF_MEMORY = ("ran out of memory (the machine had less free memory than the cap assumed): "
                 "give a lower --max-memory")


def _symmetry(game: Game, state: State, args) -> bool | list:
    """What --symmetry and --all-symmetries ask of `solve` and `proof_value`."""
    if args.all_symmetries:
        return board_symmetries(game, setups=False, start=state)
    return args.symmetry


# the options of a solve (_common's), and why each set of them does nothing where it is
# given: an error that says so rather than a silence
SOLVING = ("symmetry", "all_symmetries", "swap_players", "max_positions", "max_memory",
           "out_of_core", "cluster", "tier_dir", "threads", "arrangements")
UNUSED = {"proof": (("out_of_core", "cluster", "tier_dir", "threads", "arrangements"),
                    "--proof searches in Python, in this process, on one thread"),
          "proof_swap": (("swap_players",), "--proof keeps the players apart"),
          "tiers": (NOT_BY_TIERS, BY_TIERS),
          "solution": (SOLVING, "with --solution nothing is solved")}


def _unused(args, where: str) -> None:
    """A usage error for the first option given that does nothing `where` (UNUSED)."""
    names, why = UNUSED[where]
    for name in names:
        if getattr(args, name) not in (None, False):
            raise _fail(args, f"--{name.replace('_', '-')} does nothing here: {why}")


def _solve(game: Game, state: State, args) -> Solution:
    if args.cluster is not None or args.tier_dir is not None:
        _unused(args, "tiers")
    try:
        return solve(game, state, symmetry=_symmetry(game, state, args),
                     max_positions=args.max_positions,
                     max_memory=AUTO if args.max_memory is None else args.max_memory,
                     progress=not args.quiet and (args.progress or sys.stderr.isatty()),
                     out_of_core=True if args.out_of_core else None,
                     cluster=args.cluster, tier_dir=args.tier_dir, threads=args.threads,
                     swap_players=args.swap_players, arrangements=args.arrangements)
    except SolveError as e:
        raise _stopped(args, e) from None
    except ClusterUnavailable as e:
        raise _fail(args, str(e)) from None


def _method(st) -> str:
    """The name of what gave a solve's values, as `solve` prints it."""
    return ("one pass" if st.one_pass else "un-moves" if st.unmoves
            else "depth first" if st.depth_first else "retrograde")


def _describe(game: Game, state: State, value: str, remoteness: int | None) -> str:
    if game.is_terminal(state):
        w = game.winner(state)
        return "the game is over: " + ("a draw" if w is None else f"{game.players[w]} has won")
    who = game.players[game.to_move(state)]
    if value == "draw":
        return f"draw ({who} to move)"
    return f"{value} for {who} (the player to move) in {remoteness} plies"


def cmd_solve_by_proof(game: Game, state: State, args: argparse.Namespace) -> int:
    begin = time.perf_counter()
    failed = None
    try:
        value, wins, positions = proof_value(
            game, state, symmetry=_symmetry(game, state, args), mobility=True,
            progress=not args.quiet and (args.progress or sys.stderr.isatty()), max_positions=args.max_positions,
            max_memory=AUTO if args.max_memory is None else args.max_memory)
    except SolveError as e:
        failed = e
    except MemoryError:
        failed = OutOfMemory(OUT_OF_MEMORY)  # raised below, once the tables are let go
    if failed is not None:
        raise _stopped(args, failed) from None
    seconds = time.perf_counter() - begin
    best = [game.action_to_text(state, a) for a in wins]
    if args.json:
        emit_json({"value": value, "remoteness": None, "positions": positions, "best": best})
        return 0
    who = game.players[game.to_move(state)]
    print(f"{game.title}: {value} for {who} (the player to move), by proof-number search "
          f"(no remoteness)")
    print(f"positions in the tables: {positions:,}; {seconds:.2f} s")
    if best:
        print(f"plies proven to win: {', '.join(best)}")
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    game, state = _setup(args)
    if args.proof:
        if args.save:
            raise UsageError("--proof finds a value only; it has no solution to --save")
        _unused(args, "proof")
        _unused(args, "proof_swap")
        return cmd_solve_by_proof(game, state, args)
    if args.save:
        _check_writable(args.save)
    begin = time.perf_counter()
    sol = _solve(game, state, args)
    seconds = time.perf_counter() - begin
    value, remoteness = sol.lookup(state)
    best = [game.action_to_text(state, a) for a in sol.best_actions(state)]
    winning = _winning(sol, state) if value == "win" else []
    if args.save:
        try:
            sol.save(args.save)
        except OSError as e:
            raise _fail(args, f"--save: {printable(args.save)}: cannot write "
                              f"({e.strerror or e})") from None
        except SolveError as e:
            raise _fail(args, f"--save: {e}") from None
    if args.json:
        emit_json({"value": value, "remoteness": remoteness, "positions": len(sol), "best": best,
                   "winning": [{"ply": text, "remoteness": n} for text, n in winning]})
        return 0
    st = sol.stats
    print(f"{game.title}: {_describe(game, state, value, remoteness)}")
    sym = (f", {st.symmetries} symmetries" if args.symmetry or args.all_symmetries or args.swap_players
           else "")
    reach = "" if st.depth_first or args.arrangements else f"enumerate {st.enumerate_seconds:.2f} s, "
    every = " (every arrangement)" if args.arrangements else ""
    print(f"positions: {len(sol):,}{every}{sym}; {seconds:.2f} s ({reach}"
          f"{_method(st)} {st.retrograde_seconds:.2f} s; "
          f"{len(sol) / seconds:,.0f} positions/s)")
    counts = sol.counts()
    print(f"values: {counts['win']:,} win, {counts['lose']:,} lose, {counts['draw']:,} draw "
          f"(for the player to move)")
    if best:
        print(f"best: {', '.join(best)}")
    if winning:
        print(f"winning plies, quickest first: {', '.join(f'{text} (in {n})' for text, n in winning)}")
    if args.save:
        print(f"saved: {printable(args.save)}")
    return 0


def _winning(sol: Solution, state: State) -> list[tuple[str, int]]:
    """Every first ply that wins, with the plies to the end under perfect play, quickest
    first (in the order of the legal plies among equals)."""
    wins = [p for p in sol.analyze(state) if p.value == "win"]
    return [(p.text, p.remoteness) for p in sorted(wins, key=lambda p: p.remoteness)]


def cmd_analyze(args: argparse.Namespace) -> int:
    game, state = _setup(args)
    if args.solution:
        _unused(args, "solution")
        try:
            sol = Solution.load(args.solution, game)
        except ValueError as e:  # SolutionFileError: the message names the file
            raise UsageError(f"--solution: {e}") from None
        if state not in sol:
            raise UsageError("--solution: the position is not among those the solution holds")
    else:
        sol = _solve(game, state, args)
    value, remoteness = sol.lookup(state)
    try:
        plies = sol.analyze(state)
    except KeyError:  # a file that is sound, yet was not made by solving (none are)
        raise UsageError(f"--solution: {printable(args.solution)}: it lacks positions that the "
                         f"plies of this one lead to") from None
    best = set(sol.best_actions(state))
    if args.json:
        emit_json({"position": game.state_to_text(state), "value": value, "remoteness": remoteness,
                   "plies": [{"ply": p.text, "value": p.value, "remoteness": p.remoteness,
                              "best": p.action in best} for p in plies]})
        return 0
    print(game.render(state))
    print(f"value: {_describe(game, state, value, remoteness)}")
    if plies:
        width = max(len(p.text) for p in plies)
        print("plies (value for the mover; remoteness from this position, the ply included):")
        for p in plies:
            rem = "" if p.remoteness is None else f" in {p.remoteness}"
            star = "  *" if p.action in best else ""
            print(f"  {p.text:<{width}}  {p.value}{rem}{star}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    game = load_or_report(args.file)
    try:
        sol = Solution.load(args.solution, game)
    except ValueError as e:  # SolutionFileError: the message names the file
        raise UsageError(f"--solution: {e}") from None
    report = verify(sol, args.samples, args.seed)
    start = report.start
    if args.json:
        emit_json({"checked": report.checked, "positions": len(sol),
                   "start": {"value": start.value, "remoteness": start.remoteness},
                   "problems": report.problems})
        return 1 if report.problems else 0
    print(f"start: {_describe(game, sol.root, start.value, start.remoteness)}")
    sampled = report.checked - 1
    print(f"checked: {report.checked:,} positions (the start and {sampled:,} drawn with seed "
          f"{args.seed} from the {len(sol):,} the solution holds), each against its children")
    if not report.problems:
        print("every one agrees with its children")
        return 0
    print(f"{len(report.problems):,} disagree with their children:")
    for line in report.problems[:SHOWN_PROBLEMS]:
        print(f"  {line}")
    if len(report.problems) > SHOWN_PROBLEMS:
        print(f"  ... and {len(report.problems) - SHOWN_PROBLEMS:,} more")
    return 1


def _check_writable(path: str) -> None:
    """Refuse a --save path that cannot be written before spending time on the solve."""
    shown = printable(path)
    try:
        where = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise UsageError(f"--save: {shown}: is a directory")
        if not os.path.isdir(where):
            raise UsageError(f"--save: {shown}: no such directory {printable(where)}")
        if not os.access(path if os.path.exists(path) else where, os.W_OK):
            raise UsageError(f"--save: {shown}: cannot write (permission denied)")
    except ValueError:  # a NUL byte
        raise UsageError(f"--save: {shown}: not a usable file name") from None


def _positive_count(text: str) -> int:
    shown = repr(text if len(text) <= 30 else text[:27] + "...")
    if not (text.isascii() and text.isdigit()) or not text.strip("0"):
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, found {shown}")
    if len(text) > 15:
        raise argparse.ArgumentTypeError(f"must be at most 15 digits long, found {shown}")
    return int(text)


def _thread_count(text: str) -> int:
    n = _positive_count(text)
    if n > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_THREADS}, found {text!r}")
    return n


def _memory_size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--symmetry", action="store_true",
                   help="store one position per class of board symmetries (same results)")
    p.add_argument("--all-symmetries", action="store_true",
                   help="as --symmetry, with the board symmetries that move the setup too "
                        "(fewer positions; the same values)")
    p.add_argument("--swap-players", action="store_true",
                   help="store a position and its image with the players exchanged as "
                        "one, when the rules treat the players alike (fewer positions; the "
                        "same values)")
    p.add_argument("--max-positions", type=_positive_count, default=None, metavar="N",
                   help="give up past N reachable positions (with --proof: N positions in "
                        "the proof tables; default: no limit)")
    p.add_argument("--max-memory", type=_memory_size, default=None, metavar="SIZE",
                   help="give up before the search would need more memory than SIZE (500M, "
                        "2G, ...; K, M, G are powers of 1024); by default three quarters of "
                        "the memory available when it starts")
    p.add_argument("--out-of-core", action="store_true",
                   help="keep the solve's positions in a temporary file ($TMPDIR) and hold "
                        "one tier at a time in memory (native solver; by default, once the "
                        "memory cap would be passed)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="solve by tiers on a Ray cluster: its address (HOST:PORT, auto), "
                        "or local for this machine's cores (needs rulecraft[cluster])")
    p.add_argument("--tier-dir", metavar="PATH",
                   help="the solve by tiers keeps its files here (a directory every node "
                        "reaches, or an fsspec URL) and resumes from them; alone, it solves "
                        "by tiers in this process")
    p.add_argument("--threads", type=_thread_count, default=None, metavar="N",
                   help="the native solver's threads, 1 to 64 (default: 2, or 1 on a "
                        "machine of one core; the same results)")
    p.add_argument("--arrangements", action="store_true",
                   help="solve every arrangement of the pieces, reached or not, by un-moves "
                        "with no search for the positions reached (native solver, where no "
                        "ply puts down or takes off pieces; the same values, more positions)")
    p.add_argument("--progress", action="store_true",
                   help="report progress on stderr (the default when it is a terminal)")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `solve`, `analyze` and `verify` to the main parser's subcommands."""
    p = add_command(subparsers, "solve", "solve exactly: value, remoteness, positions, optimal first plies",
                    "Solve the game from the setup (or a position): every reachable position is "
                    "listed, then values are propagated back (retrograde analysis); where "
                    "positions never repeat, each is solved from its children's values as a "
                    "depth-first search first reaches it. Prints the "
                    "value for the player to move (win, lose or draw), the remoteness in plies, "
                    "the positions counted, the time and the optimal first plies. Stops cleanly "
                    "(exit 2) at --max-positions or before memory runs out. See docs/SOLUTIONS.md.",
                    ["rulecraft solve tic-tac-toe", "rulecraft solve 3-spot --symmetry --save 3-spot.sol",
                     "rulecraft solve three-musketeers --proof --max-memory 4G"])
    _common(p)
    p.add_argument("--position", metavar="TEXT", help="solve from this position's text (default: the setup)")
    p.add_argument("--save", metavar="PATH", help="write the solution to PATH (binary format)")
    p.add_argument("--proof", action="store_true",
                   help="value only, by proof-number search (for games too large to enumerate; "
                        "finite games: see docs/SOLUTIONS.md)")
    p.set_defaults(func=cmd_solve)

    p = add_command(subparsers, "analyze", "every legal ply of a position with its value",
                    "List every legal ply of a position with its value for the player making it "
                    "(win, lose, draw) and its remoteness, from a saved solution or by solving "
                    "first.",
                    ["rulecraft analyze tic-tac-toe --position 'X../.O./... X'",
                     "rulecraft analyze 3-spot --position '.../RWB/RWB Blue ply=1 score=0,0' "
                     "--solution 3-spot.sol"])
    _common(p)
    p.add_argument("--position", metavar="TEXT", required=True, help="the position's text")
    p.add_argument("--solution", metavar="PATH",
                   help="look values up in a saved solution (default: solve first)")
    p.set_defaults(func=cmd_analyze)

    p = add_command(subparsers, "verify", "check a saved solution against the rules",
                    "Check a saved solution against the rules: the start and positions drawn at "
                    "random from those it holds, each against its children (a win must have a "
                    "ply winning in its remoteness and none quicker, a loss only losing plies, "
                    "the longest in its remoteness, a draw no winning ply and a drawing one). "
                    "Exit 1 if any disagrees, listing them.",
                    ["rulecraft verify 3-spot --solution 3-spot.sol",
                     "rulecraft verify three-musketeers --solution tm.sol --samples 100000 --seed 7"])
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    p.add_argument("--solution", metavar="PATH", required=True, help="the saved solution")
    p.add_argument("--samples", type=_positive_count, default=10_000, metavar="N",
                   help="positions to draw (default: 10000; all of them if it holds fewer)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the draw's seed (default: 0)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_verify)
