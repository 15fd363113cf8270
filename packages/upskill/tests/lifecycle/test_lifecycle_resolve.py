"""Resolution through the CLI: filters, aliases, bundles, requires, conflicts, cycles."""

from __future__ import annotations

import json

import pytest


def lock_of(root):
    return json.loads((root / ".upskill-lock.json").read_text())


def items_of(root):
    return {(i["kind"], i["name"]): i for i in lock_of(root)["items"]}


def test_items_filter_and_exclude(cli, project, registry):
    cli.ok("add", str(registry), "style", "review", "--claude", cwd=project)
    assert set(items_of(project)) == {("rule", "style"), ("skill", "review")}
    out = cli.ok(
        "add", str(registry), "--exclude", "reviewer", "--exclude", "ghost", "--claude", cwd=project
    )
    assert "--exclude ghost: no such item" in out.stderr
    assert ("agent", "reviewer") not in items_of(project)
    out = cli.run("add", str(registry), "nope", cwd=project)
    assert out.returncode == 1 and "no item or bundle named 'nope'" in out.stderr


def test_preload_skills_are_soft_requires(cli, h, project, registry):
    cli.ok("add", str(registry), "reviewer", "--claude", cwd=project)
    items = items_of(project)
    assert items[("skill", "review")]["required_by"] == ["agent:reviewer"]
    assert "required_by" not in items[("agent", "reviewer")]
    h.write_item(registry, "agent", "lonely", "x\n", preload_skills=["absent-skill"])
    cli.ok("add", str(registry), "lonely", "--claude", cwd=project)  # absent: only a hint
    out = cli.ok("remove", "reviewer", cwd=project)
    assert "2 items removed" in out.stderr  # the dependency nothing else needs goes too
    assert not (project / ".claude/skills/review").exists()


def test_alias_moves_paths_and_resources(cli, project, registry):
    cli.ok("add", str(registry), "review", "--as", "code-review", "--claude", cwd=project)
    skill = project / ".claude/skills/code-review"
    assert (skill / "SKILL.md").is_file()
    assert (skill / "references/list.md").is_file()
    assert not (project / ".claude/skills/review").exists()
    item = items_of(project)[("skill", "code-review")]
    assert item["source_name"] == "review"
    out = cli.run("add", str(registry), "--as", "x", cwd=project)
    assert out.returncode == 2 and "exactly one" in out.stderr
    out = cli.run("add", str(registry), "style", "--as", "ghost=x", cwd=project)
    assert out.returncode == 2
    cli.ok("update", cwd=project)
    assert (skill / "SKILL.md").is_file()
    assert ("skill", "code-review") in items_of(project)


def test_item_requires_same_and_cross_source(cli, h, project, tmp_path):
    other = tmp_path / "other"
    h.write_item(other, "rule", "base", "Base.\n")
    reg = tmp_path / "reg"
    h.write_item(reg, "rule", "helper", "Helper.\n")
    h.write_item(reg, "skill", "top", "Top.\n", requires={"rules": ["helper"]})
    path = reg / "skills" / "top" / "SKILL.md"
    path.write_text(
        path.read_text().replace(
            "requires:\n  rules:\n    - helper\n",
            f"requires:\n  rules:\n    - helper\n    - name: base\n      source: {other}\n",
        )
    )
    cli.ok("add", str(reg), "top", "--claude", cwd=project)
    items = items_of(project)
    assert items[("rule", "helper")]["required_by"] == ["skill:top"]
    assert items[("rule", "base")]["source"] == f"local:{other}"
    assert items[("rule", "base")]["required_by"] == ["skill:top"]
    assert (project / ".claude/rules/base.md").is_file()


def test_cycle_and_missing_requirement_write_nothing(cli, h, project, tmp_path):
    reg = tmp_path / "reg"
    h.write_item(reg, "rule", "a", "A.\n", requires={"rules": ["b"]})
    h.write_item(reg, "rule", "b", "B.\n", requires={"rules": ["a"]})
    before = h.snapshot(project)
    out = cli.run("add", str(reg), cwd=project)
    assert out.returncode == 1 and "requires cycle" in out.stderr
    h.write_item(reg, "rule", "b", "B.\n", requires={"skills": ["ghost"]})
    out = cli.run("add", str(reg), cwd=project)
    assert out.returncode == 1 and "requires skill 'ghost'" in out.stderr
    assert h.snapshot(project) == before


