"""Installed skills pass the Agent Skills reference validator whenever their source does
(issue 16, item 3), checked with the real `agentskills validate` (skills-ref, a dev
dependency) on every skill directory `upskill add --all` writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

AGENTSKILLS = str(Path(sys.executable).parent / "agentskills")

SPEC_FIELDS = (
    'license: "Apache-2.0"\n'
    "compatibility: Requires git and network access\n"
    "metadata:\n"
    "  author: acme  # the team\n"
    '  version: "1.10"\n'
    "  build: 0x10\n"
    "allowed-tools: Bash(git:*) Read\n"
)
SOURCES = {
    # Valid Agent Skills sources: each must stay valid in every client's copy.
    "skills/pdf-forms": "name: pdf-forms\ndescription: Use when filling PDF forms\n" + SPEC_FIELDS,
    "skills/minimal": "name: minimal\ndescription: Use when nothing else applies\n",
    "skills/folded": "name: folded\ndescription: >\n  Use when a description\n  is folded\n"
    "license: MIT\n",
    # Invalid sources that install valid: the name wins over the directory, `version` and
    # `author` reach no client, and upskill's own keys are consumed.
    "skills/composition": "name: vercel-composition\ndescription: Use when composing\n",
    "skills/versioned": "name: versioned\ndescription: Use when versioned\nversion: 1.0.0\n"
    "author: someone\n",
    "skills/upskill-keys": "schema: 1\nname: upskill-keys\ndescription: Use when mixing\n"
    "audience: [claude, codex, cursor, copilot, opencode, gemini, windsurf, cline, kilo, roo, "
    "kiro, qwen, junie, amp, zed]\ntools: [read]\nrequires:\n  skills: [minimal]\nlicense: MIT\n",
}
VALID_SOURCES = ("skills/pdf-forms", "skills/minimal", "skills/folded")


def _validate(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [AGENTSKILLS, "validate", str(directory)], capture_output=True, text=True, check=False
    )


def _registry(root: Path) -> None:
    for rel, frontmatter in SOURCES.items():
        path = root / rel / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\n{frontmatter}---\n\n## Steps\n\nDo it.\n")


def _installed(root: Path) -> list[Path]:
    return sorted(p.parent for p in root.rglob("SKILL.md") if ".upskill" not in p.parts)


@pytest.mark.parametrize("scope", ["-p", "-g"])
def test_every_installed_copy_passes_agentskills_validate(cli, project, tmp_path, scope):  # type: ignore[no-untyped-def]
    registry = tmp_path / "registry"
    _registry(registry)
    for rel in VALID_SOURCES:
        assert _validate(registry / rel).returncode == 0, rel
    for rel in set(SOURCES) - set(VALID_SOURCES):
        assert _validate(registry / rel).returncode == 1, rel
    cli.ok("add", str(registry), "--all", scope, cwd=project)
    root = project if scope == "-p" else cli.home
    copies = _installed(root)
    names = {p.split("/")[-1] for p in SOURCES} - {"composition"} | {"vercel-composition"}
    for tree in (".claude/skills", ".agents/skills", ".roo/skills", ".kiro/skills"):
        assert {c.name for c in copies if c.parent == root / tree} == names, tree
    assert len(copies) >= 4 * len(names)
    for copy in copies:
        result = _validate(copy)
        assert result.returncode == 0, (copy, result.stderr)


def test_spec_fields_reach_every_client_as_written(cli, project, tmp_path):  # type: ignore[no-untyped-def]
    registry = tmp_path / "registry"
    _registry(registry)
    cli.ok("add", str(registry), "pdf-forms", "--all", cwd=project)
    copies = [c / "SKILL.md" for c in _installed(project)]
    assert len(copies) >= 5
    for copy in copies:
        text = copy.read_text()
        assert text.startswith(
            "---\nname: pdf-forms\ndescription: Use when filling PDF forms\n" + SPEC_FIELDS
        ), copy
        assert "version: 1.0.0" not in text
