"""A client config upskill edits may be a symlink into the user's dotfiles (GNU stow:
`~/.codex/config.toml -> ../dotfiles/codex/config.toml`). The write goes through to the
file the link names, which keeps its mode, and the link stays (`fsio.replaced_file`,
`lifecycle.journal`); a link leaving the scope, or a dangling one, is one error naming
it, and nothing is written."""

from __future__ import annotations

import os
import signal
from pathlib import Path

FAULT = "UPSKILL_FAULT_AFTER_WRITES"
BIN = {"PATH": "/usr/bin:/bin"}
CONFIG = ".codex/config.toml"
DOTFILE = "dotfiles/codex/config.toml"
LINK = "../dotfiles/codex/config.toml"
ENTRY = '[[skills.config]]\npath = "~/.agents/skills/dx/SKILL.md"\nenabled = false\n'
USERS = '# mine\nmodel = "o3"\n'
TEAM = '{\n  "model": "x"\n}\n'
GLOB = ".agents/rules/**/RULE.md"
WITH_GLOB = '{\n  "model": "x",\n  "instructions": [\n    "' + GLOB + '"\n  ]\n}\n'


def _source(tmp_path: Path) -> Path:
    """A skill with a Codex-only block: beside Windsurf, Codex's copy needs the switch."""
    root = tmp_path / "reg"
    (root / "skills" / "dx").mkdir(parents=True)
    (root / "skills" / "dx" / "SKILL.md").write_text(
        "---\nschema: 1\ndescription: Use when testing dx\n---\n\nCommon.\n"
        "\n<!-- @client:codex -->\nCodex only.\n<!-- @endclient -->\n"
    )
    return root


def _stow(home: Path, text: str = USERS) -> Path:
    (home / "dotfiles" / "codex").mkdir(parents=True)
    target = home / DOTFILE
    target.write_text(text)
    target.chmod(0o600)
    (home / ".codex").mkdir()
    (home / CONFIG).symlink_to(LINK)
    return target


def _content(snapshot: dict[str, object]) -> dict[str, object]:
    """A snapshot without upskill's run-time state (its lock, caches)."""
    return {k: v for k, v in snapshot.items() if not k.startswith((".cache", ".upskill"))}


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("upskill: error:")]


