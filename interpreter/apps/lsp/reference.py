"""The language reference for hovers: keyword -> the passage of docs/LANGUAGE.md about it.

docs/ is not installed, so the passages are kept in language.json beside this module,
made from LANGUAGE.md by this module and kept equal to it by a test:

    python -m interpreter.apps.lsp.reference docs/LANGUAGE.md > interpreter/apps/lsp/language.json

Which passage documents a keyword is derived, not listed by hand: the section whose
title is the keyword (`## ply`, `## Variants`) or starts with it (`## compulsory
capture`); else the first table row, list item or paragraph that opens with it
(`` `slide [DIRS] ...` ``, `**onto CELLS**`, `` - `owner PLAYER` ``); else the section
whose title holds it (`## after each ply` for `each`); else, in the section quoting it
most, the first passage quoting it alone (`` `here` ``), or its opening if its first
example has it (`move`), or the first passage quoting it in a phrase (`` `all other cells` ``).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

_HEADING = re.compile(r"^(#{2,3}) (.+)$")
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"^\*\*(.+?)\*\*")
_LEAD = re.compile(r"^(?:- |\| )?((?:`[^`]+`(?: \| |, )?)+|\*\*.+?\*\*)")
MAX_LINES = 24  # lines of a whole section shown in a hover


@dataclass(frozen=True)
class Section:
    title: str
    anchor: str
    passages: tuple[str, ...]  # paragraphs, list items, table rows and code blocks, in order


def anchor(title: str) -> str:
    """The anchor GitHub gives a heading: `Design: the other seed games` -> design-the-other-seed-games."""
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


def _passages(lines: list[str]) -> list[str]:
    """A section's body cut into passages: a fenced block, a table row, a list item (with
    its indented lines), a paragraph."""
    out: list[str] = []
    block: list[str] = []
    fenced = False
    for line in lines:
        if fenced or line.lstrip().startswith("```"):
            block.append(line)
            if line.lstrip().startswith("```") and len(block) > 1 and fenced:
                out.append("\n".join(block))
                block, fenced = [], False
            else:
                fenced = True
            continue
        starts = line.startswith(("- ", "| ")) or not line.strip()
        if starts and block:
            out.append("\n".join(block))
            block = []
        if line.strip() and not re.fullmatch(r"\|[-| ]+\|", line.strip()):
            block.append(line)
    if block:
        out.append("\n".join(block))
    return out


def sections(markdown: str) -> list[Section]:
    """The `##` and `###` sections of a Markdown text, in order (the text before the first is left out)."""
    found: list[Section] = []
    title, body = None, []
    for line in markdown.splitlines() + ["## end of text"]:
        mo = _HEADING.match(line)
        if mo is None:
            body.append(line)
            continue
        if title is not None:
            found.append(Section(title, anchor(title), tuple(_passages(body))))
        title, body = mo.group(2).strip(), []
    return found


def _lead_spans(passage: str) -> list[str]:
    """The code or bold spans a passage opens with: `` `owner PLAYER` | `neutral` ``, `**onto CELLS**`."""
    mo = _LEAD.match(passage)
    if mo is None:
        return []
    return _CODE.findall(mo.group(1)) or [_BOLD.match(mo.group(1)).group(1)]


def _leads(passage: str) -> list[str]:
    """The first word of each span a passage opens with."""
    return [re.split(r"[\s(\[:]", s.strip(), maxsplit=1)[0] for s in _lead_spans(passage)]


def _quotes(passage: str, word: str, alone: bool) -> bool:
    """Whether a passage quotes `word`: as a code span of its own, or in one (a whole word)."""
    spans = _CODE.findall(passage)
    if alone:
        return word in spans
    pattern = re.compile(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])")
    return any(pattern.search(s) for s in spans)


def _row(passage: str) -> str:
    """A table row as text: its cells joined by dashes."""
    if not passage.startswith("| "):
        return passage
    cells = [c.strip() for c in re.split(r"(?<!\\) \| ", passage.strip().strip("|").strip())]
    return " — ".join(c for c in cells if c)


def _clipped(text: str, limit: int = MAX_LINES) -> str:
    lines = text.splitlines()
    return "\n".join(lines[:limit] + (["..."] if len(lines) > limit else []))


def _opening(section: Section) -> list[str]:
    """A section's passages up to and with its first code block."""
    shown = []
    for p in section.passages:
        shown.append(p)
        if _is_block(p):
            break
    return shown


