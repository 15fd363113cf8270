"""`upskill lint`: every rule id, output format, --json, --strict and exit codes."""

from __future__ import annotations

import json

from upskill.clients import FAMILIES

FAMILIES_TEXT = ", ".join(FAMILIES)

GOOD_SKILL = "---\nschema: 1\nname: good\ndescription: Use when testing\n---\n\n## Good\n\nText.\n"


def _item(writer, root, directory, entry, frontmatter, body="## X\n"):
    return writer(root / directory / entry, f"---\n{frontmatter}---\n\n{body}")


def test_clean_tree_exits_0(work, upskill, writer):
    writer(work / "skills" / "good" / "SKILL.md", GOOD_SKILL)
    result = upskill("lint")
    assert result.returncode == 0
    assert result.stdout == "1 file(s) checked, 0 findings\n"
    assert result.stderr == ""


def test_every_rule_id_with_exact_output(work, upskill, writer):
    fm = "schema: 1\nname: {n}\ndescription: Use when testing\n"
    _item(writer, work, "bad-h1", "SKILL.md", fm.format(n="bad-h1"), "# Title\n\n### Skipped\n")
    _item(writer, work, "nofence", "RULE.md", fm.format(n="nofence"), "## Code\n\n```\nx\n```\n")
    _item(writer, work, "wrongname", "SKILL.md", fm.format(n="other"))
    _item(writer, work, "collide", "RULE.md", fm.format(n="collide"))
    writer(work / "collide.bundle.yaml", "schema: 1\nname: collide\ndescription: d\n")
    writer(work / "right.bundle.yaml", "schema: 1\nname: wrong\ndescription: d\n")
    _item(writer, work, "broken", "AGENT.md", fm.format(n="broken"), "## X\n\n<!-- @client:x -->\n")
    _item(writer, work, "badyaml", "RULE.md", "schema: 1\nname: badyaml\ndescription: [oops\n")
    _item(writer, work, "schema2", "RULE.md", fm.format(n="schema2").replace("1", "2", 1))
    _item(writer, work, "baddir", "AGENT.md", 'schema: 1\nname: Bad_Dir\ndescription: ""\n')
    _item(writer, work, "unformatted", "RULE.md", fm.format(n="unformatted"), "* a\n* b\n")
    _item(writer, work, "order", "RULE.md", "name: order\nschema: 1\ndescription: Use when x\n")
    long = f"schema: 1\nname: longdesc\ndescription: {'x' * 300}\ncompatibility: {'y' * 600}\n"
    _item(writer, work, "longdesc", "SKILL.md", long)
    writer(work / "links" / "references" / "deep" / "er" / "x.md", "x\n")
    _item(
        writer,
        work,
        "links",
        "SKILL.md",
        fm.format(n="links"),
        "## X\n\nSee [a](references/missing.md), [b](../collide/RULE.md), "
        "[c](references/deep/er/x.md) and [d](https://example.com).\n",
    )
    writer(work / "nofm" / "RULE.md", "## Body only\n")
    result = upskill("lint")
    assert result.returncode == 1
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        "warning: bad-h1/SKILL.md:7 [body-h1] H1 heading in the body; start at '##' "
        "(clients derive the H1 from the name)",
        "warning: bad-h1/SKILL.md:9 [heading-level] heading level 3 follows level 1; "
        "do not skip levels",
        "error: baddir/AGENT.md:3 [name] name 'Bad_Dir' must be lowercase",
        "error: baddir/AGENT.md:4 [description] 'description' is empty",
        "error: badyaml/RULE.md:5 [frontmatter] invalid YAML: expected ',' or ']', "
        "but got '<stream end>'",
        "error: broken/AGENT.md:9 [directive] unclosed directive (missing '<!-- @endclient -->')",
        "error: broken/AGENT.md:9 [directive] unknown client 'x' in directive "
        f"(known: {FAMILIES_TEXT})",
        "error: collide.bundle.yaml [name-collision] bundle name 'collide' is also an item "
        "directory name; rename one so that a name given to `upskill add` is unambiguous",
        "warning: links/SKILL.md:9 [link] link '../collide/RULE.md' leaves the item directory",
        "warning: links/SKILL.md:9 [link] link 'references/missing.md': no such file",
        "warning: links/SKILL.md:9 [reference-depth] link 'references/deep/er/x.md' is 3 "
        "directories deep; keep references one level below the skill (Agent Skills)",
        "warning: longdesc/SKILL.md:4 [skill-description-length] skill description has 300 "
        "characters; aim for 200 or fewer (it is read on every activation decision)",
        "error: longdesc/SKILL.md:5 [compatibility] compatibility has 600 characters; "
        "the limit is 500",
        "warning: nofence/RULE.md:9 [fence-lang] fenced code block without a language "
        "(use 'text' when none applies)",
        "error: nofm/RULE.md:1 [frontmatter] missing YAML frontmatter "
        "(the file must start with '---')",
        "warning: order/RULE.md:2 [key-order] frontmatter is not in canonical key "
        "order/layout; run `upskill fmt`",
        "error: right.bundle.yaml:2 [name-matches-dir] name 'wrong' differs from the "
        "file name stem 'right'",
        "error: schema2/RULE.md:2 [frontmatter] requires format schema 2, but this upskill "
        "supports schema 1 at most; upgrade upskill to read it",
        "warning: unformatted/RULE.md:7 [body-format] body (or seam) is not formatted "
        "canonically; run `upskill fmt`",
        "error: wrongname/SKILL.md:3 [name-matches-dir] name 'other' differs from the "
        "directory name 'wrongname'",
        "15 file(s) checked, 20 findings",
    ]


