"""The whole launch chain as one argv. Pure: the same inputs give the same argv, which is
what the tests pin and what `ctx agent status` shows.

    [pasta ... --] prlimit ... -- setpriv ... -- bwrap ... -- /ctx/bin/ctxterm ... -- ARGV

pasta (when the network is granted) wraps everything so the sandbox's network namespace
is its; prlimit sets hard limits while still privileged; setpriv sets the derived
identity, the parent-death signal and no_new_privs; bubblewrap builds the namespaces and
the mount view; ctxterm owns the terminal and the hosted command's process group.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cortexfs.launch.identity import Identity
from cortexfs.launch.limits import Limits, prlimit_args
from cortexfs.launch.mounts import CTX, SANDBOX_TMP, Bind, MountPlan
from cortexfs.launch.network import NetworkPlan
from cortexfs.launch.spec import AgentSpec

CTXTERM = f"{CTX}/bin/ctxterm"
TSH = f"{CTX}/bin/tsh"
HOSTNAME = "cortexfs"
SANDBOX_PATH = f"{CTX}/bin:/usr/local/bin:/usr/bin:/bin"
# Operator variables a hosted CLI needs to render text; nothing else crosses --clearenv.
PASSTHROUGH = ("LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TERM", "COLORTERM", "TZ")


@dataclass(frozen=True)
class HostTools:
    bwrap: str
    setpriv: str
    prlimit: str
    pasta: str | None


@dataclass(frozen=True)
class SystemView:
    """How /bin, /lib... look on the host: a symlink target (merged /usr) or None (a dir)."""

    links: tuple[tuple[str, str | None], ...]
    nofile_hard: int


@dataclass(frozen=True)
class Launch:
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    identity: Identity
    network: NetworkPlan
    mounts: MountPlan
    limits: Limits
    cgroup: bool
    # argv[bwrap[0]] is bubblewrap and argv[bwrap[1]] the `--` ending its options: what
    # launch/pin.py hands it through `--args FD` (with the pinned sources' descriptors).
    bwrap: tuple[int, int] = (0, 0)
    pins: tuple[int, ...] = ()  # argv indices of pinned sources (`--bind-fd SOURCE DEST`)


def sandbox_env(
    spec: AgentSpec, identity: Identity, operator_env: Mapping[str, str], user: str
) -> list[tuple[str, str]]:
    home = f"{CTX}/home/{identity.uid}"
    env = [(k, operator_env[k]) for k in PASSTHROUGH if k in operator_env]
    env += [
        ("PATH", SANDBOX_PATH), ("HOME", SANDBOX_TMP), ("USER", user), ("LOGNAME", user),
        ("CTX_ROOT", CTX), ("CTX_HOME", home), ("CTX_PATH", f"{CTX}/tool:{home}/tool"),
        ("CTX_AGENT", spec.ref.name),
    ]  # fmt: skip
    defined = {key for key, _ in spec.env}
    return [(k, v) for k, v in env if k not in defined] + list(spec.env)


def _step(bind: Bind) -> list[str]:
    if bind.kind == "mask":
        return ["--perms", "0755", "--tmpfs", bind.target]
    if bind.kind == "seal":
        return ["--remount-ro", bind.target]
    option = "--bind" if bind.writable else "--ro-bind"
    if bind.pinned:  # the source is replaced by its checked descriptor at spawn
        return [option + "-fd", bind.source, bind.target]
    return [option + ("-try" if bind.optional else ""), bind.source, bind.target]


def _bwrap(
    tools: HostTools, view: SystemView, env: list[tuple[str, str]], network: NetworkPlan,
    mounts: MountPlan, limits: Limits,
) -> tuple[list[str], list[int]]:  # fmt: skip
    argv = [
        tools.bwrap, "--die-with-parent", "--unshare-pid", "--unshare-uts", "--unshare-ipc",
        "--hostname", HOSTNAME, "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
    ]  # fmt: skip
    if network.isolated:
        argv.append("--unshare-net")
    argv.append("--clearenv")
    for key, value in env:
        argv += ["--setenv", key, value]
    argv += ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for path, target in view.links:
        argv += ["--symlink", target, path] if target else ["--ro-bind", path, path]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    argv += ["--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", SANDBOX_TMP]
    pins = []
    for bind in mounts.binds:
        if bind.pinned:
            pins.append(len(argv) + 1)
        argv += _step(bind)
    argv += ["--remount-ro", "/", "--chdir", mounts.cwd]
    return argv, pins


def build_chain(
    spec: AgentSpec,
    identity: Identity,
    operator_is_root: bool,
    tools: HostTools,
    view: SystemView,
    network: NetworkPlan,
    mounts: MountPlan,
    limits: Limits,
    cgroup: bool,
    env: list[tuple[str, str]],
    command: tuple[str, ...],
    pty: bool,
) -> Launch:
    credentials = identity.setpriv_args() if operator_is_root else []
    setpriv = [
        tools.setpriv, *credentials, "--inh-caps=-all", "--no-new-privs",
        "--pdeathsig", "KILL", "--",
    ]  # fmt: skip
    prlimit = [tools.prlimit, *prlimit_args(limits, view.nofile_hard, cgroup), "--"]
    ctxterm = [CTXTERM, *(["--pty"] if pty else []), "--umask", f"{identity.umask:04o}", "--"]
    head = (*network.prefix, *prlimit, *setpriv)
    bwrap, pins = _bwrap(tools, view, env, network, mounts, limits)
    argv = (*head, *bwrap, "--", *ctxterm, *(command or (TSH,)))
    span = (len(head), len(head) + len(bwrap))
    at = tuple(len(head) + i for i in pins)
    return Launch(argv, tuple(env), identity, network, mounts, limits, cgroup, span, at)
