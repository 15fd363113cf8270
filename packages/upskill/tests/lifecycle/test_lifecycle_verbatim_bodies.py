"""Bodies reach every client as their authors wrote them (issue 16, item 4).

Install used to run the formatter over every body. On third-party skills that
lost the indentation of a fence in a list item, escaped `<150` and a
spreadsheet formula, turned `---` into underscores, `3.` into `03.` and
realigned tables. Through the real CLI, each of those constructs must arrive
byte for byte in every client's file; only the frontmatter, the processed
directives and the rewritten resource links may differ.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from upskill.render.compiled import parse_sections

REGRESSIONS = """\
## Steps

1. Prepare the data:

   ```python
   rows = load("data.csv")
   ```

   Then check the rows.
2. Show the nested example:

````markdown
```bash
make check
```
````

1. Run:
   ```bash
 echo hi
   ```
2. Then the fence above swallows this list, as CommonMark reads it.
```

Prose after the example stays prose.

Scores <150 are low; keep them.

In a spreadsheet use =B5*(1+$B$6) to grow by the rate; C:\\Users\\me keeps its backslashes.

---

3. Third step written as three.
4. Fourth.
5. Fifth.
6. Sixth.
7. Seventh.
8. Eighth.
9. Ninth.
10. Tenth.

| Name | Value |
|---|--:|
| a | 1 |
| longer name | 22 |

* star bullets stay stars
+ plus too

Setext heading
--------------
"""

KINDS = {"skill": "SKILL.md", "rule": "RULE.md", "agent": "AGENT.md"}
EXTRA = {"agent": "mode: subagent\nmodel: sonnet\ntools:\n  - read\n"}
LINK = "See [the guide](references/guide.md).\n"


def _write_registry(root: Path) -> None:
    for kind, entry in KINDS.items():
        name = f"verbatim-{kind}"
        directory = root / "skills" / name
        (directory / "references").mkdir(parents=True)
        (directory / "references" / "guide.md").write_text("Guide.\n")
        (directory / entry).write_text(
            f"---\nschema: 1\ndescription: Use when testing {name}\n{EXTRA.get(kind, '')}---\n\n"
            f"{REGRESSIONS}\n{LINK}"
        )


def _body(path: Path) -> str:
    text = path.read_text()
    if path.suffix == ".toml":
        return str(tomllib.loads(text)["developer_instructions"])
    if path.suffix == ".json":  # Kiro CLI's agent configuration: the body is `prompt`
        return str(json.loads(text)["prompt"])
    if text.startswith("---\n"):
        _, _, rest = text[4:].partition("\n---\n")
        assert rest.startswith("\n"), f"{path}: one blank line after the frontmatter"
        return rest[1:]
    return text


def test_every_client_receives_the_body_byte_for_byte(cli, project, tmp_path):
    registry = tmp_path / "registry"
    _write_registry(registry)
    cli.ok("add", str(registry), "--all", cwd=project)
    compiled = {project / "AGENTS.md", project / ".gemini/upskill.md"}
    for path in compiled:  # a rule's section of the single-file clients' compiled file
        sections = parse_sections(path.read_bytes())
        assert sections is not None
        assert sections["verbatim-rule"] == f"{REGRESSIONS}\n{LINK}".rstrip("\n").encode() + b"\n"
    delivered = sorted(
        p
        for p in project.rglob("*")
        if p.is_file() and p not in compiled and "Prepare the data" in p.read_text()
    )
    # every generated entrypoint: skills, rules and agents across the clients
    assert len(delivered) >= 20
    kinds_seen = set()
    for path in delivered:
        name = next(f"verbatim-{k}" for k in KINDS if f"verbatim-{k}" in path.as_posix())
        kinds_seen.add(name)
        body = _body(path)
        # A flat output's resources sit in a sibling `<name>/` directory, so its
        # link gains that prefix; a skill directory keeps its own references/.
        flat = not path.as_posix().endswith("/SKILL.md") and "/rules/" + name + "/" not in (
            path.as_posix()
        )
        link = LINK.replace("](references/", f"]({name}/references/") if flat else LINK
        assert body == f"{REGRESSIONS}\n{link}", path.relative_to(project)
    assert kinds_seen == {f"verbatim-{k}" for k in KINDS}


def test_the_formatter_would_have_changed_every_regression():
    """The constructs above are ones `upskill fmt` rewrites: the test above would fail
    if install formatted bodies again."""
    from upskill.markdown import format_body

    formatted = format_body(REGRESSIONS)
    for written in ("s <150", "use =B5*(", "\n---\n", "\n3. Third", "| a | 1 |", "* star"):
        assert written in REGRESSIONS
        assert written not in formatted, written


def test_directive_removal_in_a_tidy_body_leaves_no_blank_line_runs(cli, project, tmp_path):
    registry = tmp_path / "registry"
    body = (
        "## Notes\n\nIntro.\n\n<!-- @client:claude -->\n\nClaude only.\n\n<!-- @endclient -->\n\n"
        "<!-- @client:!claude -->\nOthers.\n<!-- @endclient -->\n\nOutro.\n"
    )
    directory = registry / "skills" / "notes"
    directory.mkdir(parents=True)
    (directory / "SKILL.md").write_text(
        f"---\nschema: 1\ndescription: Use when taking notes\n---\n\n{body}"
    )
    cli.ok("add", str(registry), "--claude", "--copilot", cwd=project)
    claude = _body(project / ".claude/skills/notes/SKILL.md")
    copilot = _body(project / ".github/skills/notes/SKILL.md")
    assert claude == "## Notes\n\nIntro.\n\nClaude only.\n\nOutro.\n"
    assert copilot == "## Notes\n\nIntro.\n\nOthers.\n\nOutro.\n"