def test_warnings_exit_0_unless_strict(work, upskill, writer):
    _item(writer, work, "w", "RULE.md", "schema: 1\nname: w\ndescription: d\n", "# H1\n")
    plain = upskill("lint")
    assert plain.returncode == 0
    assert plain.stdout.splitlines()[0].startswith("warning: w/RULE.md:7 [body-h1]")
    strict = upskill("lint", "--strict")
    assert strict.returncode == 1
    assert strict.stdout.splitlines()[0].startswith("error: w/RULE.md:7 [body-h1]")
    assert upskill("lint", "-s").returncode == 1


def test_json_report_is_stable(work, upskill, writer):
    _item(writer, work, "w", "RULE.md", "schema: 1\nname: w\ndescription: d\n", "# H1\n")
    writer(work / "good" / "SKILL.md", GOOD_SKILL)
    result = upskill("lint", "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == {
        "schema": 1,
        "strict": False,
        "files_checked": 2,
        "errors": 0,
        "warnings": 1,
        "findings": [
            {
                "path": "w/RULE.md",
                "line": 7,
                "rule": "body-h1",
                "severity": "warning",
                "message": "H1 heading in the body; start at '##' "
                "(clients derive the H1 from the name)",
            }
        ],
    }
    assert result.stdout == upskill("lint", "--json").stdout  # byte-stable
    strict = upskill("lint", "--json", "--strict")
    assert strict.returncode == 1
    assert json.loads(strict.stdout)["findings"][0]["severity"] == "error"


def test_paths_select_file_item_dir_or_tree(work, upskill, writer):
    writer(work / "skills" / "good" / "SKILL.md", GOOD_SKILL)
    _item(writer, work, "skills/w", "RULE.md", "schema: 1\nname: w\ndescription: d\n", "# H\n")
    assert upskill("lint", "skills/good").stdout == "1 file(s) checked, 0 findings\n"
    assert upskill("lint", "skills/good/SKILL.md").stdout == "1 file(s) checked, 0 findings\n"
    assert upskill("lint", "skills").stdout.endswith("2 file(s) checked, 1 findings\n")
    assert upskill("lint").stdout.endswith("2 file(s) checked, 1 findings\n")
    hidden = writer(work / ".hidden" / "x" / "RULE.md", "nonsense")
    assert hidden.exists()
    assert upskill("lint").stdout.endswith("2 file(s) checked, 1 findings\n")


def test_malformed_yaml_names_file_and_line(work, upskill, writer):
    writer(work / "r" / "RULE.md", "---\nschema: 1\nname: r\ndescription: d\n  bad: indent\n---\n")
    result = upskill("lint")
    assert result.returncode == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith("error: r/RULE.md:5 [frontmatter] invalid YAML:")


def test_not_an_ssot_file_and_missing_path_are_usage_errors(work, upskill, writer):
    writer(work / "README.md", "# readme\n")
    result = upskill("lint", "README.md")
    assert result.returncode == 2
    assert result.stderr == (
        "upskill: error: README.md: not an SSOT file (expected RULE.md, SKILL.md, AGENT.md, "
        "a <KIND>.<client>.md override or *.bundle.yaml)\n"
    )
    missing = upskill("lint", "nope")
    assert missing.returncode == 2
    assert missing.stderr == "upskill: error: nope: no such file or directory\n"


def test_lint_refuses_consumer_project(work, upskill, writer):
    writer(work / "good" / "SKILL.md", GOOD_SKILL)
    writer(work / ".upskill-lock.json", '{"schema": 1}\n')
    result = upskill("lint")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "upskill: error: .upskill-lock.json marks a consumer project; author commands "
        "(new, lint, fmt) run in a source registry\n"
    )
    elsewhere = upskill("lint", "--strict", str(work / "good"), cwd=work.parent)
    assert elsewhere.returncode == 0  # only the linted path's root counts


