"""Command behaviour: scope, selection, dry-run, list, remove, doctor buckets, exit codes."""

from __future__ import annotations

import json

import pytest


def lock_of(root):
    return json.loads((root / ".upskill-lock.json").read_text())


def test_dry_run_writes_nothing(cli, h, project, registry):
    before = h.snapshot(project)
    out = cli.ok("add", str(registry), "--dry-run", cwd=project)
    assert "  create             .claude/rules/style.md\n" in out.stdout
    assert h.snapshot(project) == before
    cli.ok("add", str(registry), cwd=project)
    h.write_item(registry, "rule", "style", "Changed.\n")
    (project / ".claude/skills/review/SKILL.md").write_text("mine\n")
    before = h.snapshot(project)
    out = cli.ok("update", "--dry-run", cwd=project)
    assert "  update             .claude/rules/style.md\n" in out.stdout
    assert "  keep-local-edit    .claude/skills/review/SKILL.md\n" in out.stdout
    out = cli.ok("remove", "style", "--dry-run", cwd=project)
    assert "  remove             .claude/rules/style.md\n" in out.stdout
    assert h.snapshot(project) == before


def test_scope_flags(cli, h, registry, tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    out = cli.run("add", str(registry), "-g", "-p", cwd=plain)
    assert out.returncode == 2 and "mutually exclusive" in out.stderr
    cli.ok("add", str(registry), "--claude", cwd=plain)  # outside git: global
    assert (cli.home / ".claude/rules/style.md").is_file()
    assert (cli.home / ".upskill-lock.json").is_file()
    assert h.files(plain) == []
    cli.ok("add", str(registry), "--claude", "--project", cwd=plain)
    assert (plain / ".claude/rules/style.md").is_file()
    nested = tmp_path / "repo" / "sub"
    nested.mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    cli.ok("add", str(registry), "--copilot", cwd=nested)  # project root is the cwd
    assert (nested / ".github/instructions/style.instructions.md").is_file()
    listing = cli.ok("list", "--json", "--global", cwd=nested)
    assert [r["name"] for r in json.loads(listing.stdout)["rules"]] == ["commits", "style"]


def test_selection_precedence_and_bare_update_keeps_selection(cli, h, project, registry):
    cfg = cli.home / ".config" / "upskill" / "config.yaml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("clients: [opencode]\n")
    cli.ok("add", str(registry), cwd=project)
    assert h.files(project / ".agents") and not (project / ".claude").exists()
    (project / ".upskill").mkdir(exist_ok=True)
    (project / ".upskill/config.yaml").write_text("clients: [claude]\n")
    cli.ok("add", str(registry), cwd=project)  # project config replaces global
    assert (project / ".claude/rules/style.md").is_file()
    assert not (project / ".agents").exists()  # de-selected outputs removed
    cli.ok("add", str(registry), "--copilot", cwd=project)  # flag beats config
    assert not (project / ".claude").exists()
    assert lock_of(project)["items"][0]["clients"] == ["copilot"]
    (project / ".upskill/config.yaml").unlink()
    cfg.unlink()
    cli.ok("update", cwd=project)  # nothing chose: keep the recorded selection
    assert (project / ".github").exists() and not (project / ".claude").exists()
    cli.ok("update", "--claude", "--copilot", cwd=project)
    assert (project / ".claude").exists()
    assert lock_of(project)["items"][0]["clients"] == ["claude", "copilot"]
    cli.ok("update", "--vscode", cwd=project)  # copilot and vscode share one tree
    assert not (project / ".claude").exists()
    assert (project / ".github/instructions/style.instructions.md").is_file()
    outputs = lock_of(project)["outputs"]
    assert outputs[0]["owners"][0].endswith("@vscode")


def test_remove_rules(cli, h, project, registry):
    out = cli.run("remove", cwd=project)
    assert out.returncode == 2 and "bare remove is refused" in out.stderr
    cli.ok("add", str(registry), cwd=project)
    out = cli.run("remove", "nope", cwd=project)
    assert out.returncode == 1 and "not installed: nope" in out.stderr
    out = cli.run("remove", "--source", "github:x/y", cwd=project)
    assert out.returncode == 1 and f"local:{registry}" in out.stderr
    (project / ".claude/rules/style.md").write_text("edited\n")
    out = cli.ok("remove", "style", "commits", cwd=project)
    assert "2 items removed; 1 kept local edit" in out.stderr
    assert (project / ".claude/rules/style.md").read_text() == "edited\n"
    assert not (project / ".github/instructions/style.instructions.md").exists()
    assert not (project / ".claude/rules/commits.md").exists()
    assert {i["name"] for i in lock_of(project)["items"]} == {"review", "reviewer"}


@pytest.mark.black_box  # stdin is a real pipe, not a terminal
def test_remove_source_non_tty_skips_prompt(cli, project, registry):
    cli.ok("add", str(registry), cwd=project)
    out = cli.ok("remove", "--source", f"local:{registry}", cwd=project, input="n\n")
    assert "4 items removed" in out.stderr
    assert lock_of(project)["items"] == []
    assert not (project / ".claude").exists()


def test_list_text_and_json(cli, project, registry):
    assert "Nothing installed" in cli.ok("list", cwd=project).stdout
    cli.ok("add", str(registry), "--claude", cwd=project)
    data = json.loads(cli.ok("list", "--json", cwd=project).stdout)
    label = f"local:{registry}"
    assert data == {
        "rules": [
            {"kind": "rule", "name": "commits", "source": label, "git_ref": None},
            {"kind": "rule", "name": "style", "source": label, "git_ref": None},
        ],
        "skills": [{"kind": "skill", "name": "review", "source": label, "git_ref": None}],
        "agents": [{"kind": "agent", "name": "reviewer", "source": label, "git_ref": None}],
        "bundles": [],
    }
    text = cli.ok("list", cwd=project).stdout
    assert "Rules:\n  commits  " in text and "review  " in text


def test_doctor_buckets(cli, h, project, registry):
    cli.ok("add", str(registry), "--claude", cwd=project)
    out = cli.ok("doctor", "--json", cwd=project)
    assert json.loads(out.stdout) == {
        "missing_outputs": [],
        "modified_outputs": [],
        "mode_drift": [],
        "stale_hashes": [],
        "orphan_entries": [],
        "missing_plugins": [],
        "skipped_plugins": [],
        "interrupted_runs": [],
        "duplicate_reads": [],
        "varying_reads": [],
        "hidden_agents": [],
        "hidden_instructions": [],
        "missing_extra_entries": [],
    }
    (project / ".claude/rules/commits.md").unlink()
    h.write_item(registry, "rule", "style", "Changed.\n")
    import shutil

    shutil.rmtree(registry / "skills" / "review")
    out = cli.run("doctor", "--json", cwd=project)
    assert out.returncode == 1
    report = json.loads(out.stdout)
    assert report["missing_outputs"] == [
        {"kind": "rule", "name": "commits", "missing_files": [".claude/rules/commits.md"]}
    ]
    assert [(s["name"], s["source"]) for s in report["stale_hashes"]] == [
        ("style", f"local:{registry}")
    ]
    assert report["orphan_entries"] == [
        {
            "kind": "skill",
            "name": "review",
            "source": f"local:{registry}",
            "reason": "item-missing-in-source",
        }
    ]
    shutil.rmtree(registry)
    report = json.loads(cli.run("doctor", "--json", cwd=project).stdout)
    assert {o["reason"] for o in report["orphan_entries"]} == {"local-path-gone"}
    text = cli.run("doctor", cwd=project)
    assert text.returncode == 1 and "Missing outputs" in text.stdout


def test_update_is_idempotent_and_restores_deleted_outputs(cli, h, project, registry):
    cli.ok("add", str(registry), cwd=project)
    first = h.snapshot(project)
    out = cli.ok("update", cwd=project)
    assert out.stderr == "Already up to date.\n"
    assert h.snapshot(project) == first
    (project / ".claude/rules/style.md").unlink()
    out = cli.ok("update", cwd=project)
    assert "1 item updated (1 file changed)" in out.stderr
    out = cli.ok("update", cwd=project)
    assert "Already up to date" in out.stderr
    out = cli.ok("update", "--force", cwd=project)  # full path, still nothing to do
    assert "Already up to date" in out.stderr


def test_update_named_and_unknown(cli, h, project, registry):
    cli.ok("add", str(registry), "--claude", cwd=project)
    h.write_item(registry, "rule", "style", "Changed style.\n")
    h.write_item(registry, "rule", "commits", "Changed commits.\n")
    out = cli.ok("update", "style", cwd=project)
    assert "Changed style." in (project / ".claude/rules/style.md").read_text()
    assert "Changed commits." not in (project / ".claude/rules/commits.md").read_text()
    assert "1 item updated" in out.stderr
    out = cli.run("update", "ghost", cwd=project)
    assert out.returncode == 1 and "not installed: ghost" in out.stderr


def test_existing_unmanaged_file_is_not_overwritten(cli, project, registry):
    target = project / ".claude/rules/style.md"
    target.parent.mkdir(parents=True)
    target.write_text("hand written\n")
    out = cli.ok("add", str(registry), "--claude", cwd=project)
    assert "kept existing file not written by upskill: .claude/rules/style.md" in out.stderr
    assert target.read_text() == "hand written\n"
    out = cli.ok("add", str(registry), "--claude", "--force", cwd=project)
    assert "discarded local edit: .claude/rules/style.md" in out.stderr
    assert "Use four spaces." in target.read_text()


def test_symlinked_output_dir_is_refused(cli, project, registry, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / ".claude").symlink_to(outside)
    # never "kept existing file" for what lies behind the link (issue 13): refused by name
    for force in ((), ("--force",)):
        out = cli.run("add", str(registry), "--claude", *force, cwd=project)
        assert out.returncode == 1
        assert out.stderr.endswith(
            f"upskill: error: {project / '.claude'}: refusing to use a symlinked directory\n"
        )
        assert "kept" not in out.stderr
        assert list(outside.iterdir()) == []


@pytest.mark.parametrize("quiet", [True, False])
def test_quiet_and_summary(quiet, cli, project, registry):
    args = ["-q"] if quiet else []
    out = cli.ok("add", str(registry), "--claude", "--copilot", *args, cwd=project)
    if quiet:
        assert out.stderr == "" and out.stdout == ""
    else:
        assert out.stderr.splitlines()[-1] == "4 items installed for claude, copilot"


def test_update_keeps_items_of_an_unreachable_source(cli, h, project, registry, tmp_path):
    other = tmp_path / "other"
    h.write_item(other, "rule", "extra", "Extra.\n")
    cli.ok("add", str(registry), "--claude", cwd=project)
    cli.ok("add", str(other), "--claude", cwd=project)
    h.write_item(registry, "rule", "style", "Changed.\n")
    import shutil

    shutil.rmtree(other)
    out = cli.ok("update", cwd=project)
    assert f"cannot fetch local:{other}" in out.stderr
    assert "its items were left as they are" in out.stderr
    assert "Changed." in (project / ".claude/rules/style.md").read_text()
    assert (project / ".claude/rules/extra.md").is_file()
    assert ("rule", "extra") in {(i["kind"], i["name"]) for i in lock_of(project)["items"]}
    out = cli.run("add", str(other), cwd=project)
    assert out.returncode == 1 and "local source not found" in out.stderr


def test_as_naming_another_installed_item_is_refused(cli, project, registry):
    """`--as commits` over the installed rule `commits` would silently replace it."""
    cli.ok("add", str(registry), "commits", "--claude", cwd=project)
    before = (project / ".claude/rules/commits.md").read_bytes()
    out = cli.run("add", str(registry), "style", "--as", "commits", "--claude", cwd=project)
    assert out.returncode == 1
    assert out.stderr.endswith(
        f"upskill: error: rule 'commits' is already installed (as 'commits' from "
        f"local:{registry}); installing 'style' under that name would replace it: remove it "
        "first or choose another name with --as\n"
    )
    assert (project / ".claude/rules/commits.md").read_bytes() == before
    cli.ok("add", str(registry), "style", "--as", "house-style", "--claude", cwd=project)
    cli.ok("add", str(registry), "style", "--as", "house-style", "--claude", cwd=project)
