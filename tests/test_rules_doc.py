"""docs/RULES.md stays in step with the rulesets: its links to ruleset lines cannot drift,
and every bundled ruleset has its section."""

import glob
import os
import re

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(REPO, "docs", "RULES.md")
RULESETS = os.path.join(REPO, "rulesets")

# [rulesets/force-3.game:21](../rulesets/force-3.game#L21): the text and the target.
LINK = re.compile(r"\[([^\]]*)\]\(\.\./rulesets/([^)#\s]+)(?:#L(\d+))?\)")


def doc() -> str:
    with open(RULES, encoding="utf-8") as f:
        return f.read()


def ruleset_names() -> list[str]:
    return sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(RULESETS, "*.game")))


def ruleset_lines(name: str) -> list[str]:
    with open(os.path.join(RULESETS, name + ".game"), encoding="utf-8") as f:
        return f.read().splitlines()


def sections(text: str) -> dict[int, str]:
    """The numbered top-level sections: {1: text of '## 1. ...' up to the next '## '}."""
    out: dict[int, str] = {}
    for m in re.finditer(r"^## (\d+)\. .*?(?=^## |\Z)", text, re.M | re.S):
        out[int(m.group(1))] = m.group(0)
    return out


def test_the_doc_links_to_ruleset_lines():
    assert len(LINK.findall(doc())) > 100


@pytest.mark.parametrize("label, target, line", LINK.findall(doc()))
def test_a_link_names_a_rule_line(label, target, line):
    where = f"[{label}](../rulesets/{target}#L{line})"
    assert target.endswith(".game"), f"{where}: not a ruleset"
    path = os.path.join(RULESETS, target)
    assert os.path.isfile(path), f"{where}: no such ruleset"
    assert line, f"{where}: the link names no line (#LN)"
    n = int(line)
    lines = ruleset_lines(target[:-5])
    assert 1 <= n <= len(lines), f"{where}: {target} has {len(lines)} lines"
    text = lines[n - 1].strip()
    assert text, f"{where}: line {n} is blank"
    assert not text.startswith("#"), f"{where}: line {n} is a comment: {text}"
    assert label == f"rulesets/{target}:{n}", f"{where}: the text does not match the target"


@pytest.mark.parametrize("name", ruleset_names())
def test_every_ruleset_has_a_section_and_links(name):
    text = doc()
    headings = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert any(f"`{name}`" in h for h in headings), f"no heading names `{name}`"
    linked = {target[:-5] for _, target, _ in LINK.findall(text)}
    assert name in linked, f"no link to a line of rulesets/{name}.game"


@pytest.mark.parametrize("name", ruleset_names())
def test_a_rulesets_section_reference_holds(name):
    # Rulesets cite "docs/RULES.md section N" in their comments: that section names them.
    comments = " ".join(ln.lstrip("#").strip() for ln in ruleset_lines(name)
                        if ln.startswith("#"))
    cited = [int(n) for n in re.findall(r"docs/RULES\.md,? section (\d+)", comments)]
    numbered = sections(doc())
    for n in cited:
        assert n in numbered, f"{name}.game cites section {n}, which docs/RULES.md lacks"
        assert f"`{name}`" in numbered[n], f"{name}.game cites section {n}, which does not name it"


def test_the_sections_are_numbered_as_the_rulesets_cite_them():
    titles = {n: s.splitlines()[0] for n, s in sections(doc()).items()}
    expected = {1: "Three Musketeers", 2: "3-Spot", 3: "Force 3", 4: "3-A-Side",
                5: "Tricouleur", 6: "Whistling Captures", 7: "Tic-tac-toe"}
    for n, title in expected.items():
        assert n in titles and titles[n].startswith(f"## {n}. {title}"), titles.get(n)
