"""Default control sets for new objects and the reference tree: pure data, no I/O."""

from __future__ import annotations

import json
from dataclasses import dataclass

from cortexfs.labels import default_label
from cortexfs.objects import RUNNER_NAME, ObjectClass, ObjectHeader, render_object

TREE_VERSION = 1
DOCS_SPACE = "cortexfs-docs"
# Reference entries nobody removes or replaces through the mount (EROFS, root too);
# bootstrap restores any that vanish behind its back. Controls of the reference
# objects stay their owner's to change.
PROTECTED_PATHS = frozenset(
    {
        "/bin/cortexfs.bootstrap.json", "/model/debug", "/model/debug/echo", "/model/main",
        "/model/helper", "/model/route", "/agent/coder", "/agent/coder.sock",
    }
)  # fmt: skip
PROTECTED_SPACES = frozenset({DOCS_SPACE})


@dataclass(frozen=True)
class Entry:
    """One backing entry: a file (data), a directory (data None, link None) or a symlink."""

    path: str  # relative to the storage root, "/"-separated
    data: bytes | None = None
    link: str | None = None
    mode: int = 0o600


def default_controls(cls: ObjectClass, name: str, uid: int, gid: int) -> dict[str, str]:
    """Control name -> file text for a fresh object owned by `uid`; it grants nothing."""
    base = {"owner": f"{uid}\n", "policy": "", "status": "", "log": ""}
    if cls is ObjectClass.AGENT:
        return base | {
            "uid": f"{uid}\n",
            "gid": f"{gid}\n",
            "groups": "",
            "perm": "r-x\n",
            "label": f"{default_label(uid)}\n",
            "iso": "1\n",
            "parent": "",
            "life": "persistent\n",
            "root": "",
            "cwd": "",
            "env": "",
            "path": "",
            "mount": "",
            "model": "",
            "tools": "",
            "status": "stopped\n",
            "pid": "",
            "meta.json": "{}\n",
        }
    if cls is ObjectClass.TOOL:
        schema = json.dumps({"type": "object"}) + "\n"
        return base | {
            "name": f"{name}\n",
            "description": "",
            "schema": schema,
            "cap": "",
            "driver": "",
            "status": "ready\n",
        }
    return base | {"id": f"{name}\n", "driver": "", "status": "ready\n", "limit": "unknown\n"}


def object_entries(
    cls: ObjectClass, class_dir: str, name: str, uid: int, gid: int, runner: str
) -> list[Entry]:
    """The `.d/` directory, its controls, then the exec wrapper (written last)."""
    prefix = f"{class_dir}/{name}" if class_dir else name
    entries = [Entry(f"{prefix}.d", mode=0o700)]
    for control, text in default_controls(cls, name, uid, gid).items():
        entries.append(Entry(f"{prefix}.d/{control}", text.encode()))
    entries.append(Entry(prefix, render_object(ObjectHeader(runner, cls, name)), mode=0o700))
    return entries


def reference_tree(runner: str) -> list[Entry]:
    """The stable reference tree `bootstrap` creates in an empty storage directory."""
    entries = [Entry(d, mode=0o700) for d in ("bin", "model", "agent", "tool", "channel", "home")]
    entries += [Entry("shared", mode=0o700)]
    for tool in ("ctx", "ctxterm", "tsh"):
        header = ObjectHeader(runner, ObjectClass.BIN, tool)
        entries.append(Entry(f"bin/{tool}", render_object(header), mode=0o700))
    entries.append(Entry("model/debug", mode=0o700))
    model = object_entries(ObjectClass.MODEL, "model", "debug/echo", 0, 0, runner)
    entries += _override(model, Entry("model/debug/echo.d/driver", b"kind=echo\n"))
    entries += [
        Entry("model/main", link="/ctx/model/debug/echo"),
        Entry("model/helper", link="/ctx/model/debug/echo"),
        Entry("model/route", b"fallback: direct\n"),
    ]
    coder = object_entries(ObjectClass.AGENT, "agent", "coder", 0, 0, runner)
    entries += _override(coder, Entry("agent/coder.d/label", b"user_u:agent_r:coder_t:s0\n"))
    entries.append(Entry("agent/coder.sock", link="/run/cortexfs/agent/coder.sock"))
    entries += home_entries(0)
    entries += [  # documentation every uid reads
        Entry(f"shared/{DOCS_SPACE}", mode=0o755),
        Entry(f"shared/{DOCS_SPACE}/man", mode=0o755),
        Entry(f"shared/{DOCS_SPACE}/man/cortexfs.7", _MAN_PAGE.encode(), mode=0o644),
    ]
    state = {"tree_version": TREE_VERSION, "migrations": []}
    entries.append(Entry("bin/cortexfs.bootstrap.json", (json.dumps(state) + "\n").encode()))
    return entries


def reference_paths() -> list[str]:
    """ABI paths of the reference tree outside homes and controls: what `ctx doctor`
    expects to find."""
    return [
        f"/{e.path}" for e in reference_tree(f"/{RUNNER_NAME}")
        if not e.path.startswith("home/") and ".d/" not in e.path
    ]  # fmt: skip


def _override(entries: list[Entry], replacement: Entry) -> list[Entry]:
    return [replacement if e.path == replacement.path else e for e in entries]


def home_entries(uid: int) -> list[Entry]:
    root = f"home/{uid}"
    entries = [Entry(root, mode=0o700)]
    entries += [Entry(f"{root}/{cls}", mode=0o700) for cls in ("agent", "tool", "model")]
    tshrc = f"CTX_PATH=/ctx/tool:/ctx/home/{uid}/tool\n".encode()
    entries.append(Entry(f"{root}/.tshrc", tshrc, mode=0o644))
    return entries


_MAN_PAGE = """\
CORTEXFS(7)

/ctx is a frozen root: status bin/ model/ agent/ tool/ channel/ home/ shared/.
Objects are triples: <name> (executable), <name>.d/ (controls), <name>.sock.
Controls hold one value and a newline; replace them whole or by renaming a
temporary file in the same directory. Policy v0 is default deny:
    allow <subject_type> <class>:<name> <perm>
"""
