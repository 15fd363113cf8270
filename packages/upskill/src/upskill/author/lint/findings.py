"""Lint findings and the report both output formats are rendered from.

The rule ids, their severities and what each checks are listed in
docs/upskill/authoring.md; ids are stable (scripts filter on them).
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from pathlib import Path


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int | None
    rule: str
    severity: Severity
    message: str

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path.as_posix(), self.line or 0, self.rule, self.message)

    def escalated(self, strict: bool) -> Finding:
        """Under --strict a warning is reported (and counted) as an error."""
        if strict and self.severity is Severity.WARNING:
            return Finding(self.path, self.line, self.rule, Severity.ERROR, self.message)
        return self


class Collector:
    """Base of the per-file checkers: findings about one path, in check order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.findings: list[Finding] = []

    def add(self, line: int | None, rule: str, severity: Severity, message: str) -> None:
        self.findings.append(Finding(self.path, line, rule, severity, message))


@dataclass(frozen=True)
class LintReport:
    files_checked: int
    findings: tuple[Finding, ...]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.WARNING)

    def exit_code(self) -> int:
        return 1 if self.errors else 0


def _display(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def render_text(report: LintReport, base: Path) -> list[str]:
    """`<sev>: <path>[:line] [id] msg` lines, then the summary line."""
    lines = []
    for finding in report.findings:
        where = _display(finding.path, base)
        if finding.line is not None:
            where = f"{where}:{finding.line}"
        lines.append(f"{finding.severity}: {where} [{finding.rule}] {finding.message}")
    lines.append(f"{report.files_checked} file(s) checked, {len(report.findings)} findings")
    return lines


def render_json(report: LintReport, base: Path, *, strict: bool) -> str:
    """A stable document: `schema` versions the shape; keys are sorted."""
    document = {
        "schema": 1,
        "strict": strict,
        "files_checked": report.files_checked,
        "errors": report.errors,
        "warnings": report.warnings,
        "findings": [
            {
                "path": _display(f.path, base),
                "line": f.line,
                "rule": f.rule,
                "severity": str(f.severity),
                "message": f.message,
            }
            for f in report.findings
        ],
    }
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
