"""Drift, scope and progress (issue 16, items 6 and 7), through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

SCRIPT = ".claude/skills/review/scripts/run.sh"


def _with_script(registry: Path) -> None:
    script = registry / "skills" / "review" / "scripts" / "run.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)


def test_a_bare_update_notices_a_chmod(cli, project, registry):  # type: ignore[no-untyped-def]
    """A chmod changes neither size nor mtime: the nothing-changed path records the
    executable bit too, so a bare `update` takes the full path and reports the drift."""
    _with_script(registry)
    cli.ok("add", str(registry), "review", "--claude", cwd=project)
    installed = project / SCRIPT
    mtime = installed.stat().st_mtime_ns
    assert cli.ok("update", cwd=project).stderr == "Already up to date.\n"
    installed.chmod(0o644)
    assert installed.stat().st_mtime_ns == mtime
    out = cli.ok("update", cwd=project)
    assert out.stderr.endswith(
        f"kept local edit: {SCRIPT} (use --force to replace it)\n"
        "Already up to date; 1 kept local edit.\n"
    )
    assert installed.stat().st_mode & 0o777 == 0o644
    out = cli.run("doctor", cwd=project)
    assert out.returncode == 1
    assert out.stdout == (
        "Executable bit changed (kept by update; upskill update --force restores it):\n"
        f"  {SCRIPT} (skill:review): now not executable\n"
    )
    out = cli.ok("update", "--force", cwd=project)
    assert f"discarded local edit: {SCRIPT}" in out.stderr
    assert installed.stat().st_mode & 0o777 == 0o755
    assert cli.ok("doctor", cwd=project).stderr == "No drift.\n"
    assert cli.ok("update", cwd=project).stderr == "Already up to date.\n"
    # The other way round: a bit gained on a 0644 output is drift as well.
    skill = project / ".claude/skills/review/SKILL.md"
    skill.chmod(0o755)
    out = cli.ok("update", cwd=project)
    assert "kept local edit: .claude/skills/review/SKILL.md" in out.stderr
    out = cli.run("doctor", "--json", cwd=project)
    assert json.loads(out.stdout)["mode_drift"] == [
        {
            "path": ".claude/skills/review/SKILL.md",
            "items": ["skill:review"],
            "executable": False,
            "current_executable": True,
        }
    ]


def test_outside_a_repository_the_scope_is_announced_and_home_gets_no_claude_md(  # type: ignore[no-untyped-def]
    cli, registry, tmp_path
):
    """Issue 16, 7: the defaulted global scope is said first, before anything is planned
    or written, and `$HOME/CLAUDE.md` is never created (an `@AGENTS.md` import there
    would not resolve; the global scope has no ancillary memory file)."""
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    announce = (
        f"no git repository here: installing into the global scope ({cli.home}); "
        "use --project to install into this directory\n"
    )
    out = cli.ok("add", str(registry), "--claude", "--dry-run", cwd=elsewhere)
    assert out.stderr.startswith(announce)
    assert not (cli.home / ".claude").exists() and not (cli.home / ".upskill-lock.json").exists()
    out = cli.ok("add", str(registry), "--claude", cwd=elsewhere)
    assert out.stderr.startswith(announce)
    assert (cli.home / ".claude/rules/style.md").is_file()
    assert not (cli.home / "CLAUDE.md").exists()
    (cli.home / "AGENTS.md").write_text("# Mine\n")
    cli.ok("add", str(registry), "--claude", "--force", cwd=elsewhere)
    assert not (cli.home / "CLAUDE.md").exists()
    assert not (elsewhere / "CLAUDE.md").exists() and list(elsewhere.iterdir()) == []
