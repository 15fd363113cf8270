"""Edit one table of a client's TOML config (Codex `config.toml`), keeping the rest.

tomlkit keeps the user's comments, key order and layout: upskill adds, replaces
or deletes `[<root key>.<name>]` and nothing else. Reading is `tomllib`'s.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from upskill.errors import UpskillError


class TomlConfigError(UpskillError):
    """A TOML config file upskill cannot parse or extend."""


def loads(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlConfigError(f"invalid TOML: {exc}", path=path) from None


def _document(text: str, path: Path) -> Any:
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    loads(text, path)  # one error wording for every malformed file
    try:
        return tomlkit.parse(text)
    except TOMLKitError as exc:
        raise TomlConfigError(f"invalid TOML: {exc}", path=path) from None


def set_table(text: str, path: Path, key: str, name: str, entry: dict[str, object]) -> str:
    """`text` with `[key.name]` set to `entry` (appended, or replaced in place)."""
    import tomlkit

    doc = _document(text, path)
    parent = doc.get(key)
    if parent is None:
        parent = tomlkit.table(is_super_table=True)
        doc.add(key, parent)
    elif not isinstance(parent, dict):
        raise TomlConfigError(f"cannot update: `{key}` is not a table", path=path)
    table = tomlkit.table()
    for field, value in entry.items():
        table.add(field, value)
    parent[name] = table
    return str(tomlkit.dumps(doc))


def delete_table(text: str, path: Path, key: str, name: str) -> str:
    """`text` without `[key.name]`; unchanged when it is not there."""
    import tomlkit

    doc = _document(text, path)
    parent = doc.get(key)
    if not isinstance(parent, dict) or name not in parent:
        return text
    del parent[name]
    new = str(tomlkit.dumps(doc))
    if new.endswith("\n\n") and not text.endswith("\n\n"):
        new = new.rstrip("\n") + "\n"  # the blank line `set_table` put before the table
    return new
