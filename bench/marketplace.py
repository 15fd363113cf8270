"""A generated Claude plugin marketplace: the input of `install.py --marketplace`.

Published skill collections look like this (issue 16), not like the upskill book:
``.claude-plugin/marketplace.json`` names the plugins, each plugin keeps
``plugins/<plugin>/skills/<skill>/SKILL.md`` with ``references/*.md`` and an
executable ``scripts/*.sh`` beside it, and the bodies use what authors use —
nested lists, fenced examples inside list items, tables, links, ``*`` bullets,
thematic breaks, and text a Markdown formatter would escape (``<150``,
``=B5*(1+$B$6)``). Everything is a pure function of the skill's index, so two
runs measure the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path

N_PLUGINS = 10
N_SKILLS = 200
# The text the change scenario edits, present once in every SKILL.md body.
MARKER = "record the outcome"
TOPICS = (
    "pdf-forms",
    "sheet-formulas",
    "api-review",
    "db-migration",
    "release-notes",
    "incident-triage",
    "perf-profiling",
    "access-audit",
    "dep-upgrade",
    "test-flakes",
)
LANGS = ("bash", "python", "sql", "json")
EXAMPLES = {
    "bash": 'bash scripts/check.sh --strict input/\necho "exit: $?"',
    "python": (
        "import json\n\nwith open('report.json') as fh:\n"
        "    data = json.load(fh)\nprint(len(data['findings']))"
    ),
    "sql": "SELECT id, status\n  FROM jobs\n WHERE latency_ms < 150\n ORDER BY id;",
    "json": '{\n  "strict": true,\n  "limit": 100,\n  "paths": ["src/", "tests/"]\n}',
}


def plugin_name(p: int) -> str:
    return f"{TOPICS[p % len(TOPICS)]}-tools"


def skill_name(i: int) -> str:
    return f"{TOPICS[i % N_PLUGINS]}-{i:03d}"


def skill_dir(i: int) -> str:
    """The skill's directory relative to the marketplace root."""
    return f"plugins/{plugin_name(i % N_PLUGINS)}/skills/{skill_name(i)}"


def description(i: int) -> str:
    topic = TOPICS[i % N_PLUGINS].replace("-", " ")
    return (
        f"Use when working on {topic} task {i}: checks inputs, runs the bundled script "
        f"and records findings. Triggers on '{topic}', 'check {i}'."
    )


def body(i: int) -> str:
    """About 2 KB of Markdown written the way skill authors write it."""
    name = skill_name(i)
    lang = LANGS[i % len(LANGS)]
    steps = 3 + i % 4
    lines = [
        f"# {name.replace('-', ' ').title()}\n",
        f"Use this skill for {TOPICS[i % N_PLUGINS].replace('-', ' ')} work. Read "
        "[the guide](references/guide.md) first; the automated check is "
        "[scripts/check.sh](scripts/check.sh). Keep latency <150 ms and copy "
        "formulas such as =B5*(1+$B$6) verbatim.\n",
        "## Workflow\n",
        "1. Collect the inputs:\n"
        "   - CSV files: check the header row first.\n"
        "   - JSON files: validate them against [the schema](references/schema.md).\n"
        "     * Keep `null` values; do not drop keys.\n"
        "     * Sort keys only when the caller asks.\n"
        "2. Run the check:\n\n"
        f"   ```{lang}\n"
        + "".join(f"   {line}\n" if line else "\n" for line in EXAMPLES[lang].split("\n"))
        + "   ```\n\n"
        f"3. Fix each finding and {MARKER} in the ticket.",
    ]
    lines += [
        f"{n}. Step {n} of {steps}: confirm item {n} for `{name}`." for n in range(4, steps + 1)
    ]
    lines += [
        "",
        "## Options\n",
        "| Option | Default | Meaning |",
        "|---|---|---|",
        "| `--strict` | off | fail on warnings |",
        f"| `--limit N` | {100 + i} | stop after N findings |",
        "| `--format` | text | `text` or `json` |",
        "",
        "## Notes\n",
        "* Findings are sorted by file, then line.",
        "* A clean run prints nothing and exits 0.",
        f"* Upstream docs: <https://example.com/skills/{name}>.",
        "",
        "---",
        "",
        "When in doubt, stop and ask; *never* edit generated files by hand, and "
        "**always** rerun the check after a fix.",
        "",
    ]
    return "\n".join(lines)


def skill_md(i: int) -> str:
    return (
        f"---\nname: {skill_name(i)}\ndescription: {json.dumps(description(i))}\n"
        f"license: MIT\n---\n\n{body(i)}"
    )


def resources(i: int) -> dict[str, tuple[str, bool]]:
    """Relative path -> (text, executable) of one skill's resources."""
    name = skill_name(i)
    guide = "".join(
        f"## Part {k}\n\nBackground for `{name}`, part {k}. The check reads each input "
        "once and reports findings as `file:line: message`.\n\n- one\n- two\n\n"
        for k in range(1, 5)
    )
    files = {
        "references/guide.md": (f"# {name} guide\n\n{guide}", False),
        "scripts/check.sh": (
            "#!/usr/bin/env bash\nset -euo pipefail\n"
            f'# check for {name}\nfor f in "$@"; do\n  test -e "$f" || echo "$f: missing"\ndone\n',
            True,
        ),
    }
    if i % 2 == 0:
        files["references/schema.md"] = (
            f"# Schema\n\n| Field | Type |\n|---|---|\n| id | int |\n| {name} | str |\n",
            False,
        )
    return files


def write(path: Path, text: str, executable: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(0o755)


def write_skill(directory: Path, i: int, document: str) -> None:
    write(directory / "SKILL.md", document)
    for rel, (text, executable) in resources(i).items():
        write(directory / rel, text, executable)


def generate(root: Path) -> None:
    """The marketplace tree under ``root``."""
    plugins = [
        {
            "name": plugin_name(p),
            "source": f"./plugins/{plugin_name(p)}",
            "description": f"Skills for {TOPICS[p].replace('-', ' ')}",
        }
        for p in range(N_PLUGINS)
    ]
    manifest = {"name": "bench-marketplace", "owner": {"name": "Bench"}, "plugins": plugins}
    write(root / ".claude-plugin/marketplace.json", json.dumps(manifest, indent=2) + "\n")
    for plugin in plugins:
        meta = {"name": plugin["name"], "description": plugin["description"], "version": "1.0.0"}
        write(
            root / "plugins" / plugin["name"] / ".claude-plugin/plugin.json",
            json.dumps(meta, indent=2) + "\n",
        )
    for i in range(N_SKILLS):
        write_skill(root / skill_dir(i), i, skill_md(i))


def generate_rulesync(project: Path) -> None:
    """The same skills as rulesync's own input, ``.rulesync/skills/<name>/``."""
    for i in range(N_SKILLS):
        write_skill(project / ".rulesync/skills" / skill_name(i), i, skill_md(i))
