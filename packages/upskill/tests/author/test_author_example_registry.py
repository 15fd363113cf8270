"""The example registry lints clean, is canonical, loads, renders, and has the promised shape."""

from __future__ import annotations

import json
import os
import shutil
import stat


def test_example_registry_lints_strict_clean(example_registry, upskill):
    result = upskill("lint", "--strict", "skills", cwd=example_registry)
    assert result.returncode == 0, result.stdout
    assert result.stdout == "12 file(s) checked, 0 findings\n"


def test_lint_from_the_registry_root_finds_items_under_skills(example_registry, upskill):
    result = upskill("lint", "--strict", cwd=example_registry)
    assert result.returncode == 0, result.stdout
    assert result.stdout == "12 file(s) checked, 0 findings\n"


def test_example_registry_installs_into_a_consumer_project(
    example_registry, upskill, work, tmp_path
):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    git = shutil.which("git")
    assert git is not None
    (bin_dir / "git").symlink_to(git)  # no client CLIs: MCP servers go to config files
    result = upskill(
        "add", str(example_registry), "acme-review", "--claude", "-p", env={"PATH": str(bin_dir)}
    )
    assert result.returncode == 0, result.stderr
    installed = sorted(
        p.relative_to(work).as_posix() for p in (work / ".claude").rglob("*") if p.is_file()
    )
    assert ".claude/skills/acme-code-review/scripts/diff-stats.sh" in installed
    assert ".claude/skills/acme-code-review/references/review-checklist.md" in installed
    assert not any("MAINTAINERS" in p for p in installed)
    assert ".claude/agents/acme-security-reviewer.md" in installed
    assert ".claude/rules/acme-python-style.md" in installed
    script = work / ".claude/skills/acme-code-review/scripts/diff-stats.sh"
    assert script.stat().st_mode & 0o777 == 0o755
    mcp = json.loads((work / ".mcp.json").read_text())
    github = mcp["mcpServers"]["github"]
    assert github["env"] == {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}
    refused = upskill("lint")
    assert refused.returncode == 2


def test_example_registry_is_fmt_canonical(example_registry, upskill):
    result = upskill("fmt", "--check", "skills", cwd=example_registry)
    assert result.returncode == 0, result.stdout
    assert result.stdout == "12 file(s) checked, 0 would be reformatted\n"


def test_example_registry_loads_and_renders_for_every_client(example_registry):
    from upskill.clients import RENDER_TARGETS, get
    from upskill.clients.base import Carrier
    from upskill.format import discover
    from upskill.format.model import Rule
    from upskill.render import render_item

    catalog = discover(example_registry / "skills")
    kinds = sorted((str(i.kind), i.name) for i in catalog.items)
    assert [k for k, _ in kinds].count("rule") >= 3
    assert [k for k, _ in kinds].count("skill") >= 3
    assert [k for k, _ in kinds].count("agent") >= 2
    for item in catalog.items:
        for client in RENDER_TARGETS:
            rendering = render_item(item, client)
            where = get(client).kinds.get(item.kind.value)
            # a compiled instructions file has no file patterns: no scoped rules there
            scoped = isinstance(item, Rule) and bool(item.scope_paths)
            native = where is not None and not (scoped and where.carrier is Carrier.COMPILED)
            assert bool(rendering.files) is native, (item.name, client)
            if where is None:  # never silent: the rendering says what was not delivered
                assert rendering.warnings == (
                    f"{item.entrypoint}: {client} has no place for {item.kind.plural}; "
                    "not delivered",
                )
            elif not native:
                assert rendering.warnings == (
                    f"{item.entrypoint}: path-scoped rule not delivered: {client} reads one "
                    "instructions file, without file patterns",
                )
    bundles = {b.name: b for b in catalog.bundles}
    assert set(bundles) == {"acme-baseline", "acme-review"}
    review = bundles["acme-review"]
    assert [r.name for r in review.requires] == ["acme-baseline"]
    servers = {m.name: m for m in review.mcps}
    assert servers["filesystem"].transport.command == "npx"  # type: ignore[union-attr]
    assert servers["github"].transport.env == {  # type: ignore[union-attr]
        "GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"
    }
    for bundle in catalog.bundles:
        for kind in ("rules", "skills", "agents"):
            for name in getattr(bundle.items, kind):
                assert any(i.name == name and f"{i.kind}s" == kind for i in catalog.items), name


def test_example_registry_covers_the_format_features(example_registry):
    from upskill.format import discover

    skills = example_registry / "skills"
    items = {(str(i.kind), i.name): i for i in discover(skills).items}
    rules = [i for (k, _), i in items.items() if k == "rule"]
    assert any(getattr(r, "scope_paths", ()) for r in rules)
    assert any("copilot" in r.passthrough for r in rules)
    assert any("<!-- @client:" in r.body for r in rules)
    review = items[("skill", "acme-code-review")]
    assert review.ignore
    resources = {r.path: r for r in review.resources}
    script = resources["scripts/diff-stats.sh"]
    assert script.mode & 0o777 == 0o755
    assert "MAINTAINERS.md" not in resources  # excluded by ignore:
    assert "references/review-checklist.md" in resources
    assert "](references/review-checklist.md)" in review.body
    mode = os.stat(skills / "acme-code-review" / "scripts" / "diff-stats.sh").st_mode
    assert mode & stat.S_IXUSR
    agents = [i for (k, _), i in items.items() if k == "agent"]
    assert len(agents) >= 2
    for agent in agents:
        assert agent.tools and agent.model and agent.preload_skills
        assert "opencode" in agent.passthrough
    entrypoints = ("RULE.md", "SKILL.md", "AGENT.md")
    co_located = [d for d in skills.iterdir() if sum((d / e).is_file() for e in entrypoints) > 1]
    assert [d.name for d in co_located] == ["acme-dependency-review"]


def test_example_registry_renders_markdownlint_clean(example_registry, tmp_path, markdownlint):
    """Generated output of every example item passes markdownlint (the §7.4 guarantee),
    with the project's one markdownlint configuration (tests/conftest.py)."""
    from upskill.clients import RENDER_TARGETS
    from upskill.format import discover
    from upskill.render import render_item

    written = []
    for item in discover(example_registry / "skills").items:
        for client in RENDER_TARGETS:
            for output in render_item(item, client).files:
                if output.path.endswith(".md"):
                    target = tmp_path / client / output.path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(output.data)
                    written.append(target)
    assert len(written) > 20
    assert markdownlint(written) == []
