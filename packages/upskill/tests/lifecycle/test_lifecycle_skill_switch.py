"""At user level a Codex-only rendering of a skill reaches Codex beside Windsurf, Junie
or Zed (which read `~/.agents/skills` alone): Codex's copy goes to `~/.codex/skills`
and an entry of `~/.codex/config.toml` turns the shared copy off for Codex
(`[[skills.config]]`, `Registration.skill_switch`; `lifecycle/skillswitch.py`). The
entry is upskill's like any member of a team file (`lifecycle.edits`): reported, taken
back when no longer needed, the user's bytes given back exactly, the file removed when
upskill created it. The real Codex is asked in tests/clients/test_unservable_skills.py."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

BIN = {"PATH": "/usr/bin:/bin"}
HEAD = "---\nname: dx\ndescription: Use when testing dx\n---\n\n"
COMMON = HEAD + "Common.\n"
CODEX = HEAD + "Common.\n\nCodex only.\n"
CONFIG = ".codex/config.toml"
ENTRY = '[[skills.config]]\npath = "~/.agents/skills/dx/SKILL.md"\nenabled = false\n'
SET = '[[skills.config]] {path = "~/.agents/skills/dx/SKILL.md", enabled = false}'
SCHEMA = Path(__file__).resolve().parents[4] / "docs/upskill/schemas/run.schema.json"
USERS = '# mine\nmodel = "o3"\n\n[projects."/w"]\ntrust_level = "trusted"\n'


def _source(tmp_path: Path, codex_block: bool = True) -> Path:
    root = tmp_path / "reg"
    (root / "skills" / "dx").mkdir(parents=True, exist_ok=True)
    block = "\n<!-- @client:codex -->\nCodex only.\n<!-- @endclient -->\n" if codex_block else ""
    text = "---\nschema: 1\ndescription: Use when testing dx\n---\n\nCommon.\n" + block
    (root / "skills" / "dx" / "SKILL.md").write_text(text)
    return root


def _tree(home: Path) -> dict[str, str]:
    """Every file upskill may have written under HOME, but its own state."""
    return {
        str(p.relative_to(home)): p.read_text()
        for p in sorted(home.rglob("*"))
        if p.is_file()
        and not {".cache", ".upskill"} & set(p.parts)
        and p.name != ".upskill-lock.json"
    }


def _lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line not in ("rendering", "writing")]


@pytest.mark.parametrize("other", ["windsurf", "junie", "zed"])
def test_codex_gets_its_rendering_beside_a_client_reading_the_shared_tree_alone(
    cli, tmp_path, other
) -> None:  # type: ignore[no-untyped-def]
    reg = _source(tmp_path)
    out = cli.ok("add", "-g", str(reg), "--codex", f"--{other}", cwd=tmp_path, extra=BIN)
    assert _lines(out.stderr) == [
        f"created {CONFIG}: set {SET}",
        f"1 item installed for codex, {other}",
    ]
    assert _tree(cli.home) == {
        ".agents/skills/dx/SKILL.md": COMMON,
        ".codex/skills/dx/SKILL.md": CODEX,
        CONFIG: ENTRY,
    }
    lock = json.loads((cli.home / ".upskill-lock.json").read_text())
    assert {o["path"]: o["owners"] for o in lock["outputs"]} == {
        ".agents/skills/dx/SKILL.md": [f"skill:dx@{other}"],
        ".codex/skills/dx/SKILL.md": ["skill:dx@codex"],
    }
    assert [(e["path"], e.get("created")) for e in lock["edits"]] == [(CONFIG, True)]
    assert cli.run("doctor", "-g", cwd=tmp_path, extra=BIN).returncode == 0
    out = cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
    assert f"updated {CONFIG}: took back {SET}" not in out.stderr  # the file goes whole
    assert f"removed {CONFIG}: took back {SET}" in _lines(out.stderr)
    assert _tree(cli.home) == {}


def test_the_users_config_is_given_back_byte_for_byte(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (cli.home / ".codex").mkdir()
    (cli.home / CONFIG).write_text(USERS)
    reg = _source(tmp_path)
    flags = ("--codex", "--windsurf")
    dry = cli.ok("add", "-g", str(reg), *flags, "--dry-run", cwd=tmp_path, extra=BIN)
    assert dry.stdout.splitlines()[-1] == f"  update             {CONFIG}: set {SET}"
    assert (cli.home / CONFIG).read_text() == USERS
    out = cli.ok("add", "-g", str(reg), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    assert f"updated {CONFIG}: set {SET}" in _lines(out.stderr)
    assert (cli.home / CONFIG).read_text() == USERS + "\n" + ENTRY
    cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
    assert (cli.home / CONFIG).read_text() == USERS


def test_an_entry_is_cut_alone_from_a_config_edited_since(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The user (or `upskill add` of an MCP server) wrote to the file after upskill: only
    # upskill's entry is cut, every line of theirs stays, and a file upskill created that
    # now holds their settings is kept.
    reg = _source(tmp_path)
    cli.ok("add", "-g", str(reg), "--codex", "--zed", cwd=tmp_path, extra=BIN)
    config = cli.home / CONFIG
    config.write_text('model = "o3"\n\n' + ENTRY + '\n[mcp_servers.x]\ncommand = "x"\n')
    out = cli.ok("remove", "-g", "-y", "dx", cwd=tmp_path, extra=BIN)
    assert f"updated {CONFIG}: took back {SET}" in _lines(out.stderr)
    assert config.read_text() == 'model = "o3"\n\n[mcp_servers.x]\ncommand = "x"\n'


def test_update_takes_the_entry_back_when_one_copy_serves_again(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    reg = _source(tmp_path)
    cli.ok("add", "-g", str(reg), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    _source(tmp_path, codex_block=False)
    out = cli.ok("update", "-g", cwd=tmp_path, extra=BIN)
    # The item counts as updated though its only file change is a removal (Codex's copy).
    assert _lines(out.stderr) == [
        f"removed {CONFIG}: took back {SET}",
        "1 item updated (2 files changed)",
    ]
    assert _tree(cli.home) == {".agents/skills/dx/SKILL.md": COMMON}
    _source(tmp_path)
    out = cli.ok("update", "-g", cwd=tmp_path, extra=BIN)
    assert f"created {CONFIG}: set {SET}" in _lines(out.stderr)
    assert _tree(cli.home)[CONFIG] == ENTRY


def test_a_placement_needing_no_switch_is_preferred(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Beside opencode (which has a tree of its own) Codex's rendering keeps a tree only it
    # reads with nothing to switch off: the user's config is not touched.
    reg = tmp_path / "reg"
    (reg / "skills" / "dx").mkdir(parents=True)
    (reg / "skills" / "dx" / "SKILL.md").write_text(
        "---\nschema: 1\ndescription: Use when testing dx\n---\n\nCommon.\n"
    )
    (reg / "skills" / "dx" / "SKILL.opencode.md").write_text("For opencode.\n")
    cli.ok("add", "-g", str(reg), "--codex", "--opencode", cwd=tmp_path, extra=BIN)
    assert not (cli.home / CONFIG).exists()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("model = \n", "invalid TOML"),
        ("skills = { config = [] }\n", "cannot append an entry to `skills.config`"),
        ("[skills]\nconfig = 1\n", "`skills.config` is not an array of tables"),
        ("skills = 1\n", "`skills` is not a table"),
    ],
)
def test_a_config_upskill_cannot_extend_is_one_error_and_nothing_is_written(
    cli, tmp_path, text, problem
) -> None:  # type: ignore[no-untyped-def]
    (cli.home / ".codex").mkdir()
    (cli.home / CONFIG).write_text(text)
    reg = _source(tmp_path)
    out = cli.run("add", "-g", str(reg), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    assert out.returncode == 1
    errors = [line for line in out.stderr.splitlines() if line.startswith("upskill: error:")]
    assert len(errors) == 1 and CONFIG in errors[0] and problem in errors[0], out.stderr
    assert _tree(cli.home) == {CONFIG: text}


def test_a_project_never_switches_a_copy_off(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Codex reads the entry from the user's config only: in a project the case stays
    # unservable (the tie goes to the client first in the registry), said in one line,
    # and neither config is written.
    out = cli.ok("add", str(_source(tmp_path)), "--codex", "--windsurf", cwd=project, extra=BIN)
    assert [line for line in out.stderr.splitlines() if line.startswith("warning: skill:dx")] == [
        "warning: skill:dx: windsurf sees the copy in .agents/skills/, rendered for codex "
        "(one copy in .agents/skills/ serves every client that reads it)"
    ]
    assert not (project / CONFIG).exists() and not (cli.home / CONFIG).exists()


def test_a_project_lockfile_cannot_name_a_switch_entry(cli, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A cloned repository's lockfile recording an entry upskill "created" in the project's
    # `.codex/config.toml` must not make upskill cut the team's entry or remove the file.
    cli.ok("add", str(_source(tmp_path, codex_block=False)), "--codex", cwd=project, extra=BIN)
    (project / ".codex").mkdir(exist_ok=True)
    (project / CONFIG).write_text(ENTRY)
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())

    lock["edits"] = [
        {
            "path": CONFIG,
            "sha256": hashlib.sha256(ENTRY.encode()).hexdigest(),
            "created": True,
            "listed": [["skills.config", "~/.agents/skills/dx/SKILL.md"]],
        }
    ]
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    cli.ok("remove", "-y", "dx", cwd=project, extra=BIN)
    assert (project / CONFIG).read_text() == ENTRY


def test_json_carries_the_entry_as_a_table(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    reg = _source(tmp_path)
    out = cli.ok("add", "-g", str(reg), "--codex", "--windsurf", "--json", cwd=tmp_path, extra=BIN)
    document = json.loads(out.stdout)
    Draft202012Validator(json.loads(SCHEMA.read_text())).validate(document)
    assert document["extra_files"] == [
        {
            "op": "create",
            "path": CONFIG,
            "set": [
                {
                    "key": "skills.config",
                    "item": {"path": "~/.agents/skills/dx/SKILL.md", "enabled": False},
                }
            ],
            "took_back": [],
        }
    ]


def test_doctor_reports_a_lost_entry_and_update_writes_it_back(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", "-g", str(_source(tmp_path)), "--codex", "--windsurf", cwd=tmp_path, extra=BIN)
    (cli.home / CONFIG).write_text(USERS)
    out = cli.run("doctor", "-g", cwd=tmp_path, extra=BIN)
    assert out.returncode == 1
    assert f"  {CONFIG}: lacks {SET}" in out.stdout.splitlines()
    report = json.loads(cli.run("doctor", "-g", "--json", cwd=tmp_path, extra=BIN).stdout)
    assert report["missing_extra_entries"] == [
        {
            "path": CONFIG,
            "reason": "entry-missing",
            "entries": [
                {
                    "key": "skills.config",
                    "item": {"path": "~/.agents/skills/dx/SKILL.md", "enabled": False},
                }
            ],
        }
    ]
    cli.ok("update", "-g", cwd=tmp_path, extra=BIN)
    assert (cli.home / CONFIG).read_text() == USERS + "\n" + ENTRY
    assert cli.run("doctor", "-g", cwd=tmp_path, extra=BIN).returncode == 0
