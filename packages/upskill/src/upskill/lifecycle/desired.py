"""Render resolved items into the set of files that should exist (pure)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from upskill.blobs import Payload, payload_digest, payload_size
from upskill.clients import (
    BASELINE_CLIENTS,
    CLIENTS,
    family,
    get,
    in_registry_order,
    render_target,
)
from upskill.clients.base import RULE, Carrier, Placement
from upskill.errors import RenderError
from upskill.format.directives import has_directives
from upskill.format.model import Agent, Item, Rule, Skill
from upskill.lifecycle import catalog as cat
from upskill.lifecycle.agentplace import NONE, Hidden, Miss, plan_agent
from upskill.lifecycle.agentplace import lines as agent_lines
from upskill.lifecycle.fsops import safe_relative
from upskill.lifecycle.resolve import Resolved
from upskill.state.lockfile import Owner

if TYPE_CHECKING:
    from upskill.render import OutputFile, Rendering


@dataclass(frozen=True)
class DesiredFile:
    """A file that should exist. `data` is None when it was not re-rendered because
    its item is unchanged and the disk still holds exactly the recorded bytes."""

    path: str
    data: Payload | None
    mode: int
    owners: tuple[Owner, ...]
    sha256: str
    size: int

    @staticmethod
    def of(path: str, data: Payload, mode: int, owners: tuple[Owner, ...]) -> DesiredFile:
        return DesiredFile(path, data, mode, owners, payload_digest(data), payload_size(data))


@dataclass(frozen=True)
class Section:
    """A rule's part of a compiled instructions file (`Carrier.COMPILED`)."""

    path: str
    name: str  # the rule's installed name: the section id
    data: bytes
    owners: tuple[Owner, ...]


@dataclass(frozen=True)
class Desired:
    files: dict[str, DesiredFile]
    item_clients: dict[str, tuple[str, ...]]  # item key -> selectable clients written
    skipped: tuple[str, ...]  # item keys warn-skipped by audience
    notes: tuple[str, ...]  # the warnings before the agents' lines
    # Compiled files are assembled after every item (`lifecycle.compiled`): the sections
    # this run rendered, and the items it rendered (their old sections are replaced).
    sections: tuple[Section, ...] = ()
    rendered: frozenset[str] = frozenset()
    # Agents a client does not list once in its own rendering, told in `warnings` less
    # the trees `hidden` from it when the run is done (`lifecycle.agenttrees`).
    agent_misses: tuple[Miss, ...] = ()
    hidden: Hidden = dataclasses.field(default_factory=dict)
    later: tuple[str, ...] = ()  # the warnings after them

    @property
    def warnings(self) -> tuple[str, ...]:
        return (*self.notes, *agent_lines(self.agent_misses, self.hidden), *self.later)


def clients_for(item_audience: tuple[str, ...] | None, selection: Sequence[str]) -> tuple[str, ...]:
    """The selected clients the item's `audience:` admits, in registry order: the lines a
    run prints and the lockfile's `clients` then follow the registry, not the order given."""
    chosen = in_registry_order(selection or BASELINE_CLIENTS)
    if item_audience is None:
        return chosen
    return tuple(c for c in chosen if family(c) in item_audience)


# Why a client did not get an item: no place for the kind at all, a compiled file
# that is the team's own, or a path-scoped rule for a client that reads one file; or
# how it gets it anyway: a path-scoped rule it reads always-on in another client's copy
# (`tree_copies`).
NO_PLACE, TEAM_FILE, SCOPED, ALWAYS_ON = "none", "team", "scoped", "always-on"
Missed = dict[tuple[str, str, str], int]  # (client, kind, why) -> count


def has_place(client: str, kind: str, home: bool) -> bool:
    """Whether the client reads items of this kind in the scope at all (Windsurf and
    Crush have no place for agents): without one, the item is never delivered there."""
    where = get(client).kinds.get(kind)
    return where is not None and where.serves(home)


