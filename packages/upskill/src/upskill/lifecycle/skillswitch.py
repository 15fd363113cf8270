"""Turning one skill copy off for a client, in its user-level TOML config.

Codex lists every copy of a skill name it finds (`~/.agents/skills`, `~/.codex/skills`),
and `~/.codex/config.toml` can turn a copy off by path (`Registration.skill_switch`):

    [[skills.config]]
    path = "~/.agents/skills/dx/SKILL.md"
    enabled = false

The file is the user's (model, trusted projects, MCP servers), so upskill edits it the
way it edits the team's JSON files (`lifecycle.edits.settle`): one member per copy, an
entry of the array of tables identified by its `path`. The edits are textual so every
other byte stays: an entry is appended after the last line, and cut as the lines from
its header to the next one. Each edit is checked by parsing the result, which must be
the file's value with exactly that entry added or gone; a file where it would not be
(a `skills` written inline, a `skills.config` that is no array of tables, an entry
reformatted so its lines hold more than the entry) is an error, or a member that
cannot be cut, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from upskill.clientconf.tomlconfig import TomlConfigError, loads
from upskill.errors import UpskillError
from upskill.lifecycle.edits import ABSENT, Edit, Member, only_empty

Updater = Callable[[bytes | None], bytes | None]


class SwitchError(UpskillError):
    """A client config upskill cannot safely add a switch to."""


def entry(path: str) -> dict[str, object]:
    """The table a member stands for: the copy at `path` turned off."""
    return {"path": path, "enabled": False}


def _key(member: Member) -> tuple[str, ...]:
    return tuple(member[0].split("."))


def _value(text: str, where: str) -> dict[str, Any]:
    try:
        return loads(text, Path(where))
    except TomlConfigError as exc:
        raise SwitchError(f"cannot update: {exc.message}", path=where) from None


def _text(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SwitchError(f"cannot update: not UTF-8 ({exc.reason})", path=where) from None


def _tables(value: dict[str, Any], key: tuple[str, ...], where: str) -> list[Any]:
    """The array of tables at `key` (empty when absent); any other value is an error."""
    node: Any = value
    for part in key[:-1]:
        node = node.get(part, {})
        if type(node) is not dict:
            raise SwitchError(f"cannot update: `{part}` is not a table", path=where)
    tables = node.get(key[-1], [])
    if type(tables) is not list or any(type(t) is not dict for t in tables):
        dotted = ".".join(key)
        raise SwitchError(f"cannot update: `{dotted}` is not an array of tables", path=where)
    return tables


def holds(data: bytes, member: Member, where: str) -> object:
    """`edits.settle`'s `value`: the member's path when an entry of the array names it,
    whatever else that entry says (then it is the user's), else `ABSENT`."""
    tables = _tables(_value(_text(data, where), where), _key(member), where)
    return member[2] if any(t.get("path") == member[2] for t in tables) else ABSENT


def _block(member: Member) -> str:
    path = str(member[2]).replace("\\", "\\\\").replace('"', '\\"')
    return f'[[{member[0]}]]\npath = "{path}"\nenabled = false\n'


def _with(value: dict[str, Any], key: tuple[str, ...], tables: list[Any]) -> dict[str, Any]:
    """`value` with the array at `key` replaced by `tables` (dropped, with the tables
    that held only it, when empty): what a file must parse to after an edit."""
    if not key:
        return value
    head, rest = key[0], key[1:]
    out = dict(value)
    if rest:
        inner = _with(out.get(head, {}), rest, tables)
        if inner:
            out[head] = inner
        else:
            out.pop(head, None)
    elif tables:
        out[head] = tables
    else:
        out.pop(head, None)
    return out


def _append(text: str, member: Member, where: str) -> str:
    """`text` with the member's entry after its last line; unchanged when an entry of
    the array already names the path (then it is the user's)."""
    value = _value(text, where)
    key = _key(member)
    tables = _tables(value, key, where)
    if any(t.get("path") == member[2] for t in tables):
        return text
    # A blank line after the file's last line; an empty or blank file is kept as it is.
    ends = "" if not text or text.endswith("\n") else "\n"
    new = text + ends + ("\n" if text.strip() else "") + _block(member)
    if _parsed(new) != _with(value, key, [*tables, entry(str(member[2]))]):
        dotted = ".".join(key)
        raise SwitchError(f"cannot update: cannot append an entry to `{dotted}`", path=where)
    return new


_HEADER = re.compile(r"[ \t]*\[")  # a table or array-of-tables header line


def _cut(text: str, member: Member, where: str) -> str | None:
    """`text` without the entry naming the member's path: its header line and its lines
    up to the next header, less the blank and comment lines that end them, and a blank
    line before it, as `_append` wrote one. None: no such entry, or one whose lines do
    not hold that entry alone."""
    value = _value(text, where)
    key = _key(member)
    tables = _tables(value, key, where)
    if not any(t.get("path") == member[2] for t in tables):
        return None
    parts = r"[ \t]*\.[ \t]*".join(map(re.escape, key))
    header = re.compile(r"[ \t]*\[\[[ \t]*" + parts + r"[ \t]*\]\][ \t]*(#.*)?\r?\n?\Z")
    lines = text.splitlines(keepends=True)
    for start, line in enumerate(lines):
        if not header.match(line):
            continue
        end = start + 1
        while end < len(lines) and not _HEADER.match(lines[end]):
            end += 1
        while end > start + 1 and lines[end - 1].strip()[:1] in ("", "#"):
            end -= 1  # blank lines and comments before the next header are not the entry's
        body = _parsed("".join(lines[start + 1 : end]))
        if body is None or body.get("path") != member[2]:
            continue
        if body != entry(str(member[2])):
            return None  # the user's settings are in it too
        first = start - 1 if start > 0 and not lines[start - 1].strip() else start
        new = "".join(lines[:first] + lines[end:])
        rest = [t for t in tables if t != body]
        if len(rest) == len(tables) - 1 and _parsed(new) == _with(value, key, rest):
            return new
        return None
    return None


def _parsed(text: str) -> dict[str, Any] | None:
    try:
        return loads(text, Path())
    except TomlConfigError:
        return None


def put(where: str) -> Edit:
    """`edits.settle`'s `put`: append an entry per member (an absent file is created)."""

    def edit(members: tuple[Member, ...]) -> Updater:
        def update(current: bytes | None) -> bytes | None:
            text = "" if current is None else _text(current, where)
            for member in members:
                text = _append(text, member, where)
            return text.encode() if members else current

        return update

    return edit


def take(where: str) -> Edit:
    """`edits.settle`'s `take`: cut the members' entries (None: none of them is there,
    or one there cannot be cut alone)."""

    def edit(members: tuple[Member, ...]) -> Updater:
        def update(current: bytes | None) -> bytes | None:
            if current is None:
                return None
            text = original = _text(current, where)
            for member in members:
                cut = _cut(text, member, where)
                if cut is not None:
                    text = cut
            return None if text == original else text.encode()

        return update

    return edit


def value(where: str) -> Callable[[bytes, Member], object]:
    return lambda data, member: holds(data, member, where)


def bare(data: bytes) -> bool:
    """Whether a config upskill created holds nothing but empty tables once its entries
    are cut, and no comment: removing it loses nothing of the user's."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    parsed = _parsed(text)
    if parsed is None or "#" in text:
        return False

    return only_empty(parsed)
