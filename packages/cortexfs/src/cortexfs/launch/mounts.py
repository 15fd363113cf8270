"""What the sandbox sees: the fixed system view, the runtime, /ctx, the workspace and the
agent's mount rows, each only as far as policy grants it. Pure.

A mount row is named in policy by its target's last component: `/opt/tools` needs
`allow <type> mount:tools read` (bound read-only) or `... write` (bound read-write, only
if the row says rw). Ungranted rows are left out; backing storage is never bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cortexfs.errors import BadInput
from cortexfs.launch.spec import AgentSpec
from cortexfs.layout import ROOT_DIRS
from cortexfs.names import name_problem
from cortexfs.runner_cli import SANDBOX_BROKER

CTX = "/ctx"
WORKSPACE = "/workspace"
SYSTEM_RO = ("/usr", "/etc")
SANDBOX_TMP = "/tmp"  # noqa: S108 - the sandbox's own tmpfs, never the host's /tmp
# Options bubblewrap honours on every bind (nosuid, nodev) or by its nature (binds are
# recursive); noexec it cannot apply, so such a row is refused rather than ignored.
HONOURED_OPTIONS = frozenset({"bind", "rbind", "nosuid", "nodev"})
# Where /ctx holds authority: objects, their controls and policy. Read-only inside the
# sandbox whatever the agent's uid may do on the mount: a tool runs outside the sandbox
# (through the broker), so a tool or model the agent could write would be its way out,
# and a sibling agent of the same owner must not have its policy rewritten. /ctx/agent
# shows only the agents policy lets it read (agent_binds).
AUTHORITY_DIRS = tuple(f"/{d}" for d in ROOT_DIRS if d not in ("agent", "home", "shared"))


@dataclass(frozen=True)
class Bind:
    """One step of the sandbox's view, in order: a bind (`source` at `target`), a `mask`
    (an empty directory over `target`) or a `seal` (remount `target` read-only)."""

    source: str
    target: str
    writable: bool
    kind: str = "bind"
    optional: bool = False  # a bind whose source does not exist is skipped
    # A host path the plan resolved and checked (workspace, rows): bound through a
    # descriptor opened and checked again at spawn, so a directory renamed and replaced
    # after the check is never what gets bound (launch/pin.py).
    pinned: bool = False


@dataclass(frozen=True)
class PathFacts:
    """What the host says about a host path a bind names. The plan binds the resolved
    path (no symlinks) it checked, not the text, which could be retargeted meanwhile."""

    resolve: Callable[[str], str]
    exposes_ctx: Callable[[str], bool]  # is, holds or lies in a CortexFS mount or storage


@dataclass(frozen=True)
class MountPlan:
    binds: tuple[Bind, ...]
    ctx_writable: bool
    cwd: str
    notes: tuple[str, ...] = field(default=())  # rows left out or narrowed, and why


def policy_name(target: str) -> str:
    return target.rstrip("/").rsplit("/", 1)[-1]


def _under(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def _granted(spec: AgentSpec, target: str, writable: bool) -> tuple[bool, bool]:
    """(bound at all, bound writable) for a bind the policy names by `target`."""
    name = policy_name(target)
    if name_problem(name):
        raise BadInput(f"mount target {target!r}: {name!r} cannot be named in policy")
    if writable and spec.allows("mount", name, "write"):
        return True, True
    return spec.allows("mount", name, "read"), False


def _rows(spec: AgentSpec, host: PathFacts, taken: set[str]) -> tuple[list[Bind], list[str]]:
    binds: list[Bind] = []
    notes: list[str] = []
    for row in spec.mounts:
        where = f"{spec.ref.controls}/mount: {row.source} -> {row.target}"
        unsupported = [o for o in row.options if o not in HONOURED_OPTIONS]
        if unsupported:
            raise BadInput(f"{where}: option {','.join(unsupported)} is not supported")
        source = host.resolve(row.source)
        if host.exposes_ctx(source):
            what = "source is, holds or lies in CortexFS storage or a CortexFS mount"
            raise BadInput(f"{where}: {what}; use /ctx")
        if row.target in taken or _under(row.target, (CTX,)):
            raise BadInput(f"{where}: target is already mounted")
        bound, writable = _granted(spec, row.target, row.writable)
        name = policy_name(row.target)
        if not bound:
            notes.append(f"{row.target}: left out (policy grants no mount:{name} read)")
            continue
        if row.writable and not writable:
            notes.append(f"{row.target}: read-only (policy grants no mount:{name} write)")
        taken.add(row.target)
        binds.append(Bind(source, row.target, writable, pinned=True))
    return binds, notes


def authority_binds(ctx_host: str, ref_name: str, uid: int) -> list[Bind]:
    """The class directories read-only over /ctx, and the uid's home (its tools, models,
    agents and the .tshrc its own lookups read), then the agent's own state directory
    (home/<uid>/agent/<a>/: sessions, data, cache, log) writable again."""
    home = f"/home/{uid}"
    binds = [Bind(ctx_host + d, CTX + d, False) for d in (*AUTHORITY_DIRS, home)]
    state = f"{home}/agent/{ref_name}"
    binds.append(Bind(ctx_host + state, CTX + state, True))
    return binds


def _grants(spec: AgentSpec, object_class: str, ctx_writable: bool) -> dict[str, bool]:
    """name -> writable, for every `<class>:<name> read|write` the agent's policy holds."""
    granted: dict[str, bool] = {}
    for rule in spec.policy.rules:
        if rule.subject != spec.subject or rule.object_class != object_class:
            continue
        if name_problem(rule.object_name) is None and rule.permission in ("read", "write"):
            write = rule.permission == "write" and ctx_writable
            granted[rule.object_name] = granted.get(rule.object_name, False) or write
    return granted


