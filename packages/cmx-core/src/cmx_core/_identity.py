"""Who is installing: the embedding tool's name (the artifact name) and version."""

from __future__ import annotations

from dataclasses import dataclass

from cmx_core._errors import InvalidInputError
from cmx_core._whitespace import trim


def validate_artifact_name(name: str) -> str:
    """The name becomes a directory and a lock key, so it must be one safe path component."""
    if (
        not name
        or name in (".", "..")
        or name.startswith(".")
        or any(ch in name for ch in "/\\\x00")
        or name != trim(name)
    ):
        raise InvalidInputError(
            f"artifact name {name!r}: must be a single path component without '/', '\\\\' "
            "or a leading '.'"
        )
    return name


@dataclass(frozen=True)
class ToolIdentity:
    """`version` lands in the lock entry and in SKILL.md's `metadata.version`."""

    name: str
    version: str

    def __post_init__(self) -> None:
        validate_artifact_name(self.name)
        if not self.version or any(ch in self.version for ch in '"\\\n\r'):
            raise InvalidInputError(
                f"version {self.version!r}: must be non-empty, without quotes, "
                "backslashes or line breaks"
            )

    @property
    def source_repo(self) -> str:
        return f"bundled:{self.name}"