def _whole(section: Section) -> str:
    return _clipped("\n\n".join(_opening(section)))


def _code(passage: str) -> list[str]:
    """What a passage quotes: its code spans, or a code block's lines without comments."""
    if _is_block(passage):
        return [re.sub(r"#.*", "", line) for line in passage.splitlines()[1:-1]]
    return _CODE.findall(passage)


def _is_block(passage: str) -> bool:
    return passage.lstrip().startswith("```")


def _mentions(passages: tuple[str, ...] | list[str], word: str) -> int:
    """How often passages quote `word`, a whole word (`built-in` is not `in`)."""
    pattern = re.compile(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])")
    return sum(len(pattern.findall(c)) for p in passages for c in _code(p))


def _most_quoting(secs: list[Section], word: str) -> tuple[Section, str] | None:
    """In the section quoting `word` most: the first paragraph or list item (else table
    row) quoting it alone; else the section's opening if its first example has it; else
    the first passage quoting it in a phrase."""
    counts = [_mentions(s.passages, word) for s in secs]
    if not any(counts):
        return None
    best = secs[counts.index(max(counts))]
    prose = [p for p in best.passages if not _is_block(p)]
    ordered = [p for p in prose if not p.startswith("| ")] + [p for p in prose if p.startswith("| ")]
    alone = next((p for p in ordered if _quotes(p, word, True)), None)
    if alone is None and _mentions([p for p in _opening(best) if _is_block(p)], word):
        return best, _whole(best)
    found = alone or next((p for p in ordered if _quotes(p, word, False)), None)
    return best, _clipped(_row(found)) if found else _whole(best)


def _find(secs: list[Section], word: str) -> tuple[Section, str] | None:
    """The section and the text that document `word` (see the module's docstring)."""
    lower = [s for s in secs if s.title == s.title.lower()]  # titles made of keywords
    titled = (next((s for s in secs if s.title.lower() in (word, word + "s")), None)
              or next((s for s in lower if s.title.split()[0] == word), None))
    if titled is not None:
        return titled, _whole(titled)
    for s in secs:
        for p in s.passages:
            if word in _leads(p):
                return s, _clipped(_row(p))
    held = next((s for s in lower if word in s.title.split()), None)
    if held is not None:
        return held, _whole(held)
    return _most_quoting(secs, word)


def index(markdown: str, words: list[str]) -> dict[str, dict[str, str]]:
    """{word: {"section", "anchor", "text"}} for each of `words` the reference documents."""
    secs = sections(markdown)
    out = {}
    for word in sorted(set(words)):
        found = _find(secs, word)
        if found is not None:
            section, text = found
            out[word] = {"section": section.title, "anchor": section.anchor, "text": text}
    return out


def documented_words() -> list[str]:
    """The words a hover explains: the grammar's keywords and the built-in functions."""
    from dsl.tokens import tokens

    t = tokens()
    return sorted(set(t.keywords) | set(t.functions))


@lru_cache(maxsize=1)
def reference() -> dict[str, dict[str, str]]:
    """The packaged index (language.json)."""
    text = resources.files(__package__).joinpath("language.json").read_text(encoding="utf-8")
    return json.loads(text)


def main(argv: list[str] | None = None) -> None:
    """Print the index of the LANGUAGE.md named by the first argument, as JSON."""
    path = (sys.argv[1:] if argv is None else argv)[0]
    with open(path, encoding="utf-8") as f:
        print(json.dumps(index(f.read(), documented_words()), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
