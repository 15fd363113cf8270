"""A child agent requested through `agent.create`, checked against its parent. Pure.

Children are always attenuated (agent-tool-security, policy model "Children"): each
child rule is mapped onto the parent's subject and must be allowed there exactly;
declared tools, groups and the perm ceiling are subsets of the parent's; a mount row
must derive from a parent row (same target, a source equal to or under the parent's,
rw only where the parent's is rw). The parent needs `agent:<child> create`.

Request (one JSON object; only `name` is required):

    {"name": "kid", "label": "user_u:agent_r:kid_t:s0",
     "policy": ["allow kid_t mount:workspace read", ...],
     "tools": ["fs.read"],            -> tools control + `tool:<t> execute` rules
     "shared": {"project-a": ["read"]}, -> `shared:<s> <perm>` rules
     "model": ["debug/echo"],         -> `model:<m> use` rules
     "mount": [["/src", "/dst", "ro"]] (a fourth element: options, default "-"),
     "groups": [4300], "perm": "r-x", "life": "owned" | "temp"}

The child's identity is the parent's uid and gid; its label defaults to the parent's
(the same security subject); `parent` reads `agent:<parent>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cortexfs.authorize import subject_of
from cortexfs.errors import BadInput, Denied
from cortexfs.launch.spec import AgentSpec
from cortexfs.mount_table import MountEntry, parse_mount_line
from cortexfs.names import name_problem
from cortexfs.perm import parse_perm
from cortexfs.policy import PolicyError, Rule, parse_rule

LIVES = ("owned", "temp")
KNOWN = frozenset({"name", "label", "policy", "tools", "shared", "model", "mount", "groups",
                   "perm", "life"})  # fmt: skip


@dataclass(frozen=True)
class Child:
    name: str
    controls: dict[str, str]  # control name -> text, in the order they are written


def _strings(request: dict[str, Any], key: str) -> list[str]:
    value = request.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadInput(f"agent.create: {key} must be a list of strings")
    return value


def _rules(request: dict[str, Any], subject: str) -> list[Rule]:
    rules = []
    for number, line in enumerate(_strings(request, "policy"), start=1):
        try:
            rules.append(parse_rule(line, number))
        except PolicyError as exc:
            raise BadInput(f"agent.create: policy {exc}") from exc
    spaces = request.get("shared", {})
    if not isinstance(spaces, dict):
        raise BadInput("agent.create: shared must map space names to lists of read|write")
    extra = [f"tool:{t} execute" for t in _strings(request, "tools")]
    extra += [f"model:{m} use" for m in _strings(request, "model")]
    for space, perms in spaces.items():
        if not isinstance(perms, list) or not all(isinstance(p, str) for p in perms):
            raise BadInput(f"agent.create: shared.{space} must be a list of read|write")
        extra += [f"shared:{space} {p}" for p in perms]
    for line in extra:
        try:
            rules.append(parse_rule(f"allow {subject} {line}", 0))
        except PolicyError as exc:
            raise BadInput(f"agent.create: {line!r}: {str(exc).removeprefix('line 0: ')}") from exc
    for rule in rules:
        if rule.subject != subject:
            raise BadInput(f"agent.create: {rule.render()!r} is not a rule for {subject}")
    return list(dict.fromkeys(rules))


def _mount_rows(request: dict[str, Any]) -> list[MountEntry]:
    rows = request.get("mount", [])
    if not isinstance(rows, list):
        raise BadInput("agent.create: mount must be a list of [source, target, ro|rw]")
    entries = []
    for row in rows:
        if (
            not isinstance(row, list)
            or len(row) not in (3, 4)
            or not all(isinstance(f, str) for f in row)
        ):
            raise BadInput("agent.create: a mount row is [source, target, ro|rw(, options)]")
        try:
            entries.append(parse_mount_line("\t".join([*row, "-"][:4] if len(row) == 3 else row)))
        except ValueError as exc:
            raise BadInput(f"agent.create: mount row {row!r}: {exc}") from exc
    return entries


def _under(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip("/") + "/")


def _check_mount(parent: AgentSpec, row: MountEntry) -> None:
    for own in parent.mounts:
        if own.target == row.target and _under(row.source, own.source):
            if row.writable and not own.writable:
                raise Denied(f"agent.create: {row.target} is read-only for the parent")
            return
    raise Denied(f"agent.create: {row.source} at {row.target} is not a mount of the parent")


def _render_row(row: MountEntry) -> str:
    mode = "rw" if row.writable else "ro"
    return f"{row.source}\t{row.target}\t{mode}\t{','.join(row.options) or '-'}\n"


def plan_child(parent: AgentSpec, request: dict[str, Any]) -> Child:
    """The child's controls, or BadInput (malformed request) / Denied (not a subset)."""
    unknown = sorted(set(request) - KNOWN)
    if unknown:
        raise BadInput(f"agent.create: unknown fields: {', '.join(unknown)}")
    name = request.get("name")
    if not isinstance(name, str) or name_problem(name):
        raise BadInput(f"agent.create: {name!r} is not an agent name")
    if not parent.allows("agent", name, "create"):
        raise Denied(
            f"agent {parent.ref.name} policy does not allow {parent.subject} agent:{name} create"
        )
    label = request.get("label", parent.label)
    try:
        subject = subject_of(label) if isinstance(label, str) else ""
    except ValueError as exc:
        raise BadInput(f"agent.create: {exc}") from exc
    if not subject:
        raise BadInput("agent.create: label must be a string")
    rules = _rules(request, subject)
    for rule in rules:
        mapped = Rule(parent.subject, rule.object_class, rule.object_name, rule.permission)
        if mapped not in parent.policy.rules:
            raise Denied(f"agent.create: {rule.render()} maps to {mapped.render()}, "
                         f"which agent {parent.ref.name} policy does not allow")  # fmt: skip
    tools = _strings(request, "tools")
    extra_tools = [t for t in tools if t not in parent.tools]
    if extra_tools:
        raise Denied(f"agent.create: tools {', '.join(extra_tools)} are not the parent's")
    groups = request.get("groups", [])
    if not isinstance(groups, list) or not all(type(g) is int and g >= 0 for g in groups):
        raise BadInput("agent.create: groups must be a list of gids")
    extra_groups = [str(g) for g in groups if g not in parent.groups]
    if extra_groups:
        raise Denied(f"agent.create: groups {', '.join(extra_groups)} are not the parent's")
    perm_text = request.get("perm", parent.perm.render())
    try:
        perm = parse_perm(perm_text) if isinstance(perm_text, str) else None
    except ValueError as exc:
        raise BadInput(f"agent.create: perm: {exc}") from exc
    if perm is None:
        raise BadInput("agent.create: perm must be a string such as r-x")
    wider = [b for b in "rwx" if perm.has(b) and not parent.perm.has(b)]
    if wider:
        raise Denied(f"agent.create: perm {perm.render()} is wider than the parent's "
                     f"{parent.perm.render()}")  # fmt: skip
    rows = _mount_rows(request)
    for row in rows:
        _check_mount(parent, row)
    life = request.get("life", "owned")
    if life not in LIVES:
        raise BadInput(f"agent.create: life must be one of {', '.join(LIVES)}")
    controls = {
        "uid": f"{parent.uid}\n",
        "gid": f"{parent.gid}\n",
        "groups": "".join(f"{g}\n" for g in groups),
        "label": f"{label}\n",
        "perm": f"{perm.render()}\n",
        "iso": "1\n" if parent.iso else "0\n",
        "tools": "".join(f"{t}\n" for t in tools),
        "mount": "".join(_render_row(r) for r in rows),
        "policy": "".join(f"{r.render()}\n" for r in rules),
        "parent": f"agent:{parent.ref.name}\n",
        "life": f"{life}\n",
    }
    return Child(name, controls)
