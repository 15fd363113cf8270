"""Frontmatter field checks that carry their own rule ids.

Names, descriptions and Agent Skills fields are checked here, before the full
model validation in `upskill.format`, so each problem gets a specific id; the
model validation then reports what remains under `frontmatter`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from upskill.author.lint.findings import Collector, Finding, Severity
from upskill.format.names import name_problem

MAX_DESCRIPTION = 1024
SKILL_DESCRIPTION_HINT = 200
MAX_COMPATIBILITY = 500


class FieldChecker(Collector):
    def __init__(
        self, path: Path, kind: str, data: Mapping[str, Any], key_lines: Mapping[str, int]
    ) -> None:
        super().__init__(path)
        self.kind = kind
        self.data = data
        self.key_lines = key_lines

    def at(self, key: str | None, rule: str, severity: Severity, message: str) -> None:
        """A finding on the line of top-level `key` (no line when the key is absent)."""
        self.add(self.key_lines.get(key) if key is not None else None, rule, severity, message)

    def run(self) -> list[Finding]:
        self._name()
        self._description()
        if self.kind == "skill":
            self._compatibility()
        return self.findings

    @property
    def expected_name(self) -> str:
        if self.kind == "bundle":
            return self.path.name.removesuffix(".bundle.yaml")
        return self.path.parent.name

    def _name(self) -> None:
        declared = self.data.get("name")
        if declared is None:
            if self.kind == "bundle":
                self.at(None, "name", Severity.ERROR, "missing required field 'name'")
                return
            problem = name_problem(self.expected_name, skill=self.kind == "skill")
            if problem is not None:
                self.at(None, "name", Severity.ERROR, f"directory {problem} (no 'name:' set)")
            return
        if type(declared) is not str:
            self.at("name", "name", Severity.ERROR, "'name' must be a string")
            return
        problem = name_problem(declared, skill=self.kind == "skill")
        if problem is not None:
            self.at("name", "name", Severity.ERROR, problem)
        if self.kind in ("skill", "bundle") and declared != self.expected_name:
            where = "file name stem" if self.kind == "bundle" else "directory name"
            self.at(
                "name",
                "name-matches-dir",
                Severity.ERROR,
                f"name {declared!r} differs from the {where} {self.expected_name!r}",
            )

    def _description(self) -> None:
        value = self.data.get("description")
        if value is None:
            self.at(None, "description", Severity.ERROR, "missing required field 'description'")
        elif type(value) is not str:
            self.at("description", "description", Severity.ERROR, "'description' must be a string")
        elif not value.strip():
            self.at("description", "description", Severity.ERROR, "'description' is empty")
        elif len(value) > MAX_DESCRIPTION:
            self.at(
                "description",
                "description",
                Severity.ERROR,
                f"description has {len(value)} characters; the limit is {MAX_DESCRIPTION}",
            )
        elif self.kind == "skill" and len(value) > SKILL_DESCRIPTION_HINT:
            self.at(
                "description",
                "skill-description-length",
                Severity.WARNING,
                f"skill description has {len(value)} characters; aim for "
                f"{SKILL_DESCRIPTION_HINT} or fewer (it is read on every activation decision)",
            )

    def _compatibility(self) -> None:
        if "compatibility" not in self.data:
            return
        value = self.data["compatibility"]
        if type(value) is not str:
            self.at(
                "compatibility", "compatibility", Severity.ERROR, "'compatibility' must be a string"
            )
        elif len(value) > MAX_COMPATIBILITY:
            self.at(
                "compatibility",
                "compatibility",
                Severity.ERROR,
                f"compatibility has {len(value)} characters; the limit is {MAX_COMPATIBILITY}",
            )


def check_fields(
    path: Path, kind: str, data: Mapping[str, Any], key_lines: Mapping[str, int]
) -> list[Finding]:
    return FieldChecker(path, kind, data, key_lines).run()
