"""In-memory bundles: the files a tool ships, keyed by `/`-separated relative path."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cmx_core._containment import require_inside
from cmx_core._errors import InvalidInputError

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
        """Read every regular file under `root`; symlinks must stay inside it."""
        real_root = root.resolve()
        if not real_root.is_dir():
            raise InvalidInputError(f"{root}: bundle directory does not exist")
        files: list[SkillFile] = []
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames.sort()
            current = Path(dirpath)
            for name in list(dirnames):
                linked = current / name
                if linked.is_symlink():
                    require_inside(linked, real_root, "bundle directory")
            for name in sorted(filenames):
                path = current / name
                if path.is_symlink():
                    require_inside(path, real_root, "bundle directory")
                if path.stat().st_size > MAX_BUNDLE_FILE_BYTES:
                    raise InvalidInputError(f"{path}: larger than {MAX_BUNDLE_FILE_BYTES} bytes")
                rel = path.relative_to(root).as_posix()
                files.append(SkillFile(normalize_rel_path(rel), path.read_bytes()))
        return cls(tuple(files))

    def has_skill_md(self) -> bool:
        return any(f.rel_path == SKILL_MD for f in self.files)
