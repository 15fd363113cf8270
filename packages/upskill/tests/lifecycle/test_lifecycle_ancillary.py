"""CLAUDE.md, opencode.json and .vscode/settings.json (reference notes §5), JSONC-safe."""

from __future__ import annotations

import json

import pytest

from upskill.clients import get
from upskill.jsonc import loads
from upskill.lifecycle.ancillary import (
    IMPORT,
    AncillaryError,
    list_items,
    settings_member,
    shape,
)

# The updaters the registrations of opencode and VS Code produce.
OPENCODE = get("opencode").registration
VSCODE = get("vscode").registration
opencode_json = list_items(OPENCODE.rule_list, "instructions", (OPENCODE.rule_glob,))
vscode_settings = settings_member(VSCODE.settings, *VSCODE.settings_key, True)


def test_claude_md_created_once_never_edited():
    memory = shape("CLAUDE.md")
    assert memory.put((IMPORT,))(None) == b"@AGENTS.md\n"
    assert memory.put((IMPORT,))(b"my own\n") == b"my own\n"
    assert memory.take((IMPORT,))(b"@AGENTS.md\nmine\n") is None  # written whole: no cut
    assert memory.value(b"x\n@AGENTS.md\n", IMPORT) == "@AGENTS.md"
    assert not memory.reported


def test_opencode_json_create_append_noop():
    assert (
        opencode_json(None) == b'{\n  "instructions": [\n    ".agents/rules/**/RULE.md"\n  ]\n}\n'
    )
    appended = opencode_json(b'{"model": "x", "instructions": ["a.md"]}')
    assert json.loads(appended) == {
        "model": "x",
        "instructions": ["a.md", ".agents/rules/**/RULE.md"],
    }
    # edited in place, layout kept (issue 13: strict JSON is no longer rewritten)
    assert appended == b'{"model": "x", "instructions": ["a.md", ".agents/rules/**/RULE.md"]}'
    assert opencode_json(appended) is None
    assert json.loads(opencode_json(b'{"$schema": "s"}')) == {
        "$schema": "s",
        "instructions": [".agents/rules/**/RULE.md"],
    }


def test_vscode_settings_create_add_keep_false():
    created = vscode_settings(None)
    assert json.loads(created) == {
        "chat.instructionsFilesLocations": {".github/instructions": True}
    }
    kept = b'{"chat.instructionsFilesLocations": {".github/instructions": false}}'
    assert vscode_settings(kept) is None
    merged = vscode_settings(
        b'{"editor.tabSize": 2, "chat.instructionsFilesLocations": {"x": true}}'
    )
    assert json.loads(merged) == {
        "editor.tabSize": 2,
        "chat.instructionsFilesLocations": {"x": True, ".github/instructions": True},
    }


@pytest.mark.parametrize(
    ("updater", "data", "message"),
    [
        (opencode_json, b"[]", "top level is not a JSON object"),
        (opencode_json, b'{"instructions": "a"}', "`instructions` is not an array"),
        (vscode_settings, b'{"chat.instructionsFilesLocations": []}', "is not an object"),
        (vscode_settings, b"{oops", "invalid JSON"),
    ],
)
def test_shapes_upskill_cannot_extend(updater, data, message):
    with pytest.raises(AncillaryError, match=message):
        updater(data)


JSONC_SETTINGS = """\
// Workspace settings (team-owned)
{
  /* tabs */ "editor.tabSize": 4, // keep
  "files.exclude": {"**/.git": true,},
}
"""


def test_jsonc_settings_keep_comments_by_textual_insertion():
    new = vscode_settings(JSONC_SETTINGS.encode()).decode()
    assert new.startswith("// Workspace settings (team-owned)\n{")
    for line in JSONC_SETTINGS.splitlines():
        assert line in new  # every original line survives verbatim
    value = loads(new)
    assert value["chat.instructionsFilesLocations"] == {".github/instructions": True}
    assert vscode_settings(new.encode()) is None  # idempotent


def test_jsonc_opencode_insert_into_existing_array():
    text = '{\n  // rules\n  "instructions": [\n    "a.md", // first\n  ],\n}\n'
    new = opencode_json(text.encode()).decode()
    assert "// rules" in new and "// first" in new
    assert loads(new)["instructions"] == ["a.md", ".agents/rules/**/RULE.md"]
    empty = opencode_json(b'{ /* c */ "instructions": [] }').decode()
    assert loads(empty)["instructions"] == [".agents/rules/**/RULE.md"]
    assert "/* c */" in empty


def test_cli_writes_ancillary_only_for_selected_clients(cli, project, registry):
    cli.ok("add", "../registry", "--claude", cwd=project)
    # no AGENTS.md: an `@AGENTS.md` reference would reach the model as literal text
    assert not (project / "CLAUDE.md").exists()
    (project / "AGENTS.md").write_text("# Team\n")
    cli.ok("add", "../registry", "--claude", cwd=project)
    assert (project / "CLAUDE.md").read_text() == "@AGENTS.md\n"
    assert not (project / "opencode.json").exists()
    assert not (project / ".vscode").exists()
    cli.ok("add", "../registry", "--opencode", "--vscode", cwd=project)
    assert json.loads((project / "opencode.json").read_text())["instructions"] == [
        ".agents/rules/**/RULE.md"
    ]
    assert (project / ".vscode/settings.json").is_file()


