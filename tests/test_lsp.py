"""`rulecraft lsp`: a real client session over stdio (JSON-RPC with Content-Length framing,
spoken by the small client below), and the hover reference kept equal to docs/LANGUAGE.md."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_registry import EXPECTED_A_MOTION  # "expected 'anywhere', ...": the registry's motions

from dsl.constructs import motion_keywords

ROOT = Path(__file__).resolve().parent.parent

BROKEN = """game "Test"
board square 3 x 3
players Blue, Red
piece man: owner each, symbol B/R
region corner: a1, c3
var moves = 0
setup man of Blue: a1, b1
setup man of Red: a3, b3
ply go: move own man stepp onto empty then moves += 1
end stuck: draw if count(own mann) == 0
"""


def rng(line: int, start: int, end: int) -> dict:
    """An LSP range on one line (0-based, as the protocol counts)."""
    return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}


def read_frames(out, inbox: queue.Queue) -> None:
    """Put each framed JSON message of the stream `out` in `inbox`, then None at its end."""
    while True:
        headers = {}
        while True:
            line = out.readline()
            if not line:
                inbox.put(None)
                return
            if not line.strip():
                break
            key, value = line.decode("ascii").split(":", 1)
            headers[key.strip().lower()] = value.strip()
        inbox.put(json.loads(out.read(int(headers["content-length"]))))


class Client:
    """A language client: starts `python -m rulecraft lsp`, frames JSON-RPC messages with
    Content-Length headers, answers the server's own requests with null."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "rulecraft", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT / "tests")
        self.inbox: queue.Queue = queue.Queue()
        self.held: list[dict] = []
        self.last_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        read_frames(self.proc.stdout, self.inbox)

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def wait(self, match, timeout: float = 30) -> dict:
        """The first message (held back or new) for which `match` holds."""
        for m in self.held:
            if match(m):
                self.held.remove(m)
                return m
        deadline = time.monotonic() + timeout
        while True:
            m = self.inbox.get(timeout=max(deadline - time.monotonic(), 0.01))
            assert m is not None, "the server stopped: " + self.proc.stderr.read().decode()
            if "method" in m and "id" in m:  # a request of the server's (registrations, progress)
                self.send({"id": m["id"], "result": None})
            elif match(m):
                return m
            else:
                self.held.append(m)

    def request(self, method: str, params: dict):
        self.last_id += 1
        self.send({"id": self.last_id, "method": method, "params": params})
        answer = self.wait(lambda m: m.get("id") == self.last_id and "method" not in m)
        assert "error" not in answer, answer
        return answer["result"]

    def diagnostics(self, uri: str) -> list[dict]:
        """The next diagnostics published for `uri`."""
        found = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri)
        return found["params"]["diagnostics"]

    def open(self, uri: str, text: str) -> list[dict]:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulecraft",
                                                              "version": 1, "text": text}})
        return self.diagnostics(uri)

    def at(self, method: str, uri: str, line: int, character: int, **extra):
        return self.request(method, {"textDocument": {"uri": uri},
                                     "position": {"line": line, "character": character}, **extra})

    def stop(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        return self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("pygls", reason="the language server needs pygls: pip install 'rulecraft[lsp]'")
    c = Client()
    caps = {"textDocument": {"publishDiagnostics": {"relatedInformation": True},
                             "hover": {"contentFormat": ["markdown", "plaintext"]}}}
    result = c.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": caps})
    assert result["serverInfo"]["name"] == "rulecraft"
    c.notify("initialized", {})
    yield c
    assert c.stop() == 0


def test_diagnostics_on_open_and_on_change(client, tmp_path):
    uri = (tmp_path / "t.game").as_uri()  # never written: the editor's text is what is checked
    found = client.open(uri, BROKEN)
    assert found == [  # the hints in the message, where every client shows them
        {"range": rng(8, 21, 26), "severity": 1, "source": "rulecraft",
         "message": EXPECTED_A_MOTION + ", found 'stepp'\nhint: did you mean 'step'?"},
        {"range": rng(9, 25, 33), "severity": 1, "source": "rulecraft",
         "message": "unknown piece 'mann'\nhint: did you mean 'man'?"},
    ]
    # Two incremental edits of the unsaved text: `stepp` -> `step`, `mann` -> `man`.
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": rng(8, 21, 26), "text": "step"},
                           {"range": rng(9, 29, 33), "text": "man"}]})
    assert client.diagnostics(uri) == []


