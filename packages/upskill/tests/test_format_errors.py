"""Bad SSOT input: one clear FormatError naming the file and line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from upskill_testing import write_tree as write

from upskill.clients import FAMILIES, PLUGIN_CLIENTS
from upskill.errors import FormatError, UpskillError
from upskill.format import discover, load_bundle, load_item_dir

FAMILIES_TEXT = ", ".join(FAMILIES)
PLUGINS_TEXT = ", ".join(PLUGIN_CLIENTS)

GOOD_RULE = "---\ndescription: Use when testing\n---\n\n## Body\n"


def load_error(directory: Path) -> str:
    with pytest.raises(FormatError) as excinfo:
        load_item_dir(directory)
    assert excinfo.value.exit_code == 1
    return str(excinfo.value)


ITEM_CASES = {
    "no-fence": (
        {"SKILL.md": "description: x\n"},
        "SKILL.md:1: missing YAML frontmatter (the file must start with '---')",
    ),
    "unterminated": (
        {"SKILL.md": "---\ndescription: x\n"},
        "SKILL.md:1: unterminated YAML frontmatter (no closing '---')",
    ),
    "malformed-yaml": (
        {"RULE.md": "---\ndescription: x\nscope: [a\n---\n"},
        "RULE.md:4: invalid YAML: expected ',' or ']', but got '<stream end>'",
    ),
    "duplicate-key": (
        {"RULE.md": "---\ndescription: x\ndescription: y\n---\n"},
        'RULE.md:3: invalid YAML: found duplicate key "description" with value "y" '
        '(original value: "x")',
    ),
    # YAML 1.2 lets a second `&name` replace the first; refused like a duplicate key, at
    # the second one, whatever node it anchors (ruamel would only warn).
    "reused-anchor-scalar": (
        {"RULE.md": "---\ndescription: &d x\nx-a: &d y\nx-b: *d\n---\n"},
        "RULE.md:3: invalid YAML: anchor &d is defined twice",
    ),
    "reused-anchor-nested": (
        {"RULE.md": "---\ndescription: x\nx-a: &l [1]\nx-b:\n  c: &l {k: v}\n---\n"},
        "RULE.md:5: invalid YAML: anchor &l is defined twice",
    ),
    "not-a-mapping": (
        {"RULE.md": "---\n- a\n---\n"},
        "RULE.md:2: frontmatter must be a YAML mapping",
    ),
    "schema-too-new": (
        {"RULE.md": "---\nschema: 2\ndescription: x\n---\n"},
        "RULE.md:2: requires format schema 2, but this upskill supports schema 1 at most; "
        "upgrade upskill to read it",
    ),
    "schema-bool": (
        {"RULE.md": "---\nschema: true\ndescription: x\n---\n"},
        "RULE.md:2: 'schema' must be an integer, got a boolean",
    ),
    "schema-zero": (
        {"RULE.md": "---\nschema: 0\ndescription: x\n---\n"},
        "RULE.md:2: 'schema' must be 1 or greater, got 0",
    ),
    "missing-description": (
        {"AGENT.md": "---\nname: a\n---\n"},
        "AGENT.md:1: missing required field 'description'",
    ),
    "empty-description": (
        {"AGENT.md": "---\ndescription: '  '\n---\n"},
        "AGENT.md:2: 'description' must not be empty",
    ),
    "description-not-string": (
        {"AGENT.md": "---\ndescription: 12\n---\n"},
        "AGENT.md:2: 'description' must be a string, got an integer",
    ),
    "description-too-long": (
        {"SKILL.md": "---\ndescription: " + "x" * 1025 + "\n---\n"},
        "SKILL.md:2: 'description' is 1025 characters, limit 1024",
    ),
    "name-dotdot": (
        {"RULE.md": "---\nname: ../evil\ndescription: x\n---\n"},
        "RULE.md:2: name '../evil' must not contain '/', '\\' or '..'",
    ),
    "name-slash": (
        {"AGENT.md": "---\nname: a/b\ndescription: x\n---\n"},
        "AGENT.md:2: name 'a/b' must not contain '/', '\\' or '..'",
    ),
    "name-uppercase": (
        {"RULE.md": "---\nname: MyRule\ndescription: x\n---\n"},
        "RULE.md:2: name 'MyRule' must be lowercase",
    ),
    "name-hyphen-edge": (
        {"RULE.md": "---\nname: -rule\ndescription: x\n---\n"},
        "RULE.md:2: name '-rule' must not start or end with a hyphen",
    ),
    "name-too-long": (
        {"RULE.md": "---\nname: " + "a" * 65 + "\ndescription: x\n---\n"},
        "RULE.md:2: name '" + "a" * 65 + "' is longer than 64 characters",
    ),
    "name-underscore": (
        {"RULE.md": "---\nname: my_rule\ndescription: x\n---\n"},
        "RULE.md:2: name 'my_rule' may contain only lowercase letters, digits and hyphens",
    ),
    "unknown-tool": (
        {"AGENT.md": "---\ndescription: x\ntools:\n  - read\n  - teleport\n---\n"},
        "AGENT.md:3: unknown tool 'teleport' (known: read, write, edit, bash, grep, glob, "
        "web-fetch, web-search)",
    ),
    "tools-not-list": (
        {"AGENT.md": "---\ndescription: x\ntools: read\n---\n"},
        "AGENT.md:3: 'tools' must be a list of strings, got a string",
    ),
    "bad-mode": (
        {"AGENT.md": "---\ndescription: x\nmode: boss\n---\n"},
        "AGENT.md:3: 'mode' must be one of subagent, primary, all, got 'boss'",
    ),
    "bad-preload": (
        {"AGENT.md": "---\ndescription: x\npreload-skills: [Bad]\n---\n"},
        "AGENT.md:3: name 'Bad' must be lowercase",
    ),
    "unknown-audience": (
        {"RULE.md": "---\ndescription: x\naudience: [acme]\n---\n"},
        f"RULE.md:3: unknown client 'acme' in 'audience' (known: {FAMILIES_TEXT})",
    ),
    "empty-audience": (
        {"RULE.md": "---\ndescription: x\naudience: []\n---\n"},
        "RULE.md:3: 'audience' must list at least one client",
    ),
    "scope-unknown-key": (
        {"RULE.md": "---\ndescription: x\nscope:\n  globs: [a]\n---\n"},
        "RULE.md:3: 'scope' has unknown key(s): globs (paths)",
    ),
    "scope-paths-not-list": (
        {"RULE.md": "---\ndescription: x\nscope:\n  paths: src\n---\n"},
        "RULE.md:3: 'scope.paths' must be a list of strings, got a string",
    ),
    "requires-unknown-kind": (
        {"RULE.md": "---\ndescription: x\nrequires:\n  tools: [a]\n---\n"},
        "RULE.md:3: 'requires' has unknown key(s): tools (rules, skills, agents)",
    ),
    "requires-bad-entry": (
        {"RULE.md": "---\ndescription: x\nrequires:\n  skills: [{name: a, ref: b}]\n---\n"},
        "RULE.md:3: 'requires.skills' entry has unknown key(s): ref",
    ),
    "passthrough-not-mapping": (
        {"RULE.md": "---\ndescription: x\ncopilot: yes\n---\n"},
        "RULE.md:3: 'copilot' must be a mapping, got a string",
    ),
    "metadata-not-mapping": (
        {"RULE.md": "---\ndescription: x\nmetadata: [1]\n---\n"},
        "RULE.md:3: 'metadata' must be a mapping, got a list",
    ),
    "ignore-not-list": (
        {"RULE.md": "---\ndescription: x\nignore: '*.tmp'\n---\n"},
        "RULE.md:3: 'ignore' must be a list of strings, got a string",
    ),
    "unknown-directive-client": (
        {"RULE.md": "---\ndescription: x\n---\n\n<!-- @client:acme -->\nx\n<!-- @endclient -->\n"},
        f"RULE.md:5: unknown client 'acme' in directive (known: {FAMILIES_TEXT})",
    ),
    "unclosed-directive": (
        {"RULE.md": "---\ndescription: x\n---\n\nok\n<!-- @client:claude -->\nx\n"},
        "RULE.md:6: unclosed directive (missing '<!-- @endclient -->')",
    ),
    "nested-directive": (
        {
            "RULE.md": "---\ndescription: x\n---\n<!-- @client:claude -->\n"
            "<!-- @client:copilot -->\n<!-- @endclient -->\n<!-- @endclient -->\n"
        },
        "RULE.md:5: nested directive (block opened on line 4 is still open)",
    ),
    "stray-endclient": (
        {"RULE.md": "---\ndescription: x\n---\n\n<!-- @endclient -->\n"},
        "RULE.md:5: '<!-- @endclient -->' without an open directive",
    ),
    "override-with-frontmatter": (
        {"RULE.md": GOOD_RULE, "RULE.claude.md": "---\nname: x\n---\nbody\n"},
        "RULE.claude.md:1: override files contain body only; frontmatter comes from RULE.md "
        "(remove the '---' block)",
    ),
    "not-utf8": (
        {"RULE.md": b"---\ndescription: x\n---\n\n\xff\xfe\n"},
        "RULE.md:5: file is not valid UTF-8",
    ),
}


@pytest.mark.filterwarnings("error")  # no parser warning besides the one error
@pytest.mark.parametrize("case", sorted(ITEM_CASES))
def test_bad_item(tmp_path: Path, case: str) -> None:
    files, message = ITEM_CASES[case]
    item = write(tmp_path / "item", files)
    assert load_error(item) == f"{item}/{message}"


def test_no_entrypoint(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"README.md": "x"})
    assert load_error(item) == (
        f"{item}: no entrypoint (RULE.md, SKILL.md or AGENT.md) in item directory"
    )


def test_huge_entrypoint_rejected(tmp_path: Path) -> None:
    item = tmp_path / "item"
    item.mkdir()
    with (item / "SKILL.md").open("wb") as handle:
        handle.truncate(10 * 1024 * 1024 + 1)
    assert load_error(item) == (
        f"{item}/SKILL.md: file is too large (10485761 bytes, limit 10485760)"
    )


def test_symlink_escaping_item_is_an_error(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": GOOD_RULE})
    (tmp_path / "secret").write_text("s")
    (item / "leak").symlink_to(tmp_path / "secret")
    assert load_error(item) == (
        f"{item}/leak: symlink leaves the item directory (points to {tmp_path / 'secret'})"
    )


def test_symlink_inside_item_is_skipped(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": GOOD_RULE, "refs/a.md": "a"})
    (item / "alias.md").symlink_to(item / "refs" / "a.md")
    (item / "linked-dir").symlink_to(item / "refs")
    (rule,) = load_item_dir(item)
    assert [r.path for r in rule.resources] == ["refs/a.md"]


def test_symlinked_entrypoint_rejected(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"real.md": GOOD_RULE})
    (item / "RULE.md").symlink_to(item / "real.md")
    assert load_error(item) == f"{item}/RULE.md: must be a regular file, not a symlink"


def test_errors_are_upskill_errors_with_exit_code_one(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": "nope"})
    with pytest.raises(UpskillError) as excinfo:
        load_item_dir(item)
    assert excinfo.value.exit_code == 1
    assert excinfo.value.path == item / "RULE.md"
    assert excinfo.value.line == 1


BUNDLE_CASES = {
    "missing-schema": (
        "name: b\ndescription: x\n",
        "b.bundle.yaml:1: missing required integer field 'schema'",
    ),
    "schema-too-new": (
        "schema: 9\nname: b\ndescription: x\n",
        "b.bundle.yaml:1: requires format schema 9, but this upskill supports schema 1 at most; "
        "upgrade upskill to read it",
    ),
    "name-mismatch": (
        "schema: 1\nname: other\ndescription: x\n",
        "b.bundle.yaml:2: bundle name 'other' must match the file name stem 'b'",
    ),
    "malformed": (
        "schema: 1\nname: [b\n",
        "b.bundle.yaml:3: invalid YAML: expected ',' or ']', but got '<stream end>'",
    ),
    "items-unknown-kind": (
        "schema: 1\nname: b\ndescription: x\nitems:\n  tools: [a]\n",
        "b.bundle.yaml:4: 'items' has unknown key(s): tools (rules, skills, agents)",
    ),
    "items-bad-name": (
        "schema: 1\nname: b\ndescription: x\nitems:\n  rules: [../x]\n",
        "b.bundle.yaml:4: name '../x' must not contain '/', '\\' or '..'",
    ),
    "requires-string": (
        "schema: 1\nname: b\ndescription: x\nrequires:\n  - base\n",
        "b.bundle.yaml:4: 'requires' entries must be maps like { name: x, version: ^1.0.0 }",
    ),
    "mcp-both-transports": (
        "schema: 1\nname: b\ndescription: x\nmcps:\n  m:\n    remote: {type: http, url: u}\n"
        "    local: {command: c}\n",
        "b.bundle.yaml:4: 'mcps.m' needs exactly one of 'remote' or 'local'",
    ),
    "mcp-neither-transport": (
        "schema: 1\nname: b\ndescription: x\nmcps:\n  m:\n    requires-env: [A]\n",
        "b.bundle.yaml:4: 'mcps.m' needs exactly one of 'remote' or 'local'",
    ),
    "mcp-bad-type": (
        "schema: 1\nname: b\ndescription: x\nmcps:\n  m:\n    remote: {type: ws, url: u}\n",
        "b.bundle.yaml:4: 'mcps.m.remote.type' must be one of http, sse",
    ),
    "mcp-empty-url": (
        "schema: 1\nname: b\ndescription: x\nmcps:\n  m:\n    remote: {type: sse, url: ''}\n",
        "b.bundle.yaml:4: 'mcps.m.remote.url' must be a non-empty string",
    ),
    "mcp-empty-command": (
        "schema: 1\nname: b\ndescription: x\nmcps:\n  m:\n    local: {command: ' '}\n",
        "b.bundle.yaml:4: 'mcps.m.local.command' must be a non-empty string",
    ),
    "mcp-env-not-string": (
        "schema: 1\nname: b\ndescription: x\nmcps:\n  m:\n    local: {command: c, env: {A: 1}}\n",
        "b.bundle.yaml:4: 'mcps.m.local.env.A' must be a string",
    ),
    "plugin-unknown-client": (
        "schema: 1\nname: b\ndescription: x\nplugins:\n  p:\n    acme: {module: m}\n",
        f"b.bundle.yaml:4: 'plugins.p' has unknown client 'acme' (known: {PLUGINS_TEXT})",
    ),
    "plugin-unknown-key": (
        "schema: 1\nname: b\ndescription: x\nplugins:\n  p:\n    vscode: {extension: e, foo: b}\n",
        "b.bundle.yaml:4: 'plugins.p.vscode' has unknown key(s): foo",
    ),
    "plugin-config-write-not-for-claude": (
        "schema: 1\nname: b\ndescription: x\nplugins:\n  p:\n    claude: {plugin_uri: u}\n",
        "b.bundle.yaml:4: 'plugins.p.claude' has unknown key(s): plugin_uri",
    ),
}


@pytest.mark.parametrize("case", sorted(BUNDLE_CASES))
def test_bad_bundle(tmp_path: Path, case: str) -> None:
    text, message = BUNDLE_CASES[case]
    path = tmp_path / "b.bundle.yaml"
    path.write_text(text)
    with pytest.raises(FormatError) as excinfo:
        load_bundle(path)
    assert str(excinfo.value) == f"{tmp_path}/{message}"


def test_discover_duplicate_identity(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "skills/a/RULE.md": "---\nname: same\ndescription: x\n---\n",
            "skills/b/RULE.md": "---\nname: same\ndescription: x\n---\n",
        },
    )
    with pytest.raises(FormatError) as excinfo:
        discover(tmp_path)
    assert str(excinfo.value) == (
        f"{tmp_path}/skills/b/RULE.md: duplicate rule 'same' "
        f"(also defined in {tmp_path}/skills/a/RULE.md)"
    )


def test_unreadable_is_reported_not_crashing(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": GOOD_RULE})
    os.unlink(item / "RULE.md")
    (item / "RULE.md").mkdir()
    with pytest.raises(FormatError):
        load_item_dir(item)


def test_symlink_escaping_inside_ignored_path_is_allowed(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": GOOD_RULE, "keep.md": "k"})
    (item / "RULE.md").write_text("---\ndescription: d\nignore: [vendor/]\n---\n")
    (item / "vendor").mkdir()
    (tmp_path / "outside").write_text("o")
    (item / "vendor" / "link").symlink_to(tmp_path / "outside")
    (rule,) = load_item_dir(item)
    assert [r.path for r in rule.resources] == ["keep.md"]


def test_requires_entry_without_name(tmp_path: Path) -> None:
    item = write(
        tmp_path / "item",
        {"RULE.md": "---\ndescription: x\nrequires:\n  rules: [{source: a/b}]\n---\n"},
    )
    assert load_error(item) == f"{item}/RULE.md:3: 'requires.rules' entry needs a string 'name'"
    path = tmp_path / "b.bundle.yaml"
    path.write_text("schema: 1\nname: b\ndescription: x\nrequires:\n  - {version: '1'}\n")
    with pytest.raises(FormatError) as excinfo:
        load_bundle(path)
    assert str(excinfo.value) == f"{path}:4: 'requires' entry needs a string 'name'"
