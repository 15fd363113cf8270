"""Another client's agent tree a client is told not to read (issue 15, item 3).

VS Code reads `.claude/agents` beside its own `.github/agents` and lists every
file, so an agent whose Claude Code and Copilot renderings differ (most agents with
tools or a model) is listed twice, while Copilot CLI, which reads the same trees,
shows its own copy once and must keep it. VS Code skips a default folder its
`chat.agentFilesLocations` setting maps to false, and nothing else reads that setting
(`clients/vscode.py`). upskill sets the member (`Registration.agent_trees_key`) in
the workspace settings, through the undoable edits of `lifecycle.edits`, only while
hiding the tree hides nothing but duplicates: every file there VS Code would list is
upskill's copy of an agent VS Code has in its own tree, and at least one is. A file
the team puts there, or an agent no longer given to VS Code, takes the member back on
the next run, and `doctor` names a team file the member hides until then. Project
scope: the user-level trees are other members, never set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from upskill import jsonc
from upskill.clients import CLIENTS, get
from upskill.clients.base import AGENT
from upskill.errors import UpskillError
from upskill.lifecycle.edits import Member
from upskill.state.lockfile import EditRecord, Lockfile, OutputRecord

README = "README.md"  # VS Code reads every other `.md` file directly in the folder


@dataclass(frozen=True)
class Hide:
    """One tree a client can be told not to read, and the settings member saying so."""

    client: str
    own: str  # the client's own agents tree, which it keeps reading
    tree: str  # another client's tree it reads, ends with `/`
    settings: str  # the workspace settings file
    key: str

    @property
    def member(self) -> Member:
        return (self.key, self.tree.rstrip("/"), False)


HIDES: tuple[Hide, ...] = tuple(
    Hide(c.id, where.project.tree, tree, c.registration.settings, c.registration.agent_trees_key)
    for c in CLIENTS
    if c.registration.agent_trees_key
    and c.registration.settings
    and (where := c.kinds.get(AGENT)) is not None
    for tree in c.project_agent_trees()
    if tree != where.project.tree
)


def read_as_agent(name: str) -> bool:
    """Whether VS Code lists a file of this name found directly in an agents folder."""
    return name.endswith(".md") and name != README


def _read_in(path: str, tree: str) -> bool:
    """Whether VS Code lists the file at `path` when it reads `tree` (no subfolders)."""
    rest = path[len(tree) :]
    return path.startswith(tree) and "/" not in rest and read_as_agent(rest)


def agent_files(root: Path, tree: str) -> set[str]:
    """The scope-relative paths of the files directly in `tree` read as agents."""
    try:
        entries = list((root / tree).iterdir())
    except OSError:
        return set()
    return {f"{tree}{p.name}" for p in entries if read_as_agent(p.name) and p.is_file()}


def setting(read: Callable[[str], bytes | None], hide: Hide) -> object:
    """The member's value in the project's settings, None when it is absent or the file
    is unreadable or refused (the run that edits the file reports that)."""
    try:
        data = read(hide.settings)
    except (OSError, UpskillError):
        return None
    if data is None:
        return None
    try:
        value = jsonc.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, jsonc.JsoncError):
        return None
    locations = value.get(hide.key) if type(value) is dict else None
    return locations.get(hide.member[1]) if type(locations) is dict else None


def hidden(read: Callable[[str], bytes | None]) -> dict[str, frozenset[str]]:
    """Per client, the trees its project settings (the team's or upskill's) tell it not
    to read."""
    out: dict[str, frozenset[str]] = {}
    for hide in HIDES:
        if setting(read, hide) is False:
            out[hide.client] = out.get(hide.client, frozenset()) | {hide.tree}
    return out


def expected(
    root: Path, lock: Lockfile, read: Callable[[str], bytes | None]
) -> dict[str, frozenset[str]]:
    """The trees a run plans on being hidden when it is done: those set to false now, and
    those upskill may hide, holding no file the lockfile does not record (the end of the
    run decides: `to_hide`). A member the team set to true is theirs: the tree is read."""
    recorded = {o.path for o in lock.outputs}
    out: dict[str, frozenset[str]] = {}
    for hide in HIDES:
        value = setting(read, hide)
        if value is False or (value is None and not agent_files(root, hide.tree) - recorded):
            out[hide.client] = out.get(hide.client, frozenset()) | {hide.tree}
    return out


def _items(record: OutputRecord, client: str | None = None) -> set[str]:
    return {o.item for o in record.owners if client is None or o.client == client}


def to_hide(outputs: Iterable[OutputRecord], on_disk: Mapping[str, set[str]]) -> tuple[Hide, ...]:
    """The members to set after a run: the tree holds a copy of an agent the client also
    has in its own tree, and every file there it would read (`on_disk`, by tree: the
    files that stay once the run is done) is such a copy."""
    records = list(outputs)
    out = []
    for hide in HIDES:
        own = set().union(*(_items(r, hide.client) for r in records if r.path.startswith(hide.own)))
        there = {r.path: _items(r) for r in records if _read_in(r.path, hide.tree)}
        if not any(items & own for items in there.values()):
            continue  # nothing listed twice: nothing to hide
        if all(items <= own for items in there.values()) and on_disk[hide.tree] <= set(there):
            out.append(hide)
    return tuple(out)


def disk(root: Path, removed: Iterable[str] = ()) -> dict[str, set[str]]:
    """Per hideable tree, the agent files left there once a run removes `removed`."""
    gone = set(removed)
    return {hide.tree: agent_files(root, hide.tree) - gone for hide in HIDES}


def shown_again(
    edits: Iterable[EditRecord],
    wanted: Mapping[str, tuple[Member, ...]],
    outputs: Iterable[OutputRecord],
    on_disk: Mapping[str, set[str]],
    read: Callable[[str], bytes | None],
) -> tuple[str, ...]:
    """One line per tree upskill had hidden (`read`: the settings before the run) and
    now shows again because it holds files upskill did not write: the client then lists
    those and upskill's copies there."""
    ours = {m for e in edits for m in e.members or ()}
    recorded = {o.path for o in outputs}
    out = []
    for hide in HIDES:
        team = sorted(on_disk[hide.tree] - recorded)
        if not team or hide.member not in ours or setting(read, hide) is not False:
            continue
        if hide.member not in wanted.get(hide.settings, ()):
            name = get(hide.client).name
            out.append(
                f"{hide.client}: {hide.tree} holds agents upskill did not write "
                f"({', '.join(team)}), so {hide.settings} no longer tells {name} to skip it "
                f"({hide.key}): {name} lists those, and upskill's agents there twice"
            )
    return tuple(out)


def hidden_team_files(
    root: Path, lock: Lockfile, read: Callable[[str], bytes | None]
) -> list[dict[str, str]]:
    """For `doctor`: files a member upskill set, still in the settings, hides from a
    client that upskill did not write (a team's own agent, added since: the next run
    takes the member back)."""
    ours = {m for e in lock.edits for m in e.members or ()}
    recorded = {o.path for o in lock.outputs}
    found = []
    for hide in HIDES:
        if hide.member in ours and setting(read, hide) is False:
            for path in sorted(agent_files(root, hide.tree) - recorded):
                found.append({"client": hide.client, "path": path, "settings": hide.settings})
    return found
