"""Adoption: after `upskill import`, `upskill add` of the registry owns every client file
whose rendering is byte-identical without `--force`, and keeps a differing one, showing
the diff, until `--force`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4] / "conformance" / "upskill" / "import"
TOOLS = ("Read", "Write", "Edit", "Bash", "Grep", "Glob", "WebFetch", "WebSearch")
CLIENTS = ["--claude", "--copilot", "--cursor", "--codex", "--opencode"]


def test_add_adopts_identical_files_and_keeps_differing_ones_with_their_diff(
    cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    work = tmp_path / "work"
    shutil.copytree(ROOT / "handwritten" / "clients", work)
    (work / ".git").mkdir()
    cli.ok("import", cwd=work)
    identical = work / ".codex" / "agents" / "helper.toml"
    differing = work / ".claude" / "rules" / "style.md"
    before = differing.read_bytes()
    stamp = identical.stat().st_mtime_ns
    out = cli.ok("add", "./.upskill/registry", "imported", *CLIENTS, cwd=work)
    # identical bytes: adopted, recorded as upskill's, not rewritten
    assert identical.stat().st_mtime_ns == stamp
    lock = json.loads((work / ".upskill-lock.json").read_text())
    owned = {o["path"] for o in lock["outputs"]}
    assert ".codex/agents/helper.toml" in owned
    assert ".claude/skills/review/SKILL.md" in owned
    assert ".claude/rules/style.md" not in owned
    # differing bytes: kept, and the diff says how
    assert differing.read_bytes() == before
    lines = out.stderr.splitlines()
    at = lines.index(
        "kept existing file not written by upskill: .claude/rules/style.md "
        "(use --force to replace it)"
    )
    assert lines[at + 1 : at + 3] == [
        "  --- .claude/rules/style.md (yours)",
        "  +++ .claude/rules/style.md (upskill)",
    ]
    diff = lines[at + 3 : at + 14]
    assert "  +name: style" in diff
    assert '  -  - "src/**/*.py"' in diff
    assert "  +- src/**/*.py" in diff
    out = cli.ok("add", "./.upskill/registry", "imported", *CLIENTS, "--force", cwd=work)
    assert "discarded local edit: .claude/rules/style.md" in out.stderr
    assert differing.read_text().startswith("---\nname: style\n")


def test_dry_run_shows_the_diff_too(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    (project / ".claude" / "rules").mkdir(parents=True)
    rule = project / ".claude" / "rules" / "style.md"
    rule.write_text("---\ndescription: Style\n---\n\nUse four spaces.\n")
    cli.ok("import", "--from", "claude", cwd=project)
    out = cli.ok("add", "./.upskill/registry", "--claude", "--dry-run", cwd=project)
    assert out.stdout.splitlines() == [
        "  keep-unmanaged     .claude/rules/style.md",
        "    --- .claude/rules/style.md (yours)",
        "    +++ .claude/rules/style.md (upskill)",
        "    @@ -1,4 +1,5 @@",
        "     ---",
        "    +name: style",
        "     description: Style",
        "     ---",
        "     ",
    ]


def test_a_flat_agent_with_its_folder_and_nested_rules_round_trip(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    files = {
        ".claude/agents/x.md": "---\nname: x\ndescription: X\ntools:\n"
        + "".join(f"- {t}\n" for t in TOOLS)
        + "---\n\nRead [the guide](x/guide.md) first.\n",
        ".claude/agents/x/guide.md": "# Guide\n",
        ".claude/agents/x/tool.sh": "#!/bin/sh\n",
        ".claude/rules/frontend/react.md": "---\ndescription: React\n---\n\nUse hooks.\n",
    }
    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    (project / ".claude/agents/x/tool.sh").chmod(0o755)
    out = cli.ok("import", "--from", "claude", cwd=project)
    assert "rule in a subfolder; imported as 'frontend-react'" in out.stderr
    registry = project / ".upskill" / "registry"
    assert (registry / "agents" / "x" / "guide.md").read_text() == "# Guide\n"
    assert (registry / "agents" / "x" / "tool.sh").stat().st_mode & 0o777 == 0o755
    cli.ok("lint", "--strict", str(registry), cwd=project)
    cli.ok("fmt", "--check", str(registry), cwd=project)
    before = {rel: (project / rel).read_bytes() for rel in files}
    cli.ok("add", "./.upskill/registry", "imported", "--claude", cwd=project)
    lock = json.loads((project / ".upskill-lock.json").read_text())
    owned = {o["path"] for o in lock["outputs"]}
    # the folder beside the agent is adopted as its resources, byte for byte
    assert {".claude/agents/x.md", ".claude/agents/x/guide.md", ".claude/agents/x/tool.sh"} <= owned
    assert {rel: (project / rel).read_bytes() for rel in files} == before
    # a rule in a subfolder is installed flat under its portable name
    assert ".claude/rules/frontend-react.md" in owned
