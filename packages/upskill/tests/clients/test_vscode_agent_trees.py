"""VS Code told to skip `.claude/agents` changes nothing Copilot CLI reads (issue 15,
item 3; `lifecycle/agenttrees.py`).

A default-like install (Claude Code, Copilot, VS Code) of an agent whose renderings
differ writes `"chat.agentFilesLocations": {".claude/agents": false}` to
`.vscode/settings.json`, so VS Code (no offline CLI; its source is cited in
`clients/vscode.py`) lists the agent once. Copilot CLI 1.0.102 reads the same trees
and must keep showing its own copy, and the team's Claude agents: it reads no
`.vscode/settings.json`. It also reads what VS Code skips in `.github/agents`
(`README.md`, subfolders), which is why no file name there can serve Copilot CLI
alone and VS Code its own rendering.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import client_turns
import pytest
from client_probe import Install, copilot_agent_names, workspace
from client_turns import prompt_text
from model_endpoint import Endpoint
from real_clients import Clients

pytestmark = pytest.mark.clients

COMMON = "Use when testing one agent per client"
OWN = "Use when testing the agent rendered for copilot"


def _agent(path: Path, name: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: Use when testing {name}\n---\n\nDo it.\n")


@pytest.fixture(scope="module")
def installed(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    base = tmp_path_factory.mktemp("vscode-trees")
    home, work, env = workspace(clients, base)
    registry = base / "registry"
    (registry / "agents" / "dx").mkdir(parents=True)
    (registry / "agents" / "dx" / "AGENT.md").write_text(
        f"---\nschema: 1\ndescription: {COMMON}\ntools: [read, grep]\n"
        f"copilot:\n  description: {OWN}\n---\n\nReview the change.\n"
    )
    flags = ("--claude", "--copilot", "--vscode")
    done = clients.run(
        [sys.executable, "-m", "upskill", "add", str(registry), *flags], cwd=work, env=env
    )
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("warning:")] == []
    settings = json.loads((work / ".vscode/settings.json").read_text())
    assert settings == {"chat.agentFilesLocations": {".claude/agents": False}}
    # Files upskill did not write, in the trees both clients read.
    _agent(work / ".claude/agents/team.md", "team")  # the team's, added after the run
    _agent(work / ".github/agents/README.md", "readme")
    _agent(work / ".github/agents/more/nested.agent.md", "nested")
    return Install("project", work, work, home, env, (), (), ("dx",), (), done.stderr)


def test_copilot_lists_its_own_copy_and_the_teams(clients: Clients, installed: Install) -> None:
    names = copilot_agent_names(clients, installed)
    assert names.count("dx") == 1
    assert "team" in names  # the VS Code setting does not hide it from Copilot CLI
    # What VS Code would not list in `.github/agents`, Copilot CLI does.
    assert "readme" in names and "nested" in names


def test_copilot_is_sent_its_own_rendering(
    clients: Clients, installed: Install, endpoint: Endpoint
) -> None:
    text = prompt_text(client_turns.copilot(clients, installed, endpoint))
    assert OWN in text
    assert COMMON not in text
