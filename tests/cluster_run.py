"""The Ray scenarios of tests/test_cluster.py, run in a process of their own (a process
that ever ran Ray keeps over a gigabyte of address space reserved, which would starve
the test worker's later forks under their address-space limits).

    python tests/cluster_run.py DIR    # prints one JSON object: what each scenario found

A simulated cluster (ray.cluster_utils.Cluster): a head and a second node, one CPU each.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

from dsl.load import load  # noqa: E402
from interpreter.apps.entry import main  # noqa: E402
from interpreter.native.build import compiler  # noqa: E402
from interpreter.runtime.game import Game  # noqa: E402
from interpreter.search import tiered  # noqa: E402
from interpreter.search.cluster import ray_run  # noqa: E402
from interpreter.search.solution import Solution  # noqa: E402
from interpreter.search.solver import solve  # noqa: E402
from tests.test_native_solver import SMALL_MUSKETEERS  # noqa: E402
from tests.test_sparse_blocks import _body  # noqa: E402


def _facts(sol: Solution) -> dict:
    """What two solutions must share to be the same."""
    st = sol.stats
    return {"keys": list(sol.keys), "values": list(sol.values), "rem": list(sol.remoteness),
            "stats": [st.positions, st.edges, st.terminal, st.symmetries, st.levels]}


def _body_of(sol: Solution, path: str) -> str:
    sol.save(path)
    with open(path, "rb") as f:
        return _body(f.read()).hex()


def bit_for_bit(run, game: Game, out: str) -> dict:
    here = solve(game)
    there = tiered.solve_tiered(game, game.initial_state(), [], f"{out}/tiers-1", run, chunk=2000)
    body = _body_of(there, f"{out}/there.sol")
    found = {"same": _facts(here) == _facts(there), "positions": len(there),
             "value": list(there.lookup(game.initial_state())),
             "same_file": _body_of(here, f"{out}/here.sol") == body}
    if compiler() is not None:  # the single process's default where there is a C compiler
        native = solve(Game(game.ruleset, backend="native"))
        found["same_file_as_native"] = _body_of(native, f"{out}/native.sol") == body
    return found


def _kill_a_worker_at_work(killed: list[int], stop: threading.Event) -> None:
    """SIGKILL the first Ray worker seen running a tier task (its process title)."""
    while not stop.is_set() and not killed:
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    title = f.read()
            except OSError:
                continue
            if title.startswith((b"ray::expand", b"ray::children")):
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
                return
        time.sleep(0.005)


def killed_worker(run, game: Game, out: str) -> dict:
    killed: list[int] = []
    stop = threading.Event()
    killer = threading.Thread(target=_kill_a_worker_at_work, args=(killed, stop))
    killer.start()
    try:
        sol = tiered.solve_tiered(game, game.initial_state(), [], f"{out}/tiers-2", run, chunk=100)
    finally:
        stop.set()
        killer.join()
    return {"killed": len(killed), "same": _facts(sol) == _facts(solve(game))}


def _main(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def command_line(address: str, out: str) -> dict:
    code, text, _ = _main(["solve", "tic-tac-toe", "--cluster", address, "--json", "-q"])
    saved = f"{out}/ttt.sol"
    code2, _, _ = _main(["solve", "tic-tac-toe", "--cluster", address, "--tier-dir",
                         f"{out}/tiers-3", "--save", saved, "-q"])
    game = Game(load("tic-tac-toe"))
    return {"codes": [code, code2], "json": json.loads(text),
            "saved": list(Solution.load(saved, game).lookup(game.initial_state()))}


def balance(address: str) -> dict:
    args = ["balance", "tic-tac-toe", "--players", "mcts:20,random", "--games", "12", "--seed",
            "7", "--json", "-q"]
    here = _main(args + ["--jobs", "2"])
    there = _main(args + ["--cluster", address])
    return {"codes": [here[0], there[0]], "same": here[1] == there[1],
            "games": json.loads(there[1])["games"]}


def scenarios(out: str) -> dict:
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        run = ray_run(cluster.address)
        path = f"{out}/m43.game"
        with open(path, "w") as f:
            f.write(SMALL_MUSKETEERS)
        game = Game(load(path))
        return {"bit_for_bit": bit_for_bit(run, game, out),
                "killed_worker": killed_worker(run, game, out),
                "command_line": command_line(cluster.address, out),
                "balance": balance(cluster.address)}
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    print(json.dumps(scenarios(sys.argv[1])))
