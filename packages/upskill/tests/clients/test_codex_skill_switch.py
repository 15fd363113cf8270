"""At user level, real Codex sees a skill once, in its own rendering, beside Windsurf,
Junie or Zed (which read `~/.agents/skills` alone): upskill puts Codex's copy in
`~/.codex/skills` and turns the shared copy off for Codex with a `[[skills.config]]`
entry in `~/.codex/config.toml` (`lifecycle/skillswitch.py`). Codex 0.171.0 expands the
`~` of that entry's `path`. Removing the skill gives the user's config back byte for
byte (the test HOME's, which trusts the project)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from client_probe import own_line, skill_registry, workspace
from real_clients import Clients

pytestmark = pytest.mark.clients


def _listed(clients: Clients, work: Path, env: dict[str, str]) -> list[str]:
    """The files `codex debug prompt-input` lists `dx` from, its root aliases expanded."""
    done = clients.run(["codex", "debug", "prompt-input"], cwd=work, env=env)
    assert done.returncode == 0, done.stderr
    text = done.stdout.replace("\\n", "\n")
    roots = dict(re.findall(r"^- `(r\d+)` = `([^`]+)`$", text, re.M))
    found = re.findall(r"^- dx: .* \(file: (r\d+)/(dx/SKILL\.md)\)$", text, re.M)
    return [f"{roots[alias]}/{rest}" for alias, rest in found]


@pytest.mark.parametrize("other", ["windsurf", "zed"])
def test_codex_lists_its_own_copy_alone(clients: Clients, tmp_path: Path, other: str) -> None:
    home, work, env = workspace(clients, tmp_path)
    config = home / ".codex/config.toml"
    users = config.read_bytes()
    upskill = [sys.executable, "-m", "upskill"]
    done = clients.run(
        [*upskill, "add", "-g", str(skill_registry(tmp_path)), "--codex", f"--{other}"],
        cwd=work,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "warning: skill:dx" not in done.stderr
    own = home / ".codex/skills/dx/SKILL.md"
    assert own_line("codex") in own.read_text()
    assert own_line("codex") not in (home / ".agents/skills/dx/SKILL.md").read_text()
    assert _listed(clients, work, env) == [str(own)]
    done = clients.run([*upskill, "remove", "-g", "-y", "dx"], cwd=work, env=env)
    assert done.returncode == 0, done.stderr
    assert config.read_bytes() == users
    assert _listed(clients, work, env) == []
