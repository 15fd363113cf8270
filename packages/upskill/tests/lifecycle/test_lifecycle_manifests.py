"""Plugin-marketplace manifests steer discovery (issue 16, item 1): synthetic published
collections through the real CLI, from git sources so messages carry the source label."""

from __future__ import annotations

import json

SKILL = "---\nname: {0}\ndescription: Use when testing {0}\n---\n\nDo the thing.\n"


def _skill(root, rel: str, name: str | None = None) -> None:  # type: ignore[no-untyped-def]
    path = root / rel / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SKILL.format(name or rel.rsplit("/", 1)[-1]))


def _json(root, rel: str, data: object) -> None:  # type: ignore[no-untyped-def]
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def _installed(project) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(p.name for p in (project / ".claude/skills").iterdir())


def test_a_marketplace_names_plugins_outside_the_usual_places(cli, project, make_git_source):  # type: ignore[no-untyped-def]
    src = make_git_source("acme/market")
    # Depth 6: past what directory discovery scans, found only through the manifest.
    _skill(src.work, "extensions/official/v2/tools/skills/deep-fix")
    _skill(src.work, "extensions/official/v2/other/skills/lonely")  # named by no manifest
    _skill(src.work, "skills/plain")
    _json(
        src.work,
        ".claude-plugin/marketplace.json",
        {
            "name": "acme",
            "plugins": [
                {"name": "tools", "source": "./extensions/official/v2/tools"},
                {"name": "remote", "source": {"source": "github", "repo": "other/repo"}},
            ],
        },
    )
    src.commit("v1")
    out = cli.ok("add", "acme/market", "--claude", cwd=project)
    assert "warning" not in out.stderr, out.stderr
    assert _installed(project) == ["deep-fix", "plain"]


def test_skills_arrays_and_plugin_names_select_a_plugins_skills(cli, project, make_git_source):  # type: ignore[no-untyped-def]
    """The layout of a repository whose one plugin lists the skills it bundles."""
    src = make_git_source("acme/docs")
    for name in ("xlsx", "docx", "pdf", "brand"):
        _skill(src.work, f"skills/{name}")
    _json(
        src.work,
        ".claude-plugin/marketplace.json",
        {
            "name": "acme-docs",
            "plugins": [
                {
                    "name": "document-skills",
                    "description": "Office documents",
                    "source": "./",
                    "strict": False,
                    "skills": ["./skills/xlsx", "./skills/docx", "./skills/pdf"],
                },
                {"name": "pdf", "source": "./", "skills": ["./skills/pdf"]},  # an item's name
            ],
        },
    )
    src.commit("v1")
    cli.ok("add", "acme/docs", "document-skills", "--claude", cwd=project)
    assert _installed(project) == ["docx", "pdf", "xlsx"]
    out = cli.ok("add", "acme/docs", "pdf", "--claude", cwd=project)  # the skill, not a group
    assert "names both" not in out.stderr
    lock = json.loads((project / ".upskill-lock.json").read_text())
    assert sorted(i["name"] for i in lock["items"]) == ["docx", "pdf", "xlsx"]


def test_manifest_paths_that_leave_the_source_are_refused(cli, project, make_git_source, tmp_path):  # type: ignore[no-untyped-def]
    src = make_git_source("acme/escape")
    outside = tmp_path / "outside"
    _skill(outside, "skills/stolen")
    _skill(src.work, "plugins/good/skills/kept")
    _json(
        src.work,
        ".claude-plugin/marketplace.json",
        {
            "plugins": [
                {"name": "good", "source": "./plugins/good"},
                {"name": "up", "source": "../outside"},
                {"name": "abs", "source": str(outside)},
                {"name": "gone", "source": "./plugins/missing"},
            ]
        },
    )
    src.commit("v1")
    out = cli.ok("add", "acme/escape", "--claude", cwd=project)
    where = "warning: github:acme/escape:.claude-plugin/marketplace.json: "
    lines = [line for line in out.stderr.splitlines() if line.startswith(where)]
    assert [line.removeprefix(where) for line in lines] == [
        "plugin 'up' source '../outside' leaves the source tree; ignored",
        f"plugin 'abs' source {str(outside)!r} is not a relative path; ignored",
        "plugin 'gone' source './plugins/missing' is not a directory in the source; ignored",
    ]
    assert _installed(project) == ["kept"]


