"""Directory listings, read from the backing store and encoded once, until the namespace changes.

A listing costs a `getdents` of the backing directory and one encoded name per entry;
repeated listings of an unchanged directory need neither. Every change to the backing
store goes through the daemon's one request thread (operators edit the storage only
through the mount or unmounted: docs/cortexfs/design.md, "Kernel caching"), so a
listing stays right until the daemon itself changes a name. A namespace operation
drops every listing: a rename can move a directory to another path, so tracking single
paths would miss it. The generation counts those changes; the kernel's own listing
cache is kept across an `opendir` only while the generation it was filled at is current
(`kernel_copy_current`). A whole-file replacement (a control's value, a log append)
changes no name unless the file is new, and then only in its own directory
(`entries_changed`). A listing holds names only (no attributes, no file types), so a
new value is never in one.

A listing does not depend on who asks: the kernel checks the directory's mode against
the caller (`default_permissions`) before it opens the directory, so a cached listing
shows nobody more than that directory's mode lets them read.
"""

from __future__ import annotations

from collections.abc import Callable

DOTS = (b".", b"..")
MAX_CACHED = 4096  # directories; past this the cache starts over rather than grow


class Listings:
    def __init__(self) -> None:
        self.generation = 0
        self._names: dict[str, tuple[bytes, ...]] = {}
        self._served: dict[str, int] = {}  # path -> generation the kernel last read it at

    def names(self, path: str, load: Callable[[], list[bytes]]) -> tuple[bytes, ...]:
        """The entries of `path` with `.` and `..`, from `load` only when not cached."""
        names = self._names.get(path)
        if names is None:
            if len(self._names) >= MAX_CACHED:
                self._names.clear()
            names = self._names[path] = (*DOTS, *load())
        return names

    def served(self, path: str) -> None:
        """The kernel is reading `path` from its start now: its copy is of this generation."""
        if len(self._served) >= MAX_CACHED:
            self._served.clear()
        self._served[path] = self.generation

    def kernel_copy_current(self, path: str) -> bool:
        """Whether the kernel may keep its cached listing of `path` across this open."""
        return self._served.get(path) == self.generation

    def entries_changed(self, directory: str) -> None:
        """Entries were added to or removed from `directory` alone, and no directory
        moved: forget its listing, and have the kernel drop its copy at the next open.
        Every other listing, and the generation, stay."""
        self._names.pop(directory, None)
        self._served.pop(directory, None)

    def changed(self) -> None:
        """Something in the backing namespace changed (or may have): forget every listing."""
        self.generation += 1
        self._names.clear()