def test_cli_never_modifies_existing_claude_md_and_remove_takes_settings_back(
    cli, project, registry
):
    """`remove` leaves the team's CLAUDE.md, and takes back the settings file and the
    opencode.json upskill created: nothing of them is left."""
    (project / "CLAUDE.md").write_text("# Mine\n")
    baseline = ("--claude", "--copilot", "--vscode", "--opencode")  # not just the detected one
    cli.ok("add", "../registry", *baseline, cwd=project)
    assert (project / "CLAUDE.md").read_text() == "# Mine\n"
    # The instructions folder registered, and `.claude/agents` skipped: it holds only
    # Claude's copy of the agent VS Code has in `.github/agents` (lifecycle.agenttrees).
    assert (project / ".vscode/settings.json").read_bytes() == (
        b'{\n  "chat.instructionsFilesLocations": {\n    ".github/instructions": true\n  },\n'
        b'  "chat.agentFilesLocations": {\n    ".claude/agents": false\n  }\n}\n'
    )
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert not (project / ".vscode/settings.json").exists()
    assert (project / "CLAUDE.md").read_text() == "# Mine\n"
    assert not (project / "opencode.json").exists()  # upskill created it


def test_cli_settings_only_for_vscode(cli, project, registry):
    """Copilot CLI reads no `.vscode/settings.json`: selecting it alone writes none."""
    cli.ok("add", "../registry", "--copilot", cwd=project)
    assert (project / ".github/instructions").is_dir()
    assert not (project / ".vscode").exists()
    assert "edits" not in json.loads((project / ".upskill-lock.json").read_text())


TEAM_SETTINGS = (
    b'\xef\xbb\xbf{\n  // the team\'s\n  "editor.tabSize": 2,\n'
    b'  "chat.instructionsFilesLocations": {"docs/ai": true,},\n}\n'
)


def test_cli_remove_restores_team_settings_exactly(cli, project, registry):
    (project / ".vscode").mkdir()
    (project / ".vscode/settings.json").write_bytes(TEAM_SETTINGS)
    cli.ok("add", "../registry", "--vscode", cwd=project)
    added = (project / ".vscode/settings.json").read_bytes()
    assert loads(added.decode("utf-8-sig"))["chat.instructionsFilesLocations"] == {
        "docs/ai": True,
        ".github/instructions": True,
    }
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert (project / ".vscode/settings.json").read_bytes() == TEAM_SETTINGS
    assert "edits" not in json.loads((project / ".upskill-lock.json").read_text())


def test_cli_narrowing_to_copilot_restores_team_settings(cli, project, registry):
    """`update` without VS Code takes its registration back; the Copilot files stay."""
    (project / ".vscode").mkdir()
    (project / ".vscode/settings.json").write_bytes(TEAM_SETTINGS)
    cli.ok("add", "../registry", "--copilot", "--vscode", cwd=project)
    assert (project / ".vscode/settings.json").read_bytes() != TEAM_SETTINGS
    cli.ok("update", "--copilot", cwd=project)
    assert (project / ".vscode/settings.json").read_bytes() == TEAM_SETTINGS
    assert (project / ".github/instructions").is_dir()


def test_cli_remove_after_a_team_edit_cuts_only_the_member(cli, project, registry):
    """A settings file the team changed after upskill's edit keeps the team's change;
    only the member upskill added goes. One the team already had is never cut."""
    cli.ok("add", "../registry", "--vscode", cwd=project)
    settings = project / ".vscode/settings.json"
    value = json.loads(settings.read_text())
    settings.write_text(json.dumps({"editor.tabSize": 4, **value}, indent=2) + "\n")
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert json.loads(settings.read_text()) == {
        "editor.tabSize": 4,
        "chat.instructionsFilesLocations": {},
    }
    had = b'{"chat.instructionsFilesLocations": {".github/instructions": true}}\n'
    settings.write_bytes(had)
    cli.ok("add", "../registry", "--vscode", cwd=project)
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project)
    assert settings.read_bytes() == had


def test_strict_json_keeps_numbers_duplicates_and_bom() -> None:
    """A strict-JSON settings.json is edited as text: `1e5` stays `1e5`, a duplicate key
    and the BOM stay (issue 13, "Smaller")."""
    current = b'\xef\xbb\xbf{\n  "editor.fontSize": 1e5,\n  "a": 1,\n  "a": 2\n}\n'
    new = vscode_settings(current)
    assert new is not None
    assert new.startswith(b'\xef\xbb\xbf{\n  "editor.fontSize": 1e5,\n  "a": 1,\n  "a": 2,')
    assert b'"chat.instructionsFilesLocations"' in new and new.endswith(b"}\n")
    assert vscode_settings(new) is None
