"""Published skill collections, installed as their authors wrote them (issue 16).

Synthetic registries reproduce the layouts seen in public collections: a broken item
among valid ones, a plugin marketplace, a single-skill repository, a skill whose name
differs from its directory; all through the real CLI.
"""

from __future__ import annotations

import json

SKILL = "---\nname: {}\ndescription: Use when testing {}\n---\n\nDo the thing.\n"


def _skill(root, rel: str, name: str) -> None:  # type: ignore[no-untyped-def]
    path = root / rel / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SKILL.format(name, name))


def test_a_git_collection_installs_its_valid_items_and_names_the_rest(
    cli, project, make_git_source
):  # type: ignore[no-untyped-def]
    src = make_git_source("acme/skills")
    _skill(src.work, "plugins/tools/skills/lint-fix", "lint-fix")  # marketplace layout
    _skill(src.work, "skills/.curated/triage", "triage")  # hidden category
    _skill(src.work, "composition-patterns", "vercel-composition-patterns")
    broken = src.work / "skills/long/SKILL.md"
    broken.parent.mkdir(parents=True)
    broken.write_text("---\nname: long\ndescription: " + "x" * 1100 + "\n---\n\nBody.\n")
    src.commit("v1")
    out = cli.ok("add", "acme/skills", "--claude", cwd=project)
    # Named by source label and path in the source, never by upskill's cache directory.
    assert "warning: github:acme/skills:skills/long/SKILL.md:3: skipped: " in out.stderr
    assert "warning: github:acme/skills:composition-patterns/SKILL.md: skill name " in out.stderr
    assert str(cli.home / ".cache") not in out.stderr
    assert "3 items installed for claude" in out.stderr
    assert sorted(p.name for p in (project / ".claude/skills").iterdir()) == [
        "lint-fix", "triage", "vercel-composition-patterns",
    ]  # fmt: skip
    out = cli.run("add", "acme/skills", "long", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        "upskill: error: github:acme/skills:skills/long/SKILL.md:3: "
        "'description' is 1100 characters, limit 1024\n"
    )


def test_a_single_skill_repository(cli, project, make_git_source):  # type: ignore[no-untyped-def]
    src = make_git_source("acme/one-skill")
    _skill(src.work, ".", "one-skill")
    (src.work / "scripts").mkdir()
    (src.work / "scripts/run.sh").write_text("#!/bin/sh\necho hi\n")
    src.commit("v1")
    out = cli.ok("add", "acme/one-skill", "--claude", cwd=project)
    assert "warning" not in out.stderr  # the cache directory's name says nothing
    assert (project / ".claude/skills/one-skill/scripts/run.sh").is_file()
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert [(i["kind"], i["name"]) for i in lock["items"]] == [("skill", "one-skill")]


def test_a_defaulted_global_scope_is_announced_first(cli, registry, tmp_path):  # type: ignore[no-untyped-def]
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    out = cli.ok("add", str(registry), "style", "--claude", cwd=elsewhere)
    assert out.stderr.startswith(
        f"no git repository here: installing into the global scope ({cli.home}); "
        "use --project to install into this directory\n"
    )
    out = cli.ok("add", str(registry), "commits", "--claude", "-g", cwd=elsewhere)
    assert "no git repository here" not in out.stderr  # asked for: nothing to announce


def test_a_lost_executable_bit_is_drift_and_force_restores_it(cli, project, registry):  # type: ignore[no-untyped-def]
    """Issue 16, 6: the lockfile records 0755 outputs; doctor reports a changed bit, update
    keeps it as a local edit, update --force restores it."""
    script = registry / "skills" / "review" / "scripts" / "run.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    cli.ok("add", str(registry), "review", "--claude", cwd=project)
    installed = project / ".claude/skills/review/scripts/run.sh"
    assert installed.stat().st_mode & 0o777 == 0o755
    lock = json.loads((project / ".upskill-lock.json").read_text())
    modes = {o["path"]: o.get("mode") for o in lock["outputs"]}
    assert modes[".claude/skills/review/scripts/run.sh"] == "0755"
    assert modes[".claude/skills/review/SKILL.md"] is None  # 0644 is the default, unwritten
    installed.chmod(0o644)
    out = cli.run("doctor", "--json", cwd=project)
    assert out.returncode == 1
    assert json.loads(out.stdout)["mode_drift"] == [
        {
            "path": ".claude/skills/review/scripts/run.sh",
            "items": ["skill:review"],
            "executable": True,
            "current_executable": False,
        }
    ]
    out = cli.ok("update", "review", cwd=project)
    assert "kept local edit: .claude/skills/review/scripts/run.sh" in out.stderr
    assert installed.stat().st_mode & 0o777 == 0o644
    out = cli.ok("update", "--force", cwd=project)
    assert "discarded local edit: .claude/skills/review/scripts/run.sh" in out.stderr
    assert installed.stat().st_mode & 0o777 == 0o755
    assert cli.run("doctor", cwd=project).returncode == 0


def test_a_source_whose_every_item_is_broken_names_each_before_failing(cli, project, tmp_path):  # type: ignore[no-untyped-def]
    """The error says "see above": above it, one warning per item left out (file and
    problem), even under -q; the exit code is the resolve error's; nothing is written."""
    root = tmp_path / "src"
    (root / "skills/one").mkdir(parents=True)
    (root / "skills/one/SKILL.md").write_text("---\nname: [one\n---\n\nBody.\n")
    (root / "skills/two").mkdir(parents=True)
    (root / "skills/two/SKILL.md").write_text(
        "---\nname: two\nname: two\ndescription: Use when testing two\n---\n\nBody.\n"
    )
    expected = (
        f"warning: {root}/skills/one/SKILL.md:3: skipped: invalid YAML: "
        "expected ',' or ']', but got '<stream end>'\n"
        f"warning: {root}/skills/two/SKILL.md:3: skipped: invalid YAML: "
        'found duplicate key "name" with value "two" (original value: "two")\n'
        f"upskill: error: local:{root}: no items found in the source "
        "(every item was skipped, see above)\n"
    )
    for quiet in ((), ("-q",)):
        out = cli.run(*quiet, "add", str(root), "--claude", cwd=project)
        assert (out.returncode, out.stdout, out.stderr) == (1, "", expected)
    assert sorted(p.name for p in project.iterdir()) == [".git"]
