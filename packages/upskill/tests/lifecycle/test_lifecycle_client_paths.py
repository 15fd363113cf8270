"""Where each client reads, per scope, and ancillary entries that follow what is installed
(issue 14, items 3, 4, 7 and 14; docs/upskill/clients.md has the verified read paths)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from upskill.clients import get
from upskill.lifecycle.ancillary import (
    IMPORT,
    Installed,
    list_items,
    unrecorded,
    wanted,
)

OPENCODE_RULE_GLOB = get("opencode").registration.rule_glob


def _global(cli, tmp_path: Path) -> Path:
    cwd = tmp_path / "elsewhere"  # not a git repository: the global scope
    cwd.mkdir(exist_ok=True)
    return cwd


def test_global_scope_writes_where_each_client_reads(cli, h, registry, tmp_path):
    cli.ok("add", str(registry), "-g", cwd=_global(cli, tmp_path))
    home = cli.home
    got = [p for p in h.files(home) if not p.startswith((".local/", ".cache/", ".upskill/"))]
    assert got == [
        ".agents/rules/commits/RULE.md",
        ".agents/rules/style/RULE.md",
        ".agents/skills/review/SKILL.md",
        ".agents/skills/review/references/list.md",
        ".claude/agents/reviewer.md",
        ".claude/rules/commits.md",
        ".claude/rules/style.md",
        ".claude/skills/review/SKILL.md",
        ".claude/skills/review/references/list.md",
        ".config/opencode/opencode.json",
        ".copilot/agents/reviewer.agent.md",
        ".copilot/instructions/commits.instructions.md",
        ".copilot/instructions/style.instructions.md",
        ".copilot/skills/review/SKILL.md",
        ".copilot/skills/review/references/list.md",
        ".opencode/agents/reviewer.md",
        ".upskill-lock.json",
    ]
    # opencode globs an absolute instruction in its last component only: one entry per rule.
    assert (home / ".config/opencode/opencode.json").read_text() == (
        '{\n  "instructions": [\n'
        '    "~/.agents/rules/commits/RULE.md",\n'
        '    "~/.agents/rules/style/RULE.md"\n  ]\n}\n'
    )
    # Copilot does not read ~/.claude/rules: Claude's copy needs no exclusion there.
    assert "excludeAgent" not in (home / ".claude/rules/style.md").read_text()


def test_global_opencode_entries_follow_removal(cli, h, registry, tmp_path):
    cwd = _global(cli, tmp_path)
    config = cli.home / ".config/opencode/opencode.json"
    config.parent.mkdir(parents=True)
    config.write_text('{\n  // mine\n  "model": "x",\n  "instructions": ["~/notes.md"]\n}\n')
    cli.ok("add", str(registry), "-g", "--opencode", cwd=cwd)
    assert json.loads(_strip_comment(config.read_text()))["instructions"] == [
        "~/notes.md",
        "~/.agents/rules/commits/RULE.md",
        "~/.agents/rules/style/RULE.md",
    ]
    cli.ok("remove", "style", "-g", cwd=cwd)
    text = config.read_text()
    assert "// mine" in text
    assert json.loads(_strip_comment(text))["instructions"] == [
        "~/notes.md",
        "~/.agents/rules/commits/RULE.md",
    ]
    assert not (cli.home / "opencode.json").exists()  # opencode never reads $HOME/opencode.json


def _strip_comment(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "//" not in line)


def test_project_claude_rules_hidden_from_copilot_only_beside_its_own_copy(
    cli, h, registry, project
):
    cli.ok("add", str(registry), "--claude", "--copilot", cwd=project)
    claude = (project / ".claude/rules/style.md").read_text()
    assert claude.splitlines()[1:4] == [
        "name: style",
        "description: Use when testing style",
        "excludeAgent: coding-agent",
    ]
    copilot = project / ".github/instructions/style.instructions.md"
    assert "excludeAgent" not in copilot.read_text()
    # Narrowed to Claude: Copilot has no copy of its own, so Claude's is not hidden from it.
    cli.ok("update", "--claude", cwd=project)
    assert "excludeAgent" not in (project / ".claude/rules/style.md").read_text()
    assert not (project / ".github/instructions").exists()


def test_narrowing_drops_the_opencode_rule_glob(cli, h, registry, project):
    """The team's file is given back byte for byte once its member is taken back."""
    config = project / "opencode.json"
    config.write_text('{\n  "model": "x"\n}\n')
    cli.ok("add", str(registry), "--claude", "--opencode", cwd=project)
    assert json.loads(config.read_text())["instructions"] == [OPENCODE_RULE_GLOB]
    cli.ok("update", "--claude", cwd=project)
    assert config.read_text() == '{\n  "model": "x"\n}\n'
    assert not (project / ".agents").exists()


