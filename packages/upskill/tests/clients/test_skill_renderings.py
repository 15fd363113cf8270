"""A skill rendered differently per client reaches each real client once, in its own
rendering (issue 15, item 3; `lifecycle/skillplace.py`).

The skill's body has a `<!-- @client -->` block for Codex, Gemini CLI, opencode and
Kilo each, so those four renderings differ from the one Claude Code, Copilot CLI and
Amp get. Every client then lists the skill exactly once, and the file it names holds
that client's own block and no other client's, but opencode: it shows one copy of a
name from the trees it reads, not always the same (clients/opencode.py), so beside
Claude Code it is told it gets Claude's copy, and it gets its own only where no other
rendering is in a tree it reads (checked over several listings).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from client_probe import OWN_BLOCK, SKILL_CLIENTS, Install, own_line, skill_registry, workspace
from client_turns import cline_skill
from model_endpoint import Endpoint
from real_clients import Clients

pytestmark = pytest.mark.clients


OPENCODE_LINE = (
    "warning: skill:dx: opencode sees the copy in .claude/skills/, rendered for claude, amp "
    "(opencode shows one copy from .opencode/skills/, .agents/skills/, .claude/skills/, "
    "not always the same)"
)
CLINE_LINE = (
    "warning: skill:dx: cline sees the copy in .agents/skills/, rendered for windsurf "
    "(Cline prefers .agents/skills/ to any tree only it reads)"
)
RUNS = 5  # opencode picks among copies at random: one listing proves little


@pytest.fixture(scope="module")
def project(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    base = tmp_path_factory.mktemp("renderings")
    _, work, env = workspace(clients, base)
    env = {**env, "AMP_API_KEY": "x"}  # without one Amp starts a login flow
    flags = [f"--{c}" for c in SKILL_CLIENTS]
    done = clients.run(
        [sys.executable, "-m", "upskill", "add", str(skill_registry(base)), *flags],
        cwd=work,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    # Every client gets its own rendering but opencode: it shows one copy of a name from
    # `.opencode/skills`, `.agents/skills` or `.claude/skills`, not always the same one
    # (clients/opencode.py), and Claude Code reads `.claude/skills` alone.
    assert [line for line in done.stderr.splitlines() if "skill:dx" in line] == [OPENCODE_LINE]
    return work, env


def _ask(clients: Clients, project: tuple[Path, dict], *argv: str) -> str:
    work, env = project
    done = clients.run(argv, cwd=work, env=env)
    assert done.returncode == 0, f"{' '.join(argv)}: {done.returncode}\n{done.stderr}"
    return done.stdout


def _own(client: str, skill_file: Path) -> None:
    """The copy `client` shows is its own rendering: its block, no other client's."""
    text = skill_file.read_text()
    expected = {own_line(client)} if client in OWN_BLOCK else set()
    assert {own_line(c) for c in OWN_BLOCK if own_line(c) in text} == expected, skill_file


def test_the_files(project: tuple[Path, dict]) -> None:
    work, _ = project
    assert sorted(str(p.relative_to(work)) for p in work.rglob("SKILL.md")) == [
        ".claude/skills/dx/SKILL.md",  # Claude's, and Amp's (nothing in .agents/skills)
        ".codex/skills/dx/SKILL.md",
        ".gemini/skills/dx/SKILL.md",
        ".github/skills/dx/SKILL.md",
        ".kilo/skills/dx/SKILL.md",  # opencode's would race Claude's (OPENCODE_LINE)
    ]
    _own("claude", work / ".claude/skills/dx/SKILL.md")


def test_copilot(clients: Clients, project: tuple[Path, dict]) -> None:
    listing = json.loads(_ask(clients, project, "copilot", "skill", "list", "--json"))
    mine = [s["path"] for s in listing if s["name"] == "dx"]
    assert len(mine) == 1
    _own("copilot", Path(mine[0]) / "SKILL.md")


def test_opencode_sees_the_one_copy_it_reads(clients: Clients, project: tuple[Path, dict]) -> None:
    work, _ = project
    for _ in range(RUNS):
        listing = json.loads(_ask(clients, project, "opencode", "debug", "skill"))
        mine = [s["location"] for s in listing if s["name"] == "dx"]
        assert mine == [str(work / ".claude/skills/dx/SKILL.md")]


