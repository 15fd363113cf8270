"""The nothing-changed path of a bare `update`, kept import-light on purpose.

After every successful write the state of the scope is summarised in the user
cache dir (never in the committed lockfile, since it holds machine-local stat
data): the lockfile's digest, the config files' digests, the upskill version,
each source's fingerprint (git: resolved commit; local: a stat signature of
the tree), the (size, mtime, executable bit) of every recorded output, and the
entries of the directories whose contents decide a settings member (the agent
trees upskill may tell VS Code not to read: `lifecycle.agenttrees`; a team agent
added there must take the member back, and its removal lets it return), and the
(size, mtime) of the files upskill keeps members in besides its outputs and of
those that decide them (`lifecycle.extraneeds`: a rule glob deleted from
`opencode.json`, or an `AGENTS.md` added that `CLAUDE.md` must import). The
bit is there because a `chmod` changes neither size nor mtime, and a lost
executable bit is drift the full path reports (and `--force` restores). A bare `update`
that finds all of these unchanged has nothing to do and stops before loading
the YAML parser, the Markdown formatter or the renderer. Any difference falls
back to the full path, which re-verifies everything by content.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from upskill import __version__
from upskill.sources.local import Fetched

STATE_VERSION = 4  # 2: outputs carry the executable bit; 3: watched directories; 4: files


def state_file(cache_root: Path, scope_root: Path) -> Path:
    key = hashlib.sha256(str(scope_root).encode()).hexdigest()[:24]
    return cache_root / "state" / f"{key}.json"


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def fingerprint_of(fetched: Fetched) -> str:
    """Git: the resolved commit; local: a stat signature of the tree."""
    if fetched.commit is not None:
        return f"git:{fetched.commit}"
    return f"local:{local_signature(fetched.root)}"


def local_signature(root: Path) -> str:
    """Cheap change detector for a local source: paths, sizes and mtimes.

    The same digest as walking with `os.walk` (files of a directory in name order, then
    its subdirectories in name order, `.git` skipped, symlinked directories not
    entered), with one `lstat` per file and none per directory."""
    digest = hashlib.sha256()
    pending = [str(root)]  # a stack, not recursion: a source may nest arbitrarily deep
    while pending:
        pending.extend(reversed(_sign(pending.pop(), digest)))
    return digest.hexdigest()


def _sign(directory: str, digest: Any) -> list[str]:
    """Sign the files of `directory`; its subdirectories to sign next, in name order."""
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return []
    subdirs = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if entry.name != ".git" and not entry.is_symlink():
                subdirs.append(entry.path)
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        line = f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_mode}\n"
        digest.update(line.encode(errors="surrogateescape"))  # a name need not be UTF-8
    return subdirs


def output_stats(root: Path, paths: Iterable[str]) -> dict[str, list[int]] | None:
    """[size, mtime_ns, executable (0/1)] of each output; None when one is missing or a
    directory on the way is no longer a real directory (a symlink: the full run then
    refuses it by name)."""
    stats: dict[str, list[int]] = {}
    base = str(root)
    directories: set[str] = set()
    for rel in paths:
        try:
            st = os.lstat(f"{base}/{rel}")
        except OSError:
            return None
        stats[rel] = [st.st_size, st.st_mtime_ns, 1 if st.st_mode & 0o100 else 0]
        parent = rel.rpartition("/")[0]
        while parent and parent not in directories:
            directories.add(parent)
            parent = parent.rpartition("/")[0]
    for directory in directories:
        if stat.S_ISLNK(os.lstat(f"{base}/{directory}").st_mode):
            return None
    return stats


def listings(root: Path, directories: Iterable[str]) -> dict[str, list[str]]:
    """The entry names of each directory (scope-relative), sorted; none when absent."""
    out: dict[str, list[str]] = {}
    for directory in directories:
        try:
            out[directory] = sorted(p.name for p in (root / directory).iterdir())
        except OSError:
            out[directory] = []
    return out


def file_stats(root: Path, paths: Iterable[str]) -> dict[str, list[int] | None]:
    """[size, mtime_ns] of each file (scope-relative), None when it is absent. A symlinked
    config (dotfiles) is written through (`fsio.replaced_file`), so the file it names is
    what is stat'ed: an edit there changes nothing about the link itself."""
    out: dict[str, list[int] | None] = {}
    for rel in paths:
        try:
            st = (root / rel).stat()
        except OSError:
            out[rel] = None
            continue
        out[rel] = [st.st_size, st.st_mtime_ns]
    return out


def snapshot(
    *,
    lock_bytes: bytes,
    config_paths: Iterable[Path],
    fingerprints: Mapping[str, str],
    outputs: Mapping[str, list[int]],
    watched: Mapping[str, list[str]] | None = None,
    files: Mapping[str, list[int] | None] | None = None,
) -> dict[str, Any]:
    """`outputs`: [size, mtime_ns, executable] of every recorded output, as the run that wrote or
    verified them saw them (stat data taken before any later edit, so one is noticed).
    `watched`: the `listings` of the directories a change in which needs the full path;
    `files`: the `file_stats` of the files a change to which does."""
    return {
        "version": STATE_VERSION,
        "upskill": __version__,
        "lock": hashlib.sha256(lock_bytes).hexdigest(),
        "config": [_digest(p) for p in config_paths],
        "sources": dict(sorted(fingerprints.items())),
        "outputs": dict(outputs),
        "watched": dict(watched or {}),
        "files": dict(files or {}),
    }


def save(path: Path, state: Mapping[str, Any]) -> None:
    """Best effort: the cache is an optimisation, never a source of truth."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(state, separators=(",", ":")))
        tmp.replace(path)
    except OSError:
        pass


def tracks_client_state(lock_bytes: bytes) -> bool:
    """Whether the lockfile records plugins or MCP servers.

    Those live in each client's own state (its CLI or config), which no stat
    signature here can see: a server removed out of band must be re-registered
    by a bare `update`, so such scopes always take the full path.
    """
    try:
        lock = json.loads(lock_bytes)
    except (ValueError, RecursionError):  # the full path reports what is wrong
        return True
    return type(lock) is not dict or bool(lock.get("plugins")) or bool(lock.get("mcps"))


def unchanged(
    path: Path,
    *,
    lock_bytes: bytes,
    config_paths: Iterable[Path],
    root: Path,
    fingerprints: Callable[[list[str]], Mapping[str, str | None]],
) -> bool:
    """True when nothing an update depends on differs from the saved state."""
    try:
        saved = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    if type(saved) is not dict or saved.get("version") != STATE_VERSION:
        return False
    if saved.get("upskill") != __version__:
        return False
    if saved.get("lock") != hashlib.sha256(lock_bytes).hexdigest():
        return False
    if tracks_client_state(lock_bytes):
        return False
    if saved.get("config") != [_digest(p) for p in config_paths]:
        return False
    outputs = saved.get("outputs")
    if type(outputs) is not dict or output_stats(root, outputs) != outputs:
        return False
    watched = saved.get("watched")
    if type(watched) is not dict or listings(root, watched) != watched:
        return False
    files = saved.get("files")
    if type(files) is not dict or file_stats(root, files) != files:
        return False
    sources = saved.get("sources")
    if type(sources) is not dict:
        return False
    current = fingerprints(sorted(sources))
    return all(current.get(label) == value for label, value in sources.items())
