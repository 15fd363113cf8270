"""VS Code is told to skip `.claude/agents` only while that hides nothing but copies of
agents it has in `.github/agents` (issue 15, item 3; `lifecycle/agenttrees.py`), through
the undoable edits of `.vscode/settings.json` (`lifecycle/edits.py`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

BIN = {"PATH": "/usr/bin:/bin"}
SETTINGS = ".vscode/settings.json"
CLIENTS = ("--claude", "--copilot", "--vscode")
FOLDER = b'  "chat.instructionsFilesLocations": {\n    ".github/instructions": true\n  }'
SKIP = b'  "chat.agentFilesLocations": {\n    ".claude/agents": false\n  }'
BOTH = b"{\n" + FOLDER + b",\n" + SKIP + b"\n}\n"
FOLDER_ONLY = b"{\n" + FOLDER + b"\n}\n"
TWICE = (
    "warning: vscode: 1 agent (agent:reviewer) listed 2 times, from .github/agents/, "
    ".claude/agents/ (VS Code reads .github/agents/, .claude/agents/ and lists every copy)"
)
TEAM_AGENT = b"---\nname: mine\ndescription: Our own\n---\n\nOurs.\n"
SHOWN_AGAIN = (
    "warning: vscode: .claude/agents/ holds agents upskill did not write "
    "(.claude/agents/mine.md), so .vscode/settings.json no longer tells VS Code to skip it "
    "(chat.agentFilesLocations): VS Code lists those, and upskill's agents there twice"
)


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning:")]


def _lock(root: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((root / ".upskill-lock.json").read_text())


def _doctor(cli, root: Path, code: int = 0) -> dict:  # type: ignore[no-untyped-def,type-arg]
    out = cli.run("doctor", "--json", cwd=root, extra=BIN)
    assert out.returncode == code, out.stdout
    found = json.loads(out.stdout)
    return {k: found[k] for k in ("duplicate_reads", "hidden_agents")}


def test_the_member_is_recorded_and_taken_back(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    data = (project / SETTINGS).read_bytes()
    assert data == BOTH
    assert _lock(project)["edits"] == [
        {
            "path": SETTINGS,
            "sha256": hashlib.sha256(data).hexdigest(),
            "created": True,
            "members": [
                ["chat.instructionsFilesLocations", ".github/instructions", True],
                ["chat.agentFilesLocations", ".claude/agents", False],
            ],
        }
    ]
    assert _doctor(cli, project) == {"duplicate_reads": [], "hidden_agents": []}
    # Without VS Code nothing needs either member: the file upskill created goes.
    out = cli.ok("update", "--claude", "--copilot", cwd=project, extra=BIN)
    assert _warnings(out.stderr) == []
    assert not (project / SETTINGS).exists()
    assert "edits" not in _lock(project)


def test_remove_gives_the_team_its_bytes_back(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    team = (
        b'\xef\xbb\xbf{\n  // ours\n  "editor.tabSize": 2,\n'
        b'  "chat.agentFilesLocations": {"x": true,},\n}\n'
    )
    (project / ".vscode").mkdir()
    (project / SETTINGS).write_bytes(team)
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    assert (project / SETTINGS).read_bytes() == (
        b'\xef\xbb\xbf{\n  // ours\n  "editor.tabSize": 2,\n'
        b'  "chat.agentFilesLocations": {"x": true,\n  ".claude/agents": false,},\n'
        b'  "chat.instructionsFilesLocations": {\n    ".github/instructions": true\n  },\n}\n'
    )
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project, extra=BIN)
    assert (project / SETTINGS).read_bytes() == team
    assert "edits" not in _lock(project)


def test_a_team_agent_there_keeps_the_tree_read(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / ".claude/agents").mkdir(parents=True)
    (project / ".claude/agents/mine.md").write_bytes(TEAM_AGENT)
    out = cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    assert _warnings(out.stderr) == [TWICE]
    assert (project / SETTINGS).read_bytes() == FOLDER_ONLY
    # A README is no agent to VS Code: it does not keep the tree read.
    (project / ".claude/agents/mine.md").unlink()
    (project / ".claude/agents/README.md").write_bytes(b"# Agents\n")
    out = cli.ok("update", cwd=project, extra=BIN)
    assert (project / SETTINGS).read_bytes() == BOTH


def test_a_team_agent_added_later(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    (project / ".claude/agents/mine.md").write_bytes(TEAM_AGENT)
    # Until the next run the member hides it, and doctor says so (exit 1).
    assert _doctor(cli, project, code=1) == {
        "duplicate_reads": [],
        "hidden_agents": [
            {"client": "vscode", "path": ".claude/agents/mine.md", "settings": SETTINGS}
        ],
    }
    # A bare update takes the full path (the tree changed) and takes the member back.
    out = cli.ok("update", cwd=project, extra=BIN)
    assert _warnings(out.stderr) == [SHOWN_AGAIN]
    assert (project / SETTINGS).read_bytes() == FOLDER_ONLY
    assert _doctor(cli, project) == {
        "duplicate_reads": [
            {
                "client": "vscode",
                "kind": "agent",
                "name": "reviewer",
                "trees": [".github/agents/", ".claude/agents/"],
            }
        ],
        "hidden_agents": [],
    }
    (project / ".claude/agents/mine.md").unlink()
    out = cli.ok("update", cwd=project, extra=BIN)
    assert _warnings(out.stderr) == []
    assert (project / SETTINGS).read_bytes() == BOTH


def test_the_teams_own_value_is_kept(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    team = b'{"chat.agentFilesLocations": {".claude/agents": true}}\n'
    (project / ".vscode").mkdir()
    (project / SETTINGS).write_bytes(team)
    out = cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    assert _warnings(out.stderr) == [TWICE]
    assert (project / SETTINGS).read_bytes() == (
        b'{"chat.agentFilesLocations": {".claude/agents": true}, '
        b'"chat.instructionsFilesLocations": {".github/instructions": true}}\n'
    )
    assert _lock(project)["edits"][0]["members"] == [
        ["chat.instructionsFilesLocations", ".github/instructions", True]
    ]


def test_the_teams_own_false_counts(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Set by the team, it is theirs: kept when upskill's agents go, never recorded."""
    team = b'{"chat.agentFilesLocations": {".claude/agents": false}}\n'
    (project / ".vscode").mkdir()
    (project / SETTINGS).write_bytes(team)
    out = cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    assert _warnings(out.stderr) == []
    assert _lock(project)["edits"][0]["members"] == [
        ["chat.instructionsFilesLocations", ".github/instructions", True]
    ]
    cli.ok("remove", "-y", "--source", f"local:{registry}", cwd=project, extra=BIN)
    assert (project / SETTINGS).read_bytes() == team