def test_kilo(clients: Clients, project: tuple[Path, dict]) -> None:
    listing = json.loads(_ask(clients, project, "kilo", "debug", "skill"))
    mine = [s["location"] for s in listing if s["name"] == "dx"]
    assert len(mine) == 1
    _own("kilo", Path(mine[0]))


def test_opencode_gets_its_own_rendering_where_no_other_is_read(
    clients: Clients, tmp_path: Path
) -> None:
    """Beside Codex and Kilo, opencode's rendering is the only copy in any tree it reads,
    so whichever copy it picks is its own, every time."""
    _, work, env = workspace(clients, tmp_path)
    argv = ["add", str(skill_registry(tmp_path)), "--opencode", "--codex", "--kilo"]
    done = clients.run([sys.executable, "-m", "upskill", *argv], cwd=work, env=env)
    assert done.returncode == 0, done.stderr
    assert "skill:dx" not in done.stderr
    for _ in range(RUNS):
        listing = json.loads(_ask(clients, (work, env), "opencode", "debug", "skill"))
        mine = [s["location"] for s in listing if s["name"] == "dx"]
        assert mine == [str(work / ".opencode/skills/dx/SKILL.md")]
        _own("opencode", Path(mine[0]))


def test_codex(clients: Clients, project: tuple[Path, dict]) -> None:
    prompt = _ask(clients, project, "codex", "debug", "prompt-input").replace("\\n", "\n")
    roots = dict(re.findall(r"- `(r\d+)` = `([^`]+)`", prompt))
    mine = re.findall(r"^- dx: .*\(file: (r\d+)/dx/SKILL\.md\)", prompt, re.M)
    assert len(mine) == 1
    _own("codex", Path(roots[mine[0]]) / "dx/SKILL.md")


def test_gemini(clients: Clients, project: tuple[Path, dict]) -> None:
    listing = _ask(clients, project, "gemini", "skills", "list")
    assert len(re.findall(r"^dx \[Enabled\]", listing, re.M)) == 1
    (location,) = re.findall(r"^  Location: +(\S+/dx/SKILL\.md)$", listing, re.M)
    _own("gemini", Path(location))


def test_amp(clients: Clients, project: tuple[Path, dict]) -> None:
    listing = _ask(clients, project, "amp", "skill", "list")
    mine = re.findall(r"^  • dx\n.*\n +file://(\S+)$", listing, re.M)
    assert len(mine) == 1
    _own("amp", Path(mine[0]) / "SKILL.md")


@pytest.mark.parametrize(
    ("beside", "sees"),
    [
        # Codex and Gemini keep their renderings in trees Cline does not read.
        (("codex", "gemini"), "cline"),
        # Windsurf reads `.agents/skills` alone; Cline prefers it to `.cline/skills`.
        (("windsurf",), "windsurf"),
    ],
)
def test_cline_loads_the_copy_the_run_named(
    clients: Clients, tmp_path: Path, endpoint: Endpoint, beside: tuple[str, ...], sees: str
) -> None:
    """Cline 3.0.65 reads `.agents/skills` over `.cline/skills` and no `.claude/skills`
    (clients/cline.py): beside clients that keep their own renderings elsewhere it loads
    its own copy; beside Windsurf's override in `.agents/skills` it loads that one, as
    the run says."""
    home, work, env = workspace(clients, tmp_path)
    registry = skill_registry(tmp_path, override="windsurf" if "windsurf" in beside else None)
    flags = [f"--{c}" for c in ("cline", *beside)]
    done = clients.run([sys.executable, "-m", "upskill", "add", str(registry), *flags],
                       cwd=work, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "skill:dx" in line]
    assert said == ([] if sees == "cline" else [CLINE_LINE])
    at = Install("project", work, work, home, env, (), ("dx",), (), (), done.stderr)
    names, loaded = cline_skill(clients, at, endpoint, "dx")
    assert names.count("dx") == 1
    # One file loaded: the common body, or Windsurf's override, which replaces it.
    assert loaded.count("Common." if sees == "cline" else own_line("windsurf")) == 1
    assert {c for c in ("cline", *OWN_BLOCK, "windsurf") if own_line(c) in loaded} == (
        set() if sees == "cline" else {"windsurf"}
    )
