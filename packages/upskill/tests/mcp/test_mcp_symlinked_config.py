"""A user-scope MCP config may be a symlink into the user's dotfiles (GNU stow). upskill
writes the server entry through it to the file it names, which keeps its mode, and the
link stays (`fsio.replaced_file`); a link leading out of the home is not followed and
not replaced: the server is skipped with one line naming the file, as for any config
upskill cannot write."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

BUNDLE = """schema: 1
name: srv
description: A server
mcps:
  drawio:
    local: { command: drawio-mcp, args: [--stdio] }
"""
USERS = '# mine\nmodel = "o3"\n'
ENTRY = '\n[mcp_servers.drawio]\ncommand = "drawio-mcp"\nargs = ["--stdio"]\n'
CONFIG = ".codex/config.toml"


def _bundle(tmp_path: Path) -> Path:
    (tmp_path / "registry" / "skills").mkdir(parents=True)
    bundle = tmp_path / "registry" / "skills" / "srv.bundle.yaml"
    bundle.write_text(BUNDLE)
    return bundle


def _link(home: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(USERS)
    target.chmod(0o600)
    (home / ".codex").mkdir()
    (home / CONFIG).symlink_to(os.path.relpath(target, home / ".codex"))


def test_a_server_is_added_and_removed_through_a_stowed_config(
    project: Any, tmp_path: Path
) -> None:
    target = project.home / "dotfiles" / "codex" / "config.toml"
    _link(project.home, target)
    link = os.readlink(project.home / CONFIG)
    done = project.run("add", "-g", str(_bundle(tmp_path)), "--codex")
    assert done.returncode == 0, done.stderr
    assert f"mcp drawio: configured for codex in {project.home / CONFIG}" in done.stderr
    assert os.readlink(project.home / CONFIG) == link == "../dotfiles/codex/config.toml"
    assert target.read_bytes() == (USERS + ENTRY).encode()
    assert target.stat().st_mode & 0o777 == 0o600
    done = project.run("remove-mcp", "drawio", "-g")
    assert done.returncode == 0, done.stderr
    assert os.readlink(project.home / CONFIG) == link
    assert target.read_bytes() == USERS.encode()
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_config_linked_out_of_the_home_is_neither_followed_nor_replaced(
    project: Any, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere" / "config.toml"
    _link(project.home, outside)
    link = os.readlink(project.home / CONFIG)
    done = project.run("add", "-g", str(_bundle(tmp_path)), "--codex")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("warning:")] == [
        f"warning: mcp drawio: not configured for codex: {project.home / CONFIG}: is a symlink "
        f"to a file outside {project.home}; refusing to write through it or replace it"
    ]
    assert os.readlink(project.home / CONFIG) == link
    assert outside.read_bytes() == USERS.encode()


def test_a_dangling_config_link_is_not_replaced(project: Any, tmp_path: Path) -> None:
    (project.home / ".codex").mkdir()
    (project.home / CONFIG).symlink_to("../dotfiles/codex/config.toml")  # not checked out
    done = project.run("add", "-g", str(_bundle(tmp_path)), "--codex")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("warning:")] == [
        f"warning: mcp drawio: not configured for codex: {project.home / CONFIG}: "
        "is a dangling symlink; refusing to write through it"
    ]
    assert os.readlink(project.home / CONFIG) == "../dotfiles/codex/config.toml"
    assert not (project.home / "dotfiles").exists()
