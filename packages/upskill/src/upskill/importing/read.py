"""Read one client file: bounded, contained, strict UTF-8, frontmatter split and parsed.

Client files are the user's own, often hand-written: a Markdown file may have no
frontmatter at all (a bare Kilo rule, an old Claude rule), and Cursor writes glob
lists unquoted (`globs: **/*.py`), which YAML would read as an alias. Those keys
(`Client.raw_keys`) are taken verbatim before the rest goes to the YAML loader.
Every failure is one `FormatError` naming the file (and line), so a broken file
stops the import before anything is written.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill import fsio
from upskill.errors import FormatError
from upskill.format.frontmatter import closing_fence, normalise_newlines
from upskill.format.yamlio import load_yaml

MAX_FILE_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class Document:
    fields: Mapping[str, Any]
    body: str


def read_bytes(path: Path, within: Path | None, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The file's bytes, None when absent; a symlink leaving `within` is refused."""
    try:
        return fsio.read_contained(path, within=within, limit=limit)
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=path) from None


def read_text(path: Path, within: Path | None) -> str | None:
    data = read_bytes(path, within)
    if data is None:
        return None
    try:
        return normalise_newlines(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError("file is not valid UTF-8", path=path, line=line) from None


def _raw_lines(lines: list[str], raw_keys: frozenset[str]) -> tuple[list[str], dict[str, str]]:
    """Pull `key: value` lines of `raw_keys` out of the YAML, their values verbatim."""
    kept: list[str] = []
    raw: dict[str, str] = {}
    for line in lines:
        match = re.match(r"([A-Za-z_][\w-]*):[ \t]*(.*)\Z", line)
        value = match.group(2).strip() if match is not None else ""
        # A quoted value is valid YAML (and means the same): the YAML loader reads it.
        if match is not None and match.group(1) in raw_keys and value[:1] not in ("", "'", '"'):
            raw[match.group(1)] = match.group(2).strip()
            kept.append("")  # keep line numbers of the rest
        else:
            kept.append(line)
    return kept, raw


def parse_markdown(text: str, path: Path, raw_keys: frozenset[str] = frozenset()) -> Document:
    """Frontmatter (a mapping, possibly empty) and body of a client Markdown file."""
    lines = text.split("\n")
    end = closing_fence(lines)
    if end is None:
        return Document({}, text)
    yaml_lines, raw = _raw_lines(lines[1:end], raw_keys)
    data = load_yaml("\n".join(yaml_lines) + "\n", path, first_line=2)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FormatError("frontmatter must be a YAML mapping", path=path, line=2)
    for key in data:
        if type(key) is not str:
            raise FormatError(f"frontmatter key {key!r} must be a string", path=path, line=2)
    fields: dict[str, Any] = {}
    # Keep the file's key order: raw keys go where their line was.
    order = [m.group(1) for line in lines[1:end] if (m := re.match(r"([^\s#:][^:]*):", line))]
    for key in order:
        if key in raw:
            fields[key] = raw[key]
        elif key in data:
            fields[key] = data[key]
    fields.update({k: v for k, v in data.items() if k not in fields})
    body = "\n".join(lines[end + 1 :])
    return Document(fields, body.removeprefix("\n"))


def parse_json_object(text: str, path: Path) -> dict[str, Any]:
    """A JSON-carried item (Kiro CLI agents): one object, duplicate keys refused."""
    import json

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"duplicate key {next(k for k in keys if keys.count(k) > 1)!r}")
        return dict(pairs)

    try:
        data = json.loads(text, object_pairs_hook=unique)
    except ValueError as exc:  # JSONDecodeError is one
        raise FormatError(f"invalid JSON: {exc}", path=path) from None
    if not isinstance(data, dict):
        raise FormatError("invalid JSON: expected an object", path=path)
    return data


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"invalid TOML: {exc}", path=path) from None
