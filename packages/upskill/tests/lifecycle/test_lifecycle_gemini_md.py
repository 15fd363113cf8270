"""Gemini CLI's project rules (issue 15, items 3 and 4): compiled into
`.gemini/upskill.md`, which only Gemini reads, with `GEMINI.md` holding the one line
that imports it. Copilot CLI reads `GEMINI.md` too (and follows no import), so with
Gemini, Copilot and VS Code selected each client reads each rule once: Gemini through
the import, Copilot and VS Code from their own `.github/instructions` copy. A team's
`GEMINI.md` is never rewritten; its managed block holds the import line instead."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from upskill.render.compiled import compile_document

BIN = {"PATH": "/usr/bin:/bin"}  # no client CLI on PATH: the flags decide
IMPORT = b"@.gemini/upskill.md\n"
TEAM = b"# Team\n\nRun the tests before you commit.\n"
BLOCK = b"<!-- upskill:begin -->\n<!-- upskill:end -->\n"
STYLE = b"Use four spaces.\n"
COPILOT_STYLE = (
    b"---\nname: style\ndescription: Use when testing style\napplyTo: '**'\n---\n\n"
    b"Use four spaces.\n"
)


def _outputs(project: Path) -> dict[str, list[str]]:
    lock = json.loads((project / ".upskill-lock.json").read_text())
    return {o["path"]: o["owners"] for o in lock["outputs"]}


def _duplicates(cli, project: Path) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    done = cli.run("doctor", "--json", cwd=project, extra=BIN)
    return list(json.loads(done.stdout)["duplicate_reads"])


def test_gemini_copilot_and_vscode_each_read_a_rule_once(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    args = ("add", str(registry), "style", "--gemini", "--copilot", "--vscode")
    cli.ok(*args, cwd=project, extra=BIN)
    assert h.files(project) == [
        ".gemini/upskill.md",
        ".github/instructions/style.instructions.md",
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
        ".vscode/settings.json",
        "GEMINI.md",
    ]
    assert (project / "GEMINI.md").read_bytes() == IMPORT
    assert (project / ".gemini/upskill.md").read_bytes() == compile_document({"style": STYLE})
    copilot = project / ".github/instructions/style.instructions.md"
    assert copilot.read_bytes() == COPILOT_STYLE
    assert _outputs(project) == {
        ".gemini/upskill.md": ["rule:style@gemini"],
        ".github/instructions/style.instructions.md": ["rule:style@copilot", "rule:style@vscode"],
        "GEMINI.md": ["rule:style@gemini"],
    }
    assert _duplicates(cli, project) == []  # GEMINI.md holds no rule text Copilot reads
    cli.ok("remove", "style", cwd=project, extra=BIN)
    # What stays is upskill's state: VS Code's registration of the folder, which upskill
    # created, goes with the last rule VS Code held.
    assert h.files(project) == [
        ".upskill-lock.json",
        ".upskill/.gitignore",
        ".upskill/.lock",
    ]


def test_codex_gemini_and_copilot_each_read_a_rule_once(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    args = ("add", str(registry), "style", "commits", "--codex", "--gemini", "--copilot")
    cli.ok(*args, cwd=project, extra=BIN)
    both = compile_document({"commits": b"Write imperative subjects.\n", "style": STYLE})
    # Copilot reads AGENTS.md: served there, no copy of its own; Gemini reads its own file.
    assert (project / "AGENTS.md").read_bytes() == both
    assert (project / ".gemini/upskill.md").read_bytes() == both
    assert (project / "GEMINI.md").read_bytes() == IMPORT
    assert not (project / ".github/instructions").exists()
    outputs = _outputs(project)
    assert outputs["AGENTS.md"] == [
        "rule:commits@codex",
        "rule:commits@copilot",
        "rule:style@codex",
        "rule:style@copilot",
    ]
    gemini = ["rule:commits@gemini", "rule:style@gemini"]
    assert outputs[".gemini/upskill.md"] == outputs["GEMINI.md"] == gemini
    assert _duplicates(cli, project) == []
    # One rule goes: both files lose its section, the import stays for the other.
    cli.ok("remove", "style", cwd=project, extra=BIN)
    one = compile_document({"commits": b"Write imperative subjects.\n"})
    assert (project / ".gemini/upskill.md").read_bytes() == one
    assert (project / "GEMINI.md").read_bytes() == IMPORT
    cli.ok("remove", "commits", cwd=project, extra=BIN)
    assert not (project / "GEMINI.md").exists()
    assert not (project / ".gemini").exists()
    assert not (project / "AGENTS.md").exists()


def test_a_team_gemini_md_is_never_rewritten(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "GEMINI.md").write_bytes(TEAM)
    out = cli.ok("add", str(registry), "style", "--gemini", "--copilot", cwd=project, extra=BIN)
    assert (project / "GEMINI.md").read_bytes() == TEAM
    assert not (project / ".gemini").exists()  # a file nothing would import
    assert (
        "warning: gemini: 1 rule not delivered (GEMINI.md is the team's own file; add the lines "
        "`<!-- upskill:begin -->` and `<!-- upskill:end -->` to it to let upskill manage a "
        "block there)"
    ) in out.stderr.splitlines()
    # Copilot reads the team's GEMINI.md, which does not hold the rule: its own copy.
    copilot = project / ".github/instructions/style.instructions.md"
    assert copilot.read_bytes() == COPILOT_STYLE


def test_the_import_goes_in_a_team_gemini_md_block(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    head, tail = TEAM + b"\n", b"\n## Footer\n"
    (project / "GEMINI.md").write_bytes(head + BLOCK + tail)
    cli.ok("add", str(registry), "style", "--gemini", "--copilot", cwd=project, extra=BIN)
    begin, end = b"<!-- upskill:begin -->\n", b"<!-- upskill:end -->\n"
    assert (project / "GEMINI.md").read_bytes() == head + begin + IMPORT + end + tail
    assert (project / ".gemini/upskill.md").read_bytes() == compile_document({"style": STYLE})
    assert _duplicates(cli, project) == []
    # The team edits around the block; a second rule changes only the compiled file.
    around = (project / "GEMINI.md").read_bytes().replace(b"## Footer", b"## Footer, edited")
    (project / "GEMINI.md").write_bytes(around)
    cli.ok("add", str(registry), "commits", "--gemini", "--copilot", cwd=project, extra=BIN)
    assert (project / "GEMINI.md").read_bytes() == around
    # The last rule goes: the block is emptied, every team byte kept.
    cli.ok("remove", "style", "commits", cwd=project, extra=BIN)
    assert (project / "GEMINI.md").read_bytes() == around.replace(IMPORT, b"")
    assert not (project / ".gemini").exists()


def test_a_hand_edited_import_is_kept_and_reported(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "style", "--gemini", cwd=project, extra=BIN)
    (project / "GEMINI.md").write_bytes(IMPORT + b"\nOur own note.\n")
    h.write_item(registry, "rule", "style", "Use tabs.\n")
    cli.ok("update", cwd=project, extra=BIN)
    assert (project / "GEMINI.md").read_bytes() == IMPORT + b"\nOur own note.\n"
    assert (project / ".gemini/upskill.md").read_bytes() == compile_document(
        {"style": b"Use tabs.\n"}
    )
    doctor = cli.run("doctor", cwd=project, extra=BIN)
    assert doctor.returncode == 1 and "GEMINI.md" in doctor.stdout


def test_a_gemini_md_compiled_by_an_earlier_upskill_becomes_the_import(
    cli, h, project, registry
) -> None:  # type: ignore[no-untyped-def]
    """Before `.gemini/upskill.md`, the rules were compiled into `GEMINI.md` itself: the
    recorded sections move to the new file, and `GEMINI.md` becomes the import."""
    cli.ok("add", str(registry), "style", "commits", "--gemini", cwd=project, extra=BIN)
    compiled = (project / ".gemini/upskill.md").read_bytes()
    (project / ".gemini/upskill.md").unlink()
    (project / ".gemini").rmdir()
    (project / "GEMINI.md").write_bytes(compiled)
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["outputs"] = [o for o in lock["outputs"] if o["path"] != ".gemini/upskill.md"]
    front = next(o for o in lock["outputs"] if o["path"] == "GEMINI.md")
    front["sha256"] = hashlib.sha256(compiled).hexdigest()
    front["size"] = len(compiled)
    for item in lock["items"]:
        item["files"] = 1
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    h.write_item(registry, "rule", "style", "Use tabs.\n")
    cli.ok("update", "style", cwd=project, extra=BIN)  # `commits` is read back
    assert (project / "GEMINI.md").read_bytes() == IMPORT
    assert (project / ".gemini/upskill.md").read_bytes() == compile_document(
        {"commits": b"Write imperative subjects.\n", "style": b"Use tabs.\n"}
    )


@pytest.mark.parametrize(
    ("flags", "trees"),
    [
        (("--copilot", "--vscode"), [".github/instructions/", "GEMINI.md"]),
        (("--codex", "--copilot"), ["AGENTS.md", "GEMINI.md"]),
    ],
)
def test_doctor_lists_rules_in_a_gemini_md_compiled_by_hand(
    cli, project, registry, flags, trees
) -> None:  # type: ignore[no-untyped-def]
    """Copilot CLI reads `GEMINI.md`: a compiled one upskill did not write (an earlier
    version's, or a copy) is a rule read twice, beside Copilot's own copy or beside the
    compiled `AGENTS.md` that serves it."""
    cli.ok("add", str(registry), "style", *flags, cwd=project, extra=BIN)
    (project / "GEMINI.md").write_bytes(compile_document({"style": STYLE}))
    assert _duplicates(cli, project) == [
        {"client": "copilot", "kind": "rule", "name": "style", "trees": trees},
    ]


def test_dry_run_writes_nothing(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / "GEMINI.md").write_bytes(TEAM + BLOCK)
    before = h.snapshot(project)
    args = ("add", str(registry), "style", "--gemini", "--copilot", "--dry-run")
    cli.ok(*args, cwd=project, extra=BIN)
    assert h.snapshot(project) == before


# A team that keeps its instructions in AGENTS.md lists it in Gemini's project settings
# (JSONC: the comment proves the file is read, never rewritten).
SETTINGS = b'{\n  // ours\n  "context": { "fileName": ["AGENTS.md", "GEMINI.md"] }\n}\n'


def test_a_gemini_configured_to_read_agents_md_is_served_there(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    (project / ".gemini").mkdir()
    (project / ".gemini/settings.json").write_bytes(SETTINGS)
    args = ("add", str(registry), "style", "--codex", "--gemini", "--copilot")
    cli.ok(*args, cwd=project, extra=BIN)
    assert (project / "AGENTS.md").read_bytes() == compile_document({"style": STYLE})
    assert _outputs(project)["AGENTS.md"] == [
        "rule:style@codex",
        "rule:style@copilot",
        "rule:style@gemini",
    ]
    # No second copy for Gemini, so nothing for GEMINI.md to import.
    assert h.files(project / ".gemini") == ["settings.json"]
    assert not (project / "GEMINI.md").exists()
    assert (project / ".gemini/settings.json").read_bytes() == SETTINGS
    assert _duplicates(cli, project) == []
    # Without Codex nothing compiles AGENTS.md: Gemini gets its own file back.
    cli.ok("add", str(registry), "style", "--gemini", "--copilot", cwd=project, extra=BIN)
    assert not (project / "AGENTS.md").exists()
    assert (project / ".gemini/upskill.md").read_bytes() == compile_document({"style": STYLE})
    assert (project / "GEMINI.md").read_bytes() == IMPORT
    assert (project / ".gemini/settings.json").read_bytes() == SETTINGS


def test_a_gemini_text_of_its_own_moves_codex_to_its_override(cli, h, project, registry) -> None:  # type: ignore[no-untyped-def]
    """A rule whose text differs for Gemini keeps Gemini's own section. Gemini, told to
    read AGENTS.md and GEMINI.md, would read Codex's text in AGENTS.md as well: Codex's
    rules go to AGENTS.override.md instead (`lifecycle.override`), AGENTS.md is left
    with nothing and goes, and each client reads the rule once."""
    (project / ".gemini").mkdir()
    (project / ".gemini/settings.json").write_bytes(SETTINGS)
    body = "Use four spaces.\n\n<!-- @client:gemini -->\nGemini only.\n<!-- @endclient -->\n"
    h.write_item(registry, "rule", "style", body)
    cli.ok("add", str(registry), "style", "--codex", "--gemini", cwd=project, extra=BIN)
    assert not (project / "AGENTS.md").exists()
    assert (project / "AGENTS.override.md").read_bytes() == compile_document({"style": STYLE})
    own = compile_document({"style": b"Use four spaces.\n\nGemini only.\n"})
    assert (project / ".gemini/upskill.md").read_bytes() == own
    assert (project / "GEMINI.md").read_bytes() == IMPORT
    assert (project / ".gemini/settings.json").read_bytes() == SETTINGS
    assert _duplicates(cli, project) == []
    # An add of another item judges `style` from the lockfile: the move stays.
    cli.ok("add", str(registry), "commits", "--codex", "--gemini", cwd=project, extra=BIN)
    assert (project / "AGENTS.override.md").is_file()
    assert _duplicates(cli, project) == []


def test_a_team_gemini_md_with_agents_md_configured_is_served_there(
    cli, h, project, registry
) -> None:  # type: ignore[no-untyped-def]
    """The team's own GEMINI.md blocks Gemini's own file, but its settings name AGENTS.md:
    Gemini is served there (item 4: the client's native alternative), and a rule whose
    text differs for Gemini is the one reported as not delivered."""
    (project / "GEMINI.md").write_bytes(TEAM)
    (project / ".gemini").mkdir()
    (project / ".gemini/settings.json").write_bytes(SETTINGS)
    body = "Write imperative subjects.\n\n<!-- @client:gemini -->\nGemini.\n<!-- @endclient -->\n"
    h.write_item(registry, "rule", "commits", body)
    args = ("add", str(registry), "style", "commits", "--codex", "--gemini")
    out = cli.ok(*args, cwd=project, extra=BIN)
    assert (project / "GEMINI.md").read_bytes() == TEAM
    assert h.files(project / ".gemini") == ["settings.json"]
    outputs = _outputs(project)["AGENTS.md"]
    assert outputs == ["rule:commits@codex", "rule:style@codex", "rule:style@gemini"]
    assert [line for line in out.stderr.splitlines() if "not delivered" in line] == [
        "warning: gemini: 1 rule not delivered (GEMINI.md is the team's own file; add the "
        "lines `<!-- upskill:begin -->` and `<!-- upskill:end -->` to it to let upskill "
        "manage a block there)"
    ]
    assert _duplicates(cli, project) == []
