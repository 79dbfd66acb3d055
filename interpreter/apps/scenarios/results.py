"""What a run of scenarios reports: a `Failure` per unmet expectation, a `Result` per
scenario, and the `Report` of a run (as text, or as JSON for `--json`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.apps.scenarios.errors import ScenarioError


@dataclass
class Failure:
    """One expectation that does not hold."""

    check: str  # the expectation's key, e.g. "legal" or "vars.score"
    line: int
    message: str  # first line of the explanation
    details: list[str] = field(default_factory=list)  # further lines (expected, actual, diff)
    data: dict[str, Any] = field(default_factory=dict)  # the same, for --json

    def format(self) -> str:
        """`check (line N): message`, then the details indented."""
        return "\n".join([f"{self.check} (line {self.line}): {self.message}"]
                         + ["  " + d for d in self.details])


@dataclass
class Result:
    """The outcome of one scenario: pass, fail (expectations unmet) or error (bad scenario)."""

    file: str
    line: int
    name: str
    status: str
    position: str = ""  # the state text the expectations were checked in
    failures: list[Failure] = field(default_factory=list)
    error: ScenarioError | None = None

    def format(self) -> str:
        """`PASS file:line: name`; a failure adds its position and reasons; an error is its message."""
        if self.status == "error":
            assert self.error is not None
            return self.error.format()
        head = f"{self.status.upper()} {self.file}:{self.line}: {self.name}"
        if self.status == "pass":
            return head
        lines = [head, f"    position: {self.position}"]
        for f in self.failures:
            lines += ["    " + x for x in f.format().splitlines()]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """This result as `--json` gives it."""
        out: dict[str, Any] = {"file": self.file, "line": self.line, "name": self.name,
                               "status": self.status}
        if self.status == "fail":
            out["position"] = self.position
            out["failures"] = [{"check": f.check, "line": f.line, "message": f.message, **f.data}
                               for f in self.failures]
        if self.error is not None:
            out["error"] = self.error.format()
        return out


@dataclass
class Report:
    """Every scenario result of a run, and the files that could not be run at all."""

    results: list[Result] = field(default_factory=list)
    file_errors: list[ScenarioError] = field(default_factory=list)

    def count(self, status: str) -> int:
        """How many scenarios ended with `status`."""
        return sum(r.status == status for r in self.results)

    @property
    def ok(self) -> bool:
        """Every file could be run and every scenario passed."""
        return not self.file_errors and all(r.status == "pass" for r in self.results)

    def summary(self) -> str:
        """`N passed, M failed` (and `, K errors` for bad scenarios and files)."""
        errors = self.count("error") + len(self.file_errors)
        text = f"{self.count('pass')} passed, {self.count('fail')} failed"
        return text + (f", {errors} error{'s' if errors != 1 else ''}" if errors else "")

    def format(self) -> str:
        """The text report: a line per scenario (with the reasons of a failure), then a summary."""
        lines = [r.format() for r in self.results] + [e.format() for e in self.file_errors]
        return "\n".join(lines + [self.summary()])

    def to_json(self) -> dict[str, Any]:
        """The report as `--json` prints it."""
        return {"passed": self.count("pass"), "failed": self.count("fail"),
                "errors": self.count("error") + len(self.file_errors), "ok": self.ok,
                "scenarios": [r.to_json() for r in self.results],
                "file_errors": [e.format() for e in self.file_errors]}
