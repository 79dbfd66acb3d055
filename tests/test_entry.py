"""The `rulecraft` console command's entry point: Ctrl-C at any moment exits 130, quietly."""

import builtins
import os
import signal
import subprocess
import sys

import pytest

from rulecraft.interpreter import entry

SCRIPT = os.path.join(os.path.dirname(sys.executable), "rulecraft")


def test_ctrl_c_while_importing_the_command_line(monkeypatch, capsys):
    real_import = builtins.__import__

    def interrupted(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "rulecraft.interpreter" and "cli" in (fromlist or ()):
            raise KeyboardInterrupt
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert entry.main(["check", "3-spot"]) == 130
    assert capsys.readouterr() == ("", "")


def test_ctrl_c_while_running(monkeypatch, capsys):
    from rulecraft.interpreter import cli

    def interrupted(argv=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "main", interrupted)
    assert entry.main([]) == 130
    assert capsys.readouterr() == ("", "")


def test_the_entry_point_runs_the_command_line(capsys):
    assert entry.main(["check", "3-spot"]) == 0
    assert capsys.readouterr().out == "3-spot: ok (3-Spot: 9 cells, 3 opening plies)\n"


# A real SIGINT, sent by the process to itself the moment the command line's module
# starts to load (a finder at the head of sys.meta_path sees the import begin).
SIGINT_DURING_IMPORT = """
import os, signal, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "rulecraft.interpreter.cli":
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10**6):  # the handler runs between bytecodes, here
                pass
        return None

from rulecraft.interpreter import entry
assert "rulecraft.interpreter.cli" not in sys.modules
sys.meta_path.insert(0, Interrupt())
sys.exit(entry.main(["check", "3-spot"]))
"""


def test_a_real_sigint_during_the_import_exits_130_without_a_traceback():
    done = subprocess.run([sys.executable, "-c", SIGINT_DURING_IMPORT], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


def test_a_closed_pipe_is_quiet():
    code = ("import sys\nfrom rulecraft.interpreter import cli, entry\n"
            "def closed(argv=None):\n    raise BrokenPipeError\n"
            "cli.main = closed\nsys.exit(entry.main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(not os.path.exists(SCRIPT), reason="the rulecraft script is not installed beside this Python")
def test_the_installed_command_stopped_by_ctrl_c(tmp_path):
    # A game between two people waits for the first ply: Ctrl-C there.
    proc = subprocess.Popen([SCRIPT, "play", "3-spot", "--players", "human,human"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "\n"  # the board follows: the game has started
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "")


def test_importing_the_entry_point_loads_nothing_heavy():
    code = ("import sys\nimport rulecraft.interpreter.entry\n"
            "print(sorted(m for m in ('lark', 'networkx', 'rulecraft.dsl.load') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]"
