"""Lockfile `plugins[]` records."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from upskill.clientconf.places import Scope


class PluginStatus(enum.StrEnum):
    INSTALLED = "installed"
    SKIPPED = "skipped"  # the client CLI was not on PATH
    INSTRUCTIONS = "instructions"  # the author gave a manual-install notice


@dataclass(frozen=True)
class PluginRecord:
    """Upserted by `(name, client)`; `identifier` is what the client knows it by."""

    name: str
    client: str
    identifier: str
    scope: Scope
    bundle: str
    status: PluginStatus

    def to_json(self) -> dict[str, str]:
        """The doctor bucket shape (book, `doctor --json`)."""
        return {
            "name": self.name,
            "client": self.client,
            "identifier": self.identifier,
            "bundle": self.bundle,
        }
