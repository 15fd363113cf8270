"""Read and merge client JSON/JSONC (and TOML) config files, atomically and minimally.

A config file belongs to the user and the client: upskill edits only the one
member it owns (through `jsonc`), never creates a file just to leave it empty,
and replaces files by rename so a crash leaves either the old or new bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from upskill import fsio, jsonc
from upskill.clientconf import tomlconfig
from upskill.clientconf.places import ConfigLocation
from upskill.errors import UpskillError

MAX_CONFIG_BYTES = 16 * 1024 * 1024


class ConfigFileError(UpskillError):
    """A client config file cannot be read, parsed or written."""


def read_text(path: Path, within: Path | None = None) -> str | None:
    """The file's text, or None when it does not exist (`fsio.read_contained`: a regular
    file, bounded, not reached through a symlink leaving `within`)."""
    try:
        data = fsio.read_contained(path, within=within, limit=MAX_CONFIG_BYTES)
        return None if data is None else data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigFileError(f"cannot read: {reason}", path=path) from None


def write_text_atomic(path: Path, text: str, root: Path | None) -> None:
    """Crash-safe replace (`upskill.fsio`), keeping an existing file's mode. A symlinked
    config (dotfiles) is written through to its file when that lies in the scope `root`
    (`fsio.replaced_file`), and stays a link; otherwise `fsio.UnsafeFile` names it."""
    target = path if root is None else fsio.replaced_file(path, root=root)
    try:
        if target.exists():
            fsio.replace_file(target, text.encode())
        else:
            fsio.atomic_write(target, text.encode())
    except OSError as exc:
        raise ConfigFileError(f"cannot write: {exc.strerror or exc}", path=path) from None


def _existing(location: ConfigLocation) -> Path:
    """The file to edit: the preferred one, else an alternative that exists."""
    for candidate in (location.path, *location.alternatives):
        try:
            if candidate.exists():
                return candidate
        except OSError as exc:
            raise ConfigFileError(f"cannot read: {exc.strerror or exc}", path=candidate) from None
    return location.path


def _edit(path: Path, text: str, edit: object, *args: object) -> str:
    try:
        return edit(text, *args)  # type: ignore[operator, no-any-return]
    except jsonc.JsoncError as exc:
        raise ConfigFileError(exc.message, path=path, line=exc.line) from None


def _toml(path: Path) -> bool:
    return path.suffix == ".toml"


def _parse(path: Path, text: str) -> object:
    if _toml(path):
        return tomlconfig.loads(text, path)
    try:
        return jsonc.loads(text)
    except jsonc.JsoncError as exc:
        raise ConfigFileError(exc.message, path=path, line=exc.line) from None


def upsert(location: ConfigLocation, name: str, entry: dict[str, object]) -> bool:
    """Set `<root key>.<name>` to entry; True when the file changed."""
    path = _existing(location)
    old = read_text(path, location.within)
    if _toml(path):
        new = tomlconfig.set_table(old or "", path, location.root_key, name, entry)
        if new == old:
            return False
        write_text_atomic(path, new, location.root)
        return True
    if old is None or not old.strip():
        text = json.dumps({location.root_key: {name: entry}}, indent=2, ensure_ascii=False)
        write_text_atomic(path, text + "\n", location.root)
        return True
    new = _edit(path, old, jsonc.set_member, (location.root_key, name), entry)
    if new == old:
        return False
    write_text_atomic(path, new, location.root)
    return True


def delete(location: ConfigLocation, name: str) -> bool:
    """Delete `<root key>.<name>`; True when it was there. An absent file stays absent."""
    path = _existing(location)
    old = read_text(path, location.within)
    if old is None or not old.strip():
        return False
    if _toml(path):
        new = tomlconfig.delete_table(old, path, location.root_key, name)
    else:
        new = _edit(path, old, jsonc.delete_member, (location.root_key, name))
    if new == old:
        return False
    write_text_atomic(path, new, location.root)
    return True


def _array_edit(location: ConfigLocation, value: str, *, add: bool) -> bool:
    path = _existing(location)
    old = read_text(path, location.within)
    if old is None or not old.strip():
        if not add:
            return False
        write_text_atomic(
            path, json.dumps({location.root_key: [value]}, indent=2) + "\n", location.root
        )
        return True
    edit = jsonc.append_item if add else jsonc.remove_item
    new = _edit(path, old, edit, (location.root_key,), value)
    if new == old:
        return False
    left: object = _edit(path, new, jsonc.array_at, (location.root_key,))
    if not add and left == []:
        new = _edit(path, new, jsonc.delete_member, (location.root_key,))  # no `"plugin": []`
    write_text_atomic(path, new, location.root)
    return True


def add_to_array(location: ConfigLocation, value: str) -> bool:
    """Append value to the top-level array `<root key>` unless present; True when changed."""
    return _array_edit(location, value, add=True)


def remove_from_array(location: ConfigLocation, value: str) -> bool:
    """Remove value from the top-level array `<root key>`; True when it was there."""
    return _array_edit(location, value, add=False)


def array_contains(location: ConfigLocation, value: str) -> bool | None:
    """None when the file is absent; raises ConfigFileError when unreadable."""
    path = _existing(location)
    text = read_text(path, location.within)
    if text is None:
        return None
    try:
        items = jsonc.array_at(text, (location.root_key,)) if text.strip() else None
    except jsonc.JsoncError as exc:
        raise ConfigFileError(exc.message, path=path, line=exc.line) from None
    return items is not None and value in items


@dataclass(frozen=True)
class Lookup:
    """Whether a file holds the server; `present_file` False when the file is absent."""

    present_file: bool
    registered: bool


ABSENT = object()  # `member`: no such entry (or no such file)


def member(location: ConfigLocation, name: str) -> object:
    """The value of `<root key>.<name>`, or `ABSENT` (raises ConfigFileError when the file
    is unreadable or malformed)."""
    path = _existing(location)
    text = read_text(path, location.within)
    if text is None or not text.strip():
        return ABSENT
    data = _parse(path, text)
    servers = data.get(location.root_key) if isinstance(data, dict) else None
    if not isinstance(servers, dict) or name not in servers:
        return ABSENT
    return servers[name]


def lookup(location: ConfigLocation, name: str) -> Lookup:
    """Find `<root key>.<name>` (raises ConfigFileError when unreadable or malformed)."""
    path = _existing(location)
    text = read_text(path, location.within)
    if text is None:
        return Lookup(present_file=False, registered=False)
    data = _parse(path, text) if text.strip() else {}
    servers = data.get(location.root_key) if isinstance(data, dict) else None
    return Lookup(present_file=True, registered=isinstance(servers, dict) and name in servers)
