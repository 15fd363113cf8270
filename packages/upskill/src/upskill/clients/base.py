"""The shape of a client description: one `Client` value per agent client.

Each client module (`clients/<id>.py`) fills one `Client`; `clients/registry.py`
lists them. Everything client-specific lives in these values, as data or as a
small pure function, so that flags, validation, rendering, install, doctor,
remove, MCP, plugins and the docs table are all derived from one place and
cannot disagree. This module is a leaf: it knows nothing of items, lockfiles
or the filesystem, so the format layer can validate against the registry.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

RULE = "rule"
SKILL = "skill"
AGENT = "agent"
KIND_NAMES: tuple[str, ...] = (RULE, SKILL, AGENT)
# The Agent Skills specification's frontmatter fields (agentskills.io/specification;
# reference validator `skills-ref`, `agentskills validate`), in the spec's order. Every
# client upskill writes skills for reads skills in that format, so each defines them.
AGENT_SKILLS_FIELDS: tuple[str, ...] = (
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
)
# The model aliases every client maps (format spec §3.4); any other value passes verbatim.
MODEL_ALIASES: tuple[str, ...] = ("sonnet", "opus", "haiku")


@dataclass(frozen=True)
class Layout:
    """Where one kind lands. `flat` outputs are a single file whose resources go to a
    sibling `<name>/` directory; the others are a directory of their own."""

    template: str
    flat: bool

    def entrypoint(self, name: str) -> str:
        return self.template.format(n=name)

    def resource_dir(self, name: str) -> str:
        parent = self.entrypoint(name).rsplit("/", 1)[0]
        return parent if not self.flat else f"{parent}/{name}"

    @property
    def tree(self) -> str:
        """The directory every output of this layout lives under (ends with `/`)."""
        return self.template.split("{n}", 1)[0]


class Carrier(enum.StrEnum):
    """How a rendering is carried: a Markdown file with YAML frontmatter, a TOML file
    (Codex subagents: `name`, `description`, `developer_instructions`), a JSON file
    (Kiro CLI agents: `name`, `description`, `prompt`, then the client's fields), or a
    section of
    one instructions file compiled from every always-on rule (`AGENTS.md`,
    `.gemini/upskill.md`: clients that read a single file, in agents-md-compiler's module
    format)."""

    MARKDOWN = "markdown"
    TOML = "toml"
    JSON = "json"
    COMPILED = "compiled"


@dataclass(frozen=True)
class Placement:
    """One kind for one client: the project layout and the user-level (global scope)
    layout, which some clients read from other directories than their project ones."""

    project: Layout
    user: Layout | None = None  # None: the project layout, relative to $HOME
    carrier: Carrier = Carrier.MARKDOWN
    at_home: bool = True  # False: the client has no user-level place for the kind
    # Project scope, compiled carrier: the instructions file the client reads that upskill
    # makes import the compiled file (a line `@<template>`) instead of holding the rules,
    # because other clients read it too (Copilot CLI reads `GEMINI.md`), so the rules sit
    # where only this client reads them (`lifecycle.compiled`).
    imported_by: str | None = None
    # Project scope, compiled carrier: a file the client reads *instead of* the compiled
    # file in the same directory, and no other client reads (Codex's `AGENTS.override.md`).
    # upskill compiles the client's rules there when it owns the compiled file and another
    # client reading that file would read a rule twice (`lifecycle.override`).
    override: str | None = None
    # Project scope, compiled carrier: a file the client reads *besides* the compiled file,
    # and no other client reads (Crush's `CRUSH.md`). upskill compiles the client's rules
    # there when the compiled file is a team's own without a managed block, so that the
    # client still gets them, and back in the compiled file otherwise
    # (`lifecycle.compiled.alternatives`).
    alternative: str | None = None

    def at(self, home: bool) -> Layout:
        return self.user if home and self.user is not None else self.project

    def front(self, home: bool) -> str | None:
        """The file importing the compiled file in this scope, if any (`imported_by`)."""
        return None if home else self.imported_by

    def serves(self, home: bool) -> bool:
        return self.at_home or not home


@dataclass(frozen=True)
class Site:
    """Where a rendering lands: the user's home (global scope) or a project, and the
    other clients the item is written for there, since clients read each other's trees."""

    home: bool = False
    alongside: frozenset[str] = frozenset()


PROJECT = Site()


@dataclass(frozen=True)
class AgentView:
    """What a client's frontmatter mapping sees of an agent, already translated: tool
    names in the client's vocabulary and the model alias resolved."""

    tools: tuple[str, ...]  # the client's names for the granted capabilities
    restricted: bool  # the agent listed `tools:` (else it gets every tool)
    every_tool: tuple[str, ...]  # the client's names for every capability
    model: str | None
    mode: str | None
    preload_skills: tuple[str, ...]


RuleFields = Callable[[tuple[str, ...], Site], dict[str, Any]]
AgentFields = Callable[[AgentView], dict[str, Any]]


def no_rule_fields(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    """A client whose instructions carry no frontmatter of their own."""
    return {}


def paths_list(paths: tuple[str, ...], site: Site) -> dict[str, Any]:
    """Rules scoped by a `paths:` glob list (Cline, Qwen Code); unscoped: no field."""
    return {"paths": list(paths)} if paths else {}


def tools_list(agent: AgentView) -> dict[str, Any]:
    """The common agent mapping: `model`, then a `tools:` list when restricted."""
    out: dict[str, Any] = {}
    if agent.model is not None:
        out["model"] = agent.model
    if agent.tools or agent.restricted:
        out["tools"] = list(agent.tools)
    return out


def model_only(agent: AgentView) -> dict[str, Any]:
    """A client whose agents cannot list tools: only the model carries over."""
    return {} if agent.model is None else {"model": agent.model}


class EntryStyle(enum.StrEnum):
    """How a client spells one MCP server entry (`mcp/shapes.py` implements each)."""

    STANDARD = "standard"  # {"type": "stdio", command, args, env} / {type, url, headers}
    OPENCODE = "opencode"  # {"type": "local", command: [...], environment} / {"type": "remote"}
    GEMINI = "gemini"  # {command, args, env} / {type, url, headers}
    PLAIN = "plain"  # {command, args, env} / {url, headers}: the transport is inferred
    HTTPURL = "httpurl"  # {command, args, env} / {httpUrl, headers} or {url} for SSE (Qwen)
    SERVERURL = "serverurl"  # {command, args, env} / {serverUrl, headers} (Windsurf)
    STREAMABLE = "streamable"  # {command, args, env} / {"type": "streamable-http"|"sse", url}
    CODEX = "codex"  # TOML [mcp_servers.X]: command, args, env / url, http_headers


class Base(enum.StrEnum):
    """What a config path is relative to."""

    ROOT = "root"  # the install root: the project, or $HOME in global scope
    HOME = "home"
    CONFIG = "config"  # $XDG_CONFIG_HOME or ~/.config
    APP_CONFIG = "app-config"  # ~/Library/Application Support on macOS, else CONFIG


@dataclass(frozen=True)
class ConfigFile:
    """A client config file: where it is, alternatives read when present (`.jsonc`)."""

    path: str
    base: Base = Base.ROOT
    alternatives: tuple[str, ...] = ()


@dataclass(frozen=True)
class McpCli:
    """A client's `mcp add/remove/list` verbs, for the scopes they write."""

    exe: str
    add_scopes: frozenset[str]  # client scopes `add` writes ("project", "user")
    remove_scopes: frozenset[str]
    scope_flag: bool  # takes `--scope <scope>` (else the scope is implied)
    env_flag: str
    header_flag: str
    lists: bool = False  # doctor may ask `<exe> mcp list`
    add_payload: bool = False  # `code --add-mcp <json>`: one JSON argument, no verbs


@dataclass(frozen=True)
class McpRoute:
    style: EntryStyle
    root_key: str
    project: ConfigFile | None
    user: ConfigFile | None
    cli: McpCli | None = None
    remote_types: tuple[str, ...] = ("http", "sse")
    # How a value refers to an environment variable: `${VAR}` is written in this form
    # (`NAME` stands for the variable); None when the client expands no reference.
    env_ref: str | None = "${NAME}"
    # Spawned servers inherit the client's environment, so `KEY: ${KEY}` can be left out.
    inherits_env: bool = False
    # False: `${VAR}` is expanded in a stdio `env` but a remote server's headers are sent
    # as written (Auggie 0.36.0), so a reference there is reported like an unexpanded one.
    expands_headers: bool = True
    # The user file's key holding servers for one project only, by the project's absolute
    # path (`~/.claude.json` `projects["/abs/path"].mcpServers`, Claude Code's local
    # scope): `upskill import` reads the current project's entry in project scope.
    per_project: str | None = None
    # The client runs each value it passes to a server (`command`, `args`, `env` and
    # header values, `url`) through a shell expander (Crush): values are written in the
    # form `mcp/shellvalue.py` gives them, and a server it cannot express is refused.
    shell_expands: bool = False


class PluginStyle(enum.StrEnum):
    MARKETPLACE = "marketplace"  # `<exe> plugin marketplace add` + `plugin install`
    EXTENSION = "extension"  # `code --install-extension`
    OPENCODE = "opencode"  # `opencode plugin <module>` or a `plugin[]` config write


@dataclass(frozen=True)
class PluginRoute:
    style: PluginStyle
    exe: str
    scope_flag: bool = False
    # The JSON file (relative to the project, or to $HOME at user level) where a team
    # lists the plugins it uses, read back by `upskill import`: Claude Code's settings
    # (`enabledPlugins`, their marketplaces in `extraKnownMarketplaces`), VS Code's
    # workspace recommendations (`recommendations`, project only: `listed_at_home`).
    listed_in: str | None = None
    listed_at_home: bool = True


@dataclass(frozen=True)
class Registration:
    """Files outside a client's output trees that make it read what upskill wrote
    (`lifecycle/ancillary.py` keeps them in step with what is installed)."""

    # A memory file created holding only `@AGENTS.md` when the project has an AGENTS.md
    # (Claude Code's CLAUDE.md); an existing one is never touched.
    imports_agents_md: str | None = None
    # A JSON config whose `instructions` array must list the rules: the project file with
    # one glob, and the user file ($HOME-relative) with one entry per rule.
    rule_list: str | None = None
    rule_glob: str = ""
    rule_list_home: str | None = None
    # A JSON settings file where `settings_key[0]` must map `settings_key[1]` to true.
    settings: str | None = None
    settings_key: tuple[str, str] = ("", "")
    # An object in `settings` mapping a project agent tree it reads (no trailing `/`) to
    # false stops it reading that tree: upskill sets it for another client's tree holding
    # nothing but copies of agents it has in its own (`lifecycle.agenttrees`).
    agent_trees_key: str = ""
    # A user-level TOML config ($HOME-relative) whose array of tables `skill_switch_key`
    # turns one skill copy off: `path = "~/<tree><name>/SKILL.md"`, `enabled = false`
    # (Codex's `[[skills.config]]`, read from `~/.codex/config.toml` only). Where the
    # client lists every copy of a name and another client's rendering holds a tree it
    # shares, its own copy goes to a tree only it reads and the shared one is switched
    # off for it (`lifecycle.skillplace`, `lifecycle.skillswitch`).
    skill_switch: str | None = None
    skill_switch_key: tuple[str, ...] = ()


@dataclass(frozen=True)
class ContextFiles:
    """A project setting naming more instruction files the client reads, as a string or
    a list of file names (Gemini CLI's `context.fileName` in `.gemini/settings.json`:
    a team that lists `AGENTS.md` there has Gemini read it). upskill reads the setting,
    never writes it (`lifecycle.contextfiles`)."""

    settings: str  # a JSON (or JSONC) file, relative to the project
    key: tuple[str, ...]  # the member's path in it


@dataclass(frozen=True)
class Detect:
    """What says a client is in use: a project path, a path under $HOME, a CLI on PATH."""

    paths: tuple[str, ...] = ()
    home_paths: tuple[str, ...] = ()
    executables: tuple[str, ...] = ()


@dataclass(frozen=True)
class Client:
    """Everything upskill knows about one agent client."""

    id: str
    name: str
    family: str  # `audience:` and `<!-- @client -->` name; `vscode` is in `copilot`'s
    kinds: Mapping[str, Placement]  # kind name -> placement; a missing kind: no native place
    detect: Detect
    docs: tuple[str, ...]  # where the facts come from (client docs, verified commands)
    tree: str = ""  # the client whose outputs it reads as its own (vscode: copilot)
    tools: Mapping[str, str] = field(default_factory=dict)  # capability -> tool name
    models: Mapping[str, str] = field(default_factory=dict)  # sonnet/opus/haiku -> model id
    rule_fields: RuleFields = no_rule_fields
    agent_fields: AgentFields = tools_list
    passthrough: bool = False  # items may carry a `<id>:` frontmatter block
    # The rule file is its body alone: the client reads no frontmatter in rules.
    bare_rules: bool = False
    # Frontmatter keys whose string value is written verbatim, unquoted (Cursor's MDC
    # parser reads `globs: **/*.py` but not the quoted form YAML would need).
    raw_keys: frozenset[str] = frozenset()
    # The agent's frontmatter names its preloaded skills (else the body gets a
    # `## Skills` section listing them).
    skills_field: bool = False
    # The top-level skill frontmatter fields the client defines: the Agent Skills fields,
    # plus its own extensions (Claude Code's `disable-model-invocation`, ...). An authored
    # field reaches the client's copy only if it is listed here (render/frontmatter.py).
    skill_fields: frozenset[str] = frozenset(AGENT_SKILLS_FIELDS)
    mcp: McpRoute | None = None
    plugins: PluginRoute | None = None
    # What the client reads besides its own outputs: patterns of other clients' trees
    # (`.claude/skills/`, `AGENTS.md`), so an item written twice can be found.
    reads: tuple[str, ...] = ()
    registration: Registration = Registration()
    # A project setting that makes it read more instruction files (`ContextFiles`).
    context_files: ContextFiles | None = None
    # Single always-on instruction files the client reads (`CLAUDE.md`, `AGENTS.md`), in
    # the project and (relative to $HOME) at user level: `upskill import` reads them back.
    instructions: tuple[str, ...] = ()
    instructions_home: tuple[str, ...] = ()
    # It lists a skill or agent found in several of the trees it reads once, by name
    # (verified for Copilot CLI and opencode, reported for Kilo and Qwen Code).
    dedupes: bool = False
    # The project trees it reads skills from, the one it prefers first: when one name is
    # in several, a client that `dedupes` shows the first tree's copy only, one that does
    # not shows every copy. Empty: its own skills tree, then the skill trees in `reads`
    # (order not verified). Where set, verified with the command in its module's docs.
    skill_trees: tuple[str, ...] = ()
    # The trees it reads skills from at user level (relative to $HOME), preferred first,
    # verified like `skill_trees` with the command in its module's docs; `dedupes` holds
    # there too. Empty: its own user-level skills tree only (cross-reads not verified).
    user_skill_trees: tuple[str, ...] = ()
    # False: in a project it shows one copy per name, but whose varies from run to run
    # (opencode 1.18.33 parses every match concurrently and the last parse to finish
    # wins): it is sure to see its own rendering only when every copy it reads is one.
    skill_order: bool = True
    # The same at user level.
    user_skill_order: bool = True
    # The project trees it reads agents from, the one it prefers first, where it is
    # verified to show one agent per name, the first tree's copy (the command or the
    # documentation is in its module). Empty: its own agents tree, then the agent trees
    # in `reads`, each copy of a name listed (`lifecycle.agentplace`).
    agent_trees: tuple[str, ...] = ()
    # Verified (the source or the command is in its module) to list every copy of one
    # agent name it finds in several of its agent trees, one entry per file. Without
    # this or `agent_trees` the count is not known; either way each copy is counted.
    lists_agent_copies: bool = False
    baseline: bool = False  # in the selection when nothing chose or detected clients
    # Instruction files it reads (of `reads`) whose `@path` import lines it expands in its
    # model request, so a file it also reads itself reaches it twice (`doctor`).
    follows_imports: tuple[str, ...] = ()
    # It reads a whitespace-preceded `@word` outside code spans in its instructions files
    # as an import of that file (Gemini CLI's memport), with no escape keeping the text:
    # such words in a rule are reported (`render.imports`).
    at_imports: bool = False

    @property
    def render_as(self) -> str:
        return self.tree or self.id

    def _project_trees(self, kind: str, verified: tuple[str, ...]) -> tuple[str, ...]:
        """The project trees it reads `kind` from, preferred first: the verified order,
        else its own tree and then the other clients' trees it `reads`."""
        if verified:
            return verified
        where = self.kinds.get(kind)
        own = (where.project.tree,) if where is not None else ()
        return tuple(dict.fromkeys((*own, *(r for r in self.reads if r.endswith(f"{kind}s/")))))

    def project_skill_trees(self) -> tuple[str, ...]:
        """The project trees it reads skills from, preferred first (`skill_trees`)."""
        return self._project_trees(SKILL, self.skill_trees)

    def skill_trees_at(self, home: bool) -> tuple[str, ...]:
        """The trees it reads skills from in a scope, preferred first."""
        if not home:
            return self.project_skill_trees()
        if self.user_skill_trees:
            return self.user_skill_trees
        where = self.kinds.get(SKILL)
        return (where.at(True).tree,) if where is not None and where.serves(True) else ()

    def ordered_skills(self, home: bool) -> bool:
        """One skill name in several trees: it shows the first tree's copy (when it
        `dedupes`) rather than an unpredictable one."""
        return self.user_skill_order if home else self.skill_order

    def project_agent_trees(self) -> tuple[str, ...]:
        """The project trees it reads agents from, preferred first (`agent_trees`)."""
        return self._project_trees(AGENT, self.agent_trees)

    @property
    def one_agent_per_name(self) -> bool:
        """It shows one copy of an agent name found in several trees (`agent_trees`)."""
        return bool(self.agent_trees)

    def entrypoint(self, kind: str, name: str, *, home: bool) -> str | None:
        """Where `name` of `kind` lands in a scope, or None: no native place there."""
        where = self.kinds.get(kind)
        return where.at(home).entrypoint(name) if where and where.serves(home) else None
