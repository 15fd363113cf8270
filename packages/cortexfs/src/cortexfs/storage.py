"""The backing directory: atomic writes, entry creation, facts the decision layer needs."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Iterable, Iterator

from cortexfs.labels import parse_label
from cortexfs.layout import HOME_CLASSES, Kind, Node
from cortexfs.templates import Entry

_TEMP_MARK = ".tmp-"


def fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str, data: bytes, mode: int = 0o600) -> None:
    """Temp file in the same directory, fsync, rename, fsync the directory."""
    directory, base = os.path.split(path)
    temp = os.path.join(directory, f".{base}{_TEMP_MARK}{os.getpid()}-{os.urandom(4).hex()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(temp)
        raise
    os.close(fd)
    os.rename(temp, path)
    fsync_dir(directory)


class Backing:
    """All I/O on the storage directory; paths given to it are ABI paths ("/agent/x.d/perm")."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)

    def real(self, abi_path: str) -> str:
        return self.root if abi_path == "/" else self.root + abi_path

    def read_bytes(self, abi_path: str, limit: int = 1 << 20) -> bytes | None:
        try:
            fd = os.open(self.real(abi_path), os.O_RDONLY | os.O_NOFOLLOW)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return None
            raise
        try:
            return os.read(fd, limit)
        finally:
            os.close(fd)

    def read_value(self, abi_path: str) -> str | None:
        data = self.read_bytes(abi_path, 4096)
        return None if data is None else data.decode("utf-8", "replace").split("\n", 1)[0]

    def exists(self, abi_path: str) -> bool:
        return os.path.lexists(self.real(abi_path))

    def write_entries(self, entries: Iterable[Entry], owner: tuple[int, int] | None = None) -> None:
        """Create entries under the root (dirs, files atomically, symlinks), optionally chowned."""
        for entry in entries:
            real = os.path.join(self.root, entry.path)
            if entry.link is not None:
                os.symlink(entry.link, real)
            elif entry.data is None:
                os.mkdir(real, entry.mode)
            else:
                atomic_write(real, entry.data, entry.mode)
            if owner is not None and entry.link is None:
                os.chown(real, *owner)

    def is_empty_dir(self, abi_path: str) -> bool:
        with os.scandir(self.real(abi_path)) as it:
            return next(it, None) is None

    def owner_of(self, node: Node) -> int:
        """The uid with write authority over `node` (what st_uid shows)."""
        if node.kind in (Kind.USER_HOME, Kind.HOME_FILE) or (
            node.kind is Kind.CLASS_DIR and node.home_uid is not None
        ):
            return node.home_uid or 0
        if node.kind in (Kind.SHARED_SPACE, Kind.SHARED_FILE):
            try:
                return os.lstat(self.real(f"/shared/{node.shared_space}")).st_uid
            except FileNotFoundError:
                return 0
        if node.object_name is not None and node.kind is not Kind.CLASS_DIR:
            value = self.read_value(f"{node.controls_path()}/owner")
            if value is not None and value.isdigit():
                return int(value)
            return node.home_uid or 0
        return 0

    def object_controls(self) -> Iterator[str]:
        """Every object's `.d/` directory (ABI path): the class directories, system and
        per user, and the provider directories one level below `model/`."""
        class_dirs = [f"/{c}" for c in ("model", "agent", "tool", "channel")]
        with contextlib.suppress(FileNotFoundError), os.scandir(self.real("/home")) as homes:
            class_dirs += [f"/home/{h.name}/{c}" for h in homes for c in HOME_CLASSES]
        for class_dir in class_dirs:
            for entry, nested in self._controls_dirs(class_dir):
                yield entry
                if nested:
                    yield from (e for e, _ in self._controls_dirs(entry))

    def _controls_dirs(self, directory: str) -> list[tuple[str, bool]]:
        """(path, is_provider_dir) for the `.d` dirs and plain dirs directly in `directory`."""
        try:
            with os.scandir(self.real(directory)) as it:
                dirs = [e.name for e in it if e.is_dir(follow_symlinks=False)]
        except (FileNotFoundError, NotADirectoryError):
            return []
        found = [(f"{directory}/{d}", False) for d in dirs if d.endswith(".d")]
        if directory.endswith("/model"):
            found += [(f"{directory}/{d}", True) for d in dirs if not d.endswith(".d")]
        return found

    def type_users(self, skip: str) -> dict[str, frozenset[int]]:
        """Label type -> uids whose objects use it (agent labels, policy subjects), from
        every object but the one at `skip` (a `.d` path)."""
        users: dict[str, set[int]] = {}
        for controls in self.object_controls():
            if controls == skip:
                continue
            owner = self.read_value(f"{controls}/owner")
            uid = int(owner) if owner and owner.isdigit() else 0
            for kind in self._types_in(controls):
                users.setdefault(kind, set()).add(uid)
        return {kind: frozenset(uids) for kind, uids in users.items()}

    def _types_in(self, controls: str) -> set[str]:
        kinds = set()
        label = self.read_value(f"{controls}/label")
        with contextlib.suppress(ValueError):
            kinds.add(parse_label(label or ""))
        policy = self.read_bytes(f"{controls}/policy", 1 << 16) or b""
        for line in policy.decode("utf-8", "replace").split("\n"):
            fields = line.split(" ")
            if len(fields) == 4 and fields[0] == "allow":
                kinds.add(fields[1])
        return kinds

    def remove_object(self, node: Node) -> None:
        """Wrapper first (the object disappears), then the alias, then the controls."""
        for path in (node.object_path(), f"{node.object_path()}.sock"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.real(path))
        shutil.rmtree(self.real(node.controls_path()), ignore_errors=True)

    def sweep_temps(self) -> int:
        """Drop control temp files a crashed writer left behind; returns how many."""
        removed = 0
        for directory, _dirs, files in os.walk(self.root):
            if not directory.endswith(".d"):
                continue
            for name in files:
                if name.startswith(".") and _TEMP_MARK in name:
                    os.unlink(os.path.join(directory, name))
                    removed += 1
        return removed
