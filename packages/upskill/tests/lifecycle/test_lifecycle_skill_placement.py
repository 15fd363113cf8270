"""A skill whose renderings differ between clients (a `<!-- @client -->` block, a
`SKILL.<client>.md` override) reaches each client once, in its own rendering, where
the registry says the client reads it (issue 15, item 3; `lifecycle/skillplace.py`).
Where no placement serves every selected client, the run still installs and says in
one line which client sees another rendering, and why."""

from __future__ import annotations

import json
from pathlib import Path

BIN = {"PATH": "/usr/bin:/bin"}
HEAD = "---\nname: dx\ndescription: Use when testing dx\n---\n\n"
COMMON = HEAD + "Common.\n"
CODEX = HEAD + "Common.\n\nCodex only.\n"


def _source(tmp_path: Path, body: str) -> Path:
    root = tmp_path / "reg"
    (root / "skills" / "dx").mkdir(parents=True)
    text = "---\nschema: 1\ndescription: Use when testing dx\n---\n\n" + body
    (root / "skills" / "dx" / "SKILL.md").write_text(text)
    return root


def _codex_block(tmp_path: Path) -> Path:
    return _source(
        tmp_path, "Common.\n\n<!-- @client:codex -->\nCodex only.\n<!-- @endclient -->\n"
    )


def _skills(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): p.read_text()
        for p in sorted(root.rglob("SKILL.md"))
        if ".git" not in p.parts
    }


def _owners(root: Path) -> dict[str, list[str]]:
    lock = json.loads((root / ".upskill-lock.json").read_text())
    return {o["path"]: o["owners"] for o in lock["outputs"]}


def _placement_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning: skill:dx: ")]


