"""When VS Code is told to skip `.claude/agents` (`lifecycle.agenttrees.to_hide`): only
while every file it would read there is a copy of an agent it has in its own tree."""

from __future__ import annotations

from upskill.lifecycle.agenttrees import HIDES, read_as_agent, to_hide
from upskill.state.lockfile import OutputRecord, Owner

CLAUDE, GITHUB = ".claude/agents/", ".github/agents/"


def _out(path: str, *owners: str) -> OutputRecord:
    return OutputRecord(path, "0" * 64, 1, tuple(Owner(*o.split("@")) for o in owners))


A_CLAUDE = _out(f"{CLAUDE}a.md", "agent:a@claude")
A_VSCODE = _out(f"{GITHUB}a.agent.md", "agent:a@copilot", "agent:a@vscode")
B_CLAUDE = _out(f"{CLAUDE}b.md", "agent:b@claude")  # `audience: [claude]`
B_COPILOT = _out(f"{GITHUB}b.agent.md", "agent:b@copilot")  # VS Code not selected for it


def _hide(*outputs: OutputRecord, disk: set[str] | None = None) -> bool:
    """`disk`: the files VS Code reads as agents there (`agent_files`); by default the
    outputs it would read, directly in the tree."""
    if disk is None:
        names = (o.path[len(CLAUDE) :] for o in outputs if o.path.startswith(CLAUDE))
        disk = {CLAUDE + n for n in names if "/" not in n and read_as_agent(n)}
    return to_hide(outputs, {CLAUDE: disk}) == HIDES


def test_the_registry_names_vscodes_claude_tree() -> None:
    assert [(h.client, h.own, h.tree, h.settings, h.member) for h in HIDES] == [
        (
            "vscode",
            GITHUB,
            CLAUDE,
            ".vscode/settings.json",
            ("chat.agentFilesLocations", ".claude/agents", False),
        )
    ]


def test_hidden_only_when_it_hides_nothing_but_copies() -> None:
    assert _hide(A_CLAUDE, A_VSCODE)
    assert not _hide(A_VSCODE)  # nothing in Claude's tree: nothing listed twice
    assert not _hide(A_CLAUDE)  # VS Code's only copy would go
    assert not _hide(A_CLAUDE, A_VSCODE, B_CLAUDE)  # an agent VS Code has nowhere else
    assert not _hide(A_CLAUDE, A_VSCODE, B_CLAUDE, B_COPILOT)  # Copilot's, not VS Code's
    team = {f"{CLAUDE}a.md", f"{CLAUDE}mine.md"}
    assert not _hide(A_CLAUDE, A_VSCODE, disk=team)  # a file upskill did not write
    # A file VS Code would not list as an agent is no reason to read the tree.
    readme = _out(f"{CLAUDE}README.md", "agent:README@claude")
    assert _hide(A_CLAUDE, A_VSCODE, readme)
    nested = _out(f"{CLAUDE}team/c.md", "agent:c@claude")  # VS Code reads no subfolder
    assert _hide(A_CLAUDE, A_VSCODE, nested)