def _deliverable(
    item: Item,
    clients: tuple[str, ...],
    missed: Missed,
    home: bool,
    compiled_ok: frozenset[str],
    configured: Mapping[str, frozenset[str]],
) -> tuple[str, ...]:
    """The clients with a native place for the item in the scope; the others are counted
    in `missed`. A compiled instructions file holds always-on rules only: it has no file
    patterns, and writing a scoped rule there would apply it everywhere. A client whose
    own compiled file is blocked by a team file is still served when its project settings
    name another client's compiled file holding the rule (`served_by_reads`)."""
    kind = item.kind.value
    out = []
    for client in clients:
        where = get(client).kinds.get(kind)
        why = None
        if not has_place(client, kind, home):
            why = NO_PLACE
        elif where is not None and where.carrier is Carrier.COMPILED:
            if isinstance(item, Rule) and item.scope_paths:
                why = SCOPED if home or not tree_copies(client, clients) else ALWAYS_ON
            elif own_compiled(where, home, compiled_ok) is None and not _read_elsewhere(
                item, client, clients, compiled_ok, configured.get(client, frozenset())
            ):
                why = TEAM_FILE
        if why is None:
            out.append(client)
        else:
            missed[(client, kind, why)] = missed.get((client, kind, why), 0) + 1
    return tuple(out)


@functools.cache
def rule_trees_read(client: str) -> Mapping[str, str]:
    """The other clients' rule trees `client` reads every file of, whole (Crush: every
    file under `.cursor/rules/`, frontmatter included as text: its source's
    `processContextPath`), project scope: tree -> the client writing there. A fact of the
    registry, asked per item, target and rendering while planning: worked out once."""
    trees = [r for r in get(client).reads if r.endswith("/")]
    out: dict[str, str] = {}
    for other in CLIENTS:
        where = other.kinds.get(RULE)
        if other.id == client or where is None or where.carrier is Carrier.COMPILED:
            continue
        if any(where.project.tree.startswith(t) for t in trees):
            out[where.project.tree] = other.id
    return out


def tree_copies(client: str, clients: Sequence[str]) -> list[str]:
    """Of `clients`, those whose rule copies land in a tree `client` reads whole
    (`rule_trees_read`): a path-scoped rule written for them reaches `client` too,
    always-on, since nothing there reads its file patterns (Crush reading Cursor's
    `.cursor/rules/<n>.mdc`, `globs:` and all)."""
    writers = set(rule_trees_read(client).values())
    return [c for c in clients if c in writers]


def _read_elsewhere(
    item: Item,
    client: str,
    clients: tuple[str, ...],
    compiled_ok: frozenset[str],
    names: frozenset[str],
) -> bool:
    """Whether another of `clients` compiles the rule, with `client`'s text, into a file
    upskill may write and `client`'s project settings name (`names`; project scope)."""
    from upskill.render.body import source_body

    own = render_target(client)
    for other in clients:
        path = compiled_target(item, render_target(other), False)
        if other == client or path is None or path not in names or path not in compiled_ok:
            continue
        if source_body(item, own) == source_body(item, render_target(other)):
            return True
    return False


def own_compiled(where: Placement, home: bool, compiled_ok: frozenset[str]) -> str | None:
    """The file a compiled placement writes in the scope: its compiled file when upskill
    may write it, else (project scope) its alternative when upskill may write that
    (Crush's `CRUSH.md` beside a team's own `AGENTS.md`), else None: the team's files."""
    path = where.at(home).template
    if path in compiled_ok:
        return path
    if not home and where.alternative is not None and where.alternative in compiled_ok:
        return where.alternative
    return None


def compiled_target(item: Item, target: str, home: bool) -> str | None:
    """The compiled file a render target writes this item into, if any (rules only)."""
    where = get(target).kinds.get(RULE) if isinstance(item, Rule) else None
    if where is None or where.carrier is not Carrier.COMPILED or not where.serves(home):
        return None
    return where.at(home).template