def test_removing_the_last_opencode_rule_removes_the_file_upskill_created(
    cli, h, registry, project
):
    cli.ok("add", str(registry), "--opencode", cwd=project)
    cli.ok("remove", "style", "commits", cwd=project)
    assert not (project / "opencode.json").exists()


def test_opencode_instructions_updater_is_exact():
    update = list_items("opencode.json", "instructions", ["a", "b"], ["old"])
    assert update(None) == b'{\n  "instructions": [\n    "a",\n    "b"\n  ]\n}\n'
    assert update(b'{"instructions": ["old", "a"]}') == b'{"instructions": ["a", "b"]}'
    assert update(b'{"instructions": ["a", "b"]}') is None
    assert list_items("o.json", "instructions", [], ["x"])(None) is None
    bom = b"\xef\xbb\xbf"
    assert update(bom + b'{"instructions": []}') == bom + b'{"instructions": ["a", "b"]}'


def test_updaters_per_scope():
    none = Installed(frozenset(), frozenset(), frozenset(), ())
    rules = Installed(
        frozenset({"claude", "copilot", "opencode"}),
        frozenset({"claude", "copilot", "opencode"}),
        frozenset({"claude", "copilot", "vscode", "opencode"}),
        (("opencode", ".agents/rules/a/RULE.md"),),
    )
    glob = ("instructions", None, OPENCODE_RULE_GLOB)
    folder = ("chat.instructionsFilesLocations", ".github/instructions", True)
    assert wanted(rules, home=False, imports=True) == {
        "CLAUDE.md": (IMPORT,),
        "opencode.json": (glob,),
        ".vscode/settings.json": (folder,),
    }
    assert wanted(rules, home=False) == {
        "opencode.json": (glob,),
        ".vscode/settings.json": (folder,),
    }
    # Copilot CLI reads no `.vscode/settings.json`: only VS Code holding a rule writes it.
    cli_only = dataclasses.replace(rules, rule_clients=frozenset({"claude", "copilot", "opencode"}))
    assert sorted(wanted(cli_only, home=False, imports=True)) == ["CLAUDE.md", "opencode.json"]
    # The global scope has neither CLAUDE.md at $HOME nor a VS Code workspace.
    assert wanted(rules, home=True, imports=True) == {
        ".config/opencode/opencode.json": (("instructions", None, "~/.agents/rules/a/RULE.md"),)
    }
    assert wanted(none, home=True) == {}
    # A lockfile without edit records: the entries of rules that are gone are taken back.
    assert unrecorded(rules, home=False) == {"opencode.json": (glob,)}
    assert unrecorded(none, home=False) == {}


def test_no_home_output_escapes_the_confined_trees():
    from upskill.clients import CLIENTS
    from upskill.lifecycle.confine import refusal

    for client in CLIENTS:
        for where in client.kinds.values():
            assert refusal(where.at(home=True).entrypoint("x")) is None
    assert refusal(".config/opencode/opencode.json") is None
    assert refusal(".copilot/mcp-config.json") is not None
