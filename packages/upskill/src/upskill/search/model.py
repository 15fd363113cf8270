"""Values shared by scanning, storing and ranking."""

from __future__ import annotations

from dataclasses import dataclass

PUBLIC_ORIGIN = "skills.sh"


@dataclass(frozen=True)
class Entry:
    """One indexed item of a registry (a directory holding an entrypoint)."""

    name: str
    kind: str  # rule | skill | agent
    description: str  # frontmatter `description:`
    paragraph: str  # first body paragraph
    path: str  # POSIX path of the item directory, relative to the registry root


@dataclass(frozen=True)
class PublicHit:
    name: str
    source: str
    installs: int | None
    description: str = ""


@dataclass(frozen=True)
class Hit:
    """A ranked search result; `install` is the command that installs it."""

    name: str
    kind: str
    description: str
    origin: str  # registry name, or "skills.sh"
    install: str
    score: float
    installs: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "kind": self.kind,
            "description": self.description,
            "origin": self.origin,
            "install": self.install,
            "installs": self.installs,
            "score": round(self.score, 4),
        }