def served_by_compiled(
    item: Item,
    targets: Mapping[str, Sequence[str]],
    compiled: Mapping[str, str],
    imported: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """Targets whose clients read a compiled file this item is written into, with the
    same text: their own copy would make them read the rule twice (issue 15, item 3).
    Maps each to the compiled file. A client keeps its own copy when its frontmatter
    says more than "always on" (a passthrough block such as Copilot's `excludeAgent`),
    or when it reads `AGENTS.md` only through an import (Claude's `CLAUDE.md`) and
    `imported` (the files such an import will reach) does not name it: upskill adds
    that import for a team's `AGENTS.md`, managed block included, never for a file it
    compiles whole. Project scope only, like `served_elsewhere`."""
    from upskill.render.body import source_body

    if not isinstance(item, Rule) or item.scope_paths or item.resources or not compiled:
        return {}
    served: dict[str, str] = {}
    for target, clients in targets.items():
        if target in compiled:
            continue
        for source, path in compiled.items():
            readers = [get(c) for c in clients]
            if all(
                path in c.reads
                and (not c.registration.imports_agents_md or path in imported)
                and not item.passthrough.get(c.family)
                for c in readers
            ) and source_body(item, target) == source_body(item, source):
                served[target] = path
                break
    return served


def read_twice(
    item: Item,
    targets: Mapping[str, Sequence[str]],
    compiled: Mapping[str, str],
    served: Mapping[str, str],
    imported: frozenset[str] = frozenset(),
) -> dict[str, tuple[str, str]]:
    """Clients that keep their own copy of a rule and also read a compiled file this run
    writes it into, in another client's text (Copilot CLI beside Codex's `AGENTS.md`,
    for a rule with a `copilot:` block): they read it twice, and the run says so
    (`twice_lines`). Maps each to (the compiled file, the target whose text is there).
    Project scope, like `served_by_compiled`, whose conditions for "reads" it shares."""
    if not isinstance(item, Rule) or item.scope_paths:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for target, clients in targets.items():
        if target in compiled or target in served:
            continue
        for client in clients:
            spec = get(client)
            for source, path in sorted(compiled.items()):
                importer = spec.registration.imports_agents_md
                if path in spec.reads and (not importer or path in imported):
                    out[client] = (path, source)
                    break
    return out


def read_in_trees(
    item: Item,
    targets: Mapping[str, Sequence[str]],
    compiled: Mapping[str, str],
    served: Mapping[str, str],
    renderings: Mapping[str, Rendering],
) -> dict[str, tuple[str, str]]:
    """Clients whose rules are compiled into one file and that also read another
    client's rule tree, every file in it (Crush: `.cursor/rules/`), where that client
    keeps a copy of its own this run (`own_copy_reason`: a `cursor:` block): they read the
    rule twice, and the run says so (`tree_twice_lines`). Maps each to (the tree, the
    target whose copy is there). Project scope, once `served` is complete."""
    if not isinstance(item, Rule) or item.scope_paths:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for target, clients in targets.items():
        if target not in compiled or target in served:
            continue
        for client in clients:
            trees = [r for r in get(client).reads if r.endswith("/")]
            for other, rendering in sorted(renderings.items()):
                if other in compiled or other in served or not rendering.files:
                    continue
                path = rendering.files[0].path
                tree = next((t for t in trees if path.startswith(t)), None)
                if tree is not None:
                    out[client] = (tree, other)
                    break
    return out


def served_in_trees(
    item: Item,
    targets: Mapping[str, Sequence[str]],
    compiled: Mapping[str, str],
    served: Mapping[str, str],
    renderings: Mapping[str, Rendering],
) -> dict[str, str]:
    """Compiled targets whose clients read every file of another target's rule tree
    (Crush: `.cursor/rules/`) where that target keeps a copy of its own this run with the
    same text (beside a team's own `AGENTS.md`, or a `cursor:` passthrough block): their
    own section would be a second read, so that copy serves them. Maps each to that
    target. A section another client reads as well stays (its file holds the rule
    anyway): one shared with another target compiling there or serving one. A text that
    differs is a second read `read_in_trees` reports. Project scope, once `served` is
    complete."""
    from upskill.render.body import source_body

    if not isinstance(item, Rule) or item.scope_paths:
        return {}
    out: dict[str, str] = {}
    for target, path in compiled.items():
        shared = any(p == path for t, p in compiled.items() if t != target)
        if target in served or shared or path in served.values():
            continue
        for other, rendering in sorted(renderings.items()):
            if other in compiled or other in served or not rendering.files:
                continue
            first = rendering.files[0].path
            if all(
                any(first.startswith(t) for t in rule_trees_read(c)) for c in targets[target]
            ) and source_body(item, target) == source_body(item, other):
                out[target] = other
                break
    return out


def tree_twice_lines(twice: Twice) -> list[str]:
    """One line per client, tree and reason: the rules it reads in its compiled file and
    again in another client's copy in a tree it reads (`read_in_trees`)."""
    lines = []
    for (client, tree, source, why), rules in sorted(twice.items()):
        spec, other = get(client), get(source)
        lines.append(
            f"{_read_twice(client, rules)}its compiled copy, and {other.name}'s copy in "
            f"{tree}, where {spec.name} reads every file ({_differs(why, other.name)}, "
            f"so {other.name} keeps a copy of its own)"
        )
    return lines


TEXT, FRONTMATTER, RESOURCES = "text", "frontmatter", "resources"


def own_copy_reason(item: Item, target: str, source: str) -> str:
    """Why `target` keeps a copy of its own of a rule that `source`'s copy holds too: its
    body text differs (an override, a `<!-- @client -->` block), else only its frontmatter
    does (a passthrough block such as Copilot's `excludeAgent`: `served_by_compiled`),
    else the rule has resource files, which only a copy of its own carries. The read-twice
    lines name it: a client reading the same text twice is told so, not that it differs."""
    from upskill.render.body import source_body

    if source_body(item, target) != source_body(item, source):
        return TEXT
    if item.passthrough.get(get(target).family):
        return FRONTMATTER
    return RESOURCES if item.resources else TEXT


def _differs(why: str, name: str) -> str:
    """The read-twice lines' account of an `own_copy_reason` for client `name`."""
    if why == RESOURCES:
        return f"the rule's resource files come only with {name}'s copy"
    return f"the {why} differs for {name}"


def _read_twice(client: str, rules: Iterable[str]) -> str:
    """The head both twice-read lines share: the client, and which rules."""
    names = sorted(rules)
    what = "rule" if len(names) == 1 else "rules"
    return f"{client}: {len(names)} {what} read twice ({', '.join(names)}): "


def _readers(
    path: str,
    targets: Mapping[str, Sequence[str]],
    compiled: Mapping[str, str],
    imported: frozenset[str] = frozenset(),
) -> set[str]:
    """The targets, other than those compiling into `path`, with a client that reads
    `path` (Copilot, opencode, … reading `AGENTS.md`; Claude only where `imported` names
    it: through a team `CLAUDE.md`'s `@AGENTS.md`, or the import upskill adds beside a
    team's own file)."""
    return {
        t
        for t, clients in targets.items()
        if compiled.get(t) != path
        and any(
            path in get(c).reads and (not get(c).registration.imports_agents_md or path in imported)
            for c in clients
        )
    }


def _named(
    path: str, targets: Mapping[str, Sequence[str]], configured: Mapping[str, frozenset[str]]
) -> set[str]:
    """The targets with a client whose project settings name `path` (Gemini CLI's
    `context.fileName` listing `AGENTS.md`): it reads the file whatever else it reads."""
    return {
        t for t, clients in targets.items() if any(path in configured.get(c, ()) for c in clients)
    }


@dataclass(frozen=True)
class Beside:
    """A rule's readers when a client's compiled file moves to its override (Codex to
    `AGENTS.override.md`, `lifecycle.override`)."""

    served: dict[str, str]  # targets served by a compiled file -> that file
    stays: dict[str, str]  # file left -> the moving target whose text stays there for them
    justified: bool  # with the mover's text left there, a reader would read the rule twice


def beside_moved(
    item: Item,
    targets: Mapping[str, Sequence[str]],
    compiled: Mapping[str, str],
    moving: Iterable[str],
    imported: frozenset[str] = frozenset(),
    configured: Mapping[str, frozenset[str]] | None = None,
) -> Beside:
    """The file a moving client leaves still serves the readers with the same text:
    through another client compiling there (Amp, Junie, Zed, Droid, Crush), or through
    the mover's own text kept there for them, but only when every reader of the file is
    served by it, so that none reads the rule twice. Otherwise the readers keep their
    own copies and the file does not hold the rule (`justified`: that is what moving
    the client's rules to its override is for; so is a rule whose text differs between
    the mover and another client compiling into the same file, which would otherwise
    be refused: one section per rule and file)."""
    from upskill.render.body import source_body

    moving = tuple(m for m in moving if m in compiled)
    kept = {t: p for t, p in compiled.items() if t not in moving}
    served = served_by_compiled(item, targets, kept, imported)
    served.update(served_by_reads(item, targets, kept, configured or {}))
    for mover in moving:  # it reads its override, not the file it leaves
        served.pop(mover, None)
    stays: dict[str, str] = {}
    justified = False
    for mover in moving:
        left = compiled[mover]
        sharing = [t for t, p in kept.items() if p == left]
        if sharing:  # another client compiles the rule there anyway: moving only helps
            # when its text differs from the mover's, which one file cannot hold twice
            own = source_body(item, mover)
            justified |= any(source_body(item, t) != own for t in sharing)
            continue
        readers = _readers(left, targets, compiled, imported) - {mover} - set(served)
        via = served_by_compiled(item, targets, {mover: left}, imported)
        # Clients whose settings name the file (Gemini's `context.fileName`) read the
        # mover's text there too if it stays: it must be theirs as well.
        named = _named(left, targets, configured or {}) - {mover} - set(served)
        named_ok = {
            t
            for t, p in served_by_reads(
                item, targets, {**{t: compiled[t] for t in named}, mover: left}, configured or {}
            ).items()
            if p == left
        }
        if (readers or named) and readers <= set(via) and named <= named_ok:
            served.update({t: via[t] for t in readers} | dict.fromkeys(named, left))
            stays[left] = mover
        elif readers or named - named_ok:  # left there, the text would be read twice
            justified = True
    return Beside(served, stays, justified)


def targets_of(clients: Sequence[str]) -> dict[str, list[str]]:
    """Render target -> the clients it renders for (VS Code renders as Copilot)."""
    targets: dict[str, list[str]] = {}
    for client in clients:
        targets.setdefault(render_target(client), []).append(client)
    return targets


def justifies(
    item: Item,
    admitted: tuple[str, ...],
    movers: Mapping[str, str],
    compiled_ok: frozenset[str],
    configured: Mapping[str, frozenset[str]],
    imported: frozenset[str] = frozenset(),
) -> bool:
    """Whether a rule installed for `admitted` (project scope) would be read twice by a
    client because of a mover's text in the compiled file it would otherwise write
    (`movers`: target -> its override; `beside_moved`). Rendering is not needed: the
    rule's text per client decides."""
    if not isinstance(item, Rule) or not any(render_target(c) in movers for c in admitted):
        return False
    if not (item.overrides or item.passthrough or item.resources or has_directives(item.body)):
        return False  # one text for every client: each reader is served where it reads
    clients = _deliverable(item, admitted, {}, False, compiled_ok, configured)
    targets = targets_of(clients)
    compiled = {t: p for t in targets if (p := compiled_target(item, t, False)) is not None}
    return beside_moved(item, targets, compiled, movers, imported, configured).justified


# (client, compiled file or tree, its target, `own_copy_reason`) -> rules
Twice = dict[tuple[str, str, str, str], list[str]]


def twice_lines(twice: Twice) -> list[str]:
    """One line per client, compiled file and reason: the rules it reads in its own tree and, in
    another client's text, in that file, where no override removes it
    (`lifecycle.override`: beside a team's own `AGENTS.md`, which Codex's
    `AGENTS.override.md` would hide, or beside Amp compiling the same text there; or
    beside a Gemini whose settings name `AGENTS.md` and not `GEMINI.md`, for which
    `AGENTS.md` is the only instructions file). No other place serves such a rule:
    Codex 0.171.0 reads a project's rules from `AGENTS.md` or the override read instead
    of it, a project's `developer_instructions` replaces the user's own, and Claude Code
    reads a `CLAUDE.md` import whole (`claudeMdExcludes` drops whole files only)."""
    lines = []
    for (client, path, source, why), rules in sorted(twice.items()):
        spec, other = get(client), get(source)
        lines.append(
            f"{_read_twice(client, rules)}its own copy, and {other.name}'s text in {path}, "
            f"which {spec.name} reads too ({_differs(why, spec.name)}, and "
            f"{other.name} reads a project's rules from {path})"
        )
    return lines


def served_by_reads(
    item: Item,
    targets: Mapping[str, Sequence[str]],
    compiled: Mapping[str, str],
    configured: Mapping[str, frozenset[str]],
) -> dict[str, str]:
    """Compiled targets whose clients the project's settings make read another target's
    compiled file (Gemini CLI's `context.fileName` listing `AGENTS.md`:
    `lifecycle.contextfiles`) where the rule has the same text: their own section would
    be a second read. Maps each to that file."""
    from upskill.render.body import source_body

    served: dict[str, str] = {}
    for target, own in compiled.items():
        for source, path in compiled.items():
            if path == own or not all(path in configured.get(c, ()) for c in targets[target]):
                continue
            if source_body(item, target) == source_body(item, source):
                served[target] = path
                break
    return served


def served_elsewhere(renderings: Mapping[str, Rendering]) -> dict[str, str]:
    """Targets that need no copy of their own: the client reads another target's tree,
    where the same item already lands byte for byte, and would otherwise list it twice
    (issue 15, item 3: Cursor reads `.claude/skills`). Maps each to the target whose copy
    serves it. A target whose own path another target also writes keeps it (that copy
    must exist anyway), and clients that deduplicate by name need nothing."""
    firsts = {t: r.files[0] for t, r in renderings.items() if r.files}
    paths: dict[str, int] = {}
    for first in firsts.values():
        paths[first.path] = paths.get(first.path, 0) + 1
    served: dict[str, str] = {}
    for target, own in firsts.items():
        client = get(target)
        if client.dedupes or paths[own.path] > 1 or target in served.values():
            continue
        for other, theirs in firsts.items():
            if other == target or other in served or theirs.path == own.path:
                continue
            reads = any(theirs.path.startswith(r) for r in client.reads if r.endswith("/"))
            if reads and theirs.data == own.data:
                served[target] = other
                break
    return served


def undelivered_lines(
    missed: Mapping[tuple[str, str, str], int],
    home: bool = False,
    compiled_ok: frozenset[str] = frozenset(),
) -> list[str]:
    """One line per client, kind and reason that selected items could not reach: never
    silent. A team file in the way is the compiled file's front when that is the team's
    (not in `compiled_ok`), else the compiled file itself. A path-scoped rule the client
    reads anyway in another client's copy is told too: it applies everywhere there."""
    lines = []
    for (client, kind, why), count in sorted(missed.items()):
        what = kind if count == 1 else f"{kind}s"
        spec = get(client)
        if why == ALWAYS_ON:
            trees = rule_trees_read(client)
            copies = ", ".join(f"{get(c).name}'s copy in {t}" for t, c in sorted(trees.items()))
            lines.append(
                f"{client}: {count} path-scoped {what} read always-on: {spec.name} reads "
                f"{copies} whole, without its file patterns"
            )
            continue
        if why == SCOPED:
            what = f"path-scoped {what}"
            reason = f"{spec.name} reads one instructions file, without file patterns"
        elif why == TEAM_FILE:
            where = spec.kinds[kind]
            front = where.front(home)
            path = (
                front if front is not None and front not in compiled_ok else where.at(home).template
            )
            if where.alternative is not None and not home:
                reason = (
                    f"{path} and {where.alternative} are the team's own files; add the lines "
                    f"{BLOCK_HINT} to one of them to let upskill manage a block there"
                )
            else:
                reason = (
                    f"{path} is the team's own file; add the lines {BLOCK_HINT} to it "
                    "to let upskill manage a block there"
                )
        else:
            reason = f"{spec.name} has no place for {kind}s"
        lines.append(f"{client}: {count} {what} not delivered ({reason})")
    return lines


BLOCK_HINT = "`<!-- upskill:begin -->` and `<!-- upskill:end -->`"


def render_desired(
    items: Sequence[Resolved],
    selection_for: Callable[[Resolved], Sequence[str]],
    reused: Mapping[str, tuple[DesiredFile, ...]] | None = None,
    *,
    home: bool = False,
    on_item: Callable[[int, int], None] | None = None,
    compiled_ok: frozenset[str] = frozenset(),
    imported: frozenset[str] = frozenset(),
    configured: Mapping[str, frozenset[str]] | None = None,
    hidden: Hidden = NONE,
    moves: Mapping[str, str] | None = None,
) -> Desired:
    """`selection_for(item)` empty means every client. Items in `reused` (by key) are not
    rendered: their recorded files stand in for the rendering. `home`: the global scope.
    `on_item(done, total)` after each item: the CLI's counter on a TTY.
    `compiled_ok`: the compiled instructions files upskill may write (not a team's own);
    rules for them become `sections`, assembled by `lifecycle.compiled`. `imported`:
    the compiled files a client reads through an import file (`served_by_compiled`).
    `configured`: the instruction files the project's settings make a client read
    (`served_by_reads`). `hidden`: the agent trees each client is expected not to read
    after the run (`agentplace.plan_agent`); the engine sets the trees hidden in the end
    (`Desired.hidden`). `moves`: targets whose compiled rules go to their override
    instead (Codex to `AGENTS.override.md`: `lifecycle.override`, `beside_moved`)."""
    from upskill.render import Site, render_item

    files: dict[str, DesiredFile] = {}
    item_clients: dict[str, tuple[str, ...]] = {}
    skipped: list[str] = []
    warnings: list[str] = []
    missed: Missed = {}
    sections: list[Section] = []
    rendered: set[str] = set()
    agent_misses: list[Miss] = []
    twice: Twice = {}
    in_trees: Twice = {}  # (client, tree, its target, reason) -> rules (`read_in_trees`)
    for done, resolved in enumerate(items, 1):
        if on_item is not None:
            on_item(done, len(items))
        admitted = clients_for(cat.audience(resolved.item), selection_for(resolved))
        if reused is not None and resolved.key in reused:
            item = resolved.item
            item_clients[resolved.key] = _deliverable(
                item, admitted, missed, home, compiled_ok, configured or {}
            )
            for kept in reused[resolved.key]:
                if kept.path not in compiled_ok:  # sections are read back from the file
                    _merge(files, kept)
            continue
        rendered.add(resolved.key)
        if not admitted:
            skipped.append(resolved.key)
            warnings.append(f"{resolved.key}: audience excludes every selected client; skipped")
            continue
        clients = _deliverable(resolved.item, admitted, missed, home, compiled_ok, configured or {})
        if not clients:
            continue
        item_clients[resolved.key] = clients
        targets = targets_of(clients)
        site = Site(home, frozenset(targets))
        renderings = {
            target: render_item(resolved.item, target, alias=resolved.alias, site=site)
            for target in targets
        }
        compiled = {
            t: _alternative(t, p, home, compiled_ok)
            for t in targets
            if (p := compiled_target(resolved.item, t, home)) is not None
        }
        served: dict[str, str] = {}
        stays: dict[str, str] = {}  # a file left by a mover -> the mover whose text stays
        left_out: dict[str, str] = {}  # agent copies a client would list twice
        if not home:
            moving = {t: p for t, p in (moves or {}).items() if t in compiled}
            beside = beside_moved(
                resolved.item, targets, compiled, moving, imported, configured or {}
            )
            served, stays = beside.served, beside.stays
            compiled = {**compiled, **moving}
            doubled = read_twice(resolved.item, targets, compiled, served, imported)
            rest = {t: r for t, r in renderings.items() if t not in compiled and t not in served}
            served.update(served_elsewhere(rest))
            by_trees = served_in_trees(resolved.item, targets, compiled, served, renderings)
            served.update(by_trees)
            for client, (path, source) in doubled.items():
                if source not in by_trees:  # else its compiled file does not hold the rule
                    why = own_copy_reason(resolved.item, render_target(client), source)
                    twice.setdefault((client, path, source, why), []).append(resolved.key)
            for client, (tree, source) in read_in_trees(
                resolved.item, targets, compiled, served, renderings
            ).items():
                why = own_copy_reason(resolved.item, source, render_target(client))
                in_trees.setdefault((client, tree, source, why), []).append(resolved.key)
            if isinstance(resolved.item, Agent) and len(targets) > 1:
                placed = plan_agent(resolved.key, targets, renderings, served, hidden)
                left_out = placed.served
                served.update(left_out)
                agent_misses += placed.misses
        for target in targets:
            if target in left_out:
                continue  # what its rendering drops is moot: it reads another client's copy
            warnings += [f"{resolved.key} ({target}): {w}" for w in renderings[target].warnings]
        if isinstance(resolved.item, Skill) and len(targets) > 1:
            from upskill.lifecycle.skillplace import plan_skill

            plan = plan_skill(resolved.key, targets, renderings, home=home, served=served)
            if plan is not None:  # the renderings differ: each where its clients read it
                warnings += plan.lines
                for write in plan.writes:
                    owners = tuple(Owner(resolved.key, c) for c in write.clients)
                    for out in write.files:
                        _merge(files, _checked(out, owners))
                continue
        for target in targets:
            rendering = renderings[target]
            if target in served:
                continue  # it reads another client's identical copy: written once
            readers = [t for t, via in served.items() if via in (target, compiled.get(target))]
            written_for = [c for t in (target, *readers) for c in targets[t]]
            owners = tuple(Owner(resolved.key, c) for c in written_for)
            for out in rendering.files:
                if target in compiled and isinstance(out.data, bytes):
                    _checked(out, owners)
                    sections.append(Section(compiled[target], resolved.name, out.data, owners))
                    for left in (p for p, mover in stays.items() if mover == target):
                        users = [c for t, via in served.items() if via == left for c in targets[t]]
                        stay = tuple(Owner(resolved.key, c) for c in users)
                        sections.append(Section(left, resolved.name, out.data, stay))
                else:
                    _merge(files, _checked(out, owners))
    return Desired(
        files,
        item_clients,
        tuple(skipped),
        tuple(warnings),
        _same_sections(sections),
        frozenset(rendered),
        tuple(agent_misses),
        dict(hidden),
        (
            *twice_lines(twice),
            *tree_twice_lines(in_trees),
            *undelivered_lines(missed, home, compiled_ok),
        ),
    )


def _alternative(target: str, path: str, home: bool, compiled_ok: frozenset[str]) -> str:
    """The file a compiled target writes this run: `path`, or its alternative when the
    team owns `path` (`own_compiled`; `_deliverable` admitted the target)."""
    return own_compiled(get(target).kinds[RULE], home, compiled_ok) or path


def _checked(out: OutputFile, owners: tuple[Owner, ...]) -> DesiredFile:
    """The file to write for a rendered output, whose path must stay inside the root."""
    if not safe_relative(out.path):
        raise RenderError(f"renderer produced an unsafe output path {out.path!r}")
    return DesiredFile.of(out.path, out.data, out.mode, owners)


def _same_sections(sections: list[Section]) -> tuple[Section, ...]:
    """One section per file and rule: clients sharing a compiled file (Codex, Amp, Junie
    and Zed all read `AGENTS.md`) must agree on a rule's text."""
    by_place: dict[tuple[str, str], Section] = {}
    for s in sections:
        seen = by_place.get((s.path, s.name))
        if seen is None:
            by_place[(s.path, s.name)] = s
        elif seen.data != s.data:
            raise RenderError(
                f"{s.path}: rule {s.name!r} reads differently for the clients sharing this "
                "file; give those clients one text (drop the client-specific block)"
            )
        else:
            owners = tuple(sorted({*seen.owners, *s.owners}))
            by_place[(s.path, s.name)] = dataclasses.replace(seen, owners=owners)
    return tuple(by_place.values())


def _merge(files: dict[str, DesiredFile], new: DesiredFile) -> None:
    current = files.get(new.path)
    if current is None:
        files[new.path] = new
        return
    if current.sha256 != new.sha256:
        items = sorted({o.item for o in current.owners} | {o.item for o in new.owners})
        raise RenderError(
            f"{new.path}: {' and '.join(items)} would write different content to the same file"
        )
    owners = tuple(sorted(set(current.owners) | set(new.owners)))
    kept = current if current.data is not None else new  # prefer the one with bytes
    files[new.path] = dataclasses.replace(kept, owners=owners)
