"""A fake hosted agent CLI, run inside the sandbox (the contract test upstream calls for).

`fake-cli report [PATH...]` prints one JSON object: its argv, environment, identity,
umask, limits, cgroups, network interfaces, mounts, which PATHs exist and which are
writable, whether 127.0.0.1:53 answers, and its stdin. `fake-cli hold DIR` writes its pid
and a child's pid to DIR, then waits; on SIGTERM it writes DIR/term-<pid> and exits.
`fake-cli raw SOCKET LINE...` sends each line to a Unix socket and prints each reply.
`fake-cli fork N` and `fake-cli alloc MIB` run into the task and memory limits.
`fake-cli procs` prints what /proc shows of every process: cmdline and environ (or the
errno reading it).
"""

import errno
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time


def probe_write(path):
    target = os.path.join(path, f".probe-{os.getpid()}")
    try:
        with open(target, "w") as handle:
            handle.write("x")
        os.unlink(target)
        return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))


def probe_read(path):
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))


def status_ids():
    wanted = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("Uid", "Gid", "Groups", "CapEff", "CapBnd", "NoNewPrivs"):
                wanted[key] = value.split()
    return wanted


def mounts():
    found = {}
    with open("/proc/self/mountinfo") as handle:
        for line in handle:
            fields = line.split()
            found[fields[4]] = fields[5]
    return found


def dns_port():
    try:
        with socket.create_connection(("127.0.0.1", 53), timeout=3) as sock:
            return sock.recv(64).decode()
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc))


def report(paths):
    mask = os.umask(0)
    os.umask(mask)
    data = {
        "argv": sys.argv,
        "env": dict(os.environ),
        "uid": os.getuid(),
        "gid": os.getgid(),
        "groups": sorted(os.getgroups()),
        "status": status_ids(),
        "umask": f"{mask:04o}",
        "cwd": os.getcwd(),
        "hostname": socket.gethostname(),
        "group_leader": os.getpgrp() == os.getpid(),
        "tty": os.isatty(1),
        "nofile": resource.getrlimit(resource.RLIMIT_NOFILE),
        "core": resource.getrlimit(resource.RLIMIT_CORE),
        "nproc": resource.getrlimit(resource.RLIMIT_NPROC),
        "cgroup": probe_read("/proc/self/cgroup"),
        "interfaces": sorted(name for _, name in socket.if_nameindex()),
        "mounts": mounts(),
        "visible": {p: os.path.exists(p) for p in paths},
        "writable": {p: probe_write(p) for p in paths if os.path.isdir(p)},
        "readable": {p: probe_read(p) for p in paths if not os.path.isdir(p)},
        "listing": {p: sorted(os.listdir(p)) for p in paths if os.path.isdir(p)},
        "dns_port": dns_port(),
        "stdin": sys.stdin.read() if not os.isatty(0) else "",
    }
    print(json.dumps(data))


def hold(directory):
    child = subprocess.Popen(["sleep", "60"])
    with open(os.path.join(directory, f"pids-{os.getpid()}"), "w") as handle:
        handle.write(f"{os.getpid()} {child.pid}\n")

    def on_term(_sig, _frame):
        with open(os.path.join(directory, f"term-{os.getpid()}"), "w") as handle:
            handle.write("TERM\n")
        sys.exit(143)

    signal.signal(signal.SIGTERM, on_term)
    print("holding", flush=True)
    time.sleep(60)


def fork(count):
    """Start `count` sleeping children; print how many started and the first failure."""
    started, failure = [], None
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError as exc:
            failure = errno.errorcode.get(exc.errno, str(exc.errno))
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        started.append(pid)
    print(json.dumps({"started": len(started), "failure": failure}), flush=True)
    for pid in started:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def procs():
    found = {}
    for pid in sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int):
        found[pid] = {name: probe_bytes(f"/proc/{pid}/{name}") for name in ("cmdline", "environ")}
    print(json.dumps(found), flush=True)


def probe_bytes(path):
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace").split("\0")
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))


def alloc(mib):
    """Touch `mib` MiB; print a line after each 16 MiB."""
    chunks = []
    for done in range(16, mib + 1, 16):
        chunks.append(b"x" * (16 << 20))
        print(done, flush=True)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "report":
        report(args)
    elif mode == "fork":
        fork(int(args[0]))
    elif mode == "alloc":
        alloc(int(args[0]))
    elif mode == "hold":
        hold(args[0])
    elif mode == "raw":
        raw(args[0], args[1:])
    elif mode == "procs":
        procs()


def raw(path, lines):
    """Send each line to the Unix socket at `path`, print each reply line."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(path)
        replies = sock.makefile("rb")
        for line in lines:
            sock.sendall(line.encode() + b"\n")
            sys.stdout.write(replies.readline().decode())


main()
