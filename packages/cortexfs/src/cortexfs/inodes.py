"""Inode numbers for ABI paths, as the low-level FUSE API needs them.

The kernel names files by the inode numbers our `lookup` replies hand out and forgets
them by count. Every decision in CortexFS is a function of the path, so this table only
maps numbers to paths and back: numbers are never reused (no generations needed), a
rename moves the path of a node and of everything under it, and a removed path keeps its
number for the kernel's remaining references until `forget`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

ROOT_INO = 1


@dataclass
class InodeTable:
    paths: dict[int, str] = field(default_factory=lambda: {ROOT_INO: "/"})
    inos: dict[str, int] = field(default_factory=lambda: {"/": ROOT_INO})
    lookups: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_ino: int = ROOT_INO + 1

    def path(self, ino: int) -> str:
        """The path of a live number; KeyError for one the kernel should not hold."""
        return self.paths[ino]

    def child(self, parent: int, name: str) -> str:
        base = self.paths[parent]
        return ("" if base == "/" else base) + "/" + name

    def remember(self, path: str) -> int:
        """The number of `path`, counted as one more kernel reference (a lookup reply)."""
        with self.lock:
            ino = self.inos.get(path)
            if ino is None:
                ino = self.next_ino
                self.next_ino += 1
                self.inos[path] = ino
                self.paths[ino] = path
            if ino != ROOT_INO:
                self.lookups[ino] = self.lookups.get(ino, 0) + 1
            return ino

    def known(self, path: str) -> int | None:
        return self.inos.get(path)

    def forget(self, ino: int, count: int) -> None:
        if ino == ROOT_INO:
            return
        with self.lock:
            left = self.lookups.get(ino, 0) - count
            if left > 0:
                self.lookups[ino] = left
                return
            self.lookups.pop(ino, None)
            path = self.paths.pop(ino, None)
            if path is not None and self.inos.get(path) == ino:
                del self.inos[path]

    def removed(self, path: str) -> None:
        """`path` is gone: a new entry there gets a new number."""
        with self.lock:
            self.inos.pop(path, None)

    def moved(self, old: str, new: str) -> None:
        with self.lock:
            self.inos.pop(new, None)
            prefix = old + "/"
            moving = [(p, i) for p, i in self.inos.items() if p == old or p.startswith(prefix)]
            for path, _ino in moving:
                del self.inos[path]
            for path, ino in moving:
                renamed = new + path[len(old) :]
                self.inos[renamed] = ino
                self.paths[ino] = renamed
