"""Sources and pins (issue 16, item 5): ssh/scp/file URLs through the user's own git
configuration, re-pinning with `add <source>@<ref>`, local registries recorded relative
to the project, and messages that never show upskill's cache."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest


@pytest.fixture
def tagged(make_git_source, h):  # type: ignore[no-untyped-def]
    """acme/skills with tags v1 and v2 (the rule's text and the skill's script change)."""
    src = make_git_source("acme/skills")
    h.write_item(src.work, "rule", "style", "v1 style.\n")
    h.write_item(src.work, "skill", "tool", "Run the tool.\n")
    src.commit("v1")
    src.tag("v1")
    h.write_item(src.work, "rule", "style", "v2 style.\n")
    src.commit("v2")
    src.tag("v2")
    return src


def _lock(project: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((project / ".upskill-lock.json").read_text())


def _sources(project: Path) -> list[tuple[str, str, str | None]]:
    return [(i["name"], i["source"], i.get("ref")) for i in _lock(project)["items"]]


def test_file_url_source(tagged, cli, project):  # type: ignore[no-untyped-def]
    out = cli.ok("add", f"{tagged.url}@v1", "style", "--claude", cwd=project)
    assert "1 item installed for claude" in out.stderr
    assert _sources(project) == [("style", f"{tagged.url}@v1", "v1")]
    assert (project / ".claude/rules/style.md").read_text().endswith("v1 style.\n")
    assert cli.ok("update", cwd=project).stderr.endswith("Already up to date.\n")


def test_the_users_own_git_config_applies(tagged, cli, project, tmp_path):  # type: ignore[no-untyped-def]
    """~/.gitconfig's `insteadOf` rewrites an https URL and an ssh-style spec to a local
    bare repository: upskill hands git the URL as typed and never overrides the user's
    global configuration."""
    home = cli.home
    (home / ".gitconfig").write_text(
        f'[url "file://{tmp_path / "github"}/"]\n'
        "\tinsteadOf = https://git.example.com/\n"
        "\tinsteadOf = git@git.example.com:\n"
    )
    env = {k: v for k, v in cli.env.items() if k != "GIT_CONFIG_GLOBAL"}  # git reads ~
    own = dataclasses.replace(cli, env=env)
    own.ok("add", "https://git.example.com/acme/skills@v1", "style", "--claude", cwd=project)
    own.ok("add", "git@git.example.com:acme/skills.git@v2", "tool", "--claude", cwd=project)
    assert _sources(project) == [
        ("style", "https://git.example.com/acme/skills@v1", "v1"),
        ("tool", "git@git.example.com:acme/skills.git@v2", "v2"),
    ]
    assert (project / ".claude/rules/style.md").read_text().endswith("v1 style.\n")
    assert (project / ".claude/skills/tool/SKILL.md").is_file()
    assert own.ok("update", "--dry-run", cwd=project).stdout == "nothing to do\n"


def test_add_at_another_ref_re_pins_the_installed_source(tagged, cli, project, h):  # type: ignore[no-untyped-def]
    cli.ok("add", "acme/skills@v1", "--claude", cwd=project)
    v1 = {i["name"]: i["commit"] for i in _lock(project)["items"]}
    style = project / ".claude/rules/style.md"
    assert style.read_text().endswith("v1 style.\n")
    # The same ref again changes nothing, to the byte and the mtime.
    before = h.snapshot(project)
    out = cli.ok("add", "acme/skills@v1", "--claude", cwd=project)
    assert "re-pin" not in out.stderr
    assert h.snapshot(project) == before
    # --dry-run shows what the new ref changes and writes nothing.
    out = cli.ok("add", "acme/skills@v2", "--claude", "--dry-run", cwd=project)
    assert out.stderr.endswith(
        "would re-pin github:acme/skills@v1 -> github:acme/skills@v2: style, tool\n"
    )
    assert out.stdout == "  update             .claude/rules/style.md\n"
    assert h.snapshot(project) == before
    out = cli.ok("add", "acme/skills@v2", "--claude", cwd=project)
    assert out.stderr.endswith(
        "re-pinned github:acme/skills@v1 -> github:acme/skills@v2: style, tool\n"
        "1 item updated (1 file changed)\n"
    )
    items = _lock(project)["items"]
    assert [(i["name"], i["source"], i["ref"]) for i in items] == [
        ("style", "github:acme/skills@v2", "v2"),
        ("tool", "github:acme/skills@v2", "v2"),
    ]
    assert all(i["commit"] != v1[i["name"]] for i in items)
    assert style.read_text().endswith("v2 style.\n")
    assert cli.ok("update", cwd=project).stderr.endswith("Already up to date.\n")


def test_a_re_pin_keeps_a_local_edit(tagged, cli, project):  # type: ignore[no-untyped-def]
    cli.ok("add", "acme/skills@v1", "style", "--claude", cwd=project)
    style = project / ".claude/rules/style.md"
    style.write_text("mine\n")
    out = cli.ok("add", "acme/skills@v2", "style", "--claude", cwd=project)
    assert "kept local edit: .claude/rules/style.md (use --force to replace it)" in out.stderr
    assert style.read_text() == "mine\n"
    assert _sources(project) == [("style", "github:acme/skills@v2", "v2")]
    out = cli.ok("add", "acme/skills@v2", "style", "--claude", "--force", cwd=project)
    assert "discarded local edit: .claude/rules/style.md" in out.stderr
    assert style.read_text().endswith("v2 style.\n")


def test_another_repository_with_the_same_item_still_conflicts(  # type: ignore[no-untyped-def]
    tagged, cli, project, make_git_source, h
):
    other = make_git_source("other/skills")
    h.write_item(other.work, "rule", "style", "other.\n")
    other.commit()
    cli.ok("add", "acme/skills@v1", "style", "--claude", cwd=project)
    out = cli.run("add", "other/skills", "style", "--claude", cwd=project)
    assert out.returncode == 1
    assert "rule 'style' is already installed from github:acme/skills@v1" in out.stderr


def test_a_registry_inside_the_project_is_recorded_relative_to_it(  # type: ignore[no-untyped-def]
    cli, project, registry, tmp_path, h
):
    """The lockfile is committed: `local:./team-skills` works on every checkout, where
    `local:/absolute/path` worked on one machine only."""
    inside = project / "team-skills"
    h.copytree(registry, inside)
    out = cli.ok("add", "./team-skills", "style", "--claude", cwd=project)
    assert _sources(project) == [("style", "local:./team-skills", None)]
    cli.ok("add", str(inside), "commits", "--claude", cwd=project)  # absolute, same place
    cli.ok("add", str(registry), "review", "--claude", cwd=project)  # outside: absolute
    assert _sources(project) == [
        ("commits", "local:./team-skills", None),
        ("style", "local:./team-skills", None),
        ("review", f"local:{registry}", None),
    ]
    # A teammate's checkout elsewhere: update and doctor read the relative label there.
    moved = tmp_path / "elsewhere" / "checkout"
    h.copytree(project, moved.parent / "checkout")
    (moved / "team-skills/skills/style/RULE.md").write_text(
        (inside / "skills/style/RULE.md").read_text().replace("four spaces", "tabs")
    )
    assert cli.run("doctor", "--json", cwd=moved).returncode == 1  # style is stale there
    report = json.loads(cli.run("doctor", "--json", cwd=moved).stdout)
    assert [(s["name"], s["source"]) for s in report["stale_hashes"]] == [
        ("style", "local:./team-skills")
    ]
    assert report["orphan_entries"] == []
    out = cli.ok("update", cwd=moved)
    assert "1 item updated" in out.stderr
    assert "tabs" in (moved / ".claude/rules/style.md").read_text()
    assert "four spaces" in (project / ".claude/rules/style.md").read_text()
    assert cli.ok("doctor", cwd=moved).stderr == "No drift.\n"
    assert _sources(moved) == _sources(project)
    assert cli.ok("remove", "-y", "--source", "local:./team-skills", cwd=moved)
    assert _sources(moved) == [("review", f"local:{registry}", None)]


def test_an_old_absolute_record_inside_the_project_still_works(  # type: ignore[no-untyped-def]
    cli, project, registry, h
):
    inside = project / "team-skills"
    h.copytree(registry, inside)
    cli.ok("add", "./team-skills", "style", "--claude", cwd=project)
    lock_path = project / ".upskill-lock.json"
    lock = _lock(project)
    lock["items"][0]["source"] = f"local:{inside}"  # as upskill recorded it before
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    assert cli.ok("doctor", cwd=project).stderr == "No drift.\n"
    cli.ok("add", "./team-skills", "style", "--claude", cwd=project)  # no "already installed"
    assert _sources(project) == [("style", "local:./team-skills", None)]
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    cli.ok("update", cwd=project)  # rewritten relative, like any historical label
    assert _sources(project) == [("style", "local:./team-skills", None)]


def test_errors_name_files_in_a_git_source_by_label_never_by_cache_path(  # type: ignore[no-untyped-def]
    cli, project, make_git_source, h
):
    src = make_git_source("acme/broken")
    h.write_item(src.work, "rule", "needs", "x\n", requires={"rules": ["ghost"]})
    h.write_bundle(
        src.work, "core", "schema: 1\nname: core\ndescription: c\nitems:\n  rules: [ghostly]\n"
    )
    h.write_bundle(src.work, "bad", "schema: 1\nname: bad\nfoo: [\n")
    src.commit()
    cache = str(cli.home / ".cache")
    expected = {
        ("acme/broken", "needs"): "github:acme/broken:skills/needs/RULE.md: rule 'needs' "
        "requires rule 'ghost', not found in github:acme/broken",
        ("acme/broken", "core"): "github:acme/broken:skills/core.bundle.yaml: bundle 'core' "
        "lists rule 'ghostly', not found in github:acme/broken",
        ("acme/broken:skills/bad.bundle.yaml",): "github:acme/broken:skills/bad.bundle.yaml:4: "
        "invalid YAML: expected the node content, but found '<stream end>'",
        ("acme/broken", "bad"): "github:acme/broken:skills/bad.bundle.yaml:4: "
        "invalid YAML: expected the node content, but found '<stream end>'",
    }
    for args, message in expected.items():
        out = cli.run("add", *args, "--claude", cwd=project)
        assert out.returncode == 1
        assert out.stderr.endswith(f"upskill: error: {message}\n")
        assert cache not in out.stderr + out.stdout
    for command in (["update"], ["doctor"], ["list"], ["lint"]):
        out = cli.run(*command, cwd=project)
        assert cache not in out.stderr + out.stdout


def test_a_re_pin_carries_an_alias_over(tagged, cli, project):  # type: ignore[no-untyped-def]
    """`--as` chose the installed name once; the next `add` of the source at another ref
    (named or whole) moves that item instead of installing the original beside it."""
    cli.ok("add", "acme/skills@v1", "style", "--as", "house", "--claude", cwd=project)
    out = cli.ok("add", "acme/skills@v2", "style", "--claude", cwd=project)
    assert out.stderr.endswith(
        "re-pinned github:acme/skills@v1 -> github:acme/skills@v2: house\n"
        "1 item updated (1 file changed)\n"
    )
    assert [(i["name"], i.get("source_name"), i["ref"]) for i in _lock(project)["items"]] == [
        ("house", "style", "v2")
    ]
    assert sorted(p.name for p in (project / ".claude/rules").iterdir()) == ["house.md"]
    assert (project / ".claude/rules/house.md").read_text().endswith("v2 style.\n")
    cli.ok("add", "acme/skills@v1", "--claude", cwd=project)  # whole source, back to v1
    assert [(i["name"], i.get("source_name"), i["ref"]) for i in _lock(project)["items"]] == [
        ("house", "style", "v1"),
        ("tool", None, "v1"),
    ]
    # An explicit alias still wins over the carried one.
    cli.ok("add", "acme/skills@v2", "style", "--as", "style=home", "--claude", cwd=project)
    names = sorted((i["name"], i["ref"]) for i in _lock(project)["items"])
    assert names == [("home", "v2"), ("house", "v1"), ("tool", "v1")]
