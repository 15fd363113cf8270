"""`doctor` reports what the extra files lack (`missing_extra_entries`,
`lifecycle/extraneeds.py`): a client reads upskill's rules only through them, so a
rule glob deleted from `opencode.json`, VS Code's member deleted from its settings,
or the file itself gone, silently takes the rules away. A bare `update` writes them
back (its nothing-changed path watches those files)."""

from __future__ import annotations

import json
from pathlib import Path

BIN = {"PATH": "/usr/bin:/bin"}
CLIENTS = ("--claude", "--vscode", "--opencode")
SETTINGS = ".vscode/settings.json"
GLOB = ".agents/rules/**/RULE.md"
TITLE = (
    "Entries missing from the files clients read upskill's items through "
    "(upskill update writes them back):"
)
FOLDER = {"key": "chat.instructionsFilesLocations", "member": ".github/instructions", "value": True}
SKIP = {"key": "chat.agentFilesLocations", "member": ".claude/agents", "value": False}
IMPORT = {"key": "lines", "item": "@AGENTS.md"}
FOLDER_TEXT = '"chat.instructionsFilesLocations": {".github/instructions": true}'
SKIP_TEXT = '"chat.agentFilesLocations": {".claude/agents": false}'
WRITTEN_WHOLE = (
    "(upskill never edits it: add it, or delete the file for upskill update to write it again)"
)


def _missing(cli, root: Path, *flags: str, code: int) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    out = cli.run("doctor", "--json", *flags, cwd=root, extra=BIN)
    assert out.returncode == code, out.stdout
    return json.loads(out.stdout)["missing_extra_entries"]  # type: ignore[no-any-return]


def _install(cli, project: Path, registry: Path) -> None:  # type: ignore[no-untyped-def]
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    assert json.loads((project / SETTINGS).read_bytes()) == {
        "chat.instructionsFilesLocations": {".github/instructions": True},
        "chat.agentFilesLocations": {".claude/agents": False},
    }
    assert json.loads((project / "opencode.json").read_bytes()) == {"instructions": [GLOB]}
    assert (project / "CLAUDE.md").read_bytes() == b"@AGENTS.md\n"


def test_a_clean_install_reports_nothing(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    _install(cli, project, registry)
    assert _missing(cli, project, code=0) == []
    out = cli.run("doctor", cwd=project, extra=BIN)
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "No drift.\n")


