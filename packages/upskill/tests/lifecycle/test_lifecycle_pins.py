"""Sources and pins (issue 16, item 5): ssh/scp/file URLs through the user's own git
configuration, re-pinning with `add <source>@<ref>`, local registries recorded relative
to the project, and messages that never show upskill's cache."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest


@pytest.fixture
def tagged(make_git_source, h):  # type: ignore[no-untyped-def]
    """acme/skills with tags v1 and v2 (the rule's text and the skill's script change)."""
    src = make_git_source("acme/skills")
    h.write_item(src.work, "rule", "style", "v1 style.\n")
    h.write_item(src.work, "skill", "tool", "Run the tool.\n")
    src.commit("v1")
    src.tag("v1")
    h.write_item(src.work, "rule", "style", "v2 style.\n")
    src.commit("v2")
    src.tag("v2")
    return src


def _lock(project: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((project / ".upskill-lock.json").read_text())


def _sources(project: Path) -> list[tuple[str, str, str | None]]:
    return [(i["name"], i["source"], i.get("ref")) for i in _lock(project)["items"]]


def test_file_url_source(tagged, cli, project):  # type: ignore[no-untyped-def]
    out = cli.ok("add", f"{tagged.url}@v1", "style", "--claude", cwd=project)
    assert "1 item installed for claude" in out.stderr
    assert _sources(project) == [("style", f"{tagged.url}@v1", "v1")]
    assert (project / ".claude/rules/style.md").read_text().endswith("v1 style.\n")
    assert cli.ok("update", cwd=project).stderr.endswith("Already up to date.\n")


def test_the_users_own_git_config_applies(tagged, cli, project, tmp_path):  # type: ignore[no-untyped-def]
    """~/.gitconfig's `insteadOf` rewrites an https URL and an ssh-style spec to a local
    bare repository: upskill hands git the URL as typed and never overrides the user's
    global configuration."""
    home = cli.home
    (home / ".gitconfig").write_text(
        f'[url "file://{tmp_path / "github"}/"]\n'
        "\tinsteadOf = https://git.example.com/\n"
        "\tinsteadOf = git@git.example.com:\n"
    )
    env = {k: v for k, v in cli.env.items() if k != "GIT_CONFIG_GLOBAL"}  # git reads ~
    own = dataclasses.replace(cli, env=env)
    own.ok("add", "https://git.example.com/acme/skills@v1", "style", "--claude", cwd=project)
    own.ok("add", "git@git.example.com:acme/skills.git@v2", "tool", "--claude", cwd=project)
    assert _sources(project) == [
        ("style", "https://git.example.com/acme/skills@v1", "v1"),
        ("tool", "git@git.example.com:acme/skills.git@v2", "v2"),
    ]
    assert (project / ".claude/rules/style.md").read_text().endswith("v1 style.\n")
    assert (project / ".claude/skills/tool/SKILL.md").is_file()
    assert own.ok("update", "--dry-run", cwd=project).stdout == "nothing to do\n"
