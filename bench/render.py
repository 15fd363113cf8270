"""upskill rendering throughput, as a ratio to plain mdformat in the same run.

Run from the repository root: ``uv run python bench/render.py [--items N]``.

Generates N items (rules, skills and agents in equal parts; bodies with
headings, lists, tables, code, links to resources, and client directives in
one item of three), loads them, then renders every item for claude, copilot,
vscode and opencode (caches cold). Rendering no longer formats bodies
(docs/upskill/format.md, "Bodies are delivered verbatim"); it processes
directives and rewrites resource links. The baseline is ``mdformat.text`` of
the same items' bodies with the same options, once per item (what rendering
used to pay). Target: at least 2,000 item x client renders per second on one
core. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from upskill.format import load_item_dir
from upskill.markdown import FORMATTER_EXTENSIONS, FORMATTER_OPTIONS
from upskill.render import render_item

CLIENTS = ("claude", "copilot", "vscode", "opencode")
TARGET = 2000.0
KINDS = (
    ("RULE.md", "scope:\n  paths:\n    - 'src/**/*.ts'\n"),
    ("SKILL.md", "allowed-tools: Read Grep\n"),
    ("AGENT.md", "model: sonnet\ntools: [read, grep, bash]\npreload-skills: [helper]\n"),
)


def body(index: int) -> str:
    directive = (
        "<!-- @client:claude -->\n\nClaude-only step {i}.\n\n<!-- @endclient -->\n\n"
        if index % 3 == 0
        else ""
    ).format(i=index)
    return (
        f"## Item {index}\n\nFollow these steps for case {index}:\n\n"
        "1. Read [the guide](./references/guide.md) first.\n"
        "2. Run `make check` and fix *every* warning.\n"
        "3. See <https://example.com/docs> for **details**.\n\n"
        f"{directive}"
        "| Field | Meaning |\n|---|---|\n| a | first |\n| b | second |\n\n"
        "```sh\nmake check\n```\n\n"
        "- Keep changes small.\n- Prefer tests over comments.\n"
    )


def generate(root: Path, count: int) -> list[Path]:
    dirs = []
    for index in range(count):
        entry, extra = KINDS[index % 3]
        directory = root / f"item-{index}"
        (directory / "references").mkdir(parents=True)
        (directory / entry).write_text(
            f"---\nschema: 1\ndescription: Use when handling case {index}\n{extra}---\n\n"
            + body(index)
        )
        (directory / "references" / "guide.md").write_text(f"Guide {index}\n")
        dirs.append(directory)
    return dirs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1000)
    args = parser.parse_args()
    import mdformat

    with tempfile.TemporaryDirectory() as tmp:
        dirs = generate(Path(tmp), args.items)
        start = time.perf_counter()
        items = [item for d in dirs for item in load_item_dir(d)]
        load_seconds = time.perf_counter() - start

    bodies = [item.body for item in items]
    start = time.perf_counter()
    for text in bodies:
        mdformat.text(text, options=FORMATTER_OPTIONS, extensions=FORMATTER_EXTENSIONS)
    baseline = time.perf_counter() - start

    start = time.perf_counter()
    renders = 0
    for item in items:
        for client in CLIENTS:
            render_item(item, client)
            renders += 1
    render_seconds = time.perf_counter() - start

    rate = renders / render_seconds

    print(f"items: {len(items)}  clients: {len(CLIENTS)}  renders: {renders}")
    per_item_load = load_seconds * 1e3 / len(items)
    print(f"load (parse + validate + read resources): {per_item_load:.3f} ms/item")
    print(f"mdformat.text baseline: {baseline * 1e3 / len(items):.3f} ms/item")
    print(
        f"render_item: {render_seconds * 1e6 / renders:.1f} us/render, "
        f"{render_seconds * 1e3 / len(items):.3f} ms/item (all {len(CLIENTS)} clients)"
    )
    print(f"ratio render-all-clients / mdformat-once, per item: {render_seconds / baseline:.2f}")
    print(f"throughput: {rate:.0f} renders/s (target >= {TARGET:.0f})")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
