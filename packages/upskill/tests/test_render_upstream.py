"""Upstream fixtures (copied into conformance/upskill/upstream/) render to the
same paths and the same parsed frontmatter; bytes match except where the book
contract deliberately differs (listed in DEVIATIONS and in the conformance README)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from upskill.errors import FormatError
from upskill.format import load_bundle, load_item_dir, split_frontmatter
from upskill.render import render_item

UPSTREAM = Path(__file__).resolve().parents[3] / "conformance" / "upskill" / "upstream"
ITEM_DIRS = {
    "api-conventions": UPSTREAM / "items" / "api-conventions",
    "license-awareness": UPSTREAM / "items" / "license-awareness",
    "security-reviewer": UPSTREAM / "items" / "security-reviewer",
    "create-api-endpoint": UPSTREAM / "skills" / "create-api-endpoint",
}
EXPECTED_PATHS = {
    ("claude", "RULE"): ".claude/rules/{n}.md",
    ("copilot", "RULE"): ".github/instructions/{n}.instructions.md",
    ("opencode", "RULE"): ".agents/rules/{n}/RULE.md",
    ("claude", "SKILL"): ".claude/skills/{n}/SKILL.md",
    ("copilot", "SKILL"): ".github/skills/{n}/SKILL.md",
    ("claude", "AGENT"): ".claude/agents/{n}.md",
    ("copilot", "AGENT"): ".github/agents/{n}.agent.md",
}
# The book (§3.4) requires model aliases to be resolved per client; upstream copies
# `model` literally. Copilot tool names follow GitHub's documented aliases
# (`execute`, `read`, `edit`, `search`, `web`), not upstream's `shell`/`fetch`.
# A skill's Agent Skills fields (`license`, `metadata`) reach every client (issue 16);
# upstream dropped them. Everything else matches byte for byte.
SPEC_FIELDS = {"license": "proprietary", "metadata": {"version": "1.0.0", "author": "platform-api"}}
DEVIATIONS = {
    ("copilot", "security-reviewer.AGENT.md"): {
        "model": "claude-sonnet-4.6",
        "tools": ["read", "search", "execute"],
    },
    ("claude", "create-api-endpoint.SKILL.md"): SPEC_FIELDS,
    ("copilot", "create-api-endpoint.SKILL.md"): SPEC_FIELDS,
}
GOLDENS = sorted((UPSTREAM / "expected").glob("*/*.md"))


def _frontmatter(text: str) -> dict[str, object]:
    data = YAML(typ="safe", pure=True).load(split_frontmatter(text, Path("x")).yaml)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("golden", GOLDENS, ids=[f"{g.parent.name}/{g.name}" for g in GOLDENS])
def test_upstream_golden(golden: Path) -> None:
    client = golden.parent.name
    name, kind = golden.name.removesuffix(".md").split(".")
    (item,) = [i for i in load_item_dir(ITEM_DIRS[name]) if i.kind.name == kind]
    rendering = render_item(item, client)
    entry = rendering.files[0]
    assert entry.path == EXPECTED_PATHS[(client, kind)].format(n=name)
    expected = golden.read_text()
    actual = entry.data.decode()
    deviation = DEVIATIONS.get((client, golden.name))
    if deviation is None:
        assert actual == expected
        return
    assert _frontmatter(actual) == {**_frontmatter(expected), **deviation}
    assert actual.split("---\n", 2)[2] == expected.split("---\n", 2)[2]


def test_upstream_bundles_parse() -> None:
    baseline = load_bundle(UPSTREAM / "bundles" / "platform-baseline.bundle.yaml")
    assert baseline.items.rules == ("api-conventions", "license-awareness")
    assert baseline.items.skills == ("create-api-endpoint",)
    assert baseline.items.agents == ("security-reviewer",)
    extras = load_bundle(UPSTREAM / "bundles" / "platform-extras.bundle.yaml")
    assert [(r.name, r.version, r.source) for r in extras.requires] == [
        ("platform-baseline", "^1.0.0", None)
    ]


def test_upstream_plugin_bundle_without_marketplace_is_rejected() -> None:
    # Spec §3.7: `marketplace` is required beside `source`; the upstream fixture predates it.
    with pytest.raises(FormatError) as excinfo:
        load_bundle(UPSTREAM / "bundles" / "with-plugins.bundle.yaml")
    assert str(excinfo.value) == (
        f"{UPSTREAM / 'bundles' / 'with-plugins.bundle.yaml'}:10: 'plugins.superpowers.claude' "
        "needs source+marketplace+plugin or instructions_url ('marketplace' is the registered "
        "marketplace name, required besides 'source')"
    )