FIXED = BROKEN.replace("stepp", "step").replace("mann", "man")


def test_hover_on_a_keyword_and_on_names(client, tmp_path):
    uri = (tmp_path / "h.game").as_uri()
    assert client.open(uri, FIXED) == []
    step = client.at("textDocument/hover", uri, 8, 23)  # `step`
    assert step["range"] == rng(8, 21, 25)
    assert step["contents"]["kind"] == "markdown"
    assert step["contents"]["value"].startswith(
        "**`step`** — docs/LANGUAGE.md § ply\n\n`step [DIRS]` — to a neighbouring cell along one of "
        "the directions (no directions: any arc, links included)")
    man = client.at("textDocument/hover", uri, 8, 18)  # `man` in `move own man`
    assert man["contents"]["value"] == ("**piece** `man` (line 4)\n\n"
                                        "```rulecraft\npiece man: owner each, symbol B/R\n```")
    assert client.at("textDocument/hover", uri, 4, 16)["contents"]["value"].startswith(
        "**cell** `a1` (line 2)\n\na cell of the board")
    assert client.at("textDocument/hover", uri, 9, 20)["contents"]["value"] == (  # `count`
        "**`count`** — docs/LANGUAGE.md § Expressions\n\n`count(CELLS)` — the number of cells in the set")
    blue = client.at("textDocument/hover", uri, 2, 9)["contents"]["value"]
    assert blue.startswith("**player** `Blue` (line 3) — moves first")
    assert client.at("textDocument/hover", uri, 40, 0) is None  # past the end


def test_completion_in_context(client, tmp_path):
    text = FIXED + "ply hop: move own \nend e: draw if count(co\n\n"
    uri = (tmp_path / "c.game").as_uri()
    client.open(uri, text)
    labels = lambda items: {i["label"] for i in items}  # noqa: E731
    after_own = labels(client.at("textDocument/completion", uri, 10, 18))
    assert {"man", "piece"} <= after_own and "corner" not in after_own and "ply" not in after_own
    in_expression = client.at("textDocument/completion", uri, 11, 23)
    assert {"corner", "moves", "man", "a1", "c3", "count", "Blue", "own", "empty"} <= labels(in_expression)
    assert {"ply", "board"}.isdisjoint(labels(in_expression))
    kinds = {i["label"]: (i["kind"], i["detail"]) for i in in_expression}
    assert kinds["corner"] == (9, "region") and kinds["a1"] == (12, "cell") and kinds["moves"] == (6, "variable")
    line_start = labels(client.at("textDocument/completion", uri, 12, 0))
    assert {"ply", "piece", "board", "end", "setup", "turn", "region", "var"} <= line_start
    assert {"new", "drop", "man", "a1"}.isdisjoint(line_start)  # `new` and `drop`: variants only
    motion = labels(client.at("textDocument/completion", uri, 8, 21))  # after `move own man `
    assert motion == set(motion_keywords())  # the registry's motions, and nothing else


