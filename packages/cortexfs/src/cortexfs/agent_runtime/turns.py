"""A turn: one `send`, run as one sandbox. Its events are kept so a retried `send` with
the same id, or a `resume`, replays them instead of running the turn again."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

RUNNING = "running"
FINISHED = ("ok", "error", "cancelled")


@dataclass
class Turn:
    id: str
    session: str
    scope: str
    cwd: str | None
    text: str
    space: str | None = None  # the shared space of a `shared` scope turn
    state: str = RUNNING
    pid: int | None = None  # the chain's first process (and its process group)
    cancelled: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    _changed: threading.Condition = field(default_factory=threading.Condition)

    def emit(self, kind: str, **fields: Any) -> None:
        with self._changed:
            self.events.append({"type": kind, "id": self.id, **fields})
            if kind == "done":
                self.state = str(fields.get("status", "error"))
            self._changed.notify_all()

    def follow(self) -> Iterator[dict[str, Any]]:
        """Every event from the first, then live ones, until `done`."""
        index = 0
        while True:
            with self._changed:
                while index >= len(self.events):
                    self._changed.wait()
                batch = self.events[index:]
                index = len(self.events)
            yield from batch
            if any(e["type"] == "done" for e in batch):
                return

    @property
    def output(self) -> str:
        return "".join(str(e.get("text", "")) for e in self.events if e["type"] == "delta")

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "session": self.session, "scope": self.scope,
                "state": self.state, "pid": self.pid}  # fmt: skip
