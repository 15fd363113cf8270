"""Source-tree discovery ("Upskill conventions") and item-directory loading."""

from __future__ import annotations

from pathlib import Path

import pytest

from upskill.errors import FormatError
from upskill.format import Kind, discover, load_item_dir

RULE = "---\ndescription: d\n---\n"


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_conventional_layout(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "skills/lic/RULE.md": RULE,
            "skills/review/SKILL.md": RULE,
            "skills/sec/AGENT.md": RULE,
            "skills/api/RULE.md": "---\nname: api-rule\ndescription: d\n---\n",
            "skills/api/SKILL.md": RULE,
            "skills/base.bundle.yaml": "schema: 1\nname: base\ndescription: d\n",
            "skills/bundles/more.bundle.yaml": "schema: 1\nname: more\ndescription: d\n",
            "skills/bundles/notes.bundle.yaml": "title: no schema, skipped\n",
            "skills/base.bundle.md": "docs are ignored",
            "top/RULE.md": RULE,
            ".hidden/x/RULE.md": RULE,
            ".git/h.bundle.yaml": "schema: 1\nname: h\ndescription: d\n",
            "deep/a/b/RULE.md": RULE,
        },
    )
    catalog = discover(tmp_path)
    assert [(i.kind.value, i.name, i.group) for i in catalog.items] == [
        ("rule", "b", "b"),  # depth 3: a category tree
        ("rule", "api-rule", "api"),
        ("skill", "api", "api"),
        ("rule", "lic", "lic"),
        ("skill", "review", "review"),
        ("agent", "sec", "sec"),
        ("rule", "top", "top"),
    ]
    assert [b.name for b in catalog.bundles] == ["base", "more"]
    assert catalog.item(Kind.RULE, "api-rule") is catalog.items[1]
    assert catalog.item(Kind.AGENT, "api-rule") is None
    assert [i.name for i in catalog.named("api")] == ["api-rule", "api"]
    bundle = catalog.bundle("more")
    assert bundle is not None and bundle.path == tmp_path / "skills/bundles/more.bundle.yaml"


SKILL = "---\nname: {}\ndescription: d\n---\n"


def test_published_collection_layouts(tmp_path: Path) -> None:
    """Issue 16: hidden categories, plugin marketplaces, .claude/.agents trees; never
    .git, node_modules or vendored trees, and a name differing from its directory."""
    write(
        tmp_path,
        {
            "skills/.curated/a/SKILL.md": SKILL.format("a"),
            "skills/.system/b/SKILL.md": SKILL.format("b"),
            "plugins/tools/skills/c/SKILL.md": SKILL.format("c"),
            ".claude/skills/d/SKILL.md": SKILL.format("d"),
            ".agents/rules/e/RULE.md": SKILL.format("e"),
            "composition-patterns/SKILL.md": SKILL.format("vercel-composition-patterns"),
            ".github/skills/f/SKILL.md": SKILL.format("f"),
            ".hidden/g/SKILL.md": SKILL.format("g"),
            "node_modules/pkg/skills/h/SKILL.md": SKILL.format("h"),
            "vendor/x/i/SKILL.md": SKILL.format("i"),
            "skills/.git/j/SKILL.md": SKILL.format("j"),
            "a/b/c/d/too-deep/SKILL.md": SKILL.format("too-deep"),
        },
    )
    catalog = discover(tmp_path)
    assert sorted(i.name for i in catalog.items) == [
        "a", "b", "c", "d", "e", "vercel-composition-patterns",
    ]  # fmt: skip
    renamed = catalog.item(Kind.SKILL, "vercel-composition-patterns")
    assert renamed is not None and renamed.warnings == (
        "skill name 'vercel-composition-patterns' differs from its directory name "
        "'composition-patterns'; it installs as 'vercel-composition-patterns'",
    )


def test_the_same_name_in_two_places_names_both(tmp_path: Path) -> None:
    write(
        tmp_path,
        {".claude/skills/x/SKILL.md": SKILL.format("x"), "skills/x/SKILL.md": SKILL.format("x")},
    )
    with pytest.raises(
        FormatError, match=r"duplicate skill 'x' \(also defined in .*\.claude/skills/x/SKILL.md\)"
    ):
        discover(tmp_path)