def test_definition_references_and_symbols(client, tmp_path):
    uri = (tmp_path / "d.game").as_uri()
    client.open(uri, FIXED)
    at_man = (8, 18)
    assert client.at("textDocument/definition", uri, *at_man) == [{"uri": uri, "range": rng(3, 6, 9)}]
    refs = client.at("textDocument/references", uri, *at_man, context={"includeDeclaration": True})
    assert [r["range"] for r in refs] == [rng(3, 6, 9), rng(6, 6, 9), rng(7, 6, 9), rng(8, 17, 20),
                                          rng(9, 29, 32)]
    refs = client.at("textDocument/references", uri, *at_man, context={"includeDeclaration": False})
    assert [r["range"] for r in refs] == [rng(6, 6, 9), rng(7, 6, 9), rng(8, 17, 20), rng(9, 29, 32)]
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [(s["name"], s["kind"]) for s in symbols] == [
        ('game "Test"', 15), ("board square 3 x 3", 23), ("players Blue, Red", 10), ("man", 5),
        ("corner", 3), ("moves", 13), ("setup man of Blue", 9), ("setup man of Red", 9),
        ("go", 12), ("stuck", 24)]
    assert [c["name"] for c in symbols[2]["children"]] == ["Blue", "Red"]
    assert symbols[3]["selectionRange"] == rng(3, 6, 9) and symbols[3]["range"] == rng(3, 0, 33)


def test_a_variant_reads_its_base(client, tmp_path):
    (tmp_path / "base.game").write_text(FIXED)
    uri = (tmp_path / "v.game").as_uri()
    variant = 'variant of "base"\nply go: move own man step onto emptyy\nnew end won: Blue wins if moves > 3\n'
    found = client.open(uri, variant)
    assert [(d["message"], d["range"]) for d in found] == [
        ("unknown name 'emptyy'\nhint: did you mean 'empty'?", rng(1, 31, 37))]
    base = (tmp_path / "base.game").as_uri()
    assert client.at("textDocument/definition", uri, 1, 18) == [{"uri": base, "range": rng(3, 6, 9)}]
    assert client.at("textDocument/definition", uri, 2, 28) == [{"uri": base, "range": rng(5, 4, 9)}]
    refs = client.at("textDocument/references", uri, 1, 5, context={"includeDeclaration": True})
    assert [(r["uri"], r["range"]) for r in refs] == [(uri, rng(1, 4, 6)), (base, rng(8, 4, 6))]
    hover = client.at("textDocument/hover", uri, 2, 28)["contents"]["value"]
    assert hover.startswith("**variable** `moves` (line 6 of base.game)")
    # The base opened in the editor, changed and not saved: the variant is checked against it.
    client.open(base, FIXED.replace("moves", "count_of"))
    found = client.diagnostics(uri)
    assert [(d["message"].split("\n")[0], d["range"]) for d in found] == [
        ("unknown name 'emptyy'", rng(1, 31, 37)), ("unknown name 'moves'", rng(2, 26, 31))]


def test_any_text_gets_an_answer(client, tmp_path):
    uri = (tmp_path / "x.game").as_uri()
    huge = "game " + "x" * 70_000
    assert [d["message"] for d in client.open(uri, huge)] == [
        "text is larger than the limit of 64,000 bytes"]
    assert client.at("textDocument/hover", uri, 0, 2) is None
    hostile = 'game "\U0001F600\U0001F600" x\n' + "(" * 5000 + "\x1b\n"
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": hostile}]})
    found = client.diagnostics(uri)
    assert [(d["message"], d["range"]) for d in found][:1] == [
        ("expected the end of the declaration, found 'x'", rng(0, 12, 13))]  # 😀: 2 UTF-16 units
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        client.at(method, uri, 1, 4000)
    assert client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) == []


