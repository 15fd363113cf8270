"""Which scope paths upskill may write or delete, decided in one place.

A lockfile and a journal are data, and a cloned repository can carry a
lockfile (docs/security.md). So a path read from one is never trusted as
"ours": before any use it must name a file inside a client output tree
(the directories any client's layouts render into, `render.tables.output_trees`) or one of the
ancillary files upskill maintains, and nothing under `.git`. Symlinked
directories on the way are refused where the path is used
(`fsops.ScopeDirs`), since that depends on the disk, not on the path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from upskill.errors import UpskillError
from upskill.lifecycle.ancillary import ANCILLARY_FILES
from upskill.lifecycle.fsops import safe_relative
from upskill.render.tables import output_trees
from upskill.state.lockfile import Lockfile
from upskill.state.records import McpEntry, PluginEntry


class UnconfinedPath(UpskillError):
    """A path read from a lockfile or journal is not one upskill may touch."""


OUTPUT_TREES: tuple[str, ...] = output_trees()


def refusal(rel: str) -> str | None:
    """Why `rel` (scope-relative, `/`-separated) may not be touched; None when it may."""
    if not safe_relative(rel):
        return "is not a relative path inside the scope"
    if any(part.casefold() == ".git" for part in rel.split("/")):
        return "is inside a .git directory"
    if rel in ANCILLARY_FILES:
        return None
    if any(_inside(rel, tree) for tree in OUTPUT_TREES):
        return None
    return f"is outside the client output trees ({', '.join(OUTPUT_TREES)})"


def _inside(rel: str, tree: str) -> bool:
    """A tree is a directory (`.claude/rules/`) or a compiled file (`AGENTS.md`)."""
    if not tree.endswith("/"):
        return rel == tree
    return rel.startswith(tree) and len(rel) > len(tree)


def check_records(lock: Lockfile, source: Path, *, project: bool) -> None:
    """A project lockfile describes project-scope MCP and plugin records only: one that
    says `scope: user` would make upskill edit or remove the user's own global servers
    and plugins on a cloned repository's say-so."""
    if not project:
        return
    records: tuple[tuple[str, Sequence[McpEntry | PluginEntry]], ...] = (
        ("mcps", lock.mcps),
        ("plugins", lock.plugins),
    )
    for key, entries in records:
        for index, entry in enumerate(entries):
            if entry.scope == "user":
                raise UnconfinedPath(
                    f"`{key}[{index}]` ({entry.name}) has scope `user`: a project lockfile "
                    "holds project-scope records only; refusing to use it",
                    path=source,
                )


def check_paths(paths: Iterable[str], source: Path, what: str) -> None:
    """Raise `UnconfinedPath` naming `source` and the first entry that may not be touched."""
    for rel in paths:
        why = refusal(rel)
        if why is not None:
            raise UnconfinedPath(f"{what} {rel!r} {why}; refusing to use it", path=source)