def test_same_name_from_another_source_conflicts(cli, h, project, registry, tmp_path):
    cli.ok("add", str(registry), "style", cwd=project)
    other = tmp_path / "other"
    h.write_item(other, "rule", "style", "Other style.\n")
    before = h.snapshot(project)
    out = cli.run("add", str(other), cwd=project)
    assert out.returncode == 1 and "already installed from local:" in out.stderr
    assert h.snapshot(project) == before
    cli.ok("add", str(other), "--as", "other-style", "--claude", cwd=project)
    assert "Other style." in (project / ".claude/rules/other-style.md").read_text()


BASE = """schema: 1
name: base
description: Base bundle
items:
  rules: [style]
"""
EXTRAS = """schema: 1
name: extras
description: Extras
items:
  skills: [review]
requires:
  - {name: base}
"""


def test_bundles_by_name_path_and_transitive(cli, h, project, registry):
    h.write_bundle(registry, "base", BASE)
    h.write_bundle(registry, "extras", EXTRAS)
    cli.ok("add", str(registry), "extras", "--claude", cwd=project)
    lock = lock_of(project)
    assert {(b["name"], tuple(b["items"])) for b in lock["bundles"]} == {
        ("base", ("style",)),
        ("extras", ("review",)),
    }
    assert {i["name"] for i in lock["items"]} == {"style", "review"}
    cli.ok("remove", "--source", f"local:{registry}", cwd=project)
    assert lock_of(project)["bundles"] == []
    cli.ok("add", str(registry / "skills" / "base.bundle.yaml"), "--claude", cwd=project)
    lock = lock_of(project)
    assert [i["name"] for i in lock["items"]] == ["style"]
    # Items carry the bundle-path label, so `remove --source <that label>` removes them.
    assert lock["items"][0]["source"] == f"local:{registry}/skills/base.bundle.yaml"
    h.write_bundle(registry, "base", BASE.replace("[style]", "[style, commits]"))
    cli.ok("update", cwd=project)
    assert {i["name"] for i in lock_of(project)["items"]} == {"style", "commits"}


def test_bundle_errors(cli, h, project, registry):
    h.write_bundle(
        registry,
        "loop-a",
        "schema: 1\nname: loop-a\ndescription: a\nrequires:\n  - {name: loop-b}\n",
    )
    h.write_bundle(
        registry,
        "loop-b",
        "schema: 1\nname: loop-b\ndescription: b\nrequires:\n  - {name: loop-a}\n",
    )
    out = cli.run("add", str(registry), "loop-a", cwd=project)
    assert out.returncode == 1 and "bundle requires cycle" in out.stderr
    h.write_bundle(
        registry, "broken", "schema: 1\nname: broken\ndescription: b\nitems:\n  rules: [ghost]\n"
    )
    out = cli.run("add", str(registry), "broken", cwd=project)
    assert out.returncode == 1 and "lists rule 'ghost'" in out.stderr
    h.write_bundle(registry, "style", "schema: 1\nname: style\ndescription: s\n")
    out = cli.run("add", str(registry), "style", cwd=project)
    assert out.returncode == 1 and "both an item and a bundle" in out.stderr
    assert not (project / ".upskill-lock.json").exists()


def test_audience_warn_skips(cli, h, project, tmp_path):
    reg = tmp_path / "reg"
    h.write_item(reg, "rule", "only-claude", "x\n", audience=["claude"])
    out = cli.ok("add", str(reg), "--copilot", cwd=project)
    assert "audience excludes every selected client; skipped" in out.stderr
    assert lock_of(project)["items"] == []
    cli.ok("add", str(reg), cwd=project)
    assert items_of(project)[("rule", "only-claude")]["clients"] == ["claude"]
    assert not (project / ".github").exists()


@pytest.mark.parametrize("with_outputs", [False])
def test_upstream_lockfile_is_adopted(with_outputs, cli, h, project, registry):
    """A lock written by upstream upskill (no `outputs`): its files are ours to update."""
    target = project / ".claude/rules/style.md"
    target.parent.mkdir(parents=True)
    target.write_text("old upstream render\n")
    lock = {
        "schema": 1,
        "items": [
            {
                "kind": "rule",
                "name": "style",
                "source": f"local:{registry}",
                "hash": "00",
                "clients": ["claude"],
                "x-upstream": 1,
            }
        ],
        "bundles": [],
        "mcps": [{"name": "m", "client": "claude", "bundle": "b", "status": "installed"}],
    }
    (project / ".upskill-lock.json").write_text(json.dumps(lock, indent=2) + "\n")
    cli.ok("update", cwd=project)
    assert "Use four spaces." in target.read_text()
    new = lock_of(project)
    assert new["items"][0]["x-upstream"] == 1
    assert new["mcps"] == lock["mcps"]
    assert [o["path"] for o in new["outputs"]] == [".claude/rules/style.md"]


