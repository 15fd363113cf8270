"""Every file upskill keeps besides its plan outputs (`.vscode/settings.json`,
`opencode.json`, `CLAUDE.md`: `lifecycle/ancillary.py`) is reported like an output:
one line per file in `add`, `update` and `remove`, counted in "N files changed", listed
by `--dry-run` (which writes nothing), and carried by `--json` (`extra_files`)."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

BIN = {"PATH": "/usr/bin:/bin"}
SETTINGS = ".vscode/settings.json"
CLIENTS = ("--claude", "--copilot", "--vscode")
FOLDER = '"chat.instructionsFilesLocations": {".github/instructions": true}'
SKIP = '"chat.agentFilesLocations": {".claude/agents": false}'
TEAM_AGENT = b"---\nname: mine\ndescription: Our own\n---\n\nOurs.\n"
SHOWN_AGAIN = (
    "warning: vscode: .claude/agents/ holds agents upskill did not write "
    "(.claude/agents/mine.md), so .vscode/settings.json no longer tells VS Code to skip it "
    "(chat.agentFilesLocations): VS Code lists those, and upskill's agents there twice"
)
SCHEMA = Path(__file__).resolve().parents[4] / "docs/upskill/schemas/run.schema.json"


def _lines(text: str) -> list[str]:
    return text.splitlines()


def test_add_update_dry_run_remove_report_the_settings_file(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    out = cli.run("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    assert (out.returncode, out.stdout) == (0, "")
    assert _lines(out.stderr) == [
        "rendering",
        "writing",
        f"created {SETTINGS}: set {FOLDER}, {SKIP}",
        "4 items installed for claude, copilot, vscode",
    ]

    # A team agent in Claude's tree: the only change is taking the member back.
    (project / ".claude/agents/mine.md").write_bytes(TEAM_AGENT)
    before = h.snapshot(project)
    dry = cli.run("update", "--dry-run", cwd=project, extra=BIN)
    assert (dry.returncode, _lines(dry.stderr)) == (0, ["rendering", SHOWN_AGAIN])
    assert dry.stdout == f"  update             {SETTINGS}: take back {SKIP}\n"
    assert h.snapshot(project) == before  # a dry run writes nothing, settings included

    out = cli.run("update", cwd=project, extra=BIN)
    assert (out.returncode, out.stdout) == (0, "")
    assert _lines(out.stderr) == [
        "rendering",
        "writing",
        SHOWN_AGAIN,
        f"updated {SETTINGS}: took back {SKIP}",
        "0 items updated (1 file changed)",
    ]
    assert (project / SETTINGS).read_bytes() == (
        b'{\n  "chat.instructionsFilesLocations": {\n    ".github/instructions": true\n  }\n}\n'
    )

    (project / ".claude/agents/mine.md").unlink()
    out = cli.run("update", cwd=project, extra=BIN)
    assert _lines(out.stderr)[-2:] == [
        f"updated {SETTINGS}: set {SKIP}",
        "0 items updated (1 file changed)",
    ]
    out = cli.run("update", cwd=project, extra=BIN)
    assert (out.returncode, _lines(out.stderr)) == (0, ["Already up to date."])

    before = h.snapshot(project)
    dry = cli.run("remove", "-y", "--source", f"local:{registry}", "-n", cwd=project, extra=BIN)
    assert dry.returncode == 0
    assert _lines(dry.stdout)[-1] == f"  remove             {SETTINGS}: take back {FOLDER}, {SKIP}"
    assert h.snapshot(project) == before

    out = cli.run("remove", "-y", "--source", f"local:{registry}", cwd=project, extra=BIN)
    assert (out.returncode, out.stdout) == (0, "")
    assert _lines(out.stderr) == [
        f"removed {SETTINGS}: took back {FOLDER}, {SKIP}",
        "4 items removed",
    ]
    assert not (project / ".vscode").exists()


def test_a_team_settings_file_keeps_its_bytes(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    team = b'\xef\xbb\xbf{\n  // ours\n  "editor.tabSize": 2,\n}\n'
    (project / ".vscode").mkdir()
    (project / SETTINGS).write_bytes(team)
    out = cli.run("add", str(registry), "style", "--vscode", cwd=project, extra=BIN)
    assert out.returncode == 0
    assert _lines(out.stderr) == [
        "rendering",
        "writing",
        f"updated {SETTINGS}: set {FOLDER}",
        "1 item installed for vscode",
    ]
    assert (project / SETTINGS).read_bytes() == (
        b'\xef\xbb\xbf{\n  // ours\n  "editor.tabSize": 2,\n'
        b'  "chat.instructionsFilesLocations": {\n    ".github/instructions": true\n  },\n}\n'
    )
    out = cli.run("remove", "style", cwd=project, extra=BIN)
    assert out.returncode == 0
    assert _lines(out.stderr) == [f"updated {SETTINGS}: took back {FOLDER}", "1 item removed"]
    assert (project / SETTINGS).read_bytes() == team


def test_claude_md_and_opencode_json_are_reported(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    dry = cli.run("add", str(registry), "style", "--claude", "--opencode", "-n", cwd=project)
    assert dry.returncode == 0
    assert _lines(dry.stdout) == [
        "  create             .agents/rules/style/RULE.md",
        "  create             .claude/rules/style.md",
        "  create             CLAUDE.md",
        '  create             opencode.json: set "instructions": [".agents/rules/**/RULE.md"]',
    ]
    assert sorted(p.name for p in project.iterdir()) == [".git", "AGENTS.md"]
    out = cli.run("add", str(registry), "style", "--claude", "--opencode", cwd=project)
    assert out.returncode == 0
    assert _lines(out.stderr) == [
        "rendering",
        "writing",
        "created CLAUDE.md",
        'created opencode.json: set "instructions": [".agents/rules/**/RULE.md"]',
        "1 item installed for claude, opencode",
    ]
    out = cli.run("remove", "style", "--json", cwd=project)
    document = json.loads(out.stdout)
    assert list(Draft202012Validator(json.loads(SCHEMA.read_text())).iter_errors(document)) == []
    # Both files upskill created go with their last member: the tree is the one before add
    # but for upskill's own state (its lockfile, now empty, and `.upskill/`).
    assert document["extra_files"] == [
        {"op": "remove", "path": "CLAUDE.md", "set": [], "took_back": []},
        {
            "op": "remove",
            "path": "opencode.json",
            "set": [],
            "took_back": [{"key": "instructions", "item": ".agents/rules/**/RULE.md"}],
        },
    ]
    assert sorted(p.name for p in project.iterdir()) == [
        ".git",
        ".upskill",
        ".upskill-lock.json",
        "AGENTS.md",
    ]


def test_json_carries_settings_members(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    out = cli.run("add", str(registry), "style", "--vscode", "-n", "--json", cwd=project)
    document = json.loads(out.stdout)
    assert list(Draft202012Validator(json.loads(SCHEMA.read_text())).iter_errors(document)) == []
    assert document["extra_files"] == [
        {
            "op": "create",
            "path": SETTINGS,
            "set": [
                {
                    "key": "chat.instructionsFilesLocations",
                    "member": ".github/instructions",
                    "value": True,
                }
            ],
            "took_back": [],
        }
    ]
    assert not (project / ".vscode").exists()


def test_global_opencode_entries_of_one_list_share_a_line(cli, tmp_path, registry) -> None:  # type: ignore[no-untyped-def]
    config = ".config/opencode/opencode.json"
    listed = '"instructions": ["~/.agents/rules/commits/RULE.md", "~/.agents/rules/style/RULE.md"]'
    dry = cli.run("add", "-g", str(registry), "--opencode", "-n", cwd=tmp_path, extra=BIN)
    assert (dry.returncode, _lines(dry.stdout)[-1]) == (
        0,
        f"  create             {config}: set {listed}",
    )
    assert not (cli.home / ".config/opencode").exists()
    out = cli.run("add", "-g", str(registry), "--opencode", cwd=tmp_path, extra=BIN)
    assert out.returncode == 0
    assert _lines(out.stderr)[-2:] == [
        f"created {config}: set {listed}",
        "4 items installed for opencode",
    ]
    out = cli.run("remove", "-g", "style", cwd=tmp_path, extra=BIN)
    assert (out.returncode, _lines(out.stderr)) == (
        0,
        [
            f'updated {config}: took back "instructions": ["~/.agents/rules/style/RULE.md"]',
            "1 item removed",
        ],
    )


def test_changed_reads_the_entries_from_the_bytes() -> None:
    """A member the file held before (the team's) is neither set nor taken back; a
    removal names the sha256 the file must still have."""
    import hashlib

    from upskill.lifecycle.ancillary import changed, shape
    from upskill.lifecycle.extrafiles import Entry, ExtraFile, ExtraOp

    team, ours = Entry("k", "m", True), Entry("k", "n", False)
    members = (("k", "m", True), ("k", "n", False))
    before, after = b'{"k": {"m": true}}', b'{"k": {"m": true, "n": false}}'
    assert changed("s.json", before, after, members, shape("s.json")) == ExtraFile(
        "s.json", ExtraOp.UPDATE, after, added=(ours,)
    )
    assert changed("s.json", after, None, members, shape("s.json")) == ExtraFile(
        "s.json", ExtraOp.REMOVE, None, hashlib.sha256(after).hexdigest(), taken=(team, ours)
    )
    assert changed("CLAUDE.md", None, b"@AGENTS.md\n", (), shape("CLAUDE.md")) == ExtraFile(
        "CLAUDE.md", ExtraOp.CREATE, b"@AGENTS.md\n"
    )
