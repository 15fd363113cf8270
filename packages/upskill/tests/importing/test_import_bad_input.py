"""A broken client file stops the import: one error line naming the file, exit 1
(`FormatError`, docs/upskill/lifecycle.md "Exit codes"), and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

GOOD_RULE = "---\ndescription: Fine\n---\n\nFine.\n"
BROKEN = {
    ".mcp.json": ('{"mcpServers": {"x": {"command": "a",}', "invalid JSON"),
    ".vscode/mcp.json": ('{\n  // servers\n  "servers": {"x": [1, 2}\n}\n', "invalid JSON"),
    "opencode.json": ('{"mcp": {"x": {"command": ["a"]}}} trailing', "invalid JSON"),
    ".codex/config.toml": ('[mcp_servers.x]\ncommand = "a\n', "invalid TOML"),
    ".codex/agents/helper.toml": ('name = "helper"\ndescription = \n', "invalid TOML"),
    ".claude/rules/style.md": ("---\npaths: [a, b\n---\n\nBody.\n", ""),
    ".cursor/rules/py.mdc": ("---\ndescription: x\ndescription: y\n---\n\nBody.\n", "duplicate"),
    ".github/agents/a.agent.md": ("---\n- a list\n---\n\nBody.\n", "mapping"),
    ".claude/skills/s/SKILL.md": (b"---\ndescription: \xff\n---\n", "UTF-8"),
    ".claude/settings.json": ('{"enabledPlugins": []}', "`enabledPlugins` must be an object"),
    ".vscode/extensions.json": ('{"recommendations": ["a.b",', "invalid JSON"),
    ".kiro/agents/helper.json": ('{"name": "helper", "prompt": "x",}', "invalid JSON"),
    ".kiro/agents/twice.json": ('{"prompt": "a", "prompt": "b"}', "duplicate key 'prompt'"),
    ".kiro/agents/list.json": ('["helper"]', "expected an object"),
}


@pytest.mark.parametrize("rel", sorted(BROKEN))
def test_a_malformed_file_is_one_error_naming_it_and_nothing_is_written(
    rel: str, cli, project: Path, h
) -> None:  # type: ignore[no-untyped-def]
    (project / ".claude" / "rules").mkdir(parents=True)
    (project / ".claude" / "rules" / "good.md").write_text(GOOD_RULE)
    text, words = BROKEN[rel]
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    before = h.snapshot(project)
    out = cli.run("import", cwd=project)
    assert out.returncode == 1
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"upskill: error: {path}")
    assert words in lines[0]
    assert out.stdout == ""
    assert h.snapshot(project) == before


def test_a_non_empty_directory_that_is_no_import_is_refused(cli, project: Path, h) -> None:  # type: ignore[no-untyped-def]
    (project / "CLAUDE.md").write_text("Use uv.\n")
    target = project / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("mine\n")
    before = h.snapshot(project)
    out = cli.run("import", "--into", "mine", cwd=project)
    assert out.returncode == 1
    assert out.stderr == (
        f"upskill: error: {target}: is not empty and is not a previous import "
        "(no .upskill-import.json); choose another --into or empty it\n"
    )
    assert h.snapshot(project) == before


def test_a_previous_import_is_replaced_but_not_a_file_added_to_it(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    (project / "CLAUDE.md").write_text("Use uv.\n")
    cli.ok("import", cwd=project)
    registry = project / ".upskill" / "registry"
    (project / "CLAUDE.md").write_text("Use uv and ruff.\n")
    cli.ok("import", cwd=project)
    assert (
        (registry / "rules" / "claude-md" / "RULE.md").read_text().endswith("\nUse uv and ruff.\n")
    )
    (registry / "rules" / "extra").mkdir()
    (registry / "rules" / "extra" / "RULE.md").write_text("mine\n")
    out = cli.run("import", cwd=project)
    assert out.returncode == 1
    assert "holds rules/extra/RULE.md, which import did not write" in out.stderr
    assert (registry / "rules" / "extra" / "RULE.md").read_text() == "mine\n"


def test_dry_run_writes_nothing_and_json_lists_the_plan(cli, project: Path, h) -> None:  # type: ignore[no-untyped-def]
    import json

    (project / "AGENTS.md").write_text("# Agents\n\nRun tests.\n")
    before = h.snapshot(project)
    out = cli.ok("import", "--dry-run", "--json", cwd=project)
    assert h.snapshot(project) == before
    document = json.loads(out.stdout)
    assert document["dry_run"] is True
    assert document["files"] == ["imported.bundle.yaml", "rules/agents-md/RULE.md"]
    assert document["items"] == [{"kind": "rule", "name": "agents-md", "sources": ["AGENTS.md"]}]
    text = cli.ok("import", "-n", cwd=project)
    assert h.snapshot(project) == before
    assert f"would write {project}/.upskill/registry/rules/agents-md/RULE.md\n" in text.stdout


def test_nothing_to_import_is_an_error(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    out = cli.run("import", cwd=project)
    assert out.returncode == 1
    assert out.stderr == f"upskill: error: nothing to import: no client files found in {project}\n"
    assert not (project / ".upskill").exists()


def test_unknown_client_is_a_usage_error(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    out = cli.run("import", "--from", "nope", cwd=project)
    assert out.returncode == 2
    assert "unknown client 'nope'" in out.stderr


def test_global_scope_reads_the_user_level_files(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    home = cli.home
    (home / ".claude" / "rules").mkdir(parents=True)
    (home / ".claude" / "rules" / "mine.md").write_text(GOOD_RULE)
    (home / ".claude" / "CLAUDE.md").write_text("Be kind.\n")
    (home / ".copilot").mkdir()
    (home / ".copilot" / "mcp-config.json").write_text(
        '{"mcpServers": {"x": {"command": "run-x"}}}'
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cli.ok("import", "-g", "--from", "claude", "copilot", cwd=elsewhere)
    registry = home / ".upskill" / "registry"
    assert sorted(p.name for p in (registry / "rules").iterdir()) == ["claude-md", "mine"]
    bundle = (registry / "imported.bundle.yaml").read_text()
    assert "x:\n    local:\n      command: run-x\n" in bundle
