"""Session records (session-abi), as file operations on the agent uid's home. Pure.

    home/<uid>/agent/<a>/{data,cache,log}/
    home/<uid>/agent/<a>/session/<s>/{messages.jsonl,events.jsonl,latest.md,state,cwd,
                                      created_at,updated_at,meta.json,context/}
    home/<uid>/agent/<a>/session/index/{list,current,by-cwd/<hash>,by-uuid/<uuid>}

`list` is newest first, `current` the session last sent to, `by-cwd/<hash>` (a plain
file, not a symlink) the session last used from a cwd, `by-uuid/<uuid>` a session's name.
A session's uuid is derived from the agent, the uid and the name, so it is stable.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from typing import Any

from cortexfs.agent_runtime.fs_ops import Op, append, front, mkdir, write, write_once

# done -> done, failed -> error, cancelled -> idle: the session can take the next turn.
SESSION_STATE = {"ok": "done", "error": "error", "cancelled": "idle"}
_NAMESPACE = uuid.UUID("6f2b0a52-4d8e-4f0c-9d1e-3c7a2b5e8f10")


@dataclass(frozen=True)
class SessionRef:
    home: str  # host path of home/<uid>/agent/<a>
    agent_abi: str
    uid: int
    name: str

    @property
    def dir(self) -> str:
        return f"{self.home}/session/{self.name}"

    @property
    def index(self) -> str:
        return f"{self.home}/session/index"

    @property
    def uuid(self) -> str:
        return str(uuid.uuid5(_NAMESPACE, f"{self.agent_abi}\0{self.uid}\0{self.name}"))


def cwd_key(cwd: str) -> str:
    return hashlib.sha256(cwd.encode()).hexdigest()[:32]


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"


def begin_ops(ref: SessionRef, turn: str, cwd: str, text: str, now: str) -> list[Op]:
    user = {"role": "user", "turn": turn, "text": text, "ts": now}
    meta = {"uuid": ref.uuid, "agent": ref.agent_abi, "session": ref.name, "scope": "private"}
    ops = [mkdir(f"{ref.home}/{d}") for d in ("data", "cache", "log")]
    ops += [
        mkdir(f"{ref.dir}/context"),
        mkdir(f"{ref.index}/by-cwd"),
        mkdir(f"{ref.index}/by-uuid"),
        write_once(f"{ref.dir}/created_at", f"{now}\n"),
        write_once(f"{ref.dir}/meta.json", json.dumps(meta, sort_keys=True) + "\n"),
        write(f"{ref.dir}/state", "active\n"),
        write(f"{ref.dir}/cwd", f"{cwd}\n"),
        write(f"{ref.dir}/updated_at", f"{now}\n"),
        append(f"{ref.dir}/messages.jsonl", _line(user)),
        front(f"{ref.index}/list", ref.name),
        write(f"{ref.index}/current", f"{ref.name}\n"),
        write(f"{ref.index}/by-cwd/{cwd_key(cwd)}", f"{ref.name}\n"),
        write_once(f"{ref.index}/by-uuid/{ref.uuid}", f"{ref.name}\n"),
    ]  # fmt: skip
    return ops


def end_ops(
    ref: SessionRef, turn: str, status: str, output: str, events: list[dict[str, Any]], now: str
) -> list[Op]:
    reply = {"role": "assistant", "turn": turn, "text": output, "status": status, "ts": now}
    return [
        append(f"{ref.dir}/events.jsonl", "".join(_line(e) for e in events)),
        append(f"{ref.dir}/messages.jsonl", _line(reply)),
        write(f"{ref.dir}/latest.md", output),
        write(f"{ref.dir}/state", f"{SESSION_STATE[status]}\n"),
        write(f"{ref.dir}/updated_at", f"{now}\n"),
    ]
