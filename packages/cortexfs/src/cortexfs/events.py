"""The exec contract's output: one JSON object per line, start|delta|message|error|done."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import IO, Any


@dataclass
class EventWriter:
    stream: IO[str]
    finished: bool = field(default=False)

    def emit(self, kind: str, **fields: Any) -> None:
        line = json.dumps({"type": kind, **fields}, ensure_ascii=False, sort_keys=True)
        self.stream.write(line + "\n")
        self.stream.flush()

    def start(self, object_path: str, name: str, object_class: str) -> None:
        self.emit("start", object=object_path, name=name, **{"class": object_class})

    def delta(self, text: str) -> None:
        self.emit("delta", text=text)

    def message(self, text: str, **extra: Any) -> None:
        self.emit("message", text=text, **extra)

    def error(self, errno_name: str, message: str) -> None:
        self.emit("error", errno=errno_name, message=message)

    def done(self, exit_code: int) -> None:
        self.emit("done", status="ok" if exit_code == 0 else "error", exit_code=exit_code)
        self.finished = True