def _only(directory: str, shown: list[Bind]) -> list[Bind]:
    """`directory` as an empty directory holding just `shown`, then sealed read-only, so
    nothing else is visible there and nothing can be made."""
    return [Bind("", directory, False, "mask"), *shown, Bind("", directory, False, "seal")]


def shared_binds(spec: AgentSpec, ctx_host: str, ctx_writable: bool) -> list[Bind]:
    """/ctx/shared shows only the spaces policy names: `shared:<s> read` (read-only) or
    `write` (read-write when /ctx is). A granted space that does not exist yet is left
    out until a later turn finds it."""
    granted = _grants(spec, "shared", ctx_writable)
    shown = [
        Bind(f"{ctx_host}/shared/{name}", f"{CTX}/shared/{name}", granted[name], optional=True)
        for name in sorted(granted)
    ]
    return _only(f"{CTX}/shared", shown)


def agent_binds(spec: AgentSpec, ctx_host: str) -> list[Bind]:
    """/ctx/agent shows the agent itself and the agents its policy lets it read
    (`agent:<n> read`), each object and its controls read-only; no other agent is
    visible, and none can be made."""
    readable = {n for n in _grants(spec, "agent", False) if spec.allows("agent", n, "read")}
    names = [spec.ref.name, *sorted(readable - {spec.ref.name})]
    shown = [
        Bind(f"{ctx_host}/agent/{name}{suffix}", f"{CTX}/agent/{name}{suffix}", False,
             optional=name != spec.ref.name)
        for name in names for suffix in ("", ".d")
    ]  # fmt: skip
    return _only(f"{CTX}/agent", shown)


def plan_mounts(
    spec: AgentSpec,
    ctx_host: str,
    ctx_writable: bool,
    runtime_roots: tuple[str, ...],
    workspace: str | None,
    broker_host: str,
    host: PathFacts,
    cwd: str | None = None,
) -> MountPlan:
    """Binds in the order bubblewrap applies them: runtime, /ctx, its authority read-only
    (so the agent cannot rewrite its own policy or label, nor any object), workspace, rows.
    The agent's state directory must exist (the supervisor makes it before each turn)."""
    binds = [Bind(r, r, False) for r in runtime_roots if not _under(r, SYSTEM_RO)]
    binds.append(Bind(broker_host, SANDBOX_BROKER, False))
    binds.append(Bind(ctx_host, CTX, ctx_writable))
    if ctx_writable:
        binds += authority_binds(ctx_host, spec.ref.name, spec.uid)
    binds += agent_binds(spec, ctx_host) + shared_binds(spec, ctx_host, ctx_writable)
    notes: list[str] = []
    taken = {WORKSPACE} if workspace else set()
    if workspace:
        given, workspace = workspace, host.resolve(workspace)
        if host.exposes_ctx(workspace):
            raise BadInput(
                f"{given}: the workspace is, holds or lies in CortexFS storage or a "
                "CortexFS mount; choose another (--workspace DIR) or --no-workspace"
            )
        bound, writable = _granted(spec, WORKSPACE, True)
        if bound:
            binds.append(Bind(workspace, WORKSPACE, writable, pinned=True))
        else:
            taken.clear()
            notes.append(f"{WORKSPACE}: left out (policy grants no mount:workspace read)")
    rows, row_notes = _rows(spec, host, taken)
    binds += rows
    if cwd is not None and (not cwd.startswith("/") or "/../" in f"{cwd}/"):
        raise BadInput(f"cwd {cwd!r} must be an absolute path without '..'")
    cwd = cwd or spec.cwd or (WORKSPACE if WORKSPACE in taken else SANDBOX_TMP)
    return MountPlan(tuple(binds), ctx_writable, cwd, tuple(notes + row_notes))
