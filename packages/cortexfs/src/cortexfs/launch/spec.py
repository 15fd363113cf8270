"""An agent object's controls parsed into the typed facts a launch is derived from. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cortexfs.authorize import subject_of
from cortexfs.env_rules import reserved_env_key
from cortexfs.errors import BadInput
from cortexfs.mount_table import MountEntry, parse_mount_table
from cortexfs.perm import Perm, parse_perm
from cortexfs.policy import Policy, PolicyError, parse_policy

# Controls a launch cannot do without; the others default to empty.
REQUIRED = ("owner", "uid", "gid", "label", "perm", "policy")
READ = (*REQUIRED, "groups", "iso", "root", "cwd", "env", "mount", "tools")


@dataclass(frozen=True)
class AgentRef:
    """Where an agent object sits in the ABI: `/agent/coder` or `/home/1000/agent/x`."""

    name: str
    abi_path: str

    @property
    def controls(self) -> str:
        return f"{self.abi_path}.d"

    @property
    def key(self) -> str:
        """A flat, unique name for runtime paths (cgroups): `agent.coder`."""
        return self.abi_path.strip("/").replace("/", ".")


@dataclass(frozen=True)
class AgentSpec:
    ref: AgentRef
    owner: int
    uid: int
    gid: int
    groups: tuple[int, ...]
    label: str
    subject: str
    perm: Perm
    iso: bool
    root: str
    cwd: str
    env: tuple[tuple[str, str], ...]
    mounts: tuple[MountEntry, ...]
    policy: Policy
    tools: tuple[str, ...]

    def allows(self, object_class: str, name: str, permission: str) -> bool:
        return self.policy.allows(self.subject, object_class, name, permission)


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def _value(text: str) -> str:
    lines = _lines(text)
    return lines[0] if lines else ""


def _uint(where: str, text: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise BadInput(f"{where}: {text!r} is not a decimal id")
    return int(text)


def _path(where: str, text: str) -> str:
    if text and (not text.startswith("/") or "/../" in f"{text}/" or "\x00" in text):
        raise BadInput(f"{where}: {text!r} must be an absolute path without '..'")
    return text


def _env(where: str, text: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for line in _lines(text):
        key, sep, value = line.partition("=")
        if not sep or not key:
            raise BadInput(f"{where}: {line!r} is not KEY=VALUE")
        if reserved_env_key(key):
            raise BadInput(f"{where}: {key} is set by the launcher, not by an agent's env")
        pairs.append((key, value))
    return tuple(pairs)


def parse_spec(ref: AgentRef, controls: Mapping[str, str]) -> AgentSpec:
    """`controls` maps control name -> file text; a missing required one is BadInput."""
    where = {name: f"{ref.controls}/{name}" for name in READ}
    missing = [name for name in REQUIRED if name not in controls]
    if missing:
        raise BadInput(f"{ref.controls}: missing controls: {', '.join(missing)}")
    text = {name: controls.get(name, "") for name in READ}
    label = _value(text["label"])
    try:
        subject = subject_of(label)
        perm = parse_perm(_value(text["perm"]))
        policy = parse_policy(text["policy"])
        mounts = parse_mount_table(text["mount"])
    except (ValueError, PolicyError) as exc:
        raise BadInput(f"{ref.controls}: {exc}") from exc
    return AgentSpec(
        ref=ref,
        owner=_uint(where["owner"], _value(text["owner"])),
        uid=_uint(where["uid"], _value(text["uid"])),
        gid=_uint(where["gid"], _value(text["gid"])),
        groups=tuple(_uint(where["groups"], g) for g in _lines(text["groups"])),
        label=label,
        subject=subject,
        perm=perm,
        iso=_value(text["iso"]) != "0",
        root=_path(where["root"], _value(text["root"])),
        cwd=_path(where["cwd"], _value(text["cwd"])),
        env=_env(where["env"], text["env"]),
        mounts=mounts,
        policy=policy,
        tools=tuple(_lines(text["tools"])),
    )
