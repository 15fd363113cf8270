"""The client facts that leave two skill placements unservable in a project (issue 15,
item 3), asked of the real clients, so a client release that changes them fails here
and the placement can be built (`lifecycle/skillplace.py`, docs/upskill/clients.md).

- Codex 0.171.0 lists a skill name once per tree it reads (`.agents/skills`,
  `.codex/skills`), and turns a copy off (`[[skills.config]]`, `path`, `enabled =
  false`) only from `~/.codex/config.toml`: the same entry in a trusted project's
  `.codex/config.toml` changes nothing. So beside Windsurf, Junie or Zed (which read
  `.agents/skills` only) a Codex-only rendering in `.codex/skills` is listed beside the
  shared copy, and no project file upskill writes can hide that copy from Codex.
- opencode 1.18.33 parses every copy of a name at once, in `.opencode/skills`,
  `.agents/skills`, `.claude/skills` and the directories `opencode.json` names in
  `skills.paths`, and lists whichever parse finished last. Its only switches to skip
  `.claude/skills` are environment variables (`OPENCODE_DISABLE_CLAUDE_CODE_SKILLS`,
  `OPENCODE_DISABLE_EXTERNAL_SKILLS`), and `permission.skill` matches names, which
  Claude's copy shares. So beside Claude Code (which reads `.claude/skills` only) an
  opencode-only rendering cannot be the one opencode always lists.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from client_probe import workspace
from real_clients import Clients

pytestmark = pytest.mark.clients

RUNS = 30  # opencode's pick is a race: stop once both copies were listed


def _skill(at: Path, description: str) -> Path:
    at.mkdir(parents=True)
    (at / "SKILL.md").write_text(f"---\nname: dx\ndescription: {description}\n---\n\nBody.\n")
    return at / "SKILL.md"


def _codex_copies(clients: Clients, work: Path, env: dict[str, str]) -> list[str]:
    done = clients.run(["codex", "debug", "prompt-input"], cwd=work, env=env)
    assert done.returncode == 0, done.stderr
    return re.findall(r"^- dx: (\w+ copy) ", done.stdout.replace("\\n", "\n"), re.M)


def test_codex_turns_a_copy_off_only_from_the_users_config(
    clients: Clients, tmp_path: Path
) -> None:
    home, work, env = workspace(clients, tmp_path)
    shared = _skill(work / ".agents/skills/dx", "shared copy")
    _skill(work / ".codex/skills/dx", "codex copy")
    assert sorted(_codex_copies(clients, work, env)) == ["codex copy", "shared copy"]
    entry = f'\n[[skills.config]]\npath = "{shared}"\nenabled = false\n'
    (work / ".codex/config.toml").write_text(entry)  # the project is trusted (workspace)
    assert sorted(_codex_copies(clients, work, env)) == ["codex copy", "shared copy"]
    (work / ".codex/config.toml").unlink()
    with (home / ".codex/config.toml").open("a") as user:
        user.write(entry)
    assert _codex_copies(clients, work, env) == ["codex copy"]


def test_opencode_races_a_skills_paths_copy_too(clients: Clients, tmp_path: Path) -> None:
    _, work, env = workspace(clients, tmp_path)
    claude = _skill(work / ".claude/skills/dx", "claude copy")
    mine = _skill(work / ".opencode/upskill/dx", "opencode copy")
    (work / "opencode.json").write_text(json.dumps({"skills": {"paths": [".opencode/upskill"]}}))
    seen: set[Path] = set()
    for _ in range(RUNS):
        done = clients.run(["opencode", "debug", "skill"], cwd=work, env=env)
        assert done.returncode == 0, done.stderr
        listed = [Path(s["location"]) for s in json.loads(done.stdout) if s["name"] == "dx"]
        assert len(listed) == 1
        seen.update(listed)
        if seen == {claude, mine}:
            break
    assert seen == {claude, mine}
