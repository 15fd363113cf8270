"""Session records (session-abi), as file operations on the mount. Pure.

    private  home/<uid>/agent/<a>/{data,cache,log}/ and home/<uid>/agent/<a>/session/
    shared   shared/<space>/agent/<a>/session/
    temp     nothing on disk (the turn's events stay in the supervisor's memory)

    session/<s>/{messages.jsonl,events.jsonl,latest.md,state,cwd,created_at,updated_at,
                 meta.json,context/}
    session/index/{list,current,by-cwd/<hash>,by-hash/<hash>,by-uuid/<uuid>}

`list` is newest first, `current` the session last sent to, `by-cwd/<hash>` the session
last used from a cwd, `by-hash/<hash>` the session last sent that exact input (so a
client finds the conversation a prompt went to), `by-uuid/<uuid>` a session's name.
Index entries are plain files holding one name, never symlinks. A `<hash>` is the first
32 hex digits of the SHA-256 of the UTF-8 text. A session's uuid is derived from the
agent, the uid (or the shared space) and the name, so it is stable.
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
    home: str  # host path of home/<uid>/agent/<a> or shared/<space>/agent/<a>
    agent_abi: str
    uid: int
    name: str
    space: str | None = None  # the shared space; None for a private session

    @property
    def scope(self) -> str:
        return "private" if self.space is None else "shared"

    @property
    def dir(self) -> str:
        return f"{self.home}/session/{self.name}"

    @property
    def index(self) -> str:
        return f"{self.home}/session/index"

    @property
    def uuid(self) -> str:
        owner = self.uid if self.space is None else f"shared:{self.space}"
        return str(uuid.uuid5(_NAMESPACE, f"{self.agent_abi}\0{owner}\0{self.name}"))

    @property
    def exists(self) -> str:
        """The file whose presence says the session has records (a turn began in it)."""
        return f"{self.dir}/messages.jsonl"


def session_ref(
    ctx_host: str, agent: str, agent_abi: str, uid: int, name: str, scope: str, space: str | None
) -> SessionRef | None:
    """Where a turn's session lives for its scope; None for `temp` (nothing is kept)."""
    if scope == "temp":
        return None
    if scope == "shared":
        assert space is not None
        return SessionRef(f"{ctx_host}/shared/{space}/agent/{agent}", agent_abi, uid, name, space)
    return SessionRef(f"{ctx_host}/home/{uid}/agent/{agent}", agent_abi, uid, name)


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"


def begin_ops(ref: SessionRef, turn: str, cwd: str, text: str, now: str) -> list[Op]:
    user = {"role": "user", "turn": turn, "text": text, "ts": now}
    meta = {"uuid": ref.uuid, "agent": ref.agent_abi, "session": ref.name, "scope": ref.scope}
    if ref.space is not None:
        meta["space"] = ref.space
    private = ref.space is None  # a shared space holds only the agent's sessions
    ops = [mkdir(f"{ref.home}/{d}") for d in ("data", "cache", "log") if private]
    ops += [
        mkdir(f"{ref.dir}/context"),
        *(mkdir(f"{ref.index}/{d}") for d in ("by-cwd", "by-hash", "by-uuid")),
        write_once(f"{ref.dir}/created_at", f"{now}\n"),
        write_once(f"{ref.dir}/meta.json", json.dumps(meta, sort_keys=True) + "\n"),
        write(f"{ref.dir}/state", "active\n"),
        write(f"{ref.dir}/cwd", f"{cwd}\n"),
        write(f"{ref.dir}/updated_at", f"{now}\n"),
        append(f"{ref.dir}/messages.jsonl", _line(user)),
        front(f"{ref.index}/list", ref.name),
        write(f"{ref.index}/current", f"{ref.name}\n"),
        write(f"{ref.index}/by-cwd/{text_key(cwd)}", f"{ref.name}\n"),
        write(f"{ref.index}/by-hash/{text_key(text)}", f"{ref.name}\n"),
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
