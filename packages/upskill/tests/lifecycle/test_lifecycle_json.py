"""`--json` on the commands that change state, validated against the published schemas
(issue 19, 9): data on stdout, progress and nothing else on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

SCHEMAS = Path(__file__).resolve().parents[4] / "docs" / "upskill" / "schemas"
BUNDLE = """schema: 1
name: team
description: The team's rule and database server
items:
  rules: [style]
mcps:
  db:
    local: { command: team-db, env: { DB_URL: "${DB_URL}" } }
"""
BIN = {"PATH": "/usr/bin:/bin"}  # no client CLI: servers go to config files


def _doc(out, schema: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    assert out.returncode == 0, out.stderr
    document = json.loads(out.stdout)
    validator = Draft202012Validator(json.loads((SCHEMAS / schema).read_text()))
    errors = sorted(str(e.message) for e in validator.iter_errors(document))
    assert errors == [], errors
    return document  # type: ignore[no-any-return]


def test_schemas_are_valid() -> None:
    for path in SCHEMAS.glob("*.schema.json"):
        Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_add_update_remove_report_what_they_did(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    (registry / "skills" / "team.bundle.yaml").write_text(BUNDLE)
    dry = _doc(
        cli.run("add", str(registry), "team", "--claude", "-n", "--json", cwd=project, extra=BIN),
        "run.schema.json",
    )
    assert dry["dry_run"] is True
    assert [(i["name"], i["clients"]) for i in dry["items"]] == [("style", ["claude"])]
    assert dry["files"] == [{"op": "create", "path": ".claude/rules/style.md"}]
    assert not (project / ".claude").exists()

    out = cli.run(
        "add", str(registry), "team", "--claude", "--opencode", "--json", cwd=project, extra=BIN
    )
    done = _doc(out, "run.schema.json")
    assert out.stderr == "rendering\nwriting\n"  # progress only: no summary, no warnings
    assert (done["command"], done["scope"], done["dry_run"]) == ("add", "project", False)
    assert done["items"] == [
        {
            "kind": "rule",
            "name": "style",
            "source": f"local:{registry}",
            "clients": ["claude", "opencode"],
        }
    ]
    assert done["clients"] == {
        "claude": {"items": 1, "mcp": [{"name": "db", "status": "installed"}], "plugins": []},
        "opencode": {"items": 1, "mcp": [{"name": "db", "status": "installed"}], "plugins": []},
    }
    assert sorted(f["path"] for f in done["files"]) == [
        ".agents/rules/style/RULE.md", ".claude/rules/style.md",
    ]  # fmt: skip
    assert any("mcp db: configured for claude" in m for m in done["messages"])

    (project / ".claude/rules/style.md").write_text("mine\n")
    updated = _doc(cli.run("update", "--json", cwd=project, extra=BIN), "run.schema.json")
    assert {"op": "keep-local-edit", "path": ".claude/rules/style.md"} in updated["files"]

    removed = _doc(cli.run("remove", "style", "--json", cwd=project, extra=BIN), "run.schema.json")
    assert removed["removed"] == ["rule:style"]
    assert {"op": "keep-edited-orphan", "path": ".claude/rules/style.md"} in removed["files"]

    gone = _doc(
        cli.run("remove-mcp", "db", "--json", cwd=project, extra=BIN), "remove-mcp.schema.json"
    )
    assert (gone["name"], gone["clients"]) == ("db", ["claude", "opencode"])


@pytest.mark.parametrize("argv", [("update", "--json"), ("update", "--json", "-n")])
def test_nothing_installed_is_an_empty_document(cli, project, argv) -> None:  # type: ignore[no-untyped-def]
    document = _doc(cli.run(*argv, cwd=project), "run.schema.json")
    assert (document["items"], document["files"], document["clients"]) == ([], [], {})


def test_import_reports_what_it_read_and_wrote(cli, project) -> None:  # type: ignore[no-untyped-def]
    """Every note kind the schema allows is the importer's (NoteKind), and a run with a
    merge, a skip, a secret and an MCP server validates, dry run and real run alike."""
    from upskill.importing.model import NoteKind

    schema = json.loads((SCHEMAS / "import.schema.json").read_text())
    kinds = schema["properties"]["notes"]["items"]["properties"]["kind"]["enum"]
    assert kinds == [kind.value for kind in NoteKind]
    (project / "AGENTS.md").write_text("# Agents\n\nRun the tests.\n")
    (project / "CLAUDE.md").write_text("# Agents\n\nRun the tests.\n")
    for tree in (".claude", ".github"):
        skill = project / tree / "skills" / "review" / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text("---\nname: review\ndescription: Use when reviewing\n---\n\nReview.\n")
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"db": {"command": "db", "env": {"DB_TOKEN": "s3cr3t-value"}}}})
    )
    dry = _doc(cli.run("import", "-n", "--json", cwd=project), "import.schema.json")
    done = _doc(cli.run("import", "--json", cwd=project), "import.schema.json")
    assert dry | {"dry_run": False} == done
    assert done["into"] == str(project / ".upskill" / "registry")
    assert done["mcps"] == ["db"]
    assert {note["kind"] for note in done["notes"]} >= {"merge", "secret", "skip"}
    assert [(i["kind"], i["name"], sorted(i["sources"])) for i in done["items"]] == [
        ("skill", "review", [".claude/skills/review/SKILL.md", ".github/skills/review/SKILL.md"]),
        ("rule", "claude-md", ["CLAUDE.md"]),
    ]
    assert "s3cr3t-value" not in json.dumps(done)
    assert sorted(done["files"]) == sorted(
        str(p.relative_to(project / ".upskill" / "registry"))
        for p in (project / ".upskill" / "registry").rglob("*")
        if p.is_file() and p.name != ".upskill-import.json"  # import's own record of them
    )


def test_a_kept_file_upskill_never_wrote_carries_its_adoption_diff(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    rule = project / ".claude" / "rules" / "style.md"
    rule.parent.mkdir(parents=True)
    rule.write_text("---\ndescription: Style\n---\n\nUse four spaces.\n")
    human = cli.run("add", str(registry), "style", "--claude", "-n", cwd=project, extra=BIN)
    shown = [line.removeprefix("    ") for line in human.stdout.splitlines()[1:]]
    for argv in (("-n", "--json"), ("--json",)):
        out = cli.run("add", str(registry), "style", "--claude", *argv, cwd=project, extra=BIN)
        document = _doc(out, "run.schema.json")
        assert document["files"] == [
            {"op": "keep-unmanaged", "path": ".claude/rules/style.md", "diff": shown}
        ]
    assert shown[:2] == [
        "--- .claude/rules/style.md (yours)",
        "+++ .claude/rules/style.md (upskill)",
    ]
    assert rule.read_text() == "---\ndescription: Style\n---\n\nUse four spaces.\n"


def test_the_schema_admits_a_diff_on_kept_unmanaged_files_only() -> None:
    validator = Draft202012Validator(json.loads((SCHEMAS / "run.schema.json").read_text()))
    diff = ["--- a (yours)", "+++ a (upskill)", "@@ -1 +1 @@"]
    files = validator.evolve(schema=validator.schema["properties"]["files"])
    assert files.is_valid([{"op": "keep-unmanaged", "path": "a", "diff": diff}])
    assert not files.is_valid([{"op": "create", "path": "a", "diff": diff}])
