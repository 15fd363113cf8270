"""Typed, immutable values for SSOT items and bundles (format spec §2, §3).

Items keep every authored field the renderer or lifecycle needs, already
validated and typed; `metadata` and the client passthrough blocks are kept as
parsed (opaque, order-preserving) mappings.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upskill.blobs import Payload


class Kind(enum.StrEnum):
    RULE = "rule"
    SKILL = "skill"
    AGENT = "agent"

    @property
    def entrypoint(self) -> str:
        return f"{self.name}.md"

    @property
    def plural(self) -> str:
        return f"{self.value}s"


KINDS: tuple[Kind, ...] = (Kind.RULE, Kind.SKILL, Kind.AGENT)
ENTRYPOINTS: dict[str, Kind] = {k.entrypoint: k for k in KINDS}

SUPPORTED_SCHEMA = 1
AGENT_MODES: tuple[str, ...] = ("subagent", "primary", "all")


@dataclass(frozen=True)
class Requirement:
    """One `requires.<kind>` entry: a bare name, or `{name, source}` for cross-source."""

    name: str
    source: str | None = None


@dataclass(frozen=True)
class Requires:
    rules: tuple[Requirement, ...] = ()
    skills: tuple[Requirement, ...] = ()
    agents: tuple[Requirement, ...] = ()

    def of(self, kind: Kind) -> tuple[Requirement, ...]:
        result: tuple[Requirement, ...] = getattr(self, kind.plural)
        return result

    def __bool__(self) -> bool:
        return bool(self.rules or self.skills or self.agents)


@dataclass(frozen=True)
class Resource:
    """A supporting file copied beside the generated entrypoint (§2.4)."""

    path: str  # POSIX, relative to the item directory
    data: Payload  # a large file by reference (`upskill.blobs`), streamed when written
    mode: int  # permission bits, e.g. 0o755


@dataclass(frozen=True, eq=False)
class BaseItem:
    """Fields common to rules, skills and agents (§3.1).

    `name` is the effective name (§2.1); `group` is the item directory name,
    the co-location key. `body` is the canonical body as authored; `overrides`
    maps a render client to its `<KIND>.<client>.md` body (§2.3).
    """

    kind: Kind
    name: str
    declared_name: str | None
    directory: Path
    entrypoint: Path
    description: str
    schema: int
    body: str
    body_line: int
    license: str | None = None
    audience: tuple[str, ...] | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    requires: Requires = Requires()
    ignore: tuple[str, ...] = ()
    passthrough: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    overrides: Mapping[str, str] = field(default_factory=dict)
    resources: tuple[Resource, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        return self.directory.name

    @property
    def identity(self) -> tuple[Kind, str]:
        return (self.kind, self.name)

    @functools.cached_property
    def resource_paths(self) -> frozenset[str]:
        return frozenset(r.path for r in self.resources)


@dataclass(frozen=True, eq=False)
class Rule(BaseItem):
    scope_paths: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Skill(BaseItem):
    """`client_fields` holds the top-level fields meant for the clients (`license`,
    `metadata`, `allowed-tools`, a client's extensions, anything unknown), in authored
    order; each reaches the clients that define it. `field_text` holds the source text
    of those whose text reads back alone as the same value, written verbatim."""

    tools: tuple[str, ...] | None = None
    preload_skills: tuple[str, ...] = ()
    client_fields: Mapping[str, Any] = field(default_factory=dict)
    field_text: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Agent(BaseItem):
    mode: str | None = None
    model: str | None = None
    tools: tuple[str, ...] | None = None  # None: absent, every supported capability
    preload_skills: tuple[str, ...] = ()


Item = Rule | Skill | Agent


@dataclass(frozen=True)
class BundleRequirement:
    name: str
    version: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class BundleItems:
    rules: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()

    def of(self, kind: Kind) -> tuple[str, ...]:
        result: tuple[str, ...] = getattr(self, kind.plural)
        return result


# Plugin descriptors (§3.7 "plugins map"). The form is chosen by which
# required field is present; the auto-install form wins over instructions.
@dataclass(frozen=True)
class PluginMarketplace:
    """claude/copilot auto-install: `marketplace add <source>`, then
    `install <plugin>@<marketplace>`."""

    source: str
    marketplace: str
    plugin: str
    install_url: str | None = None


@dataclass(frozen=True)
class PluginExtension:
    """vscode: `code --install-extension <extension>`."""

    extension: str
    install_url: str | None = None


@dataclass(frozen=True)
class PluginModule:
    """opencode: `opencode plugin <module>`."""

    module: str
    install_url: str | None = None


@dataclass(frozen=True)
class PluginConfigWrite:
    """opencode only: append `plugin_uri` to opencode.json `plugin[]`."""

    plugin_uri: str
    install_url: str | None = None


@dataclass(frozen=True)
class PluginInstructions:
    """Any client: print a notice pointing at `instructions_url`."""

    instructions_url: str
    summary: str | None = None


PluginDescriptor = (
    PluginMarketplace | PluginExtension | PluginModule | PluginConfigWrite | PluginInstructions
)


@dataclass(frozen=True)
class Plugin:
    name: str
    clients: Mapping[str, PluginDescriptor]  # client (claude/copilot/vscode/opencode) -> form


@dataclass(frozen=True)
class McpRemote:
    type: str  # "http" | "sse"
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class McpLocal:
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class McpServer:
    """`${VAR}` references in headers/env are kept verbatim, never expanded."""

    name: str
    transport: McpRemote | McpLocal
    requires_env: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Bundle:
    name: str
    description: str
    schema: int
    path: Path
    license: str | None = None
    items: BundleItems = BundleItems()
    requires: tuple[BundleRequirement, ...] = ()
    plugins: tuple[Plugin, ...] = ()
    mcps: tuple[McpServer, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    extras: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
