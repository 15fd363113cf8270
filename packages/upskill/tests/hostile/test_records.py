"""Lockfile records and YAML values are data too (issue 24, 4-6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_state import NO_CLIENT_CLIS as BIN
from hostile_state import SERVER_BUNDLE as BUNDLE

VALUES = {
    "bad-date": ("x-when: 2024-02-30", "invalid YAML value: day is out of range for month"),
    "huge-int": ("x-n: " + "9" * 5000, "invalid YAML value: Exceeds the limit (4300 digits)"),
    "int-tag": ("x-n: !!int abc", "invalid YAML value: invalid literal for int()"),
    "float-tag": ("x-n: !!float abc", "invalid YAML value: could not convert string to float"),
    "binary": ("x-b: !!binary aGVsbG8=", "invalid YAML value: binary values are not supported"),
}


@pytest.mark.parametrize("case", VALUES)
def test_yaml_values_are_checked_in_items_bundles_and_config(cli, project, registry, case) -> None:  # type: ignore[no-untyped-def]
    line, problem = VALUES[case]
    item = registry / "skills" / "review" / "SKILL.md"
    item.write_text(
        f"---\nschema: 1\nname: review\ndescription: Use when reviewing.\n{line}\n---\n\nB.\n"
    )
    out = cli.run("add", str(registry), "review", cwd=project)
    assert out.returncode == 1
    assert out.stderr.startswith(f"upskill: error: {item}:2: {problem}")
    bundle = registry / "skills" / "b.bundle.yaml"
    bundle.write_text(BUNDLE + line + "\n")
    item.write_text("---\nschema: 1\nname: review\ndescription: Use when reviewing.\n---\n\nB.\n")
    out = cli.run("add", str(registry), "b", cwd=project)
    assert out.returncode == 1
    assert out.stderr.startswith(f"upskill: error: {bundle}:1: {problem}")
    config = project / ".upskill" / "config.yaml"
    config.parent.mkdir(exist_ok=True)
    config.write_text(line + "\n")
    bundle.write_text(BUNDLE)
    out = cli.run("add", str(registry), "b", cwd=project)  # needs the config: names it
    assert out.returncode == 1
    assert out.stderr.startswith(f"upskill: error: {config}:1: {problem}")
    assert cli.run("list", cwd=project).returncode == 0  # does not: still works


@pytest.mark.parametrize("argv", [("update",), ("remove", "style"), ("remove-mcp", "db")])
def test_a_project_lockfile_cannot_name_the_users_global_servers(
    cli, project, registry, argv
) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "b.bundle.yaml").write_text(BUNDLE)
    cli.ok("add", str(registry), "b", "--claude", cwd=project, extra=BIN)
    user_config = cli.home / ".claude.json"
    user_config.write_text(json.dumps({"mcpServers": {"db": {"command": "mine"}}}) + "\n")
    before = user_config.read_bytes()
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["mcps"][0]["scope"] = "user"
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    out = cli.run(*argv, cwd=project, extra=BIN)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {lock_path}: `mcps[0]` (db) has scope `user`: a project lockfile "
        "holds project-scope records only; refusing to use it\n"
    )
    assert user_config.read_bytes() == before


def test_a_bare_update_keeps_each_servers_recorded_clients(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "b.bundle.yaml").write_text(BUNDLE)
    cli.ok("add", str(registry), "b", "--opencode", cwd=project, extra=BIN)
    (registry / "skills" / "b.bundle.yaml").write_text(BUNDLE.replace("team-db", "team-db2"))
    cli.ok("update", cwd=project, extra=BIN)
    assert not (project / ".mcp.json").exists()
    assert not (project / ".vscode").exists()
    server = json.loads((project / "opencode.json").read_text())["mcp"]["db"]
    assert server == {"type": "local", "command": ["team-db2"]}
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert [m["client"] for m in lock["mcps"]] == ["opencode"]


def test_helper_paths_exist(registry: Path) -> None:
    assert (registry / "skills" / "review" / "SKILL.md").is_file()
