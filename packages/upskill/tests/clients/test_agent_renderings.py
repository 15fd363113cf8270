"""An agent rendered differently per client reaches each real client once, in its own
rendering (issue 15, item 3; `lifecycle/agentplace.py`).

The agent lists tools, so Claude Code's, Copilot's, Codex's, opencode's, Kilo's and
Cursor's renderings differ; each client that lists agents offline gets a description
of its own through its passthrough block, so its listing says which copy it loaded.
Copilot CLI also reads `.claude/agents` (its own tree first); Cursor, selected too but
with no offline CLI, reads `.claude/agents` and `.codex/agents`, so it gets no copy of
its own and the run says it lists the agent twice.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import client_turns
import pytest
from client_probe import Install, copilot_agent_names, workspace
from client_turns import prompt_text
from model_endpoint import Endpoint
from real_clients import Clients

pytestmark = pytest.mark.clients

CLIENTS = ("claude", "copilot", "cursor", "codex", "opencode", "kilo")
OWN = ("copilot", "codex", "opencode", "kilo")
COMMON = "Use when testing one agent per client"


def _description(client: str) -> str:
    return f"Use when testing the agent rendered for {client}"


def _registry(base: Path) -> Path:
    root = base / "registry"
    (root / "agents" / "dx").mkdir(parents=True)
    blocks = "".join(f"{c}:\n  description: {_description(c)}\n" for c in OWN)
    (root / "agents" / "dx" / "AGENT.md").write_text(
        f"---\nschema: 1\ndescription: {COMMON}\ntools: [read, grep]\n{blocks}---\n\n"
        "Review the change.\n"
    )
    return root


@pytest.fixture(scope="module")
def installed(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    base = tmp_path_factory.mktemp("agents")
    home, work, env = workspace(clients, base)
    flags = [f"--{c}" for c in CLIENTS]
    done = clients.run(
        [sys.executable, "-m", "upskill", "add", str(_registry(base)), *flags], cwd=work, env=env
    )
    assert done.returncode == 0, done.stderr
    placement = [line for line in done.stderr.splitlines() if "(agent:dx)" in line]
    assert placement == [
        "warning: cursor: 1 agent (agent:dx) listed 2 times, from .claude/agents/, "
        ".codex/agents/ (Cursor reads .cursor/agents/, .claude/agents/, .codex/agents/ and "
        "is not known to show one copy per name)"
    ]
    return Install("project", work, work, home, env, (), (), ("dx",), (), done.stderr)


def _ask(clients: Clients, at: Install, *argv: str) -> str:
    done = clients.run(argv, cwd=at.cwd, env=at.env)
    assert done.returncode == 0, f"{' '.join(argv)}: {done.returncode}\n{done.stderr}"
    return done.stdout


def test_the_files(installed: Install) -> None:
    work = installed.root
    found = sorted(
        str(p.relative_to(work)) for p in work.rglob("dx*") if p.is_file() and "agents" in p.parts
    )
    assert found == [
        ".claude/agents/dx.md",  # Claude's, and Cursor's
        ".codex/agents/dx.toml",
        ".github/agents/dx.agent.md",
        ".kilo/agents/dx.md",
        ".opencode/agents/dx.md",
    ]


def test_copilot(clients: Clients, installed: Install, endpoint: Endpoint) -> None:
    assert copilot_agent_names(clients, installed).count("dx") == 1
    # The turn's request describes the agent from Copilot's own copy, not Claude's.
    text = prompt_text(client_turns.copilot(clients, installed, endpoint))
    assert _description("copilot") in text
    assert COMMON not in text


def test_opencode(clients: Clients, installed: Install) -> None:
    config = json.loads(_ask(clients, installed, "opencode", "debug", "config"))
    mine = {name: a for name, a in config.get("agent", {}).items() if name == "dx"}
    assert [a["description"] for a in mine.values()] == [_description("opencode")]


def test_kilo(clients: Clients, installed: Install) -> None:
    config = json.loads(_ask(clients, installed, "kilo", "debug", "config"))
    mine = {name: a for name, a in config.get("agent", {}).items() if name == "dx"}
    assert [a["description"] for a in mine.values()] == [_description("kilo")]


def test_codex(clients: Clients, installed: Install) -> None:
    prompt = _ask(clients, installed, "codex", "debug", "prompt-input").replace("\\n", "\n")
    roles = prompt.split("Available roles:", 1)[1]
    assert len(re.findall(r"^dx: \{$", roles, re.M)) == 1
    assert _description("codex") in roles
    assert COMMON not in roles
