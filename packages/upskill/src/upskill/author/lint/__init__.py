"""`upskill lint`: rule checks over SSOT files, collected as findings (never printed here)."""

from upskill.author.lint.findings import Finding, LintReport, Severity
from upskill.author.lint.runner import lint_targets

__all__ = ["Finding", "LintReport", "Severity", "lint_targets"]