def test_dry_run_writes_nothing(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    before = h.snapshot(project)
    cli.ok("add", str(registry), *CLIENTS, "--dry-run", cwd=project, extra=BIN)
    assert h.snapshot(project) == before
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    (project / ".claude/agents/mine.md").write_bytes(TEAM_AGENT)
    before = h.snapshot(project)
    cli.ok("update", "--dry-run", cwd=project, extra=BIN)
    assert h.snapshot(project) == before


def test_a_planted_member_is_never_cut(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A lockfile is data a repository carries: a record naming a member upskill never
    adds does not make a run cut the team's."""
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    lock = _lock(project)
    lock["edits"][0]["members"].append(["chat.mcp", "srv", True])
    (project / ".upskill-lock.json").write_text(json.dumps(lock))
    team = BOTH[:-3] + b',\n  "chat.mcp": {"srv": true}\n}\n'
    (project / SETTINGS).write_bytes(team)  # changed since: only upskill's members go
    cli.ok("update", "--claude", "--copilot", cwd=project, extra=BIN)
    assert (project / SETTINGS).read_bytes() == (
        b'{\n  "chat.instructionsFilesLocations": {},\n  "chat.agentFilesLocations": {},\n'
        b'  "chat.mcp": {"srv": true}\n}\n'
    )


def test_a_member_the_team_removed_is_left_alone(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), *CLIENTS, cwd=project, extra=BIN)
    (project / SETTINGS).write_bytes(FOLDER_ONLY)  # the team reads Claude's tree again
    (project / ".claude/agents/mine.md").write_bytes(TEAM_AGENT)
    assert _doctor(cli, project)["hidden_agents"] == []  # nothing is hidden
    out = cli.ok("update", cwd=project, extra=BIN)
    assert _warnings(out.stderr) == []  # nothing upskill did is undone
    assert (project / SETTINGS).read_bytes() == FOLDER_ONLY
    assert _lock(project)["edits"][0]["members"] == [
        ["chat.instructionsFilesLocations", ".github/instructions", True]
    ]
