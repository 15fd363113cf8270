"""The lockfile's `mcps[]` and `plugins[]` records, parsed strictly.

Shapes follow the reference notes §4 (`name`, `client`, `identifier` for
plugins, `scope?`, `bundle`, `status`). A malformed record fails the whole
read with an error naming the file and the record (`mcps[2]`): a record
silently skipped would be configured again, or never unregistered. Unknown
fields are kept in `extra` and written back, as for items.

The helpers follow packaging's `pylock.py` (`_get`, `_get_required`): each
checks one key's exact type (`type(x) is str`, so `true` is no string) and
says which key was wrong. These are the records as stored; the MCP and
plugin code resolve a missing `scope` against the lockfile's own scope.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

SCOPES = ("project", "user")  # the clients' own scope names (upskill global = `user`)
MCP_STATUSES = ("installed", "skipped")
PLUGIN_STATUSES = ("installed", "skipped", "instructions")
_DEFAULT_STATUS = "installed"  # upstream reads a missing status as installed

_MCP_FIELDS = ("name", "client", "scope", "bundle", "status", "sha256")
_PLUGIN_FIELDS = ("name", "client", "identifier", "scope", "bundle", "status")

_T = TypeVar("_T")
_E = TypeVar("_E", "McpEntry", "PluginEntry")


class RecordError(ValueError):
    """A record breaks its shape; `where` names it (`mcps[0] (drawio)`)."""


@dataclass(frozen=True)
class McpEntry:
    """An MCP server a bundle configured for one client; upserted by `(name, client)`."""

    name: str
    client: str  # a selectable client: claude, copilot, vscode, opencode
    bundle: str
    status: str = _DEFAULT_STATUS  # installed | skipped
    scope: str | None = None  # project | user; None: the scope of the lockfile
    # sha256 of the config entry as upskill left it (`mcp/ownership.py`): only an entry
    # that still has it is upskill's to replace or delete. None: not known to be ours.
    sha256: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PluginEntry:
    """A plugin a bundle installed for one client; `identifier` is the client's name for it."""

    name: str
    client: str
    identifier: str
    bundle: str
    status: str = _DEFAULT_STATUS  # installed | skipped | instructions
    scope: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


def upsert(existing: Sequence[_E], new: Sequence[_E]) -> tuple[_E, ...]:
    """Replace entries with the same `(name, client)` (the upsert key) in place; append the rest."""
    fresh: dict[tuple[str, str], _E] = {(e.name, e.client): e for e in new}
    merged: list[_E] = [fresh.pop((e.name, e.client), e) for e in existing]
    merged.extend(fresh.values())
    return tuple(merged)


# ---------------------------------------------------------------- reading


def _get(d: Mapping[str, Any], expected: type[_T], key: str, where: str) -> _T | None:
    """The value of `key` when present, checked to be exactly of type `expected`."""
    value = d.get(key)
    if value is None:
        return None
    if type(value) is not expected:
        raise RecordError(
            f"{where}: field `{key}` must be a {expected.__name__}, not {type(value).__name__}"
        )
    return value


def _get_required(d: Mapping[str, Any], expected: type[_T], key: str, where: str) -> _T:
    value = _get(d, expected, key, where)
    if value is None or value == "":
        raise RecordError(f"{where}: field `{key}` is required")
    return value


def _get_choice(d: Mapping[str, Any], key: str, where: str, choices: tuple[str, ...]) -> str | None:
    value = _get(d, str, key, where)
    if value is not None and value not in choices:
        raise RecordError(f"{where}: field `{key}` is {value!r}, not one of {', '.join(choices)}")
    return value


def _client(d: Mapping[str, Any], where: str) -> str:
    # The client registry (every client module) loads only when a record names a client,
    # not for every lockfile read (`upskill list` in a scope without MCP or plugin records).
    from upskill.clients import SELECTABLE_CLIENTS

    client = _get_choice(d, "client", where, SELECTABLE_CLIENTS)
    if client is None:
        raise RecordError(f"{where}: field `client` is required")
    return client


def _where(raw: Any, key: str, index: int) -> tuple[Mapping[str, Any], str]:
    """The record as a mapping, and how errors name it: `mcps[0]`, `mcps[0]` (drawio)."""
    where = f"`{key}[{index}]`"
    if type(raw) is not dict:
        raise RecordError(f"{where} must be an object")
    name = raw.get("name")
    return raw, f"{where} ({name})" if type(name) is str and name else where


def parse_mcp(raw: Any, index: int) -> McpEntry:
    rec, where = _where(raw, "mcps", index)
    return McpEntry(
        name=_get_required(rec, str, "name", where),
        client=_client(rec, where),
        scope=_get_choice(rec, "scope", where, SCOPES),
        bundle=_get_required(rec, str, "bundle", where),
        status=_get_choice(rec, "status", where, MCP_STATUSES) or _DEFAULT_STATUS,
        sha256=_get_digest(rec, where),
        extra={k: v for k, v in rec.items() if k not in _MCP_FIELDS},
    )


def _get_digest(d: Mapping[str, Any], where: str) -> str | None:
    value = _get(d, str, "sha256", where)
    if value is not None and (len(value) != 64 or set(value) - set("0123456789abcdef")):
        raise RecordError(f"{where}: field `sha256` must be 64 lowercase hex digits")
    return value


def parse_plugin(raw: Any, index: int) -> PluginEntry:
    rec, where = _where(raw, "plugins", index)
    return PluginEntry(
        name=_get_required(rec, str, "name", where),
        client=_client(rec, where),
        identifier=_get_required(rec, str, "identifier", where),
        scope=_get_choice(rec, "scope", where, SCOPES),
        bundle=_get_required(rec, str, "bundle", where),
        status=_get_choice(rec, "status", where, PLUGIN_STATUSES) or _DEFAULT_STATUS,
        extra={k: v for k, v in rec.items() if k not in _PLUGIN_FIELDS},
    )


# ---------------------------------------------------------------- writing


def entry_to_json(entry: McpEntry | PluginEntry) -> dict[str, Any]:
    """Fields in upstream's order (an absent scope stays absent), then unknown ones."""
    order = _MCP_FIELDS if isinstance(entry, McpEntry) else _PLUGIN_FIELDS
    out = {key: getattr(entry, key) for key in order}
    for optional in ("scope", "sha256"):
        if optional in out and out[optional] is None:
            del out[optional]
    out.update(entry.extra)
    return out
