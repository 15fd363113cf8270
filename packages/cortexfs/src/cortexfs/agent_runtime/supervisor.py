"""The process that is a running agent. It owns the agent socket, the tool broker, the
agent's cgroup and every sandbox it starts, and reaps them itself (systemd is not
PID 1 here, so nothing else would)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from cortexfs.agent_runtime import control, fs_ops, procs
from cortexfs.agent_runtime.load import load_spec
from cortexfs.agent_runtime.paths import RuntimePaths
from cortexfs.agent_runtime.session_policy import check_read, check_send
from cortexfs.agent_runtime.sessions import SessionRef, session_ref
from cortexfs.agent_runtime.stale_cgroups import reap_stale
from cortexfs.agent_runtime.turn_runner import GRACE_SECONDS, TurnRunner, now
from cortexfs.agent_runtime.turns import RUNNING, Turn
from cortexfs.broker.run import child_env, credentials
from cortexfs.broker.server import Broker, BrokerAgent
from cortexfs.broker.warm_host import WarmHost
from cortexfs.errors import BadInput, Internal
from cortexfs.jsonl_socket import Peer, listen
from cortexfs.launch import cgroups
from cortexfs.launch.chain import Launch
from cortexfs.launch.identity import Operator
from cortexfs.launch.limits import prlimit_args
from cortexfs.launch.plan import HostFacts, LaunchRequest, plan_launch
from cortexfs.launch.spec import AgentRef

# Finished turns kept for replay (a retried `send` or a `resume` with their id).
KEPT_TURNS = 256


@dataclass(frozen=True)
class StartConfig:
    ref: AgentRef
    ctx_host: str
    request: LaunchRequest
    operator: Operator
    operator_env: dict[str, str]
    paths: RuntimePaths


def log(message: str) -> None:
    print(f"{now()} {message}", file=sys.stderr, flush=True)


class Supervisor:
    def __init__(self, cfg: StartConfig, host: HostFacts, first: Launch, owner: int) -> None:
        self.cfg = cfg
        self.host = host
        self.identity = first.identity
        self.owner = owner
        self.started_at = now()
        self.turns: dict[str, Turn] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.roots: set[int] = set()
        self.cgroup: cgroups.Cgroup | None = None
        home = f"{cfg.ctx_host}/home/{self.identity.uid}/agent/{cfg.ref.name}"
        self.runner = TurnRunner(
            self._plan, home, cfg.paths.stderr, self.roots, host.paths.exposes_ctx
        )
        self.runner.last = first
        limit = (host.tools.prlimit, *prlimit_args(first.limits, host.view.nofile_hard,
                                                     first.cgroup), "--")  # fmt: skip
        spawn = {"env": child_env(self.identity.uid),
                 **credentials(self.identity, cfg.operator.is_root)}  # fmt: skip
        self.warm = WarmHost(self.identity, spawn, limit, None)
        agent = BrokerAgent(
            cfg.ref, cfg.ctx_host, self.identity, cfg.operator.is_root, limit, self.warm.ensure
        )
        self.broker = Broker(cfg.paths.broker, agent, self._is_member)
        self._listener: socket.socket | None = None

    # -- derived on every turn -------------------------------------------------
    def _plan(self, turn: Turn) -> tuple[Launch, SessionRef | None]:
        """The turn's launch and session, from the controls as they are now: policy
        changes (sessions included) apply to the next turn."""
        spec = load_spec(self.cfg.ctx_host, self.cfg.ref)
        launch = plan_launch(
            spec, self.cfg.request, self.cfg.operator, self.cfg.operator_env,
            self.cfg.ctx_host, self.cfg.paths.broker, self.host, turn.cwd,
        )  # fmt: skip
        if launch.identity != self.identity:
            raise BadInput(f"{spec.ref.controls}: the agent's identity changed; restart it")
        ref = self.cfg.ref
        session = session_ref(self.cfg.ctx_host, ref.name, ref.abi_path, self.identity.uid,
                              turn.session, turn.scope, turn.space)  # fmt: skip
        exists = session is not None and os.path.lexists(session.exists)
        check_send(spec, turn.session, turn.scope, turn.space, exists)
        return launch, session

    def _may_read(self, turn: Turn) -> None:
        check_read(load_spec(self.cfg.ctx_host, self.cfg.ref), turn.session)

    def _is_member(self, peer: Peer) -> bool:
        return procs.descends_from(peer.pid, set(self.roots))

    # -- lifecycle -------------------------------------------------------------
    def prepare(self) -> None:
        paths = self.cfg.paths
        procs.become_subreaper()  # what a tool call leaves behind stays below, for stop
        os.makedirs(os.path.dirname(paths.socket), mode=0o755, exist_ok=True)
        shutil.rmtree(paths.rundir, ignore_errors=True)
        os.makedirs(paths.rundir, mode=0o711)
        os.chmod(paths.rundir, 0o711)  # noqa: S103 - the agent reaches broker.sock, lists nothing
        if self.host.cgroup:
            host = cgroups.detect_cgroups()
            if host is not None:
                reaped = reap_stale(host, self.cfg.paths.base)
                if reaped:
                    log(f"removed the empty cgroups of stopped agents: {' '.join(reaped)}")
                self.cgroup = cgroups.create(host, self.cfg.ref.key, self.cfg.request.limits)
                cgroups.enter(self.cgroup, os.getpid())
                self.warm.cgroup_host = host
        self.broker.start()
        self._listener = listen(paths.socket, 0o666)  # SO_PEERCRED decides who may talk
        threading.Thread(target=self._accept, name="agent-accept", daemon=True).start()
        self._publish()
        alias = f"{self.cfg.ctx_host}{self.cfg.ref.abi_path}.sock"
        if os.readlink(alias) != paths.socket:
            raise Internal(f"{alias} does not point to {paths.socket}")
        state = {"pid": os.getpid(), "start_time": procs.start_time(os.getpid()),
                 "socket": paths.socket, "agent": self.cfg.ref.abi_path}  # fmt: skip
        with open(paths.state, "w", encoding="utf-8") as handle:
            json.dump(state, handle)

    def _publish(self) -> None:
        """Point the agent's `.sock` alias here. Its `.d/status` and `.d/pid` are the
        mount daemon's: it reads them off the socket the alias names (SO_PEERCRED)."""
        alias = f"{self.cfg.ctx_host}{self.cfg.ref.abi_path}.sock"
        gid = self.identity.gid if self.owner == self.identity.uid else self.owner
        fs_ops.run_as(self.owner, gid, [fs_ops.symlink(alias, self.cfg.paths.socket)])

    def serve(self) -> None:
        signal.signal(signal.SIGTERM, lambda _s, _f: self.stopping.set())
        signal.signal(signal.SIGINT, lambda _s, _f: self.stopping.set())
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        log(f"serving {self.cfg.ref.abi_path} on {self.cfg.paths.socket}")
        while not self.stopping.wait(0.5):
            procs.reap_adopted()  # here, in the main thread, which starts no process
        self.shutdown()

    def shutdown(self) -> None:
        log("stopping")
        try:
            self._stop_everything()
        finally:
            self._remove_cgroup()  # also when a step above failed: nothing else would

    def _stop_everything(self) -> None:
        if self._listener is not None:
            self._listener.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.cfg.paths.socket)
        running = [t for t in list(self.turns.values()) if t.state == RUNNING]
        for turn in running:
            self.runner.cancel(turn)
        deadline = time.monotonic() + GRACE_SECONDS + 3
        while any(t.state == RUNNING for t in running) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.broker.stop()
        # Whatever a tool call left (adopted: this process is their subreaper) dies with
        # the agent, with or without a cgroup; the uid's warm host and its servers serve
        # the uid's other agents too, and are spared.
        left = procs.kill_below(os.getpid(), set(self.warm.pids))
        if left:
            log(f"processes {sorted(left)} outlived SIGKILL")
        shutil.rmtree(self.cfg.paths.rundir, ignore_errors=True)

    def _remove_cgroup(self) -> None:
        if self.cgroup is None:
            return
        left = cgroups.kill_others(self.cgroup, os.getpid())
        if left:
            log(f"processes {sorted(left)} outlived SIGKILL")
        if not cgroups.leave_and_remove(self.cgroup, os.getpid()):
            log(f"cgroup {self.cgroup.dirs[0]} kept: not empty; the next start reaps it")

    # -- the agent socket --------------------------------------------------------
    def _accept(self) -> None:
        assert self._listener is not None
        requests = control.Requests(
            self.owner, self._get_or_start, self.turns.get, self._may_read, self._cancel,
            self._status,
            self.stopping.set,
        )  # fmt: skip
        try:
            control.accept_loop(self._listener, requests, self.stopping, log)
        finally:
            if not self.stopping.is_set():
                # Nobody would accept on the listener: a client would wait forever.
                log("agent socket: accepting failed for good; stopping the agent")
                self.stopping.set()

    def _get_or_start(self, turn: Turn) -> Turn:
        with self.lock:
            existing = self.turns.get(turn.id)
            if existing is not None:
                return existing
            finished = [k for k, t in self.turns.items() if t.state != RUNNING]
            for key in finished[: max(0, len(finished) - KEPT_TURNS + 1)]:
                del self.turns[key]  # oldest first: dicts keep insertion order
            self.turns[turn.id] = turn
        threading.Thread(target=self.runner.run, args=(turn,), daemon=True).start()
        return turn

    def _cancel(self, ident: str | None) -> list[str]:
        chosen = [self.turns[ident]] if ident in self.turns else []
        if ident is None:
            chosen = list(self.turns.values())
        return [t.id for t in chosen if self.runner.cancel(t)]

    def _status(self) -> dict[str, Any]:
        last = self.runner.last
        identity = self.identity
        return {
            "agent": self.cfg.ref.name,
            "path": self.cfg.ref.abi_path,
            "state": "stopping" if self.stopping.is_set() else "running",
            "pid": os.getpid(),
            "socket": self.cfg.paths.socket,
            "started_at": self.started_at,
            "command": list(self.cfg.request.command),
            "identity": {"uid": identity.uid, "gid": identity.gid,
                         "groups": list(identity.groups), "umask": f"{identity.umask:04o}"},
            "network": last.network.reason if last else None,
            "cgroup": self.cgroup.dirs[0] if self.cgroup else None,
            "notes": list(last.mounts.notes) if last else [],
            "argv": list(last.argv) if last else [],
            "turns": [t.summary() for t in self.turns.values()],
        }  # fmt: skip