def test_first_heading_below_h2_is_reported(work, upskill, writer):
    body = "### Deep start\n\n## Back\n\n#### Skip\n"
    _item(writer, work, "h", "RULE.md", "schema: 1\nname: h\ndescription: d\n", body)
    assert upskill("lint").stdout.splitlines() == [
        "warning: h/RULE.md:7 [heading-level] first heading is level 3; start at '##'",
        "warning: h/RULE.md:11 [heading-level] heading level 4 follows level 2; do not skip levels",
        "1 file(s) checked, 2 findings",
    ]


def test_directives_inside_fences_and_h1_inside_fences_are_fine(work, upskill, writer):
    body = "## Syntax\n\n```markdown\n# Title\n<!-- @client:nobody -->\n```\n"
    _item(writer, work, "doc", "SKILL.md", "schema: 1\nname: doc\ndescription: d\n", body)
    result = upskill("lint", "--strict")
    assert result.stdout == "1 file(s) checked, 0 findings\n"
    assert result.returncode == 0


def test_override_with_frontmatter_is_reported(work, upskill, writer):
    writer(work / "o" / "RULE.md", "---\nschema: 1\nname: o\ndescription: d\n---\n\n## O\n")
    writer(work / "o" / "RULE.claude.md", "---\nname: o\n---\n\n## Claude\n")
    result = upskill("lint")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "error: o/RULE.claude.md:1 [frontmatter] override files contain body only; "
        "frontmatter comes from RULE.md (remove the '---' block)"
    )


def test_override_bodies_get_body_checks(work, upskill, writer):
    writer(work / "o" / "SKILL.md", "---\nschema: 1\nname: o\ndescription: d\n---\n\n## O\n")
    writer(work / "o" / "SKILL.claude.md", "# Claude\n\n```\nx\n```\n\nSee [m](missing.md).\n")
    result = upskill("lint")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "warning: o/SKILL.claude.md:1 [body-h1] H1 heading in the body; start at '##' "
        "(clients derive the H1 from the name)",
        "warning: o/SKILL.claude.md:3 [fence-lang] fenced code block without a language "
        "(use 'text' when none applies)",
        "warning: o/SKILL.claude.md:7 [link] link 'missing.md': no such file",
        "2 file(s) checked, 3 findings",
    ]


def test_huge_and_symlinked_entrypoints_are_reported_not_read(work, upskill, writer):
    big = writer(work / "big" / "RULE.md", b"---\n" + b"x" * (10 * 1024 * 1024 + 1))
    real = writer(work / "elsewhere.md", "---\nschema: 1\nname: s\ndescription: d\n---\n")
    (work / "sym").mkdir()
    (work / "sym" / "RULE.md").symlink_to(real)
    result = upskill("lint")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("error: big/RULE.md [frontmatter] file is too large (")
    assert lines[1] == "error: sym/RULE.md [frontmatter] must be a regular file, not a symlink"
    fmt = upskill("fmt")
    assert fmt.returncode == 1
    assert big.stat().st_size == 10 * 1024 * 1024 + 5
    assert (work / "sym" / "RULE.md").is_symlink()


def test_model_warnings_plugin_descriptors_and_semver(work, upskill, writer):
    writer(
        work / "p.bundle.yaml",
        "schema: 1\nname: p\ndescription: d\nplugins:\n  sp:\n    claude:\n"
        "      source: anthropics/claude-plugins\n      marketplace: anthropics/claude-plugins\n"
        '      plugin: sp\nmetadata:\n  version: "1.0"\n',
    )
    _item(
        writer,
        work,
        "r",
        "RULE.md",
        "schema: 1\nname: r\ndescription: d\nmetadata:\n  version: v1\n",
    )
    result = upskill("lint")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "warning: p.bundle.yaml:4 [plugin-descriptor] 'plugins.sp.claude.marketplace' repeats "
        "'source'; it must be the registered marketplace name (e.g. 'claude-plugins' for "
        "'anthropics/claude-plugins')",
        "warning: p.bundle.yaml:10 [metadata] metadata.version '1.0' is not a semantic version "
        "(MAJOR.MINOR.PATCH)",
        "warning: r/RULE.md:5 [metadata] metadata.version 'v1' is not a semantic version "
        "(MAJOR.MINOR.PATCH)",
        "2 file(s) checked, 3 findings",
    ]
    assert upskill("lint", "--strict").returncode == 1
