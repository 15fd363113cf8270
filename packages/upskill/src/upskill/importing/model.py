"""Typed values passed between the import stages: what was found, and what will be written."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from upskill.blobs import Payload
from upskill.format.model import Kind, Resource


@dataclass(frozen=True)
class FoundItem:
    """One rule, skill or agent as a client keeps it, before any mapping.

    `owners` are the render targets that write exactly this path (a shared tree such as
    `.agents/skills/` has several); an instruction file has none. `fields` is the
    frontmatter as read, in file order.
    """

    kind: Kind
    name: str  # the name its place gives it (`{n}` of the layout), not yet validated
    path: str  # POSIX, relative to the scope root
    owners: tuple[str, ...]
    fields: Mapping[str, Any]
    body: str
    resources: tuple[Resource, ...] = ()
    description_hint: str | None = None  # instruction files: what to call them
    linked: tuple[str, ...] = ()  # resources that were files the body links to, not its folder


class NoteKind(enum.StrEnum):
    MERGE = "merge"
    RENAME = "rename"
    SECRET = "secret"  # noqa: S105 (a note kind, not a password)
    LOSSY = "lossy"
    SKIP = "skip"


@dataclass(frozen=True)
class Note:
    """Something the user should read: a merge, a rename, a secret replaced, a loss."""

    kind: NoteKind
    message: str


@dataclass(frozen=True)
class OutFile:
    """A file of the registry: POSIX path relative to the registry directory."""

    path: str
    data: Payload
    mode: int = 0o644


@dataclass(frozen=True)
class PortableItem:
    """One merged item, ready to be written as `<plural>/<name>/<KIND>.md`."""

    kind: Kind
    name: str
    frontmatter: Mapping[str, Any]  # canonical key order, `schema` first
    body: str
    overrides: Mapping[str, str] = field(default_factory=dict)  # render target -> body
    resources: tuple[Resource, ...] = ()
    sources: tuple[str, ...] = ()  # the client files it came from


@dataclass(frozen=True)
class ImportPlan:
    """Everything `import` would write, and what it has to say about it."""

    items: tuple[PortableItem, ...]
    servers: tuple[str, ...]  # MCP server names in the bundle
    plugins: tuple[str, ...]  # plugin names in the bundle
    files: tuple[OutFile, ...]
    notes: tuple[Note, ...]
