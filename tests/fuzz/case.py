"""One fuzzing input: plain data (files and parameters), so it can be saved and replayed."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Case:
    """One input: its category, the files it consists of, and what to do with them."""

    category: str
    files: dict[str, str | bytes] = field(default_factory=dict)  # name -> text or bytes
    params: dict = field(default_factory=dict)
    label: str = ""  # where it came from (the seed and index, or "hypothesis")

    def main_file(self) -> str | None:
        return self.params.get("file")
