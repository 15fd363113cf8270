"""Adoption: after `upskill import`, `upskill add` of the registry owns every client file
whose rendering is byte-identical without `--force`, and keeps a differing one, showing
the diff, until `--force`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4] / "conformance" / "upskill" / "import"
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