def test_hints_without_related_information_and_errors_in_a_base(tmp_path):
    pytest.importorskip("lsprotocol", reason="the language server needs pygls: pip install 'rulecraft[lsp]'")
    from interpreter.apps.lsp.diagnostics import lsp_diagnostics
    from interpreter.apps.lsp.documents import analyse

    path = str(tmp_path / "t.game")
    plain = lsp_diagnostics(analyse(path, BROKEN), "file:///t.game", BROKEN, related=False)
    assert [(d.message, d.related_information) for d in plain] == [
        (EXPECTED_A_MOTION + ", found 'stepp'\n"
         "hint: did you mean 'step'?", None),
        ("unknown piece 'mann'\nhint: did you mean 'man'?", None)]
    (tmp_path / "base.game").write_text(BROKEN.replace("stepp", "step"))
    variant = 'variant of "base"\ngame "V"\n'
    found = lsp_diagnostics(analyse(str(tmp_path / "v.game"), variant), "file:///v.game", variant)
    assert [(d.message, d.range.start.line, d.range.start.character, d.range.end.character)
            for d in found] == [("base.game:10:26: unknown piece 'mann'\nhint: did you mean 'man'?", 0, 11, 17)]
    [into_base] = found[0].related_information
    assert (into_base.location.uri, into_base.message) == ((tmp_path / "base.game").as_uri(),
                                                           "unknown piece 'mann'")
    assert (into_base.location.range.start.line, into_base.location.range.start.character) == (9, 25)


def test_without_pygls_the_command_says_what_to_install():
    code = ("import sys; sys.modules['pygls'] = None\n"
            "from interpreter.apps.entry import main; sys.exit(main(['lsp']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("rulecraft lsp: error: the language server needs pygls: "
                           "pip install 'rulecraft[lsp]'\n")


def test_the_hover_reference_is_made_from_docs_language():
    # interpreter/apps/lsp/language.json is generated; when LANGUAGE.md changes, run:
    # python -m interpreter.apps.lsp.reference docs/LANGUAGE.md > interpreter/apps/lsp/language.json
    from interpreter.apps.lsp import reference

    made = reference.index((ROOT / "docs" / "LANGUAGE.md").read_text(encoding="utf-8"),
                           reference.documented_words())
    shipped = json.loads((ROOT / "interpreter" / "apps" / "lsp" / "language.json").read_text(encoding="utf-8"))
    assert made == shipped, ("interpreter/apps/lsp/language.json is not docs/LANGUAGE.md's: python -m "
                             "interpreter.apps.lsp.reference docs/LANGUAGE.md > interpreter/apps/lsp/language.json")
    assert set(made) == set(reference.documented_words())  # every keyword and function has its passage
    assert made["slide"]["section"] == "ply" and made["slide"]["text"].startswith("`slide [DIRS] [K] [up to N]`")
    assert made["compulsory"]["section"] == "compulsory capture"
    assert made["owner"]["text"] == "- `owner PLAYER` | `owner each` | `neutral` (exactly one)."
    assert made["count"]["text"] == "`count(CELLS)` — the number of cells in the set"


def test_the_neovim_07_recipe_of_the_editors_readme(tmp_path):
    """The recipe for Neovim 0.7, run in the Neovim installed (CI installs Debian's, 0.7)."""
    import re
    import shutil
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("no Neovim here (apt-get install neovim)")
    readme = (ROOT / "editors" / "README.md").read_text(encoding="utf-8")
    recipe = re.search(r"\*\*Neovim 0\.7\*\*.*?```lua\n(.*?)```", readme, re.S).group(1)
    (tmp_path / "init.lua").write_text(recipe, encoding="utf-8")
    (tmp_path / "t.game").write_text(BROKEN, encoding="utf-8")
    show = ("lua vim.wait(30000, function() return #vim.diagnostic.get(0) >= 2 end, 50) "
            "for _, d in ipairs(vim.diagnostic.get(0)) do "
            "io.stdout:write(d.lnum .. ':' .. d.col .. ' ' .. d.message .. '\\n') end vim.cmd('qa!')")
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    out = subprocess.run([nvim, "--headless", "-u", str(tmp_path / "init.lua"), "t.game", "-c", show],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60).stdout
    assert out.splitlines() == [f"8:21 {EXPECTED_A_MOTION}, found 'stepp'", "hint: did you mean 'step'?",
                                "9:25 unknown piece 'mann'", "hint: did you mean 'man'?"]
