"""Run every lint rule over a set of targets and collect one report.

Per file: read and split (a failure here is the only finding), the field
checks with their own ids, the body checks, the canonical-form checks, then
the full model validation of `upskill.format` for whatever is left. The model
stops at its first error, so it runs only when the specific checks found no
error it would repeat.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from upskill.author.canonical import canonical_body, reorder_yaml
from upskill.author.lint.agentskills import check_agent_skills
from upskill.author.lint.body import check_body
from upskill.author.lint.fields import check_fields
from upskill.author.lint.findings import Collector, Finding, LintReport, Severity
from upskill.author.targets import Target
from upskill.errors import FormatError
from upskill.format.frontmatter import split_frontmatter
from upskill.format.items import read_text
from upskill.format.model import Rule
from upskill.format.yamlio import load_yaml, top_level_key_lines

# Errors from these rules would be repeated by the model validation.
_PRE_MODEL_RULES = frozenset({"name", "name-matches-dir", "description", "compatibility"})


def _frontmatter(error: FormatError, path: Path) -> Finding:
    return Finding(error.path or path, error.line, "frontmatter", Severity.ERROR, error.message)


def _first_difference(actual: str, expected: str) -> int:
    """0-based index of the first line where the two texts differ."""
    actual_lines = actual.split("\n")
    expected_lines = expected.split("\n")
    for index, (a, b) in enumerate(zip(actual_lines, expected_lines, strict=False)):
        if a != b:
            return index
    return min(len(actual_lines), len(expected_lines))


class FileLinter(Collector):
    def __init__(self, target: Target) -> None:
        super().__init__(target.path)
        self.target = target

    def run(self) -> list[Finding]:
        try:
            text = read_text(self.path)
            if self.target.kind == "bundle":
                self._bundle(text)
            elif self.target.kind == "override":
                self._override(text)
            else:
                self._entrypoint(text)
        except FormatError as error:
            self.findings.append(_frontmatter(error, self.path))
        return self.findings

    def _mapping(self, yaml_text: str, first_line: int) -> dict[str, Any]:
        data = load_yaml(yaml_text, self.path, first_line=first_line)
        if data is None and self.target.kind != "bundle":
            data = {}
        if not isinstance(data, dict):
            raise FormatError("frontmatter must be a YAML mapping", path=self.path, line=first_line)
        return data

    def _raw_form(self) -> None:
        raw = self.path.read_bytes()
        if raw.startswith(b"\xef\xbb\xbf") or b"\r" in raw:
            self.add(
                1,
                "body-format",
                Severity.WARNING,
                "file has a byte-order mark or CR line endings; run `upskill fmt`",
            )

    def _key_order(self, yaml_text: str, first_line: int) -> None:
        try:
            canonical = reorder_yaml(yaml_text, self.target.kind, self.path, first_line=first_line)
        except FormatError as error:
            self.add(error.line, "key-order", Severity.WARNING, error.message)
            return
        self._differs(
            yaml_text,
            canonical,
            first_line,
            "key-order",
            "frontmatter is not in canonical key order/layout; run `upskill fmt`",
        )

    def _entrypoint(self, text: str) -> None:
        document = split_frontmatter(text, self.path)
        data = self._mapping(document.yaml, document.yaml_line)
        key_lines = top_level_key_lines(document.yaml, first_line=document.yaml_line)
        specific = check_fields(self.path, self.target.kind, data, key_lines)
        self.findings.extend(specific)
        if self.target.kind == "skill":
            self.findings.extend(
                check_agent_skills(self.path, data, document.yaml, document.yaml_line, key_lines)
            )
        self.findings.extend(
            check_body(self.path, self.target.kind, document.body, document.body_line)
        )
        self._raw_form()
        self._key_order(document.yaml, document.yaml_line)
        expected = canonical_body(document.body)
        self._body_format(document.body, expected, document.body_line, "body (or seam)")
        if not self._blocks_model(specific):
            self._model_entrypoint(text, key_lines, reported=set(data))

    def _blocks_model(self, specific: Iterable[Finding]) -> bool:
        return any(f.rule in _PRE_MODEL_RULES and f.severity is Severity.ERROR for f in specific)

    def _model_warnings(
        self, warnings: Iterable[str], key_lines: Mapping[str, int], reported: Iterable[str] = ()
    ) -> None:
        """The model's non-fatal notes: `metadata` (semver) and anything else it flags,
        but a field the `agent-skills` check already reported."""
        from upskill.format.items import undefined_field_warning

        said = {undefined_field_warning(key) for key in reported}
        for warning in warnings:
            if warning in said:
                continue
            key = "metadata" if warning.startswith("metadata") else None
            rule = "metadata" if key else "frontmatter"
            self.add(key_lines.get(key) if key else None, rule, Severity.WARNING, warning)

    def _model_entrypoint(
        self, text: str, key_lines: Mapping[str, int], reported: Iterable[str] = ()
    ) -> None:
        from upskill.format.items import parse_entrypoint
        from upskill.format.model import ENTRYPOINTS
        from upskill.format.resources import scan_files

        directory = self.path.parent
        try:
            item = parse_entrypoint(
                ENTRYPOINTS[self.path.name],
                directory,
                text,
                self.path,
                files=scan_files(directory),
            )
        except FormatError as error:
            finding = _frontmatter(error, self.path)
            if not any(
                (f.path, f.line, f.message) == (finding.path, finding.line, finding.message)
                for f in self.findings
            ):
                self.findings.append(finding)
            return
        self._model_warnings(item.warnings, key_lines, reported)
        if isinstance(item, Rule):
            self._at_imports(item, text)

    def _at_imports(self, rule: Rule, text: str) -> None:
        """`at-import`: a word a client reading the rule compiled takes for an import
        (`render.imports`), in the body that client receives; the line is the word's
        first in the file."""
        from upskill.clients import CLIENTS
        from upskill.render.body import source_body
        from upskill.render.imports import at_imports, import_note
        from upskill.render.item import targets_client

        for client in CLIENTS:
            if not client.at_imports or not targets_client(rule, client.id):
                continue
            for _, word in at_imports(source_body(rule, client.id)):
                at = re.search(rf"(?:^|[ \t\r\n])@{re.escape(word)}", text)
                line = text.count("\n", 0, at.start() + 1) + 1 if at else None
                self.add(line, "at-import", Severity.WARNING, import_note(client.name, word))

    def _differs(self, actual: str, expected: str, first_line: int, rule: str, msg: str) -> None:
        """A warning at the first line where `actual` departs from what fmt would write."""
        if actual != expected:
            line = first_line + _first_difference(actual, expected)
            self.add(line, rule, Severity.WARNING, msg)

    def _body_format(self, body: str, expected: str, first_line: int, what: str) -> None:
        message = f"{what} is not formatted canonically; run `upskill fmt`"
        self._differs(body, expected, first_line, "body-format", message)

    def _override(self, text: str) -> None:
        """Override bodies: body checks only; frontmatter in one is the model's finding."""
        from upskill.format.frontmatter import has_frontmatter
        from upskill.markdown import format_body

        if has_frontmatter(text):
            return
        self.findings.extend(check_body(self.path, self.target.body_kind, text, 1))
        self._raw_form()
        self._body_format(text, format_body(text), 1, "override body")

    def _bundle(self, text: str) -> None:
        from upskill.author.lint.plugins import plugin_descriptor_warnings
        from upskill.format.bundles import parse_bundle

        data = self._mapping(text, 1)
        key_lines = top_level_key_lines(text)
        specific = check_fields(self.path, "bundle", data, key_lines)
        self.findings.extend(specific)
        self._raw_form()
        self._key_order(text, 1)
        if self._blocks_model(specific):
            return
        try:
            bundle = parse_bundle(text, self.path)
        except FormatError as error:
            self.findings.append(_frontmatter(error, self.path))
            return
        for warning in plugin_descriptor_warnings(bundle):
            self.add(key_lines.get("plugins"), "plugin-descriptor", Severity.WARNING, warning)
        self._model_warnings(
            (w for w in bundle.warnings if not w.startswith("'plugins.")), key_lines
        )


def _collisions(targets: Sequence[Target], findings: Iterable[Finding]) -> list[Finding]:
    """`name-collision`: a bundle named like an item directory of the same run."""
    item_dirs = {t.path.parent.name for t in targets if t.kind != "bundle"}
    broken = {f.path for f in findings if f.severity is Severity.ERROR}
    out: list[Finding] = []
    for target in targets:
        if target.kind != "bundle" or target.path in broken:
            continue
        name = target.path.name.removesuffix(".bundle.yaml")
        if name in item_dirs:
            out.append(
                Finding(
                    target.path,
                    None,
                    "name-collision",
                    Severity.ERROR,
                    f"bundle name {name!r} is also an item directory name; "
                    "rename one so that a name given to `upskill add` is unambiguous",
                )
            )
    return out


def lint_targets(targets: Sequence[Target], *, strict: bool = False) -> LintReport:
    findings: list[Finding] = []
    for target in targets:
        findings.extend(FileLinter(target).run())
    findings.extend(_collisions(targets, findings))
    unique = dict.fromkeys(findings)
    ordered = sorted((f.escalated(strict) for f in unique), key=Finding.sort_key)
    return LintReport(files_checked=len(targets), findings=tuple(ordered))
