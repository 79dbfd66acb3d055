"""The `rulecraft` console command's entry point: Ctrl-C at any moment exits 130, quietly."""

import builtins
import os
import signal
import subprocess
import sys

import pytest

from interpreter.apps import entry

SCRIPT = os.path.join(os.path.dirname(sys.executable), "rulecraft")


def _sigint_as_at_a_terminal() -> None:
    # A shell's background job (`cmd &` without job control, as under nohup) starts with
    # SIGINT ignored, and Python then leaves it ignored: the tests below would see exit 0.
    # A command started at a terminal has it at its default, as here.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_while_importing_the_command_line(monkeypatch, capsys):
    real_import = builtins.__import__

    def interrupted(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "interpreter.apps" and "cli" in (fromlist or ()):
            raise KeyboardInterrupt
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert entry.main(["check", "3-spot"]) == 130
    assert capsys.readouterr() == ("", "")


def test_ctrl_c_while_running(monkeypatch, capsys):
    from interpreter.apps import cli

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
        if name == "interpreter.apps.cli":
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10**6):  # the handler runs between bytecodes, here
                pass
        return None

from interpreter.apps import entry
assert "interpreter.apps.cli" not in sys.modules
sys.meta_path.insert(0, Interrupt())
sys.exit(entry.main(["check", "3-spot"]))
"""


def test_a_real_sigint_during_the_import_exits_130_without_a_traceback():
    done = subprocess.run([sys.executable, "-c", SIGINT_DURING_IMPORT], capture_output=True, text=True,
                          timeout=60, preexec_fn=_sigint_as_at_a_terminal)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


def test_a_closed_pipe_is_quiet():
    code = ("import sys\nfrom interpreter.apps import cli, entry\n"
            "def closed(argv=None):\n    raise BrokenPipeError\n"
            "cli.main = closed\nsys.exit(entry.main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(not os.path.exists(SCRIPT), reason="the rulecraft script is not installed beside this Python")
def test_the_installed_command_stopped_by_ctrl_c(tmp_path):
    # A game between two people waits for the first ply: Ctrl-C there.
    proc = subprocess.Popen([SCRIPT, "play", "3-spot", "--players", "human,human"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_sigint_as_at_a_terminal)
    assert proc.stdout.readline() == "\n"  # the board follows: the game has started
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "")


def test_importing_the_entry_point_loads_nothing_heavy():
    heavy = ("lark", "networkx", "dsl.load", "dsl.diagnostics", "importlib.metadata")
    code = ("import sys\nimport interpreter.apps.entry\n"
            f"print(sorted(m for m in {heavy!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]"


# ---------------------------------------------------------------- python -m rulecraft, --version

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def declared_version() -> str:
    """pyproject.toml's version: the one place it is written."""
    import tomllib

    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["version"]


def python_m(*args: str, cwd: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "rulecraft", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


def test_the_version_is_the_declared_one():
    import rulecraft

    assert declared_version() == "0.1.0"
    assert rulecraft.__version__ == declared_version()
    with pytest.raises(AttributeError):
        rulecraft.no_such_name


def test_python_m_rulecraft_version(tmp_path):
    assert python_m("--version", cwd=str(tmp_path)) == (0, "rulecraft 0.1.0\n", "")


def test_python_m_rulecraft_runs_a_command(tmp_path):
    assert python_m("check", "3-spot", cwd=str(tmp_path)) == (0, "3-spot: ok (3-Spot: 9 cells, 3 opening plies)\n", "")
    code, _, err = python_m("perft", "3-spot", cwd=str(tmp_path))
    assert code == 2 and "the following arguments are required: --depth" in err


def test_python_m_rulecraft_in_the_checkout():
    # There the checkout's rulecraft/ folder comes first on sys.path; the subpackages are
    # found all the same.
    assert python_m("--version", cwd=REPO) == (0, "rulecraft 0.1.0\n", "")
    assert python_m("check", "3-spot", cwd=REPO)[:2] == (0, "3-spot: ok (3-Spot: 9 cells, 3 opening plies)\n")


def test_no_arguments_print_the_help(tmp_path):
    code, out, err = python_m(cwd=str(tmp_path))
    assert (code, err) == (0, "")
    assert out.startswith("usage: rulecraft [-h] [--version] COMMAND ...\n\nCheck, inspect, play and analyse ")
    assert out == python_m("--help", cwd=str(tmp_path))[1]


@pytest.mark.skipif(not os.path.exists(SCRIPT), reason="the rulecraft script is not installed beside this Python")
def test_the_installed_command_version_and_help(tmp_path):
    done = subprocess.run([SCRIPT, "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "rulecraft 0.1.0\n", "")
    done = subprocess.run([SCRIPT], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == python_m("--help", cwd=str(tmp_path))[1]