def test_a_single_skill_repository_keeps_its_declared_name(tmp_path: Path) -> None:
    """A git source's root is a cache directory named after the commit."""
    write(tmp_path / "0123abcd", {"SKILL.md": SKILL.format("solo-skill")})
    catalog = discover(tmp_path / "0123abcd")
    assert [(i.name, i.warnings) for i in catalog.items] == [("solo-skill", ())]


def test_root_that_is_an_item(tmp_path: Path) -> None:
    write(tmp_path / "solo", {"SKILL.md": RULE, "nested/RULE.md": RULE})
    catalog = discover(tmp_path / "solo")
    assert [(i.kind, i.name) for i in catalog.items] == [(Kind.SKILL, "solo")]
    assert [r.path for r in catalog.items[0].resources] == ["nested/RULE.md"]


def test_colocated_kinds_share_resources_but_not_ignore(tmp_path: Path) -> None:
    write(
        tmp_path / "pair",
        {
            "SKILL.md": "---\ndescription: d\nignore: ['*.md']\n---\n",
            "AGENT.md": RULE,
            "AGENT.claude.md": "## Claude body\n",
            "SKILL.opencode.md": "## Opencode body\n",
            "ref.md": "r",
            "bin/run": "x",
        },
    )
    skill, agent = load_item_dir(tmp_path / "pair")
    assert [r.path for r in skill.resources] == ["bin/run"]
    assert [r.path for r in agent.resources] == ["bin/run", "ref.md"]
    assert dict(agent.overrides) == {"claude": "## Claude body\n"}
    assert dict(skill.overrides) == {"opencode": "## Opencode body\n"}


def test_resource_modes_and_bytes(tmp_path: Path) -> None:
    write(tmp_path / "x", {"RULE.md": RULE})
    script = tmp_path / "x" / "run.sh"
    script.write_bytes(b"\x00\x01binary")
    script.chmod(0o750)
    (rule,) = load_item_dir(tmp_path / "x")
    (resource,) = rule.resources
    # installed as 0755: only 0644/0755 ever leave a registry (issue 13, "File modes")
    assert (resource.path, resource.data, resource.mode) == ("run.sh", b"\x00\x01binary", 0o755)


def test_crlf_and_bom_are_tolerated(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "RULE.md").write_bytes(
        b"\xef\xbb\xbf---\r\ndescription: d\r\n---\r\n\r\n## Body\r\n"
    )
    (rule,) = load_item_dir(tmp_path / "x")
    assert (rule.description, rule.body, rule.body_line) == ("d", "\n## Body\n", 4)


def test_git_metadata_is_never_a_resource(tmp_path: Path) -> None:
    write(
        tmp_path / "repo",
        {"SKILL.md": RULE, ".git/HEAD": "ref", "sub/.git": "gitdir: x", "a.md": "a"},
    )
    (skill,) = discover(tmp_path / "repo").items
    assert [r.path for r in skill.resources] == ["a.md"]


def test_non_strict_discovery_skips_and_records_problems(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "skills/good/RULE.md": RULE,
            "skills/bad/RULE.md": "---\nname: Bad\ndescription: d\n---\n",
            "skills/broken.bundle.yaml": "schema: 1\nname: other\ndescription: d\n",
            "skills/fine.bundle.yaml": "schema: 1\nname: fine\ndescription: d\n",
        },
    )
    catalog = discover(tmp_path, strict=False)
    assert [i.name for i in catalog.items] == ["good"]
    assert [b.name for b in catalog.bundles] == ["fine"]
    assert [str(p) for p in catalog.problems] == [
        f"{tmp_path}/skills/bad/RULE.md:2: name 'Bad' must be lowercase",
        f"{tmp_path}/skills/broken.bundle.yaml:2: bundle name 'other' must match the file name "
        "stem 'broken'",
    ]
    with pytest.raises(FormatError):
        discover(tmp_path)