def test_each_client_gets_its_rendering_where_only_it_reads(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Codex lists both an `.agents/skills` and a `.codex/skills` copy, and Gemini lets the
    # `.agents/skills` copy win over its own: so nothing goes to the shared tree, Codex
    # and Gemini get a tree each, and opencode reads Claude's identical copy.
    reg = _codex_block(tmp_path)
    flags = ("--claude", "--copilot", "--opencode", "--codex", "--gemini")
    out = cli.ok("add", str(reg), *flags, cwd=project, extra=BIN)
    assert _placement_lines(out.stderr) == []
    assert _skills(project) == {
        ".claude/skills/dx/SKILL.md": COMMON,
        ".codex/skills/dx/SKILL.md": CODEX,
        ".gemini/skills/dx/SKILL.md": COMMON,
        ".github/skills/dx/SKILL.md": COMMON,
    }
    assert _owners(project) == {
        ".claude/skills/dx/SKILL.md": ["skill:dx@claude", "skill:dx@opencode"],
        ".codex/skills/dx/SKILL.md": ["skill:dx@codex"],
        ".gemini/skills/dx/SKILL.md": ["skill:dx@gemini"],
        ".github/skills/dx/SKILL.md": ["skill:dx@copilot"],
    }
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == report["varying_reads"] == []


def test_the_shared_copy_serves_the_largest_group(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Windsurf and Junie read `.agents/skills` only: the common rendering stays there.
    # opencode prefers `.opencode/skills`, so the Codex-free rendering is not at stake;
    # Codex cannot avoid the shared copy and is told so.
    reg = _codex_block(tmp_path)
    flags = ("--windsurf", "--junie", "--opencode", "--codex")
    out = cli.ok("add", str(reg), *flags, cwd=project, extra=BIN)
    assert _placement_lines(out.stderr) == [
        "warning: skill:dx: codex sees the copy in .agents/skills/, rendered for opencode, "
        "windsurf, junie (Codex CLI lists the copy in each of .agents/skills/, .codex/skills/)"
    ]
    assert _skills(project) == {".agents/skills/dx/SKILL.md": COMMON}
    assert _owners(project) == {
        ".agents/skills/dx/SKILL.md": ["skill:dx@junie", "skill:dx@opencode", "skill:dx@windsurf"],
    }


def test_a_client_that_picks_any_copy_reads_no_other_rendering(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # An opencode override: opencode shows one copy of a name from `.opencode/skills`,
    # `.agents/skills` or `.claude/skills`, not always the same one, so no other rendering
    # may sit in any of them. Codex and Kilo each move to a tree only they read.
    reg = _source(tmp_path, "Common.\n")
    (reg / "skills" / "dx" / "SKILL.opencode.md").write_text("For opencode.\n")
    out = cli.ok("add", str(reg), "--codex", "--kilo", "--opencode", cwd=project, extra=BIN)
    assert _placement_lines(out.stderr) == []
    assert _skills(project) == {
        ".codex/skills/dx/SKILL.md": COMMON,
        ".kilo/skills/dx/SKILL.md": COMMON,
        ".opencode/skills/dx/SKILL.md": HEAD + "For opencode.\n",
    }
    assert _owners(project) == {
        ".codex/skills/dx/SKILL.md": ["skill:dx@codex"],
        ".kilo/skills/dx/SKILL.md": ["skill:dx@kilo"],
        ".opencode/skills/dx/SKILL.md": ["skill:dx@opencode"],
    }
    report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
    assert report["duplicate_reads"] == report["varying_reads"] == []


def test_gemini_cannot_win_over_the_shared_copy(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    reg = _source(
        tmp_path, "Common.\n\n<!-- @client:gemini -->\nGemini only.\n<!-- @endclient -->\n"
    )
    out = cli.ok("add", str(reg), "--codex", "--windsurf", "--gemini", cwd=project, extra=BIN)
    assert _placement_lines(out.stderr) == [
        "warning: skill:dx: gemini sees the copy in .agents/skills/, rendered for codex, "
        "windsurf (Gemini CLI prefers .agents/skills/ to any tree only it reads)"
    ]
    assert _skills(project) == {".agents/skills/dx/SKILL.md": COMMON}


def test_narrowing_update_returns_to_one_shared_copy(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    reg = _codex_block(tmp_path)
    cli.ok("add", str(reg), "--codex", "--gemini", "--opencode", cwd=project, extra=BIN)
    assert _skills(project) == {
        ".codex/skills/dx/SKILL.md": CODEX,
        ".gemini/skills/dx/SKILL.md": COMMON,
        ".opencode/skills/dx/SKILL.md": COMMON,
    }
    cli.ok("update", "--gemini", "--opencode", cwd=project, extra=BIN)  # Codex dropped
    assert _skills(project) == {".agents/skills/dx/SKILL.md": COMMON}
    assert _owners(project) == {
        ".agents/skills/dx/SKILL.md": ["skill:dx@gemini", "skill:dx@opencode"],
    }
    cli.ok("remove", "dx", cwd=project, extra=BIN)
    assert _skills(project) == {}


def test_global_scope_keeps_the_largest_group_and_switches_codex_off_it(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The shared copy serves Gemini and Windsurf; Codex's rendering goes to a tree only it
    # reads, and its user config turns the shared copy off for it
    # (tests/lifecycle/test_lifecycle_skill_switch.py).
    reg = _codex_block(tmp_path)
    out = cli.ok(
        "add", "-g", str(reg), "--codex", "--gemini", "--windsurf", cwd=tmp_path, extra=BIN
    )
    assert _placement_lines(out.stderr) == []
    assert _skills(cli.home) == {
        ".agents/skills/dx/SKILL.md": COMMON,
        ".codex/skills/dx/SKILL.md": CODEX,
    }
    assert _owners(cli.home) == {
        ".agents/skills/dx/SKILL.md": ["skill:dx@gemini", "skill:dx@windsurf"],
        ".codex/skills/dx/SKILL.md": ["skill:dx@codex"],
    }
    assert (cli.home / ".codex/config.toml").read_text() == (
        '[[skills.config]]\npath = "~/.agents/skills/dx/SKILL.md"\nenabled = false\n'
    )


def test_global_scope_moves_a_client_to_a_user_tree_only_it_reads(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # At user level Kilo prefers `~/.kilo/skills` to `~/.agents/skills` (verified with
    # `kilo debug skill`), so its override goes there and the shared copy stays.
    reg = _source(tmp_path, "Common.\n")
    (reg / "skills" / "dx" / "SKILL.kilo.md").write_text("For Kilo.\n")
    out = cli.ok("add", "-g", str(reg), "--codex", "--gemini", "--kilo", cwd=tmp_path, extra=BIN)
    assert _placement_lines(out.stderr) == []
    assert _skills(cli.home) == {
        ".agents/skills/dx/SKILL.md": COMMON,
        ".kilo/skills/dx/SKILL.md": HEAD + "For Kilo.\n",
    }
    assert _owners(cli.home) == {
        ".agents/skills/dx/SKILL.md": ["skill:dx@codex", "skill:dx@gemini"],
        ".kilo/skills/dx/SKILL.md": ["skill:dx@kilo"],
    }


def test_global_scope_keeps_opencode_off_a_shared_copy_it_may_prefer(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # At user level opencode shows one copy of a name from any of four trees, not always
    # the same: its override reaches it only where no other copy is in those trees. So
    # Codex's copy leaves `~/.agents/skills` for `~/.codex/skills`, which Codex also reads.
    reg = _source(tmp_path, "Common.\n")
    (reg / "skills" / "dx" / "SKILL.opencode.md").write_text("For opencode.\n")
    out = cli.ok("add", "-g", str(reg), "--codex", "--opencode", cwd=tmp_path, extra=BIN)
    assert _placement_lines(out.stderr) == []
    assert _skills(cli.home) == {
        ".codex/skills/dx/SKILL.md": COMMON,
        ".config/opencode/skills/dx/SKILL.md": HEAD + "For opencode.\n",
    }
    assert _owners(cli.home) == {
        ".codex/skills/dx/SKILL.md": ["skill:dx@codex"],
        ".config/opencode/skills/dx/SKILL.md": ["skill:dx@opencode"],
    }
    # The lockfile naming `~/.config/opencode/skills` is read back (a tree only opencode
    # reads is an output tree too): update keeps, and remove removes, both copies.
    out = cli.ok("update", "-g", cwd=tmp_path, extra=BIN)
    assert _placement_lines(out.stderr) == []
    assert cli.run("doctor", "-g", cwd=tmp_path, extra=BIN).returncode == 0
    cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
    assert _skills(cli.home) == {}


def test_global_scope_says_who_misses_when_opencode_shares_a_tree(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Windsurf reads `~/.agents/skills` alone, and opencode may pick a copy there over
    # one only it reads: one of the two cannot get its own rendering, and is told so.
    reg = _source(tmp_path, "Common.\n")
    (reg / "skills" / "dx" / "SKILL.opencode.md").write_text("For opencode.\n")
    out = cli.ok("add", "-g", str(reg), "--windsurf", "--opencode", cwd=tmp_path, extra=BIN)
    assert _placement_lines(out.stderr) == [
        "warning: skill:dx: windsurf sees the copy in .agents/skills/, rendered for opencode "
        "(one copy in .agents/skills/ serves every client that reads it)"
    ]
    assert _skills(cli.home) == {".agents/skills/dx/SKILL.md": HEAD + "For opencode.\n"}


def test_global_scope_plans_the_same_whatever_order_the_clients_are_given(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Windsurf and opencode tie (each misses its rendering if the other's keeps the shared
    # copy): registry order breaks it, so flags in either order and a lockfile recording
    # the selection in another order plan the same file, bytes and line.
    reg = _source(tmp_path, "Common.\n")
    (reg / "skills" / "dx" / "SKILL.opencode.md").write_text("For opencode.\n")
    line = [
        "warning: skill:dx: windsurf sees the copy in .agents/skills/, rendered for opencode "
        "(one copy in .agents/skills/ serves every client that reads it)"
    ]
    tree = {".agents/skills/dx/SKILL.md": HEAD + "For opencode.\n"}
    for flags in (("--opencode", "--windsurf"), ("--windsurf", "--opencode")):
        out = cli.ok("add", "-g", str(reg), *flags, cwd=tmp_path, extra=BIN)
        assert (_placement_lines(out.stderr), _skills(cli.home)) == (line, tree)
        cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
        assert _skills(cli.home) == {}
    cli.ok("add", "-g", str(reg), "--opencode", "--windsurf", cwd=tmp_path, extra=BIN)
    lock_path = cli.home / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    assert lock["items"][0]["clients"] == ["opencode", "windsurf"]
    lock["items"][0]["clients"] = ["windsurf", "opencode"]  # a hand merge, say
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    out = cli.ok("update", "-g", "--force", cwd=tmp_path, extra=BIN)
    assert (_placement_lines(out.stderr), _skills(cli.home)) == (line, tree)
    assert _owners(cli.home) == {".agents/skills/dx/SKILL.md": ["skill:dx@opencode"]}


GEMINI = HEAD + "Common.\n\nGemini only.\n"


def test_vscode_shows_its_own_copy_beside_gemini(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # VS Code reads `.github/skills`, `.agents/skills` and `.claude/skills` and loads the
    # first copy of a name (clients/vscode.py): beside Gemini's `.agents/skills` copy it
    # shows the `.github/skills` one, written for Copilot CLI and VS Code, once.
    for body, gemini in (("Common.\n", COMMON), (GEMINI_BLOCK, GEMINI)):
        reg = _source(tmp_path / gemini[-6:-2], body)
        out = cli.ok("add", str(reg), "--gemini", "--copilot", "--vscode", cwd=project, extra=BIN)
        assert _placement_lines(out.stderr) == []
        assert _skills(project) == {
            ".agents/skills/dx/SKILL.md": gemini,
            ".github/skills/dx/SKILL.md": COMMON,
        }
        assert _owners(project) == {
            ".agents/skills/dx/SKILL.md": ["skill:dx@gemini"],
            ".github/skills/dx/SKILL.md": ["skill:dx@copilot", "skill:dx@vscode"],
        }
        report = json.loads(cli.run("doctor", "--json", cwd=project, extra=BIN).stdout)
        assert report["duplicate_reads"] == report["varying_reads"] == []
        cli.ok("remove", "-y", "dx", cwd=project, extra=BIN)


GEMINI_BLOCK = "Common.\n\n<!-- @client:gemini -->\nGemini only.\n<!-- @endclient -->\n"
