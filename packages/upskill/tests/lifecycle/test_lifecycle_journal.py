"""Crash safety: SIGKILL after N filesystem mutations, then the next run completes the work.

`UPSKILL_FAULT_AFTER_WRITES=N` is the documented test seam: the process kills
itself after its N-th mutation (staged write, journal, rename, unlink).
"""

from __future__ import annotations

import json
import signal

import pytest

FAULT = "UPSKILL_FAULT_AFTER_WRITES"
AGENTS = "# Team\n"  # with an AGENTS.md, CLAUDE.md (importing it) is written too


def _reference(cli, h, tmp_path, registry, *args):
    ref = tmp_path / "reference"
    ref.mkdir()
    (ref / ".git").mkdir()
    (ref / "AGENTS.md").write_text(AGENTS)
    cli.ok("add", str(registry), *args, cwd=ref)
    return {p: (ref / p).read_bytes() for p in h.files(ref) if not p.startswith(".upskill/")}


def _tree(h, root):
    return {p: (root / p).read_bytes() for p in h.files(root) if not p.startswith(".upskill/")}


# This add makes 29 mutations: 18 staged writes (1-18), the staged lockfile (19), the
# journal (20, the commit point), four new top directories moved whole (21-24), two files
# moved into the root (25-26), `.vscode` (27), the lockfile (28), the journal's removal (29).
KILL_POINTS = [1, 3, 7, 12, 16, 18, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29]


def test_the_kill_points_span_the_whole_add(cli, project, registry, tmp_path):
    (project / "AGENTS.md").write_text(AGENTS)
    assert cli.run("add", str(registry), cwd=project, extra={FAULT: "29"}).returncode == (
        -signal.SIGKILL
    ), "the add makes fewer mutations than KILL_POINTS assumes: revisit them"
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    (other / "AGENTS.md").write_text(AGENTS)
    assert cli.run("add", str(registry), cwd=other, extra={FAULT: "30"}).returncode == 0, (
        "the add makes more mutations than KILL_POINTS assumes: revisit them"
    )


@pytest.mark.parametrize("after", KILL_POINTS)
def test_killed_add_is_completed_by_the_next_run(after, cli, h, project, registry, tmp_path):
    expected = _reference(cli, h, tmp_path, registry)
    (project / "AGENTS.md").write_text(AGENTS)
    killed = cli.run("add", str(registry), cwd=project, extra={FAULT: str(after)})
    assert killed.returncode in (0, -signal.SIGKILL)
    lock = project / ".upskill-lock.json"
    if lock.exists():
        json.loads(lock.read_text())  # never half-written
    cli.ok("add", str(registry), cwd=project)
    assert _tree(h, project) == expected
    assert not cli.journal(project).exists()
    assert not (project / ".upskill" / "txn").exists()
    assert cli.run("doctor", cwd=project).returncode == 0


@pytest.mark.parametrize("after", [2, 5, 9, 11, 14])
def test_killed_update_keeps_user_edit_and_recovers_via_any_writer(
    after, cli, h, project, registry
):
    cli.ok("add", str(registry), "--claude", cwd=project)
    edited = project / ".claude/rules/style.md"
    edited.write_text("my own words\n")
    h.write_item(registry, "rule", "commits", "Changed upstream.\n")
    h.write_item(registry, "skill", "review", "Changed too.\n")
    killed = cli.run("update", cwd=project, extra={FAULT: str(after)})
    assert killed.returncode in (0, -signal.SIGKILL)
    assert edited.read_text() == "my own words\n"
    out = cli.ok("update", cwd=project)
    assert edited.read_text() == "my own words\n"
    assert "kept local edit: .claude/rules/style.md" in out.stderr
    assert "Changed upstream." in (project / ".claude/rules/commits.md").read_text()
    assert "Changed too." in (project / ".claude/skills/review/SKILL.md").read_text()
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert {i["name"] for i in lock["items"]} == {"style", "commits", "review", "reviewer"}


def test_journal_replayed_by_remove(cli, h, project, registry):
    cli.ok("add", str(registry), "--claude", cwd=project)
    h.write_item(registry, "rule", "commits", "New.\n")
    # Kill right after the journal is committed: staged files exist, nothing moved yet.
    journal = cli.journal(project)
    for after in range(1, 20):
        out = cli.run("update", cwd=project, extra={FAULT: str(after)})
        if journal.exists():
            break
        assert out.returncode in (0, -signal.SIGKILL)
    assert journal.exists()
    out = cli.ok("remove", "style", cwd=project)
    assert "completed" in out.stderr or not journal.exists()
    assert not journal.exists()
    assert "New." in (project / ".claude/rules/commits.md").read_text()
    assert not (project / ".claude/rules/style.md").exists()
