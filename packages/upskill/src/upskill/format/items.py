"""Parse and validate item entrypoints (rules, skills, agents).

`load_item_dir` reads one item directory completely (entrypoints, override
bodies, resources) so that rendering afterwards is pure and an invalid item
fails before anything is written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from upskill.clients import DEFINED_SKILL_FIELDS, FAMILIES, OVERRIDE_CLIENTS, PASSTHROUGH_BLOCKS
from upskill.errors import FormatError
from upskill.format.directives import validate_directives
from upskill.format.fields import Fields
from upskill.format.frontmatter import has_frontmatter, normalise_newlines, split_frontmatter
from upskill.format.model import (
    AGENT_MODES,
    KINDS,
    SUPPORTED_SCHEMA,
    Agent,
    Item,
    Kind,
    Requirement,
    Requires,
    Rule,
    Skill,
)
from upskill.format.names import check_name
from upskill.format.resources import (
    READ_FLAGS,
    ItemFiles,
    collect_resources,
    ignore_spec,
    list_dir,
    names_are_exact,
    read_fd,
    scan_files,
    scan_listed,
)
from upskill.format.verbatim import authored_text
from upskill.format.vocabulary import CAPABILITIES
from upskill.format.yamlio import load_yaml, top_level_key_lines

MAX_ENTRYPOINT_BYTES = 10 * 1024 * 1024
MAX_DESCRIPTION_CHARS = 1024
_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)

COMMON_KEYS: tuple[str, ...] = (
    "schema",
    "name",
    "description",
    "audience",
    "license",
    "metadata",
    "requires",
    "ignore",
    *PASSTHROUGH_BLOCKS,
)
KIND_KEYS: dict[Kind, tuple[str, ...]] = {
    Kind.RULE: ("scope",),
    Kind.SKILL: ("tools", "preload-skills"),
    Kind.AGENT: ("mode", "model", "tools", "preload-skills"),
}
# What a skill's frontmatter holds for upskill itself; every other top-level key is a
# field for the clients (the Agent Skills fields, a client's extensions), written to
# each client that defines it.
SKILL_OWN_KEYS = frozenset(COMMON_KEYS) - {"license", "metadata"} | set(KIND_KEYS[Kind.SKILL])


def undefined_field_warning(key: str) -> str:
    """The note for a skill field no client defines (lint reports the same key itself)."""
    return (
        f"field {key!r} is not an Agent Skills field and no client defines it for skills; "
        "it is not installed (put it under `metadata:`)"
    )


def read_text(path: Path, *, limit: int = MAX_ENTRYPOINT_BYTES) -> str:
    """Read an SSOT text file: size-capped, strict UTF-8, newlines normalised."""
    if path.is_symlink():
        raise _symlink_error(path)
    return _read_unlinked(path, limit)


def _symlink_error(path: Path) -> FormatError:
    return FormatError("must be a regular file, not a symlink", path=path)


def _read_unlinked(path: Path, limit: int = MAX_ENTRYPOINT_BYTES) -> str:
    """`read_text` once `path` is known not to be a symlink.

    Opens first (open, fstat, read: no separate stat); if the open fails, the
    stat-first sequence runs so the error is exactly the one it always gave.
    """
    try:
        fd = os.open(path, READ_FLAGS)
    except OSError:
        return _read_stat_first(path, limit)
    try:
        return _read_open(path, fd, limit)
    finally:
        os.close(fd)


def _read_stat_first(path: Path, limit: int) -> str:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", path=path) from None
    _check_size(path, size, limit)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", path=path) from None
    return _decode(path, data)


def _read_open(path: Path, fd: int, limit: int) -> str:
    """The rest of `read_text` on an already opened `path`."""
    try:
        size = os.fstat(fd).st_size
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", path=path) from None
    _check_size(path, size, limit)
    try:
        data = read_fd(fd, size)
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", path=path) from None
    return _decode(path, data)


def _check_size(path: Path, size: int, limit: int) -> None:
    if size > limit:
        raise FormatError(f"file is too large ({size} bytes, limit {limit})", path=path)


def _decode(path: Path, data: bytes) -> str:
    try:
        return normalise_newlines(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError("file is not valid UTF-8", path=path, line=line) from None


def check_schema(fields: Fields, *, required: bool) -> int:
    schema = fields.integer("schema")
    if schema is None:
        if required:
            raise fields.error("schema", "missing required integer field 'schema'")
        return SUPPORTED_SCHEMA
    if schema < 1:
        raise fields.error("schema", f"'schema' must be 1 or greater, got {schema}")
    if schema > SUPPORTED_SCHEMA:
        raise fields.error(
            "schema",
            f"requires format schema {schema}, but this upskill supports schema "
            f"{SUPPORTED_SCHEMA} at most; upgrade upskill to read it",
        )
    return schema


def check_description(fields: Fields) -> str:
    description = fields.string("description", required=True)
    assert description is not None
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise fields.error(
            "description",
            f"'description' is {len(description)} characters, limit {MAX_DESCRIPTION_CHARS}",
        )
    return description


def metadata_warnings(metadata: Mapping[str, Any]) -> tuple[str, ...]:
    version = metadata.get("version")
    if version is not None and not (type(version) is str and _SEMVER.fullmatch(version)):
        return (f"metadata.version {version!r} is not a semantic version (MAJOR.MINOR.PATCH)",)
    return ()


def _audience(fields: Fields) -> tuple[str, ...] | None:
    audience = fields.string_list("audience")
    if audience is None:
        return None
    if not audience:
        raise fields.error("audience", "'audience' must list at least one client")
    for entry in audience:
        if entry not in FAMILIES:
            raise fields.error(
                "audience", f"unknown client {entry!r} in 'audience' (known: {', '.join(FAMILIES)})"
            )
    return audience


def _requirement(fields: Fields, key: str, entry: Any) -> Requirement:
    line = fields.line_of("requires")
    if type(entry) is str:
        return Requirement(check_name(entry, fields.path, line))
    if isinstance(entry, dict):
        unknown = sorted(set(entry) - {"name", "source"})
        if unknown:
            raise fields.error(
                "requires", f"'{key}' entry has unknown key(s): {', '.join(unknown)}"
            )
        name = entry.get("name")
        if type(name) is not str:
            raise fields.error("requires", f"'{key}' entry needs a string 'name'")
        source = fields.string(key, value=entry.get("source"))
        return Requirement(check_name(name, fields.path, line), source)
    raise fields.error("requires", f"'{key}' entries must be names or {{name, source}} maps")


def _requires(fields: Fields) -> Requires:
    requires = fields.kind_map("requires")
    if requires is None:
        return Requires()
    parsed: dict[str, tuple[Requirement, ...]] = {}
    for kind in KINDS:
        entries = requires.get(kind.plural)
        if entries is None:
            continue
        key = f"requires.{kind.plural}"
        if not isinstance(entries, list):
            raise fields.error("requires", f"'{key}' must be a list")
        parsed[kind.plural] = tuple(_requirement(fields, key, e) for e in entries)
    return Requires(**parsed)


def _tools(fields: Fields) -> tuple[str, ...] | None:
    tools = fields.string_list("tools")
    if tools is None:
        return None
    for tool in tools:
        if tool not in CAPABILITIES:
            raise fields.error("tools", f"unknown tool {tool!r} (known: {', '.join(CAPABILITIES)})")
    return tuple(dict.fromkeys(tools))


def _preload(fields: Fields) -> tuple[str, ...]:
    names = fields.string_list("preload-skills") or ()
    line = fields.line_of("preload-skills")
    return tuple(check_name(n, fields.path, line, skill=True) for n in names)


def _scope_paths(fields: Fields) -> tuple[str, ...]:
    scope = fields.mapping("scope")
    if scope is None:
        return ()
    unknown = sorted(set(scope) - {"paths"})
    if unknown:
        raise fields.error("scope", f"'scope' has unknown key(s): {', '.join(unknown)} (paths)")
    return fields.string_list("scope.paths", value=scope.get("paths")) or ()


def _mode(fields: Fields) -> str | None:
    mode = fields.string("mode")
    if mode is not None and mode not in AGENT_MODES:
        raise fields.error("mode", f"'mode' must be one of {', '.join(AGENT_MODES)}, got {mode!r}")
    return mode


def _check_ignore(patterns: tuple[str, ...], fields: Fields) -> None:
    """A pattern gitignore semantics cannot compile (`[z-a]`) is a located error here,
    not a failure later while resources are collected."""
    if not patterns:
        return
    try:
        ignore_spec(patterns)
    except (re.error, ValueError, TypeError) as exc:
        raise fields.error("ignore", f"invalid `ignore:` pattern: {exc}") from None


def parse_entrypoint(
    kind: Kind,
    directory: Path,
    text: str,
    path: Path,
    *,
    files: ItemFiles,
    standalone: bool = False,
) -> Item:
    """Parse one entrypoint of `directory` (its text already read). `standalone`: the
    directory is a whole source (a single-skill repository), so its name says nothing."""
    document = split_frontmatter(text, path)
    data = load_yaml(document.yaml, path, first_line=document.yaml_line)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FormatError("frontmatter must be a YAML mapping", path=path, line=document.yaml_line)
    for key in data:
        if type(key) is not str:
            raise FormatError(f"frontmatter key {key!r} must be a string", path=path, line=2)
    fields = Fields(data, path, top_level_key_lines(document.yaml, first_line=2), 1)

    schema = check_schema(fields, required=False)
    declared = fields.string("name")
    group = directory.name
    named: list[str] = []
    if kind is Kind.SKILL:
        # Agent Skills wants the two equal; published collections often differ
        # (`name: vercel-composition-patterns` in `composition-patterns/`): the skill is
        # installed under its declared name, and lint says so.
        if declared is not None and declared != group and not standalone:
            named.append(
                f"skill name {declared!r} differs from its directory name {group!r}; "
                f"it installs as {declared!r}"
            )
        chosen = declared if declared is not None else group
        name = check_name(chosen, path, fields.line_of("name"), skill=True)
    else:
        name = check_name(declared if declared is not None else group, path, fields.line_of("name"))

    description = check_description(fields)
    metadata = fields.mapping("metadata") or {}
    passthrough = {
        block: value for block in PASSTHROUGH_BLOCKS if (value := fields.mapping(block)) is not None
    }
    ignore = fields.string_list("ignore") or ()
    _check_ignore(ignore, fields)
    known = set(COMMON_KEYS) | set(KIND_KEYS[kind])
    extras = {k: v for k, v in data.items() if k not in known}

    errors = validate_directives(document.body, path, first_line=document.body_line)
    if errors:
        raise errors[0]
    overrides = _overrides(kind, directory, files)

    common: dict[str, Any] = {
        "kind": kind,
        "name": name,
        "declared_name": declared,
        "directory": directory,
        "entrypoint": path,
        "description": description,
        "schema": schema,
        "body": document.body,
        "body_line": document.body_line,
        "license": fields.string("license"),
        "audience": _audience(fields),
        "metadata": metadata,
        "requires": _requires(fields),
        "ignore": ignore,
        "passthrough": passthrough,
        "overrides": overrides,
        "resources": collect_resources(files, ignore),
        "extras": extras,
        "warnings": (*named, *metadata_warnings(metadata)),
    }
    if kind is Kind.RULE:
        return Rule(**common, scope_paths=_scope_paths(fields))
    if kind is Kind.SKILL:
        client_fields = {k: v for k, v in data.items() if k not in SKILL_OWN_KEYS}
        undefined = [k for k in client_fields if k not in DEFINED_SKILL_FIELDS]
        common["warnings"] += tuple(undefined_field_warning(k) for k in undefined)
        return Skill(
            **common,
            tools=_tools(fields),
            preload_skills=_preload(fields),
            client_fields=client_fields,
            field_text=authored_text(document.yaml, client_fields, path),
        )
    return Agent(
        **common,
        mode=_mode(fields),
        model=fields.string("model", required=fields.has("model")),
        tools=_tools(fields),
        preload_skills=_preload(fields),
    )


def _overrides(kind: Kind, directory: Path, files: ItemFiles) -> dict[str, str]:
    overrides: dict[str, str] = {}
    for client in OVERRIDE_CLIENTS:
        name = f"{kind.name}.{client}.md"
        path = directory / name
        text = _override_text(path, name, files)
        if text is None:
            continue
        if has_frontmatter(text):
            raise FormatError(
                "override files contain body only; frontmatter comes from "
                f"{kind.entrypoint} (remove the '---' block)",
                path=path,
                line=1,
            )
        overrides[client] = text
    return overrides


def _override_text(path: Path, name: str, files: ItemFiles) -> str | None:
    """The override file's text, None if absent (from the listing when there is one)."""
    if files.top_names is None:
        if not (path.exists() or path.is_symlink()):
            return None
        return read_text(path)
    if name not in files.top_names:
        return None
    if name in files.top_links:
        raise _symlink_error(path)
    return _read_unlinked(path)


