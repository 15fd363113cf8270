"""`upskill doctor`'s `varying_reads` against the real opencode (issue 15, item 3):
opencode 1.18.33 lists one skill name found in several trees once, from a copy that is
not always the same (clients/opencode.py). Where the copies differ, doctor names the
trees; every copy opencode lists is in one of them. Where they are the same bytes,
doctor reports nothing, and opencode lists those bytes whichever copy it picks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from client_probe import skill_registry, workspace
from real_clients import Clients

pytestmark = pytest.mark.clients

RUNS = 5  # opencode picks among the copies at random: one listing proves little


def _upskill(clients: Clients, work: Path, env: dict[str, str], *argv: str) -> str:
    done = clients.run([sys.executable, "-m", "upskill", *argv], cwd=work, env=env)
    assert done.returncode == 0, f"upskill {' '.join(argv)}: {done.returncode}\n{done.stderr}"
    return done.stdout


def _listed(clients: Clients, work: Path, env: dict[str, str]) -> list[Path]:
    done = clients.run(["opencode", "debug", "skill"], cwd=work, env=env)
    assert done.returncode == 0, done.stderr
    return [Path(s["location"]) for s in json.loads(done.stdout) if s["name"] == "dx"]


def test_doctor_names_every_copy_opencode_may_show(clients: Clients, tmp_path: Path) -> None:
    _, work, env = workspace(clients, tmp_path)
    _upskill(clients, work, env, "add", str(skill_registry(tmp_path, "claude")),
             "--claude", "--opencode")  # fmt: skip
    # Claude's rendering differs (its override) and must be in `.claude/skills`, which
    # opencode reads beside its own copy in `.agents/skills` (the install says so too).
    report = json.loads(_upskill(clients, work, env, "doctor", "--json"))
    assert [e["trees"] for e in report["varying_reads"]] == [[".agents/skills/", ".claude/skills/"]]
    assert report["duplicate_reads"] == []
    # A hand-made third copy, unlike both, in the tree opencode lists first most often.
    mine = work / ".opencode/skills/dx"
    mine.mkdir(parents=True)
    (mine / "SKILL.md").write_text("---\nname: dx\ndescription: Made by hand\n---\n\nMine.\n")
    report = json.loads(_upskill(clients, work, env, "doctor", "--json"))
    trees = [".opencode/skills/", ".agents/skills/", ".claude/skills/"]
    assert report["varying_reads"] == [
        {"client": "opencode", "kind": "skill", "name": "dx", "trees": trees}
    ]
    for _ in range(RUNS):
        (location,) = _listed(clients, work, env)
        assert str(location.relative_to(work).parent.parent) + "/" in trees


def test_identical_copies_are_not_reported(clients: Clients, tmp_path: Path) -> None:
    _, work, env = workspace(clients, tmp_path)
    _upskill(clients, work, env, "add", str(skill_registry(tmp_path, "opencode")),
             "--claude", "--opencode")  # fmt: skip
    # The planner gives up on opencode's own rendering beside Claude's copy or not; either
    # way, a hand copy of Claude's bytes in every tree opencode reads leaves one skill.
    for tree in (".opencode/skills", ".agents/skills"):
        target = work / tree / "dx"
        target.mkdir(parents=True, exist_ok=True)
        (target / "SKILL.md").write_bytes((work / ".claude/skills/dx/SKILL.md").read_bytes())
    done = clients.run([sys.executable, "-m", "upskill", "doctor", "--json"], cwd=work, env=env)
    assert json.loads(done.stdout)["varying_reads"] == []
    seen = {_listed(clients, work, env)[0].read_bytes() for _ in range(RUNS)}
    assert seen == {(work / ".claude/skills/dx/SKILL.md").read_bytes()}