def test_deleted_members_are_reported_and_update_puts_them_back(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    _install(cli, project, registry)
    (project / "opencode.json").write_bytes(b'{"model": "x", "instructions": []}\n')
    (project / SETTINGS).write_bytes(
        b'{\n  // ours\n  "chat.instructionsFilesLocations": {".github/instructions": true},\n}\n'
    )
    assert _missing(cli, project, code=1) == [
        {"path": SETTINGS, "reason": "entry-missing", "entries": [SKIP]},
        {
            "path": "opencode.json",
            "reason": "entry-missing",
            "entries": [{"key": "instructions", "item": GLOB}],
        },
    ]
    out = cli.run("doctor", cwd=project, extra=BIN)
    assert out.returncode == 1
    assert out.stdout == (
        f"{TITLE}\n"
        f"  {SETTINGS}: lacks {SKIP_TEXT}\n"
        f'  opencode.json: lacks "instructions": ["{GLOB}"]\n'
        # the tree VS Code is no longer told to skip: its agent is read twice
        "Read twice by one client (informational: remove a copy, or narrow the clients):\n"
        "  vscode: agent reviewer in .github/agents/, .claude/agents/\n"
    )
    assert out.stderr == "2 problem(s) found.\n"
    # A bare update notices the edited files (no nothing-changed shortcut) and puts the
    # members back, the team's own content kept.
    out = cli.ok("update", cwd=project, extra=BIN)
    assert f"updated {SETTINGS}: set {SKIP_TEXT}" in out.stderr.splitlines()
    assert f'updated opencode.json: set "instructions": ["{GLOB}"]' in out.stderr.splitlines()
    assert json.loads((project / "opencode.json").read_bytes()) == {
        "model": "x",
        "instructions": [GLOB],
    }
    assert _missing(cli, project, code=0) == []


def test_missing_files_are_one_entry_each(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    _install(cli, project, registry)
    for name in ("opencode.json", SETTINGS, "CLAUDE.md"):
        (project / name).unlink()
    assert _missing(cli, project, code=1) == [
        {"path": SETTINGS, "reason": "file-missing", "entries": [FOLDER, SKIP]},
        {"path": "CLAUDE.md", "reason": "file-missing", "entries": [IMPORT]},
        {
            "path": "opencode.json",
            "reason": "file-missing",
            "entries": [{"key": "instructions", "item": GLOB}],
        },
    ]
    out = cli.run("doctor", cwd=project, extra=BIN)
    assert out.returncode == 1
    assert out.stdout.splitlines()[:4] == [
        TITLE,
        f"  {SETTINGS}: missing, needs {FOLDER_TEXT}, {SKIP_TEXT}",
        "  CLAUDE.md: missing, needs the line @AGENTS.md",
        f'  opencode.json: missing, needs "instructions": ["{GLOB}"]',
    ]
    assert out.stderr == "3 problem(s) found.\n"
    cli.ok("update", cwd=project, extra=BIN)
    assert (project / "CLAUDE.md").read_bytes() == b"@AGENTS.md\n"
    assert json.loads((project / "opencode.json").read_bytes()) == {"instructions": [GLOB]}
    assert _missing(cli, project, code=0) == []


def test_an_edited_memory_file_is_reported_not_rewritten(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    _install(cli, project, registry)
    (project / "CLAUDE.md").write_bytes(b"# Ours now\n")
    assert _missing(cli, project, code=1) == [
        {"path": "CLAUDE.md", "reason": "entry-missing", "entries": [IMPORT]}
    ]
    out = cli.run("doctor", cwd=project, extra=BIN)
    assert out.stdout == f"{TITLE}\n  CLAUDE.md: lacks the line @AGENTS.md {WRITTEN_WHOLE}\n"
    cli.ok("update", cwd=project, extra=BIN)
    assert (project / "CLAUDE.md").read_bytes() == b"# Ours now\n"  # upskill never edits it
    (project / "CLAUDE.md").unlink()
    cli.ok("update", cwd=project, extra=BIN)
    assert (project / "CLAUDE.md").read_bytes() == b"@AGENTS.md\n"
    assert _missing(cli, project, code=0) == []


def test_an_unparsable_file_is_one_entry_naming_the_problem(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    _install(cli, project, registry)
    (project / "opencode.json").write_bytes(b'{"instructions": "all"}\n')
    (project / SETTINGS).write_bytes(b"\xff{}\n")
    assert _missing(cli, project, code=1) == [
        {
            "path": SETTINGS,
            "reason": "unreadable",
            "entries": [FOLDER, SKIP],
            "detail": "cannot update: not UTF-8 (invalid start byte)",
        },
        {
            "path": "opencode.json",
            "reason": "unreadable",
            "entries": [{"key": "instructions", "item": GLOB}],
            "detail": "cannot update: `instructions` is not an array",
        },
    ]
    outside = project.parent / "outside"
    outside.mkdir()
    (outside / "settings.json").write_bytes(b"{}\n")
    (project / SETTINGS).unlink()
    (project / ".vscode").rmdir()
    (project / ".vscode").symlink_to(outside)
    (project / "CLAUDE.md").unlink()
    (project / "CLAUDE.md").symlink_to(outside / "settings.json")
    assert _missing(cli, project, code=1)[:2] == [
        {
            "path": SETTINGS,
            "reason": "unreadable",
            "entries": [FOLDER, SKIP],
            "detail": ".vscode: refusing to use a symlinked directory",
        },
        {
            "path": "CLAUDE.md",
            "reason": "unreadable",
            "entries": [IMPORT],
            "detail": f"resolves outside {project} (a symlink); refusing to read or replace it",
        },
    ]


def test_unreadable_lines(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    _install(cli, project, registry)
    (project / "opencode.json").write_bytes(b'{"instructions": "all"}\n')
    (project / SETTINGS).write_bytes(b"\xff{}\n")
    out = cli.run("doctor", cwd=project, extra=BIN)
    assert out.stdout.splitlines()[:3] == [
        TITLE,
        f"  {SETTINGS}: cannot update: not UTF-8 (invalid start byte) "
        f"(needs {FOLDER_TEXT}, {SKIP_TEXT})",
        f'  opencode.json: cannot update: `instructions` is not an array (needs "instructions": '
        f'["{GLOB}"])',
    ]


def test_team_files_holding_the_members_are_fine(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A team's file that already holds the member is the team's: nothing recorded,
    nothing missing. A team's own CLAUDE.md is never upskill's to fill."""
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    (project / "CLAUDE.md").write_bytes(b"# Our own memory\n")
    team = b'{\n  // ours\n  "instructions": ["docs/*.md", "' + GLOB.encode() + b'"],\n}\n'
    (project / "opencode.json").write_bytes(team)
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    assert (project / "opencode.json").read_bytes() == team
    assert _missing(cli, project, code=0) == []
    # A team's member with another value is theirs too, as the engine keeps it.
    (project / SETTINGS).write_bytes(
        b'{"chat.instructionsFilesLocations": {".github/instructions": false},'
        b' "chat.agentFilesLocations": {".claude/agents": false}}\n'
    )
    assert _missing(cli, project, code=0) == []


def test_user_scope(cli, tmp_path, registry) -> None:  # type: ignore[no-untyped-def]
    config = cli.home / ".config/opencode/opencode.json"
    commits, style = "~/.agents/rules/commits/RULE.md", "~/.agents/rules/style/RULE.md"
    cli.ok("add", "-g", str(registry), "--opencode", cwd=tmp_path, extra=BIN)
    assert json.loads(config.read_bytes()) == {"instructions": [commits, style]}
    assert _missing(cli, tmp_path, "-g", code=0) == []
    config.write_bytes(json.dumps({"instructions": [style]}).encode())
    assert _missing(cli, tmp_path, "-g", code=1) == [
        {
            "path": ".config/opencode/opencode.json",
            "reason": "entry-missing",
            "entries": [{"key": "instructions", "item": commits}],
        }
    ]
    out = cli.run("doctor", "-g", cwd=tmp_path, extra=BIN)
    assert (out.returncode, out.stdout) == (
        1,
        f'{TITLE}\n  .config/opencode/opencode.json: lacks "instructions": ["{commits}"]\n',
    )
    config.unlink()
    assert _missing(cli, tmp_path, "-g", code=1) == [
        {
            "path": ".config/opencode/opencode.json",
            "reason": "file-missing",
            "entries": [
                {"key": "instructions", "item": commits},
                {"key": "instructions", "item": style},
            ],
        }
    ]
    cli.ok("update", "-g", cwd=tmp_path, extra=BIN)
    assert json.loads(config.read_bytes()) == {"instructions": [commits, style]}
    assert _missing(cli, tmp_path, "-g", code=0) == []


def test_the_import_follows_the_engine(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """`CLAUDE.md` is needed only beside an `AGENTS.md` upskill does not compile: one it
    compiles for Codex is not imported (Claude has its own copies), a team's added after
    the install is, and a bare update then writes the import."""
    cli.ok("add", str(registry), "--claude", "--codex", cwd=project, extra=BIN)
    assert (project / "AGENTS.md").is_file() and not (project / "CLAUDE.md").exists()
    assert _missing(cli, project, code=0) == []
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project, extra=BIN)
    cli.ok("add", str(registry), "--claude", cwd=project, extra=BIN)
    assert _missing(cli, project, code=0) == []
    (project / "AGENTS.md").write_bytes(b"# Team\n")
    assert _missing(cli, project, code=1) == [
        {"path": "CLAUDE.md", "reason": "file-missing", "entries": [IMPORT]}
    ]
    out = cli.ok("update", cwd=project, extra=BIN)
    assert "created CLAUDE.md" in out.stderr.splitlines()
    assert _missing(cli, project, code=0) == []
