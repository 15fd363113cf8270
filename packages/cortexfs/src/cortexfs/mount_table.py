"""The agent `mount` control: `src<TAB>dst<TAB>ro|rw<TAB>opts` lines, anything else EINVAL."""

from __future__ import annotations

from dataclasses import dataclass

MOUNT_OPTIONS = frozenset({"bind", "rbind", "nosuid", "nodev", "noexec"})
# Targets an agent mount may never cover (agent-tool-security, granting mounts).
REFUSED_TARGETS = ("/", "/bin", "/ctx", "/dev", "/etc", "/home", "/proc", "/run", "/usr")


@dataclass(frozen=True)
class MountEntry:
    source: str
    target: str
    writable: bool
    options: tuple[str, ...]


def _target_refused(target: str) -> bool:
    return target in REFUSED_TARGETS or target.startswith("/lib")


def parse_mount_line(line: str) -> MountEntry:
    fields = line.split("\t")
    if len(fields) != 4:
        raise ValueError("expected src<TAB>dst<TAB>ro|rw<TAB>options")
    source, target, mode, opts = fields
    for path in (source, target):
        if not path.startswith("/") or "/../" in f"{path}/" or "\x00" in path:
            raise ValueError(f"mount path {path!r} must be absolute without '..'")
    if _target_refused(target.rstrip("/") or "/"):
        raise ValueError(f"mount target {target!r} is reserved")
    if mode not in ("ro", "rw"):
        raise ValueError(f"mount mode {mode!r} is not ro or rw")
    options = () if opts == "-" else tuple(opts.split(","))
    if any(o not in MOUNT_OPTIONS for o in options):
        raise ValueError(f"unknown mount options {opts!r}")
    return MountEntry(source, target, mode == "rw", options)


def parse_mount_table(text: str) -> tuple[MountEntry, ...]:
    return tuple(parse_mount_line(line) for line in text.split("\n") if line != "")
