"""In-memory bundles: the files a tool ships, keyed by `/`-separated relative path."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cmx_core._errors import InvalidInputError
from cmx_core._treewalk import raw_bytes, walk_files

SKILL_MD = "SKILL.md"
MAX_BUNDLE_FILE_BYTES = 64 * 1024 * 1024


def normalize_rel_path(raw: str) -> str:
    """§11.3: `/` separators everywhere; reject anything that could leave the skill dir."""
    text = raw.replace(os.sep, "/")
    if os.altsep:
        text = text.replace(os.altsep, "/")
    parts = text.split("/")
    if not text or text.startswith("/") or "\x00" in text:
        raise InvalidInputError(f"bundle path {raw!r}: must be a non-empty relative path")
    if any(part in ("", ".", "..") for part in parts):
        raise InvalidInputError(
            f"bundle path {raw!r}: empty, '.' or '..' components are not allowed"
        )
    try:
        raw_bytes(text)  # a name from the OS round-trips; any other lone surrogate cannot
    except UnicodeEncodeError:
        raise InvalidInputError(f"bundle path {raw!r}: not encodable as a file name") from None
    return text


@dataclass(frozen=True)
class SkillFile:
    rel_path: str
    data: bytes

    @classmethod
    def text(cls, rel_path: str, content: str) -> SkillFile:
        return cls(normalize_rel_path(rel_path), content.encode("utf-8"))

    @classmethod
    def binary(cls, rel_path: str, data: bytes) -> SkillFile:
        return cls(normalize_rel_path(rel_path), bytes(data))


@dataclass(frozen=True)
class BundledSkill:
    """A skill as shipped inside the embedding tool, before version reconciliation."""

    files: tuple[SkillFile, ...]

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for f in self.files:
            if f.rel_path in seen:
                raise InvalidInputError(f"bundle path {f.rel_path!r}: listed twice")
            seen.add(f.rel_path)
        for f in self.files:
            parts = f.rel_path.split("/")
            for i in range(1, len(parts)):
                if "/".join(parts[:i]) in seen:
                    raise InvalidInputError(
                        f"bundle path {f.rel_path!r}: a parent is also listed as a file"
                    )

    @classmethod
    def single_md(cls, skill_md: str) -> BundledSkill:
        return cls((SkillFile.text(SKILL_MD, skill_md),))

    @classmethod
    def from_files(cls, files: Iterable[SkillFile]) -> BundledSkill:
        return cls(tuple(SkillFile(normalize_rel_path(f.rel_path), f.data) for f in files))

    @classmethod
    def from_directory(cls, root: Path) -> BundledSkill:
        """Read every file under `root`, dotfiles included, by the same walk the
        checksum uses: symlinked files and directories are followed while they stay
        inside `root`; a dangling or looping link is refused before anything is read."""
        if not root.is_dir():
            raise InvalidInputError(f"{root}: bundle directory does not exist")
        found = walk_files(root, skip_name=lambda _name: False, what="bundle directory")
        files: list[SkillFile] = []
        for item in sorted(found, key=lambda f: raw_bytes(f.rel_path)):
            if item.path.stat().st_size > MAX_BUNDLE_FILE_BYTES:
                raise InvalidInputError(f"{item.path}: larger than {MAX_BUNDLE_FILE_BYTES} bytes")
            files.append(SkillFile(normalize_rel_path(item.rel_path), item.path.read_bytes()))
        return cls(tuple(files))

    def has_skill_md(self) -> bool:
        return any(f.rel_path == SKILL_MD for f in self.files)
