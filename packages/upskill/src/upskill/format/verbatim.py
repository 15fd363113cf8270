"""The source text of top-level frontmatter entries, for writing them as authored.

A skill's Agent Skills fields reach clients verbatim (issue 16): `metadata:` keeps its
key order, quoting and comments, and `version: 1.10` stays `1.10` (a YAML 1.2 reader
would re-emit the float as `1.1`). An entry is kept as text only when that text, read
alone, gives back exactly the value the whole document gave (no anchor or alias
reaching outside it); otherwise the renderer emits the parsed value.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from upskill.errors import FormatError
from upskill.format.yamlio import load_yaml, top_level_key_lines


def _blocks(yaml_text: str) -> dict[str, str]:
    """Each top-level key's lines, from its key line to the next key, without the
    trailing blank and column-0 comment lines (those belong to no entry)."""
    lines = yaml_text.split("\n")
    starts = sorted((line - 1, key) for key, line in top_level_key_lines(yaml_text).items())
    out: dict[str, str] = {}
    for index, (start, key) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines)
        block = lines[start:end]
        while block and (not block[-1].strip() or block[-1].startswith("#")):
            block.pop()
        out[key] = "\n".join(block) + "\n"
    return out


def authored_text(yaml_text: str, values: Mapping[str, Any], path: Path) -> dict[str, str]:
    """The text of each entry of `values` (a subset of what `yaml_text` parsed to) that
    reads back alone as the same key and value."""
    if not values:
        return {}
    blocks = _blocks(yaml_text)
    out: dict[str, str] = {}
    for key, value in values.items():
        text = blocks.get(key)
        if text is None:
            continue
        try:
            alone = load_yaml(text, path)
        except FormatError:
            continue
        if alone == {key: value} and type(alone[key]) is type(value):
            out[key] = text
    return out