def test_a_symlink_out_of_a_local_source_is_refused(cli, project, tmp_path):  # type: ignore[no-untyped-def]
    registry = tmp_path / "registry"
    outside = tmp_path / "outside"
    _skill(outside, "skills/stolen")
    _skill(registry, "plugins/good/skills/kept")
    (registry / "plugins/link").mkdir(parents=True)
    (registry / "plugins/link/more").symlink_to(outside / "skills")
    _json(
        registry,
        ".claude-plugin/marketplace.json",
        {"plugins": [{"name": "link", "source": "./plugins/link", "skills": ["./more"]}]},
    )
    out = cli.ok("add", str(registry), "--claude", cwd=project)
    manifest = registry / ".claude-plugin/marketplace.json"
    assert (
        f"warning: {manifest}: skills path './more' leaves the source tree; ignored"
        in out.stderr.splitlines()
    )
    assert _installed(project) == ["kept"]


def test_a_malformed_manifest_is_one_warning_and_directories_still_count(
    cli, project, make_git_source
):  # type: ignore[no-untyped-def]
    src = make_git_source("acme/broken")
    _skill(src.work, "plugins/tools/skills/lint-fix")
    manifest = src.work / ".claude-plugin/marketplace.json"
    manifest.parent.mkdir()
    manifest.write_text('{\n  "plugins": [\n    {"name": "tools",}\n  ]\n}\n')
    src.commit("v1")
    out = cli.ok("add", "acme/broken", "--claude", cwd=project)
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: github:acme/broken:.claude-plugin/marketplace.json:3: invalid JSON: "
        "Expecting property name enclosed in double quotes; discovering by directory layout"
    ]
    assert _installed(project) == ["lint-fix"]


def test_plugin_json_without_a_marketplace_adds_its_skill_paths(cli, project, make_git_source):  # type: ignore[no-untyped-def]
    src = make_git_source("acme/plugins")
    _skill(src.work, "plugins/kit/skills/near")
    _skill(src.work, "plugins/kit/custom/more/skills/far")  # depth 6, named by plugin.json
    _json(
        src.work,
        "plugins/kit/.claude-plugin/plugin.json",
        {"name": "kit", "skills": "./custom/more/skills"},
    )
    src.commit("v1")
    cli.ok("add", "acme/plugins", "kit", "--claude", cwd=project)
    assert _installed(project) == ["far", "near"]


def test_a_manifest_never_leads_into_node_modules(cli, project, make_git_source):  # type: ignore[no-untyped-def]
    src = make_git_source("acme/vendored")
    _skill(src.work, "node_modules/pkg/skills/vendored")
    _skill(src.work, "skills/own")
    _json(
        src.work,
        ".claude-plugin/marketplace.json",
        {"plugins": [{"name": "pkg", "source": "./node_modules/pkg"}]},
    )
    src.commit("v1")
    out = cli.ok("add", "acme/vendored", "--claude", cwd=project)
    assert (
        "warning: github:acme/vendored:node_modules/pkg: plugin 'pkg' lies in a directory "
        "discovery never enters; ignored"
    ) in out.stderr.splitlines()
    assert _installed(project) == ["own"]


def test_lint_and_search_see_what_the_manifest_names(cli, project, tmp_path):  # type: ignore[no-untyped-def]
    registry = tmp_path / "registry"
    _skill(registry, "extensions/official/v2/tools/skills/deep-fix")
    _json(
        registry,
        ".claude-plugin/marketplace.json",
        {"plugins": [{"name": "tools", "source": "./extensions/official/v2/tools"}]},
    )
    out = cli.run("lint", str(registry), cwd=project)
    assert out.stdout.splitlines()[-1] == "1 file(s) checked, 0 findings", out.stdout
    from upskill.search.scan import entry_files

    assert [p.parent.name for p, _ in entry_files(registry)] == ["deep-fix"]
