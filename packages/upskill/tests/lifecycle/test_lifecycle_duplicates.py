"""doctor names a skill or agent a client would load twice (issue 15, item 3): Cursor
reads `.claude/agents` besides its own `.cursor/agents`, and does not deduplicate."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

BIN = {"PATH": "/usr/bin:/bin"}


def test_doctor_reports_agents_cursor_reads_twice(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--cursor", cwd=project, extra=BIN)
    # The skill renders the same for both: Cursor reads Claude's copy, written once. The
    # agents differ (tools), and Cursor lists every copy, so its own is left out too
    # (`agentplace`): nothing is read twice until a copy is made by hand.
    assert not (project / ".agents/skills/review").exists()
    assert not (project / ".cursor/agents/reviewer.md").exists()
    assert (
        json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)["duplicate_reads"]
        == []
    )
    (project / ".cursor/agents").mkdir(parents=True)
    (project / ".cursor/agents/reviewer.md").write_text("---\nname: reviewer\n---\n\nMine.\n")
    out = cli.run("doctor", "--json", cwd=project, extra=BIN)
    assert out.returncode == 0  # informational: the user decides which copy goes
    report = json.loads(out.stdout)
    assert report["duplicate_reads"] == [
        {
            "client": "cursor",
            "kind": "agent",
            "name": "reviewer",
            "trees": [".cursor/agents/", ".claude/agents/"],
        },
    ]
    text = cli.run("doctor", cwd=project, extra=BIN)
    assert (
        "Read twice by one client (informational: remove a copy, or narrow the clients):\n"
        "  cursor: agent reviewer in .cursor/agents/, .claude/agents/\n"
    ) in text.stdout


def test_clients_that_deduplicate_are_not_reported(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--copilot", "--opencode", cwd=project, extra=BIN)
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == []  # Copilot and opencode list a name once
    assert report["varying_reads"] == []  # and opencode's copies are the same bytes


def test_a_shared_copy_follows_the_selection(cli, project, registry):  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", "--cursor", cwd=project, extra=BIN)
    lock = json.loads((project / ".upskill-lock.json").read_text())
    skill = next(o for o in lock["outputs"] if o["path"] == ".claude/skills/review/SKILL.md")
    assert skill["owners"] == ["skill:review@claude", "skill:review@cursor"]
    cli.ok("update", "--cursor", cwd=project, extra=BIN)  # Claude dropped: Cursor's own copy
    assert (project / ".agents/skills/review/SKILL.md").is_file()
    assert not (project / ".claude").exists()
    assert cli.run("doctor", cwd=project, extra=BIN).returncode == 0


# opencode 1.18.33 shows one copy of a skill name found in several trees it reads, and
# which one varies from run to run (`Client.skill_order`; `opencode debug skill`, 20 runs
# with a `.opencode/skills` and a `.claude/skills` copy: 14 and 6 on this machine).
HEAD = "---\nname: dx\ndescription: Use when testing dx\n---\n\n"
VARYING = (
    "Copies that differ, one shown, not always the same (informational: keep one copy, or "
    "make the copies identical):\n"
)


def _dx(tmp_path: Path, override: str | None = None) -> Path:
    root = tmp_path / "reg"
    (root / "skills" / "dx").mkdir(parents=True)
    (root / "skills" / "dx" / "SKILL.md").write_text(
        "---\nschema: 1\ndescription: Use when testing dx\n---\n\nCommon.\n"
    )
    if override is not None:
        (root / "skills" / "dx" / "SKILL.opencode.md").write_text(override)
    return root


def _doctor(cli, project: Path) -> tuple[int, dict[str, Any], str, str]:  # type: ignore[no-untyped-def]
    report = cli.run("doctor", "--json", cwd=project, extra=BIN)
    text = cli.run("doctor", cwd=project, extra=BIN)
    assert report.returncode == text.returncode
    return text.returncode, json.loads(report.stdout), text.stdout, text.stderr


def test_opencode_is_told_it_may_show_either_of_two_renderings(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Claude's copy must be in `.claude/skills`, which opencode reads too: its own
    # rendering cannot be the only copy it reads, and the install says so.
    out = cli.ok("add", str(_dx(tmp_path, "For opencode.\n")), "--claude", "--opencode",
                 cwd=project, extra=BIN)  # fmt: skip
    assert (
        "warning: skill:dx: opencode sees one of the copies in .agents/skills/, "
        ".claude/skills/ (opencode shows one copy from .opencode/skills/, .agents/skills/, "
        ".claude/skills/, not always the same)\n"
    ) in out.stderr
    code, report, stdout, stderr = _doctor(cli, project)
    assert code == 0  # informational, like duplicate reads: no drift from the lockfile
    assert report["duplicate_reads"] == []  # opencode never lists a name twice
    assert report["varying_reads"] == [
        {
            "client": "opencode",
            "kind": "skill",
            "name": "dx",
            "trees": [".agents/skills/", ".claude/skills/"],
        },
    ]
    assert stdout == (
        VARYING
        + "  opencode: skill dx in .agents/skills/, .claude/skills/ (may show either copy)\n"
    )
    assert stderr == "No drift.\n"


def test_a_hand_made_copy_opencode_may_show_is_reported(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # One rendering for both: opencode gets its copy in `.agents/skills`, and the two it
    # reads are the same bytes, so whichever it shows is the same skill.
    cli.ok("add", str(_dx(tmp_path)), "--claude", "--opencode", cwd=project, extra=BIN)
    claude = (project / ".claude/skills/dx/SKILL.md").read_bytes()
    assert (project / ".agents/skills/dx/SKILL.md").read_bytes() == claude
    mine = project / ".opencode/skills/dx"
    mine.mkdir(parents=True)
    (mine / "SKILL.md").write_bytes(claude)
    code, report, stdout, _ = _doctor(cli, project)
    assert (code, report["varying_reads"], report["duplicate_reads"], stdout) == (0, [], [], "")
    # A resource in one copy only makes it differ: a copy is its whole directory.
    (mine / "notes.md").write_text("Extra.\n")
    code, report, stdout, stderr = _doctor(cli, project)
    assert code == 0
    assert report["varying_reads"] == [
        {
            "client": "opencode",
            "kind": "skill",
            "name": "dx",
            "trees": [".opencode/skills/", ".agents/skills/", ".claude/skills/"],
        },
    ]
    assert stdout == VARYING + (
        "  opencode: skill dx in .opencode/skills/, .agents/skills/, .claude/skills/ "
        "(may show any of the 3 copies)\n"
    )
    assert stderr == "No drift.\n"
    # A hand edit of upskill's own copy is drift as well (exit 1), reported beside it.
    (mine / "notes.md").unlink()
    (mine / "SKILL.md").unlink()
    mine.rmdir()
    (project / ".agents/skills/dx/SKILL.md").write_text(HEAD + "Edited.\n")
    code, report, stdout, stderr = _doctor(cli, project)
    assert code == 1
    assert [e["path"] for e in report["modified_outputs"]] == [".agents/skills/dx/SKILL.md"]
    assert stdout.endswith(
        VARYING
        + "  opencode: skill dx in .agents/skills/, .claude/skills/ (may show either copy)\n"
    )
    assert stderr == "1 problem(s) found.\n"


def test_a_linked_copy_is_the_same_copy(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(_dx(tmp_path)), "--claude", "--opencode", cwd=project, extra=BIN)
    (project / ".opencode/skills").mkdir(parents=True)
    (project / ".opencode/skills/dx").symlink_to("../../.claude/skills/dx")
    _, report, _, _ = _doctor(cli, project)
    assert report["varying_reads"] == []


def test_a_copy_linked_from_outside_is_compared_by_where_it_is(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Never read outside the project: a copy there, even with the same bytes, counts as
    # another copy (doctor cannot say opencode would show the same skill).
    cli.ok("add", str(_dx(tmp_path)), "--claude", "--opencode", cwd=project, extra=BIN)
    outside = tmp_path / "elsewhere" / "dx"
    outside.mkdir(parents=True)
    (outside / "SKILL.md").write_bytes((project / ".claude/skills/dx/SKILL.md").read_bytes())
    (project / ".opencode/skills").mkdir(parents=True)
    (project / ".opencode/skills/dx").symlink_to(outside)
    _, report, _, _ = _doctor(cli, project)
    assert [e["trees"] for e in report["varying_reads"]] == [
        [".opencode/skills/", ".agents/skills/", ".claude/skills/"]
    ]


def test_any_client_whose_pick_is_not_fixed_is_reported(
    cli, project, tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    # Derived from the registry facts, not from opencode's id: Copilot CLI, verified to
    # show its `.github/skills` copy first, is reported once its entry says otherwise.
    from upskill.clients import BY_ID

    cli.ok("add", str(_dx(tmp_path)), "--copilot", cwd=project, extra=BIN)
    other = project / ".claude/skills/dx"
    other.mkdir(parents=True)
    (other / "SKILL.md").write_text(HEAD + "Other.\n")
    assert _doctor(cli, project)[1]["varying_reads"] == []
    monkeypatch.setitem(BY_ID, "copilot", replace(BY_ID["copilot"], skill_order=False))
    assert [(e["client"], e["trees"]) for e in _doctor(cli, project)[1]["varying_reads"]] == [
        ("copilot", [".github/skills/", ".claude/skills/"])
    ]
    # And a client that lists every copy is a duplicate read, as before.
    monkeypatch.setitem(BY_ID, "copilot", replace(BY_ID["copilot"], dedupes=False))
    _, report, _, _ = _doctor(cli, project)
    assert report["varying_reads"] == []
    assert [(e["client"], e["trees"]) for e in report["duplicate_reads"]] == [
        ("copilot", [".github/skills/", ".claude/skills/"])
    ]


def test_at_user_level_opencode_may_show_any_differing_copy(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # At user level opencode reads `~/.config/opencode/skills`, `~/.agents/skills`,
    # `~/.opencode/skills` and `~/.claude/skills`, one copy shown, not always the same
    # (`user_skill_order`): upskill's own copy is alone until one is made by hand.
    cli.ok("add", "-g", str(_dx(tmp_path, "For opencode.\n")), "--codex", "--opencode",
           cwd=tmp_path, extra=BIN)  # fmt: skip
    home = cli.home
    assert (home / ".config/opencode/skills/dx/SKILL.md").read_text() == HEAD + "For opencode.\n"
    doctor = ("doctor", "-g")
    assert (
        json.loads(cli.run(*doctor, "--json", cwd=tmp_path, extra=BIN).stdout)["varying_reads"]
        == []
    )
    hand = home / ".claude/skills/dx"
    hand.mkdir(parents=True)
    (hand / "SKILL.md").write_text(HEAD + "Mine.\n")
    report = cli.run(*doctor, "--json", cwd=tmp_path, extra=BIN)
    assert report.returncode == 0
    assert json.loads(report.stdout)["varying_reads"] == [
        {
            "client": "opencode",
            "kind": "skill",
            "name": "dx",
            "trees": [".config/opencode/skills/", ".claude/skills/"],
        },
    ]
    assert "duplicate_reads" not in json.loads(report.stdout)  # project scope only
    text = cli.run(*doctor, cwd=tmp_path, extra=BIN)
    assert (text.returncode, text.stdout, text.stderr) == (
        0,
        VARYING + "  opencode: skill dx in .config/opencode/skills/, .claude/skills/ "
        "(may show either copy)\n",
        "No drift.\n",
    )
    # The same bytes in both: whichever opencode shows, it is its own rendering.
    (hand / "SKILL.md").write_bytes((home / ".config/opencode/skills/dx/SKILL.md").read_bytes())
    assert (
        json.loads(cli.run(*doctor, "--json", cwd=tmp_path, extra=BIN).stdout)["varying_reads"]
        == []
    )
