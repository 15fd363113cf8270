"""One walk over a directory tree, shared by bundles read from disk and by checksums.

The reference walks with `read_dir` + `Path::is_dir` (which follows symlinks), so a
symlinked directory is descended into and a symlinked file is read through the
link; a dangling link or a link loop makes its read fail. Bundles
(`BundledSkill.from_directory`) and installed-tree checksums both use this walk,
so the checksum a plan computes from a bundle equals the checksum of what apply
wrote. Two deliberate hardenings (package README, "Deliberate deviations"): a
symlink must resolve inside the tree's root, and only regular files and
directories are read (a FIFO would block the reference forever).

Names are kept as the OS gives them (`os.fsdecode`, so non-UTF-8 bytes survive as
surrogate escapes); `lossy_key` maps a name to the text the reference sees
(`to_string_lossy`: each invalid sequence becomes U+FFFD).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cmx_core._errors import UnsafePathError


def raw_bytes(rel_path: str) -> bytes:
    return rel_path.encode("utf-8", "surrogateescape")


def lossy_text(rel_path: str) -> str:
    """What Rust's `to_string_lossy` makes of this name."""
    return raw_bytes(rel_path).decode("utf-8", "replace")


def lossy_key(rel_path: str) -> bytes:
    """The bytes the reference sorts and hashes a `/`-joined relative path by."""
    return lossy_text(rel_path).encode("utf-8")


@dataclass(frozen=True)
class TreeFile:
    rel_path: str
    """`/`-joined, names as the OS gave them."""
    path: Path


def walk_files(root: Path, *, skip_name: Callable[[str], bool], what: str) -> list[TreeFile]:
    """Every file under `root` whose path has no skipped component, links followed.

    `skip_name` sees each entry name as the reference does (lossy text); a skipped
    entry is never looked at, so a broken link under `.git/` does not matter.
    """
    real_root = Path(os.path.realpath(root, strict=True))
    found: list[TreeFile] = []
    # Each pending directory carries its resolved ancestors: a link back to one of
    # them is a loop (the reference fails on it once the path is 40 links deep).
    pending: list[tuple[Path, str, frozenset[Path]]] = [(root, "", frozenset({real_root}))]
    while pending:
        directory, prefix, ancestors = pending.pop()
        with os.scandir(directory) as entries:
            for entry in entries:
                if skip_name(lossy_text(entry.name)):
                    continue
                path = Path(entry.path)
                rel = f"{prefix}{entry.name}"
                real = _resolve(path, real_root, what) if entry.is_symlink() else path
                mode = real.stat().st_mode
                if stat.S_ISDIR(mode):
                    resolved = Path(os.path.realpath(real))
                    if resolved in ancestors:
                        raise UnsafePathError(path, f"symlink loop in the {what}")
                    pending.append((path, f"{rel}/", ancestors | {resolved}))
                elif stat.S_ISREG(mode):
                    found.append(TreeFile(rel, path))
                else:
                    raise UnsafePathError(path, f"not a regular file or directory in the {what}")
    return found


def _resolve(path: Path, real_root: Path, what: str) -> Path:
    try:
        target = Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        raise UnsafePathError(path, f"dangling symlink in the {what}") from None
    except OSError as exc:
        problem = f"symlink cannot be followed in the {what} ({exc.strerror})"
        raise UnsafePathError(path, problem) from None
    if target != real_root and real_root not in target.parents:
        raise UnsafePathError(path, f"symlink points outside the {what}")
    return target
