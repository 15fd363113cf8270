"""Values from data never drive the terminal (issue 24, 1).

Registries, lockfiles and index entries carry names, descriptions, sources and paths.
Each sequence of the corpus is planted where a command prints it; the output must hold
it only escaped (`\\x1b`), whatever the command: the console sanitises every text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from terminal_corpus import CORPUS, NAME_SAFE, assert_inert


def _plant_source(project: Path, value: str) -> None:
    lock_path = project / ".upskill-lock.json"
    lock = json.loads(lock_path.read_text())
    for item in lock["items"]:
        item["source"] = f"local:/gone/{value}"
        item.pop("hash", None)
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")


@pytest.mark.parametrize("seq", CORPUS.values(), ids=CORPUS.keys())
@pytest.mark.parametrize("argv", [("list",), ("doctor",), ("list", "--json"), ("doctor", "--json")])
def test_lockfile_values_are_printed_escaped(cli, project, registry, seq, argv) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), "--claude", cwd=project)
    _plant_source(project, seq)
    out = cli.run(*argv, cwd=project)
    assert out.returncode in (0, 1), out.stderr
    assert_inert(out.stdout + out.stderr)
    if "--json" in argv:
        json.loads(out.stdout)  # still valid JSON, the value escaped the JSON way
        assert "/gone/" in out.stdout
    else:
        first = next(c for c in seq if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0)
        assert f"\\x{ord(first):02x}" in out.stdout


@pytest.mark.parametrize("seq", NAME_SAFE.values(), ids=NAME_SAFE.keys())
def test_registry_paths_in_errors_and_lint_are_escaped(cli, project, tmp_path, seq) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / f"reg{seq}"
    (bad / "skills" / f"odd{seq}").mkdir(parents=True)
    (bad / "skills" / f"odd{seq}" / "SKILL.md").write_text(
        "---\nschema: 1\nname: odd\ndescription: Use when testing.\n---\n\nBody.\n"
    )
    # The directory name differs from `name: odd`: add installs it and warns, naming it.
    for argv in (("add", str(bad)), ("lint", str(bad)), ("add", str(tmp_path / f"none{seq}"))):
        out = cli.run(*argv, cwd=project)
        assert out.returncode == (0 if argv[0] == "add" and "none" not in argv[1] else 1)
        assert_inert(out.stdout + out.stderr)
        assert "\\x" in out.stdout + out.stderr


@pytest.mark.parametrize("seq", CORPUS.values(), ids=CORPUS.keys())
def test_index_entries_are_printed_escaped(cli, project, tmp_path, seq) -> None:  # type: ignore[no-untyped-def]
    reg = tmp_path / "team"
    (reg / "skills" / "demo").mkdir(parents=True)
    description = json.dumps(f"Use when {seq} testing")  # a YAML double-quoted scalar
    (reg / "skills" / "demo" / "SKILL.md").write_text(
        f"---\nschema: 1\nname: demo\ndescription: {description}\n---\n\nBody.\n"
    )
    (project / ".upskill").mkdir()
    (project / ".upskill" / "config.yaml").write_text(
        f"registries:\n  - {{name: team, source: {reg}}}\n"
    )
    env = {"UPSKILL_REGISTRY_URL": "http://127.0.0.1:9"}  # the public service is down
    out = cli.run("search", "demo", cwd=project, extra=env)
    assert out.returncode == 0, out.stderr
    assert "Use when " in out.stdout
    assert_inert(out.stdout + out.stderr)


@pytest.mark.parametrize("seq", CORPUS.values(), ids=CORPUS.keys())
def test_plugin_instructions_are_printed_escaped(cli, project, registry, seq) -> None:  # type: ignore[no-untyped-def]
    url = json.dumps(f"https://example.test/{seq}")  # a YAML double-quoted scalar
    (registry / "skills" / "tools.bundle.yaml").write_text(
        "schema: 1\nname: tools\ndescription: t\nitems:\n  rules: [style]\nplugins:\n"
        f"  helper:\n    claude:\n      instructions_url: {url}\n"
    )
    out = cli.run("add", str(registry), "tools", "--claude", cwd=project)
    assert out.returncode == 0, out.stderr
    assert "install it manually, see https://example.test/" in out.stderr
    assert_inert(out.stdout + out.stderr)


@pytest.mark.parametrize("seq", NAME_SAFE.values(), ids=NAME_SAFE.keys())
def test_dry_run_plan_lines_are_printed_escaped(cli, project, registry, seq) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "review" / "references" / f"odd{seq}.md").write_text("# Odd\n")
    out = cli.run("add", str(registry), "review", "--claude", "--dry-run", cwd=project)
    assert out.returncode == 0, out.stderr
    assert "references/odd" in out.stdout
    assert_inert(out.stdout + out.stderr)
    assert not (project / ".claude").exists()