def load_item_dir(directory: Path, *, standalone: bool = False) -> tuple[Item, ...]:
    """Every item (co-located entrypoints) of one item directory, in kind order.

    One listing per directory walked: which entrypoints and overrides exist,
    and the resource walk, come from scandir. Whenever the listing cannot
    decide something exactly as the probing loader would (unlistable directory,
    no or a symlinked first entrypoint, a first entrypoint that does not open,
    names that differ from reserved ones only by case), the probing loader runs
    instead, so results and errors are the same either way.
    """
    listing = list_dir(directory)
    if listing is None or not names_are_exact(listing):
        return _load_probing(directory, standalone)
    entries = {e.name: e for e in listing}
    kinds = [k for k in KINDS if k.entrypoint in entries]
    if not kinds or entries[kinds[0].entrypoint].link:
        return _load_probing(directory, standalone)
    first = directory / kinds[0].entrypoint
    try:
        fd = os.open(first, READ_FLAGS)
    except OSError:
        return _load_probing(directory, standalone)
    try:  # the open proved the directory searchable, as the probes did
        files = scan_listed(directory, listing, verify=False)
        text = _read_open(first, fd, MAX_ENTRYPOINT_BYTES)
    finally:
        os.close(fd)
    items = [parse_entrypoint(kinds[0], directory, text, first, files=files, standalone=standalone)]
    for kind in kinds[1:]:
        path = directory / kind.entrypoint
        if entries[kind.entrypoint].link:
            raise _symlink_error(path)
        text = _read_unlinked(path)
        items.append(
            parse_entrypoint(kind, directory, text, path, files=files, standalone=standalone)
        )
    return tuple(items)


def _load_probing(directory: Path, standalone: bool = False) -> tuple[Item, ...]:
    """`load_item_dir` by probing each reserved path (the reference behaviour)."""
    if not directory.is_dir():
        raise FormatError("not an item directory", path=directory)
    kinds = [
        k
        for k in KINDS
        if (directory / k.entrypoint).exists() or (directory / k.entrypoint).is_symlink()
    ]
    if not kinds:
        raise FormatError(
            "no entrypoint (RULE.md, SKILL.md or AGENT.md) in item directory", path=directory
        )
    files = scan_files(directory)
    items: list[Item] = []
    for kind in kinds:
        path = directory / kind.entrypoint
        text = read_text(path)
        items.append(
            parse_entrypoint(kind, directory, text, path, files=files, standalone=standalone)
        )
    return tuple(items)


def is_item_dir(directory: Path) -> bool:
    return any((directory / k.entrypoint).is_file() for k in KINDS)