def test_a_stowed_codex_config_is_written_through_and_given_back(cli, h, tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = _stow(cli.home)
    reg = _source(tmp_path)
    before = h.snapshot(cli.home)
    cli.ok("add", "-g", str(reg), "--codex", "--windsurf", "--dry-run", cwd=tmp_path, extra=BIN)
    assert h.snapshot(cli.home) == before
    cli.ok("add", "-g", str(reg), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    assert os.readlink(cli.home / CONFIG) == LINK
    assert target.read_bytes() == (USERS + "\n" + ENTRY).encode()
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in (cli.home / ".codex").iterdir()) == ["config.toml", "skills"]
    assert cli.run("doctor", "-g", cwd=tmp_path, extra=BIN).returncode == 0
    cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
    assert os.readlink(cli.home / CONFIG) == LINK
    assert target.read_bytes() == USERS.encode()
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_created_config_moved_into_the_dotfiles_since_loses_only_the_entry(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # upskill created the file; the user then moved it into their dotfiles and linked it.
    # It is theirs now: the entry is cut through the link, the link is not unlinked.
    reg = _source(tmp_path)
    cli.ok("add", "-g", str(reg), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    (cli.home / "dotfiles" / "codex").mkdir(parents=True)
    (cli.home / CONFIG).rename(cli.home / DOTFILE)
    (cli.home / CONFIG).symlink_to(LINK)
    out = cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
    took = 'took back [[skills.config]] {path = "~/.agents/skills/dx/SKILL.md", enabled = false}'
    assert f"updated {CONFIG}: {took}" in out.stderr.splitlines()
    assert os.readlink(cli.home / CONFIG) == LINK
    assert (cli.home / DOTFILE).read_bytes() == b""
    assert cli.run("doctor", "-g", cwd=tmp_path, extra=BIN).returncode == 0


def test_a_dangling_codex_config_link_is_one_error_and_nothing_is_written(cli, h, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (cli.home / ".codex").mkdir()
    (cli.home / CONFIG).symlink_to(LINK)  # dotfiles not checked out
    before = h.snapshot(cli.home)
    reg = _source(tmp_path)
    for dry in (("--dry-run",), ()):  # the plan finds it: a dry run says what the run would
        out = cli.run("add", "-g", str(reg), "--codex", "--windsurf", *dry, cwd=tmp_path)
        assert out.returncode == 1
        assert _errors(out.stderr) == [
            f"upskill: error: {cli.home / CONFIG}: is a dangling symlink; "
            "refusing to write through it"
        ]
    assert _content(h.snapshot(cli.home)) == before


def test_a_project_opencode_json_linked_inside_the_project_is_written_through(
    cli, registry, project
) -> None:  # type: ignore[no-untyped-def]
    (project / "config").mkdir()
    target = project / "config" / "opencode.json"
    target.write_text(TEAM)
    (project / "opencode.json").symlink_to("config/opencode.json")
    cli.ok("add", str(registry), "--opencode", cwd=project)
    assert os.readlink(project / "opencode.json") == "config/opencode.json"
    assert target.read_bytes() == WITH_GLOB.encode()
    cli.ok("remove", "style", "commits", cwd=project)
    assert os.readlink(project / "opencode.json") == "config/opencode.json"
    assert target.read_bytes() == TEAM.encode()


def test_a_project_opencode_json_linked_outside_the_project_is_one_error(
    cli, h, registry, project, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "elsewhere").mkdir()
    outside = tmp_path / "elsewhere" / "opencode.json"
    outside.write_text(TEAM)
    (project / "opencode.json").symlink_to(outside)
    before = h.snapshot(project)
    out = cli.run("add", str(registry), "--opencode", cwd=project)
    assert out.returncode == 1
    assert _errors(out.stderr) == [
        f"upskill: error: {project / 'opencode.json'}: resolves outside {project} "
        "(a symlink); refusing to read or replace it"
    ]
    assert _content(h.snapshot(project)) == before
    assert outside.read_bytes() == TEAM.encode()


def test_a_dangling_project_opencode_json_link_is_one_error(cli, h, registry, project) -> None:  # type: ignore[no-untyped-def]
    (project / "opencode.json").symlink_to("config/opencode.json")
    before = h.snapshot(project)
    out = cli.run("add", str(registry), "--opencode", cwd=project)
    assert out.returncode == 1
    assert _errors(out.stderr) == [
        f"upskill: error: {project / 'opencode.json'}: is a dangling symlink; "
        "refusing to write through it"
    ]
    assert _content(h.snapshot(project)) == before


def test_a_killed_write_through_is_completed_by_the_next_run(cli, registry, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Killed after each of its mutations in turn (`UPSKILL_FAULT_AFTER_WRITES`), the run
    # leaves the linked file whole (old or new bytes) and the next run completes it.
    after = 0
    while True:
        after += 1
        project = tmp_path / f"p{after}"
        (project / ".git").mkdir(parents=True)
        (project / "config").mkdir()
        target = project / "config" / "opencode.json"
        target.write_text(TEAM)
        (project / "opencode.json").symlink_to("config/opencode.json")
        killed = cli.run("add", str(registry), "--opencode", cwd=project, extra={FAULT: str(after)})
        assert killed.returncode in (0, -signal.SIGKILL)
        assert target.read_bytes() in (TEAM.encode(), WITH_GLOB.encode())
        cli.ok("add", str(registry), "--opencode", cwd=project)
        assert os.readlink(project / "opencode.json") == "config/opencode.json"
        assert target.read_bytes() == WITH_GLOB.encode()
        assert not cli.journal(project).exists()
        if killed.returncode == 0:
            break
    assert after > 10  # the kill points spanned the staging, the commit and the renames


def test_a_private_config_keeps_its_mode_link_or_not(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A config may hold secrets (an MCP server's env): upskill's write never widens it.
    (cli.home / ".codex").mkdir()
    config = cli.home / CONFIG
    config.write_text(USERS)
    config.chmod(0o600)
    reg = _source(tmp_path)
    cli.ok("add", "-g", str(reg), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    assert config.read_bytes() == (USERS + "\n" + ENTRY).encode()
    assert config.stat().st_mode & 0o777 == 0o600
    cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
    assert config.read_bytes() == USERS.encode()
    assert config.stat().st_mode & 0o777 == 0o600


def test_an_edit_to_a_stowed_config_is_seen_by_a_bare_update(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The nothing-changed path watches the extra files: through a link, the file it names
    # is what changes (the link's own size and mtime never do).
    target = _stow(cli.home)
    cli.ok("add", "-g", str(_source(tmp_path)), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    target.write_text(USERS)  # the user drops upskill's entry from their dotfile
    out = cli.ok("update", "-g", cwd=tmp_path, extra=BIN)
    assert "Already up to date." not in out.stderr
    assert target.read_bytes() == (USERS + "\n" + ENTRY).encode()
    assert os.readlink(cli.home / CONFIG) == LINK
