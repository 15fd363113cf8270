"""At user level (`upskill add -g`), a skill rendered differently per client reaches
each real client once, in its own rendering, where the registry says the client reads
it at user level (`Client.user_skill_trees`; `lifecycle/skillplace.py`), and a client
that cannot is named in one line that says what it sees.

The skill has a `<!-- @client -->` block for Codex, Gemini CLI, opencode and Kilo each.
opencode also reads `~/.claude/skills`, where Claude Code's copy must be: it sees that
copy, as the run says. A second install, Codex and opencode alone with an opencode
override, shows opencode served from a tree only it reads.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from client_probe import OWN_BLOCK, SKILL_CLIENTS, own_line, skill_registry, workspace
from real_clients import Clients

pytestmark = pytest.mark.clients

OPENCODE_LINE = (
    "warning: skill:dx: opencode sees the copy in .claude/skills/, rendered for claude "
    "(opencode shows one copy from .config/opencode/skills/, .agents/skills/, "
    ".opencode/skills/, .claude/skills/, not always the same)"
)


def _install(
    clients: Clients, base: Path, ids: tuple[str, ...], override: str | None = None
) -> tuple[Path, Path, dict[str, str], str]:
    home, work, env = workspace(clients, base)
    env = {**env, "AMP_API_KEY": "x"}  # without one Amp starts a login flow
    argv = [sys.executable, "-m", "upskill", "add", "-g", str(skill_registry(base, override))]
    done = clients.run([*argv, *(f"--{c}" for c in ids)], cwd=work, env=env)
    assert done.returncode == 0, done.stderr
    return home, work, env, done.stderr


@pytest.fixture(scope="module")
def installed(
    clients: Clients, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path, dict[str, str], str]:
    return _install(clients, tmp_path_factory.mktemp("user-renderings"), SKILL_CLIENTS)


def _ask(clients: Clients, at: tuple[Path, Path, dict[str, str], str], *argv: str) -> str:
    _, work, env, _ = at
    done = clients.run(argv, cwd=work, env=env)
    assert done.returncode == 0, f"{' '.join(argv)}: {done.returncode}\n{done.stderr}"
    return done.stdout


def _rendering(skill_file: Path) -> set[str]:
    """The clients whose block the copy holds."""
    text = skill_file.read_text()
    return {c for c in OWN_BLOCK if own_line(c) in text}


def _own(client: str, skill_file: Path) -> None:
    expected = {client} if client in OWN_BLOCK else set()
    assert _rendering(skill_file) == expected, skill_file


def _listed(clients: Clients, at: tuple[Path, Path, dict[str, str], str], client: str) -> Path:
    """The one SKILL.md `client` lists for `dx` (the test fails on none or several)."""
    if client == "copilot":
        listing = json.loads(_ask(clients, at, "copilot", "skill", "list", "--json"))
        mine = [Path(s["path"]) / "SKILL.md" for s in listing if s["name"] == "dx"]
    elif client in ("opencode", "kilo"):
        listing = json.loads(_ask(clients, at, client, "debug", "skill"))
        mine = [Path(s["location"]) for s in listing if s["name"] == "dx"]
    elif client == "codex":
        prompt = _ask(clients, at, "codex", "debug", "prompt-input").replace("\\n", "\n")
        roots = dict(re.findall(r"- `(r\d+)` = `([^`]+)`", prompt))
        found = re.findall(r"^- dx: .*\(file: (r\d+)/dx/SKILL\.md\)", prompt, re.M)
        mine = [Path(roots[r]) / "dx/SKILL.md" for r in found]
    elif client == "gemini":
        listing = _ask(clients, at, "gemini", "skills", "list")
        assert len(re.findall(r"^dx \[Enabled\]", listing, re.M)) == 1
        mine = [Path(p) for p in re.findall(r"^  Location: +(\S+/dx/SKILL\.md)$", listing, re.M)]
    else:
        listing = _ask(clients, at, "amp", "skill", "list")
        found = re.findall(r"^  • dx\n.*\n +file://(\S+)$", listing, re.M)
        mine = [Path(p) / "SKILL.md" for p in found]
    assert len(mine) == 1, (client, mine)
    return mine[0]


def test_the_files_and_the_oneown_line(installed: tuple[Path, Path, dict[str, str], str]) -> None:
    home, _, _, stderr = installed
    assert sorted(str(p.relative_to(home)) for p in home.rglob("SKILL.md")) == [
        ".claude/skills/dx/SKILL.md",
        ".codex/skills/dx/SKILL.md",
        ".config/agents/skills/dx/SKILL.md",
        ".copilot/skills/dx/SKILL.md",
        ".gemini/skills/dx/SKILL.md",
        ".kilo/skills/dx/SKILL.md",
    ]
    assert [ln for ln in stderr.splitlines() if ln.startswith("warning: skill:dx")] == [
        OPENCODE_LINE
    ]


@pytest.mark.parametrize("client", ["copilot", "kilo", "codex", "gemini", "amp"])
def test_each_client_lists_its_own_copy_once(
    clients: Clients, installed: tuple[Path, Path, dict[str, str], str], client: str
) -> None:
    _own(client, _listed(clients, installed, client))


def test_opencode_lists_the_copy_the_run_named(
    clients: Clients, installed: tuple[Path, Path, dict[str, str], str]
) -> None:
    home = installed[0]
    assert _listed(clients, installed, "opencode") == home / ".claude/skills/dx/SKILL.md"


def test_opencode_gets_a_tree_only_it_reads(
    clients: Clients, tmp_path_factory: pytest.TempPathFactory
) -> None:
    at = _install(
        clients, tmp_path_factory.mktemp("user-opencode"), ("codex", "opencode"), "opencode"
    )
    home, _, _, stderr = at
    assert "warning: skill:dx" not in stderr
    assert sorted(str(p.relative_to(home)) for p in home.rglob("SKILL.md")) == [
        ".codex/skills/dx/SKILL.md",
        ".config/opencode/skills/dx/SKILL.md",
    ]
    assert _listed(clients, at, "opencode") == home / ".config/opencode/skills/dx/SKILL.md"
    _own("opencode", home / ".config/opencode/skills/dx/SKILL.md")
    assert _listed(clients, at, "codex") == home / ".codex/skills/dx/SKILL.md"
    assert _rendering(home / ".codex/skills/dx/SKILL.md") == set()
