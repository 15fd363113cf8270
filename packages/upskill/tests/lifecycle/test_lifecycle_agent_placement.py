"""An agent whose renderings differ between clients reaches each client once (issue 15,
item 3; `lifecycle/agentplace.py`). Cursor lists every copy in `.cursor/agents`,
`.claude/agents` and `.codex/agents`; Copilot CLI shows its `.github/agents` copy over
Claude's. The fixture's agent lists tools and preloads a skill, so Claude's and
Cursor's renderings differ."""

from __future__ import annotations

import json
from pathlib import Path

BIN = {"PATH": "/usr/bin:/bin"}
CLAUDE = ".claude/agents/reviewer.md"
CURSOR = ".cursor/agents/reviewer.md"
READS = ".cursor/agents/, .claude/agents/, .codex/agents/"
UNKNOWN = " and is not known to show one copy per name"


def _agents(root: Path) -> list[str]:
    trees = (".claude", ".cursor", ".codex", ".github", ".opencode")
    return sorted(
        str(p.relative_to(root))
        for tree in trees
        for p in (root / tree).glob("agents/reviewer*")
        if p.is_file()
    )


def _owners(root: Path) -> dict[str, list[str]]:
    lock = json.loads((root / ".upskill-lock.json").read_text())
    return {o["path"]: o["owners"] for o in lock["outputs"] if "/agents/" in o["path"]}


def _lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "(agent:reviewer)" in line]


def _doctor(cli, root: Path) -> list[dict]:  # type: ignore[no-untyped-def]
    """The agents doctor finds read twice by one client."""
    out = cli.run("doctor", "--json", cwd=root, extra=BIN)
    assert out.returncode == 0, out.stdout
    return [d for d in json.loads(out.stdout)["duplicate_reads"] if d["kind"] == "agent"]


def test_cursor_reads_claudes_copy_and_gets_none_of_its_own(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    out = cli.ok("add", str(registry), "--claude", "--cursor", cwd=project, extra=BIN)
    assert _agents(project) == [CLAUDE]
    assert _owners(project) == {CLAUDE: ["agent:reviewer@claude", "agent:reviewer@cursor"]}
    assert _lines(out.stderr) == [
        "warning: cursor: 1 agent (agent:reviewer) reaches it as Claude Code's copy in "
        f".claude/agents/, not in its own rendering (Cursor reads {READS}{UNKNOWN}, so a copy "
        "of its own could be listed twice)"
    ]
    # What Cursor's own rendering would have dropped is not reported: it is not written.
    assert "agent:reviewer (cursor)" not in out.stderr
    assert _doctor(cli, project) == []


def test_update_and_remove_follow_the_selection(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--cursor", cwd=project, extra=BIN)
    out = cli.ok("update", "--cursor", cwd=project, extra=BIN)  # Claude dropped
    assert _lines(out.stderr) == []
    assert "agent:reviewer (cursor): " in out.stderr  # its own rendering drops tools
    assert _agents(project) == [CURSOR]
    cursor_copy = (project / CURSOR).read_text()
    assert "## Skills" in cursor_copy and "tools:" not in cursor_copy  # Cursor's own
    assert _owners(project) == {CURSOR: ["agent:reviewer@cursor"]}
    cli.ok("update", "--claude", "--cursor", cwd=project, extra=BIN)  # Claude back
    assert _agents(project) == [CLAUDE]
    assert _owners(project) == {CLAUDE: ["agent:reviewer@claude", "agent:reviewer@cursor"]}
    assert _doctor(cli, project) == []
    out = cli.ok("update", "--claude", cwd=project, extra=BIN)  # Cursor dropped
    assert _lines(out.stderr) == []
    assert _agents(project) == [CLAUDE]
    assert _owners(project) == {CLAUDE: ["agent:reviewer@claude"]}
    cli.ok("remove", "reviewer", cwd=project, extra=BIN)
    assert _agents(project) == []
    assert _owners(project) == {}


def test_codex_and_claude_both_reach_cursor(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    # Claude's and Codex's copies must exist and Cursor reads both: its own would be a
    # third, so it is left out and the run says Cursor lists the agent twice.
    flags = ("--claude", "--codex", "--cursor")
    out = cli.ok("add", str(registry), *flags, cwd=project, extra=BIN)
    assert _agents(project) == [CLAUDE, ".codex/agents/reviewer.toml"]
    assert _lines(out.stderr) == [
        "warning: cursor: 1 agent (agent:reviewer) listed 2 times, from .claude/agents/, "
        f".codex/agents/ (Cursor reads {READS}{UNKNOWN})"
    ]
    assert _doctor(cli, project) == [
        {
            "client": "cursor",
            "kind": "agent",
            "name": "reviewer",
            "trees": [".claude/agents/", ".codex/agents/"],
        }
    ]


def test_copilot_keeps_its_own_copy_over_claudes(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    out = cli.ok("add", str(registry), "--claude", "--copilot", cwd=project, extra=BIN)
    assert _lines(out.stderr) == []
    assert _agents(project) == [CLAUDE, ".github/agents/reviewer.agent.md"]
    assert _doctor(cli, project) == []


SETTINGS = ".vscode/settings.json"
BOTH_MEMBERS = (  # the instructions folder, and Claude's agents tree skipped
    b'{\n  "chat.instructionsFilesLocations": {\n    ".github/instructions": true\n  },\n'
    b'  "chat.agentFilesLocations": {\n    ".claude/agents": false\n  }\n}\n'
)


def test_vscode_skips_claudes_tree_of_copies(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    # VS Code reads `.claude/agents` beside Copilot's tree and, by its source, lists one
    # entry per file; Copilot CLI's verified copy is kept. `.claude/agents` holds only
    # Claude's copy of an agent VS Code has in `.github/agents`, so the workspace settings
    # tell VS Code to skip it (lifecycle.agenttrees): it lists the agent once, its own.
    out = cli.ok("add", str(registry), "--claude", "--copilot", "--vscode", cwd=project, extra=BIN)
    assert _agents(project) == [CLAUDE, ".github/agents/reviewer.agent.md"]
    assert _lines(out.stderr) == []
    assert (project / SETTINGS).read_bytes() == BOTH_MEMBERS
    assert _doctor(cli, project) == []


def test_a_default_install_warns_nothing(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    # No flags and nothing detected: the baseline clients. Copilot CLI shows its own copy,
    # opencode reads its own tree only, and VS Code is told to skip Claude's tree.
    out = cli.ok("add", str(registry), cwd=project, extra=BIN)
    assert "4 items installed for claude, copilot, vscode, opencode" in out.stderr
    assert [line for line in out.stderr.splitlines() if line.startswith("warning:")] == []
    assert _agents(project) == [
        CLAUDE,
        ".github/agents/reviewer.agent.md",
        ".opencode/agents/reviewer.md",
    ]
    assert (project / SETTINGS).read_bytes() == BOTH_MEMBERS


def test_vscode_beside_claude_alone_gets_its_own_copy(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    # Without Copilot CLI, VS Code could read Claude's copy instead of one of its own; with
    # Claude's tree skipped it gets its own rendering, once.
    out = cli.ok("add", str(registry), "--claude", "--vscode", cwd=project, extra=BIN)
    assert _lines(out.stderr) == []
    assert _agents(project) == [CLAUDE, ".github/agents/reviewer.agent.md"]
    assert _owners(project) == {
        CLAUDE: ["agent:reviewer@claude"],
        ".github/agents/reviewer.agent.md": ["agent:reviewer@vscode"],
    }
    assert (project / SETTINGS).read_bytes() == BOTH_MEMBERS
