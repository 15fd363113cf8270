"""Agent Skills checks on a skill's frontmatter (rule id `agent-skills`).

The reference validator (`skills-ref`, `agentskills validate`) rejects a
`SKILL.md` for: a top-level field outside the specification, a missing or
malformed `name` or `description`, a `compatibility` that is not a string of at
most 500 characters, a name that differs from its directory, and YAML that
StrictYAML refuses (and it ends the frontmatter at the first `---`, even
inside a value: a warning here). The name, description, compatibility and directory rules
have their own ids (`author/lint/fields.py`); this module reports the rest, so
that every file the validator rejects gets at least one error here
(tests/author/test_lint_agent_skills.py holds lint to the real validator).

upskill's own keys (`schema`, `audience`, `requires`, `tools`, a client block,
...) are not reported: upskill consumes them and never writes them. A field some
client defines (`disable-model-invocation`) is a warning, since it reaches those
clients; a field none defines (`version`) reaches no client and is an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from upskill.author.lint.findings import Collector, Finding, Severity
from upskill.clients import DEFINED_SKILL_FIELDS, skill_field_readers
from upskill.clients.base import AGENT_SKILLS_FIELDS
from upskill.format.items import SKILL_OWN_KEYS, undefined_field_warning
from upskill.format.yamlio import strict_yaml_refusals

RULE = "agent-skills"
# Keys upskill reads and never writes; `name` and `description` are written.
UPSKILL_ONLY = SKILL_OWN_KEYS - {"name", "description"}


class AgentSkillsChecker(Collector):
    def __init__(
        self,
        path: Path,
        data: Mapping[str, Any],
        yaml_text: str,
        first_line: int,
        key_lines: Mapping[str, int],
    ) -> None:
        super().__init__(path)
        self.data = data
        self.yaml_text = yaml_text
        self.first_line = first_line
        self.key_lines = key_lines

    def run(self) -> list[Finding]:
        self._syntax()
        self._name()
        self._fields()
        self._metadata()
        self._allowed_tools()
        return self.findings

    def _owner(self, line: int) -> str | None:
        """The top-level key whose entry holds absolute line `line`."""
        starts = [(at, key) for key, at in self.key_lines.items() if at <= line]
        return max(starts)[1] if starts else None

    def _syntax(self) -> None:
        """What StrictYAML refuses, in the entries upskill writes to clients (its own
        keys, `audience: [claude]`, are read by upskill alone)."""
        for what, offset in strict_yaml_refusals(self.yaml_text):
            line = self.first_line + offset
            if self._owner(line) in UPSKILL_ONLY:
                continue
            self.add(
                line,
                RULE,
                Severity.ERROR,
                f"frontmatter uses {what}; `agentskills validate` reads StrictYAML, which "
                "refuses it (write it in block style, without anchors or tags)",
            )
        for offset, text in enumerate(self.yaml_text.split("\n")):
            if "---" in text:
                self.add(
                    self.first_line + offset,
                    RULE,
                    Severity.WARNING,
                    "frontmatter contains '---'; `agentskills validate` ends the frontmatter "
                    "there and reads the rest as body",
                )
                break

    def _name(self) -> None:
        if "name" not in self.data:
            self.add(
                None,
                RULE,
                Severity.WARNING,
                "no 'name:' field; Agent Skills requires one (upskill writes the "
                "directory name into every copy)",
            )

    def _fields(self) -> None:
        for key in self.data:
            if key in SKILL_OWN_KEYS or key in AGENT_SKILLS_FIELDS:
                continue
            line = self.key_lines.get(key)
            if key in DEFINED_SKILL_FIELDS:
                readers = ", ".join(skill_field_readers(key))
                self.add(
                    line,
                    RULE,
                    Severity.WARNING,
                    f"field {key!r} is not an Agent Skills field; only {readers} define it, "
                    "so only their copies carry it",
                )
            else:
                self.add(line, RULE, Severity.ERROR, undefined_field_warning(key))

    def _metadata(self) -> None:
        metadata = self.data.get("metadata")
        if not isinstance(metadata, dict):
            return  # absent, or not a mapping: the model validation's error
        odd = [k for k, v in metadata.items() if type(v) is not str]
        if odd:
            self.add(
                self.key_lines.get("metadata"),
                RULE,
                Severity.WARNING,
                f"metadata value(s) of {', '.join(map(repr, odd))} are not strings; "
                "Agent Skills metadata maps strings to strings (quote them)",
            )

    def _allowed_tools(self) -> None:
        value = self.data.get("allowed-tools")
        if value is not None and type(value) is not str:
            self.add(
                self.key_lines.get("allowed-tools"),
                RULE,
                Severity.WARNING,
                "'allowed-tools' is not a string; Agent Skills defines it as a "
                "space-separated string (Claude Code also reads a list)",
            )


def check_agent_skills(
    path: Path,
    data: Mapping[str, Any],
    yaml_text: str,
    first_line: int,
    key_lines: Mapping[str, int],
) -> list[Finding]:
    return AgentSkillsChecker(path, data, yaml_text, first_line, key_lines).run()
