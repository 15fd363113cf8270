"""The pre-commit hooks this repository publishes, run by pre-commit itself (issue 19, 8).

`pre-commit try-repo` installs this checkout the way a user's `.pre-commit-config.yaml`
would (pip, through `tools/workspace_backend.py`) and runs every hook in
`.pre-commit-hooks.yaml` inside a temp git project: a registry, an upskill install for
Claude Code and an AGENTS.md compiled by agents-md-compiler. First all four pass; then
each gets the breakage it exists to catch, and each fails naming it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
HOOKS = ("agents-md-compiler-check", "upskill-doctor", "upskill-fmt", "upskill-lint")


def _hooks() -> dict[str, dict[str, object]]:
    entries = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {entry["id"]: entry for entry in entries}


def test_the_hook_file_publishes_the_four_hooks() -> None:
    assert sorted(_hooks()) == list(HOOKS)


@pytest.mark.parametrize("hook", ["upskill-lint", "upskill-fmt"])
def test_item_hooks_see_sources_and_never_a_clients_rendered_copy(hook: str) -> None:
    """A committed client tree holds rendered SKILL.md/AGENT.md copies, which are not the
    portable format: every project tree in the client registry is excluded, a registry
    anywhere else (hidden `.upskill/registry` included) is not."""
    from upskill.clients import CLIENTS, OVERRIDE_CLIENTS

    entry = _hooks()[hook]
    files, exclude = re.compile(str(entry["files"])), re.compile(str(entry["exclude"]))
    trees = {
        where.at(False).tree
        for client in CLIENTS
        for where in client.kinds.values()
        if where.serves(False) and where.at(False).tree.endswith("/")  # not a compiled file
    }
    for tree in sorted(trees):
        for name in ("SKILL.md", "AGENT.md", "RULE.md"):
            path = f"{tree}demo/{name}"
            assert exclude.search(path), f"{hook} would take the rendered copy {path}"
    for source in (
        "skills/demo/SKILL.md",
        ".upskill/registry/rules/style/RULE.md",
        "registry/agents/reviewer/AGENT.md",
        "registry/skills/demo/SKILL.claude.md",
        "team.bundle.yaml",
    ):
        assert files.search(source) and not exclude.search(source), source
    for client in OVERRIDE_CLIENTS:
        assert files.search(f"registry/skills/demo/SKILL.{client}.md"), client
    for other in ("docs/README.md", "skills/demo/SKILL.fr.md", "team.bundle.yml"):
        assert not files.search(other), other


def _env(tmp: Path) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    return {
        "PATH": f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "PRE_COMMIT_HOME": str(tmp / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "LC_ALL": "C.UTF-8",
    }


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def _ok(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = _run(argv, cwd, env)
    assert done.returncode == 0, f"{' '.join(argv)}: {done.returncode}\n{done.stdout}{done.stderr}"


def _statuses(output: str) -> dict[str, str]:
    """`upskill lint.....Passed` lines -> {hook name: Passed|Failed}."""
    return dict(re.findall(r"^(\S.*?)\.{3,}(Passed|Failed)$", output, flags=re.MULTILINE))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    tmp = tmp_path_factory.mktemp("precommit")
    env = _env(tmp)
    work = tmp / "project"
    work.mkdir()
    _ok(["git", "init", "-q"], work, env)
    shutil.copytree(REPO / "examples" / "registry", work / ".upskill" / "registry")
    _ok([str(BIN / "agents-md-compiler"), "init"], work, env)
    manifest = work / "agents-md.toml"
    manifest.write_text(
        manifest.read_text().replace('"~/.codex/AGENTS.md"', '"AGENTS.md"'), encoding="utf-8"
    )
    _ok([str(BIN / "agents-md-compiler"), "lock"], work, env)
    _ok([str(BIN / "agents-md-compiler"), "install", "--apply"], work, env)
    _ok([str(BIN / "upskill"), "add", "./.upskill/registry", "--claude"], work, env)
    _ok(["git", "add", "-A"], work, env)
    _ok(["git", "commit", "-q", "-m", "context"], work, env)
    return work, env


def _try_repo(work: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return _run([str(BIN / "pre-commit"), "try-repo", str(REPO), "--all-files"], work, env)


def test_every_hook_passes_on_a_consistent_project(project) -> None:  # type: ignore[no-untyped-def]
    work, env = project
    done = _try_repo(work, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _statuses(done.stdout) == {
        "agents-md-compiler check": "Passed",
        "upskill doctor": "Passed",
        "upskill fmt --check": "Passed",
        "upskill lint": "Passed",
    }


def test_each_hook_fails_on_the_breakage_it_guards(project) -> None:  # type: ignore[no-untyped-def]
    work, env = project
    registry = work / ".upskill" / "registry"
    skill = next(registry.rglob("SKILL.md"))
    skill.write_text(re.sub(r"(?m)^description:.*\n", "", skill.read_text()), encoding="utf-8")
    rule = next(registry.rglob("RULE.md"))
    rule.write_text(rule.read_text().replace("\n---\n", "\n---\n\n\n\n", 1), encoding="utf-8")
    installed = next((work / ".claude").rglob("*.md"))
    installed.write_text(installed.read_text() + "\nA hand edit.\n", encoding="utf-8")
    agents = work / "AGENTS.md"
    agents.write_text(agents.read_text() + "\nA hand edit.\n", encoding="utf-8")

    done = _try_repo(work, env)

    assert done.returncode == 1
    assert _statuses(done.stdout) == {
        "agents-md-compiler check": "Failed",
        "upskill doctor": "Failed",
        "upskill fmt --check": "Failed",
        "upskill lint": "Failed",
    }
    out = done.stdout
    assert "agents-md-compiler: check: DRIFTED" in out
    assert installed.relative_to(work).as_posix() in out
    assert f"{rule.relative_to(work).as_posix()}" in out
    assert re.search(rf"{re.escape(skill.relative_to(work).as_posix())}.*description", out)
