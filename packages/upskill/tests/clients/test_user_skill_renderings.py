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
from client_probe import OWN_BLOCK, SKILL_CLIENTS, Install, own_line, skill_registry, workspace
from client_turns import TURNS, cline_skill, prompt_text
from model_endpoint import Endpoint
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


# ------------------------------------------- the clients asked through a model turn
# Claude Code, Qwen Code, Droid, Auggie, Cline and Continue have no offline skill
# listing: what they show is in their first model request (tests/support/client_turns.py).
# Each gets its own description (a `<client>:` frontmatter block), so the description in
# the request tells whose rendering the client loaded. Cline names skills without their
# description: the file its `skills` tool loads tells (`client_turns.cline_skill`).
TURN_CLIENTS = ("claude", "qwen", "factory", "augment", "cline", "continue")


def _described(client: str) -> str:
    return f"Use when testing one skill, rendered for {client}"


def _turn_registry(base: Path, described: tuple[str, ...]) -> Path:
    """A registry under `base` holding `dx`, with its own description for each of
    `described`, and for Cline (when described) a block only it sees."""
    root = base / "registry"
    (root / "skills" / "dx").mkdir(parents=True)
    blocks = "".join(f"{c}:\n  description: {_described(c)}\n" for c in described)
    cline = "<!-- @client:cline -->\n" + own_line("cline") + "\n<!-- @endclient -->\n"
    (root / "skills" / "dx" / "SKILL.md").write_text(
        f"---\nschema: 1\ndescription: {_described('all')}\n{blocks}---\n\nCommon.\n\n"
        + (cline if "cline" in described else "")
    )
    return root


def _turn_install(
    clients: Clients, base: Path, described: tuple[str, ...]
) -> tuple[Install, list[str]]:
    """`upskill add -g` of `dx` for every TURN_CLIENTS; the install and the SKILL.md
    files it wrote, relative to HOME."""
    home, work, env = workspace(clients, base)
    argv = [sys.executable, "-m", "upskill", "add", "-g", str(_turn_registry(base, described))]
    done = clients.run([*argv, *(f"--{c}" for c in TURN_CLIENTS)], cwd=work, env=env)
    assert done.returncode == 0, done.stderr
    assert "warning: skill:dx" not in done.stderr
    at = Install("global", home, work, home, env, (), ("dx",), (), (), done.stderr)
    return at, sorted(str(p.relative_to(home)) for p in home.rglob("SKILL.md"))


def _shown(clients: Clients, at: Install, endpoint: Endpoint, client: str) -> list[str]:
    """The renderings of `dx` (the clients named in its description, `all` for the
    common one) that `client`'s turn shows, one entry per copy."""
    if client == "cline":
        names, loaded = cline_skill(clients, at, endpoint, "dx")
        assert names.count("dx") == 1
        whose = "cline" if own_line("cline") in loaded else "all"
        return [whose] * loaded.count("Common.")
    text = prompt_text(TURNS[client](clients, at, endpoint))
    return re.findall(r"Use when testing one skill, rendered for (\w+)", text)


@pytest.fixture(scope="module")
def each_own(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    """Six renderings: each client's own goes to the tree it prefers that no other
    reads, and nothing to the shared `~/.agents/skills` (Cline prefers it, over its own
    `~/.cline/skills`, to what Qwen, Droid and Auggie would leave there)."""
    at, files = _turn_install(clients, tmp_path_factory.mktemp("user-turns"), TURN_CLIENTS)
    assert files == [
        ".augment/skills/dx/SKILL.md",
        ".claude/skills/dx/SKILL.md",
        ".cline/skills/dx/SKILL.md",
        ".continue/skills/dx/SKILL.md",
        ".factory/skills/dx/SKILL.md",
        ".qwen/skills/dx/SKILL.md",
    ]
    return at


@pytest.mark.parametrize("client", TURN_CLIENTS)
def test_each_turn_shows_its_own_copy_once(
    clients: Clients, each_own: Install, endpoint: Endpoint, client: str
) -> None:
    assert _shown(clients, each_own, endpoint, client) == [client]


@pytest.fixture(scope="module")
def one_shared(clients: Clients, tmp_path_factory: pytest.TempPathFactory) -> Install:
    """Claude Code and Continue with renderings of their own, the others one common
    rendering: its copy in `~/.agents/skills` serves Qwen, Droid and Cline (which keeps
    its own identical copy too), while Auggie, which prefers Claude's `~/.claude/skills`
    to it, gets the common rendering in `~/.augment/skills`."""
    base = tmp_path_factory.mktemp("user-turns-shared")
    at, files = _turn_install(clients, base, ("claude", "continue"))
    assert files == [
        ".agents/skills/dx/SKILL.md",
        ".augment/skills/dx/SKILL.md",
        ".claude/skills/dx/SKILL.md",
        ".cline/skills/dx/SKILL.md",
        ".continue/skills/dx/SKILL.md",
    ]
    return at


@pytest.mark.parametrize("client", TURN_CLIENTS)
def test_one_shared_copy_reaches_each_turn_once(
    clients: Clients, one_shared: Install, endpoint: Endpoint, client: str
) -> None:
    own = client if client in ("claude", "continue") else "all"
    assert _shown(clients, one_shared, endpoint, client) == [own]
