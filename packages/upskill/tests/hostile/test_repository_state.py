"""A cloned repository's state can make upskill do nothing it should not (issue 13, 1-5).

Each case plants what a repository's author controls, runs the real CLI the way a
user would after cloning, and checks the exact outcome plus the canary: `.git/`,
the temporary HOME (but for upskill's own cache and state) and a secret beside the
project are byte-for-byte unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile_state import HOOK, Canary, add_lock_output, plant_project_journal, sha256

from upskill.lifecycle.confine import OUTPUT_TREES

WRITERS = [("update",), ("update", "--force"), ("remove", "style"), ("add", "{registry}")]


def _argv(argv: tuple[str, ...], registry: Path) -> list[str]:
    return [a.format(registry=registry) for a in argv]


@pytest.mark.parametrize("argv", WRITERS)
def test_a_journal_committed_to_the_project_is_never_replayed(cli, project, registry, argv) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", cwd=project)
    canary = Canary.plant(project, cli.home)
    head = (project / ".git" / "HEAD").read_bytes()
    plant_project_journal(
        project,
        [
            {"op": "write", "path": ".git/hooks/post-commit", "staged": "0"},
            {"op": "remove", "path": ".git/HEAD", "sha256": sha256(head)},
            {"op": "write", "path": ".claude/rules/commits.md", "staged": "0", "sha256": "0" * 64},
        ],
        lockfile=str(cli.home / ".ssh" / "id_rsa"),
    )
    out = cli.run(*_argv(argv, registry), cwd=project)
    assert out.returncode == 0, out.stderr
    assert "interrupted" not in out.stderr
    assert b"pwned" not in (project / ".claude/rules/commits.md").read_bytes()
    canary.assert_untouched()
    # the planted journal is left for the user to see
    doctor = cli.run("doctor", cwd=project)
    assert doctor.returncode == 1
    assert f"  foreign: {project / '.upskill' / 'journal.json'}\n" in doctor.stdout


def test_the_journal_of_a_killed_run_is_kept_outside_the_project(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    killed = cli.run("add", str(registry), cwd=project, extra={"UPSKILL_FAULT_AFTER_WRITES": "21"})
    assert killed.returncode != 0
    journal = cli.journal(project)
    assert journal.is_file()
    assert journal.is_relative_to(cli.home / ".local" / "state" / "upskill" / "scopes")
    assert oct(journal.parent.stat().st_mode & 0o777) == "0o700"
    assert oct(journal.stat().st_mode & 0o777) == "0o600"
    assert not (project / ".upskill" / "journal.json").exists()
    doctor = cli.run("doctor", cwd=project)
    assert doctor.returncode == 1
    assert f"  pending: {journal}\n" in doctor.stdout
    cli.ok("update", cwd=project)
    assert not journal.exists()
    assert cli.run("doctor", cwd=project).returncode == 0


@pytest.mark.parametrize("argv", [*WRITERS, ("doctor",)])
@pytest.mark.parametrize(
    ("claimed", "why"),
    [
        (".git/HEAD", "is inside a .git directory"),
        (".claude/rules/.git/config", "is inside a .git directory"),
        ("README.md", f"is outside the client output trees ({', '.join(OUTPUT_TREES)})"),
    ],
)
def test_a_lockfile_cannot_claim_a_file_outside_the_output_trees(
    cli, project, registry, argv, claimed, why
) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", cwd=project)
    canary = Canary.plant(project, cli.home)
    target = project / claimed
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists():
        target.write_bytes(b"the user's own file\n")
    data = target.read_bytes()
    add_lock_output(project, claimed, data)
    lock_before = (project / ".upskill-lock.json").read_bytes()
    out = cli.run(*_argv(argv, registry), cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {project / '.upskill-lock.json'}: `outputs` entry {claimed!r} "
        f"{why}; refusing to use it\n"
    )
    assert target.read_bytes() == data
    assert (project / ".upskill-lock.json").read_bytes() == lock_before
    canary.assert_untouched()


@pytest.mark.parametrize(
    "linked", [".upskill", ".claude", ".claude/skills", ".claude/skills/review", ".claude/rules"]
)
@pytest.mark.parametrize("argv", WRITERS)
def test_a_symlinked_state_or_client_directory_is_refused(
    cli, project, registry, linked, argv
) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", cwd=project)
    canary = Canary.plant(project, cli.home)
    elsewhere = canary.outside / "moved"
    os.rename(project / linked, elsewhere)
    (project / linked).symlink_to(elsewhere)
    canary.before = canary._state()
    if argv[0] == "remove" and "skills" in linked:
        argv = ("remove", "review")  # an item whose outputs lie behind the link
    out = cli.run(*_argv(argv, registry), cwd=project)
    assert out.returncode == 1, out.stderr
    assert out.stderr.endswith(
        f"upskill: error: {project / linked}: refusing to use a symlinked directory\n"
    )
    assert "kept" not in out.stderr
    canary.assert_untouched()


def test_a_symlinked_scope_lock_is_refused(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / ".upskill").mkdir()
    target = project.parent / "outside-lock"
    (project / ".upskill" / ".lock").symlink_to(target)
    out = cli.run("add", str(registry), cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {project / '.upskill' / '.lock'}: "
        "refusing a lock file that is a symlink\n"
    )
    assert not target.exists()
    assert not (project / ".claude").exists()


def test_the_planted_hook_bytes_are_not_the_rule(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Guard for the test above: the planted staged file would be visible if replayed."""
    assert b"pwned" in HOOK


def test_a_journal_that_is_a_directory_is_one_error(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", cwd=project)
    journal = cli.journal(project)
    journal.parent.mkdir(parents=True, exist_ok=True)
    journal.mkdir()
    out = cli.run("update", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: {journal}: cannot replay interrupted run: the journal is not a "
        "regular file\n"
    )
    assert "pending" in cli.run("doctor", cwd=project).stdout


@pytest.mark.parametrize("linked", ["opencode.json", ".vscode/settings.json"])
def test_a_config_linked_into_git_is_not_written_through(cli, project, registry, linked) -> None:  # type: ignore[no-untyped-def]
    # A link into the project is written through (dotfiles); one into `.git` never is.
    canary = Canary.plant(project, cli.home)
    (project / ".git" / "team.json").write_text("{}\n")
    link = project / linked
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(os.path.relpath(project / ".git" / "team.json", link.parent))
    canary.before = canary._state()
    out = cli.run("add", str(registry), "--opencode", "--vscode", cwd=project)
    assert out.returncode == 1, out.stderr
    assert out.stderr.endswith(
        f"upskill: error: {link}: is a symlink into a .git directory; "
        "refusing to write through it\n"
    )
    canary.assert_untouched()
    assert not (project / ".agents").exists()