def test_remove_from_upstream_lockfile_warns_and_keeps_files(cli, project, registry):
    target = project / ".claude/rules/style.md"
    target.parent.mkdir(parents=True)
    target.write_text("upstream render\n")
    lock = {
        "schema": 1,
        "items": [{"kind": "rule", "name": "style", "source": f"local:{registry}"}],
        "bundles": [],
    }
    (project / ".upskill-lock.json").write_text(json.dumps(lock))
    out = cli.ok("remove", "style", cwd=project)
    assert "no output records" in out.stderr and "upskill update" in out.stderr
    assert target.read_text() == "upstream render\n"
    assert lock_of(project)["items"] == []


def test_a_malformed_item_is_skipped_named_or_strict_it_fails(cli, h, project, registry):
    """Issue 16, 2: one broken item does not block a source; named, or under --strict,
    it is the error, and nothing is written."""
    bad = registry / "skills" / "broken" / "RULE.md"
    bad.parent.mkdir()
    bad.write_text("---\nschema: 1\ndescription: [unclosed\n---\n\nBody\n")
    before = h.snapshot(project)
    for argv in (("add", str(registry), "--strict"), ("add", str(registry), "broken")):
        out = cli.run(*argv, cwd=project)
        assert out.returncode == 1
        assert out.stderr.startswith(f"upskill: error: {bad}:4: invalid YAML")
        assert h.snapshot(project) == before
    out = cli.ok("add", str(registry), "--claude", cwd=project)
    assert f"warning: {bad}:4: skipped: invalid YAML" in out.stderr
    assert "4 items installed for claude" in out.stderr
    assert not (project / ".claude/rules/broken.md").exists()
    out = cli.run("update", "--strict", cwd=project)
    assert out.returncode == 1 and f"{bad}:4" in out.stderr


def test_update_drops_items_a_bundle_no_longer_lists(cli, h, project, registry):
    h.write_bundle(registry, "base", BASE.replace("[style]", "[style, commits]"))
    cli.ok("add", str(registry), "base", "--claude", cwd=project)
    assert (project / ".claude/rules/commits.md").is_file()
    h.write_bundle(registry, "base", BASE)
    out = cli.ok("update", cwd=project)
    assert "1 removed" in out.stderr
    assert not (project / ".claude/rules/commits.md").exists()
    assert [i["name"] for i in lock_of(project)["items"]] == ["style"]
    assert lock_of(project)["bundles"][0]["items"] == ["style"]


def test_cross_source_bundle_items_keep_their_source(cli, h, project, tmp_path):
    """Issue 14, 15: `top` in A requires `ops-core` from B; B's items are recorded with B,
    and `update` works afterwards, picking up a change in B."""
    a, b = tmp_path / "a", tmp_path / "b"
    h.write_item(a, "rule", "top-rule", "Top.\n")
    h.write_item(b, "rule", "ops-rule", "Ops v1.\n")
    h.write_bundle(
        b, "ops-core", "schema: 1\nname: ops-core\ndescription: o\nitems:\n  rules: [ops-rule]\n"
    )
    h.write_bundle(
        a,
        "top",
        "schema: 1\nname: top\ndescription: t\nitems:\n  rules: [top-rule]\n"
        f"requires:\n  - {{name: ops-core, source: {b}}}\n",
    )
    cli.ok("add", str(a), "top", "--claude", cwd=project)
    items = items_of(project)
    assert items[("rule", "top-rule")]["source"] == f"local:{a}"
    assert items[("rule", "ops-rule")]["source"] == f"local:{b}"
    assert {(x["name"], x["source"]) for x in lock_of(project)["bundles"]} == {
        ("top", f"local:{a}"),
        ("ops-core", f"local:{b}"),
    }
    cli.ok("update", cwd=project)  # used to fail: "already installed from <A>"
    h.write_item(b, "rule", "ops-rule", "Ops v2.\n")
    cli.ok("update", cwd=project)
    assert "Ops v2." in (project / ".claude/rules/ops-rule.md").read_text()
    assert items_of(project)[("rule", "ops-rule")]["source"] == f"local:{b}"
    cli.ok("remove", "--source", f"local:{b}", cwd=project)
    assert set(items_of(project)) == {("rule", "top-rule")}
