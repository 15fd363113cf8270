"""CortexFS against its floors, in one run: file operations and warm MCP tool calls.

Run from the repository root as root: ``uv run python bench/cortexfs.py``. Needs fuse3,
gcc and the libfuse3 headers (``apt-get install -y libfuse3-dev pkg-config``) and, for
the default MCP server, ``npm install --prefix bench/.cache
@modelcontextprotocol/server-filesystem`` (``--server calc`` uses the tests' small Python server,
``packages/cortexfs/tests/support/fake_mcp.py``, instead).

**File operations.** Mounts a temporary storage directory with ``cortexfs-mount``,
writes ``--files`` files of ``--size`` bytes into ``shared/bench/`` through it, builds
``bench/fuse_floor.c`` (a do-nothing libfuse3 filesystem on the same API and options
serving the same files from memory) into ``bench/.cache/`` and mounts it too, then
times, round-robin so machine drift hits all three alike:

- stat: ``os.stat`` of every file,
- readdir: ``os.listdir`` of the directory,
- read: open + read + close of every file,

on the backing directory (direct), the floor and the CortexFS mount. Reported: median
ops/s and the medians of mount/direct and mount/floor. Goal (issue 23): mount/floor
>= 0.8 for each. ``FUSE_LIBRARY_PATH=/path/libfuse3.so.3.x`` runs the mount (mfusepy)
and the floor on another libfuse, with ``PKG_CONFIG_PATH`` naming that libfuse's
``fuse3.pc`` for the floor's build; from 3.16 on, the kernel keeps listings.

**A listing after a control write.** Times listings of ``shared/bench`` right after a
control write (``tool/bench-write.d/policy``, the write untimed) against listings
alone; the ratio shows whether a control write costs the listing cache anything.

``--skip files`` or ``--skip calls`` leaves a part out; the closing line then gives it
no verdict.

**Warm MCP calls.** Projects the server into the mount (``ctx mcp project``), grants
an agent its tool, makes one call to warm it, then times per round, interleaved: the
projected tool run as a command (``exec`` of ``/ctx/tool/<server>.<tool>``: the object
runner, the warm host, the live server), the same ``tools/call`` from a direct MCP
client (cortexfs's own, in this process, on a server it started and initialised
itself), and the bare start of the runner's interpreter (``python -c pass``). Goal:
median(projected) - median(direct) <= 1.5 x median(bare start).

**One CPU.** The bench and everything it starts (both filesystems' daemons, the
runner, the warm host, the servers) run pinned to one CPU (``--cpu``, default the
first the bench may use; ``--cpu -1`` leaves placement to the scheduler). On a small
virtual machine a wake-up on another virtual CPU costs about as much as a whole FUSE
request, and the scheduler puts each daemon on either CPU from run to run, so
unpinned ratios swing (readdir 0.2x to 0.6x of the floor, read 0.2x to 0.9x, on the
2-CPU machine in bench/README.md). Pinned, every filesystem pays only its own work.

A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

FLOOR_GOAL = 0.8
CALL_GOAL = 1.5
BENCH = Path(__file__).resolve().parent
CACHE = BENCH / ".cache"
BIN = Path(sys.executable).parent
FS_SERVER = CACHE / "node_modules" / ".bin" / "mcp-server-filesystem"
# The tests' fake servers (`--server calc` is theirs), imported by path: the bench runs
# only from a checkout, where they always are, and a copy here would drift from them.
TEST_SUPPORT = BENCH.parent / "packages" / "cortexfs" / "tests" / "support"


def _wait_ready(check: Callable[[], bool], proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"{what} did not become ready")


def _mount(base: Path) -> tuple[Path, Path, subprocess.Popen[bytes]]:
    storage, root = base / "storage", base / "ctx"
    root.mkdir()
    proc = subprocess.Popen(
        [str(BIN / "cortexfs-mount"), "--init", "--source", str(storage), str(root),
         "--foreground"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _wait_ready(lambda: (root / "status").read_bytes() == b"ready\n", proc, "cortexfs-mount")
    return storage, root, proc


def _pkg_config(*args: str) -> str:
    try:
        return subprocess.run(
            ["pkg-config", *args, "fuse3"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(
            f"cannot find libfuse3 headers ({exc}): apt-get install -y libfuse3-dev pkg-config"
        ) from exc


def _build_floor() -> Path:
    """Compile bench/fuse_floor.c against the headers of the libfuse the mount loads
    (struct fuse_file_info's flag bits moved in 3.15), again when the source is newer."""
    import mfusepy  # type: ignore[import-untyped]

    version = _pkg_config("--modversion")
    loaded = f"{mfusepy.fuse_version_major}.{mfusepy.fuse_version_minor}"
    if version.split(".")[:2] != loaded.split("."):
        raise SystemExit(
            f"the mount loads libfuse {loaded} but pkg-config finds {version} headers: "
            "point PKG_CONFIG_PATH at the fuse3.pc of the libfuse FUSE_LIBRARY_PATH names"
        )
    source, binary = BENCH / "fuse_floor.c", CACHE / f"fuse_floor-{version}"
    if binary.exists() and binary.stat().st_mtime >= source.stat().st_mtime:
        return binary
    CACHE.mkdir(exist_ok=True)
    flags = _pkg_config("--cflags", "--libs").split()
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(source), *flags], check=True)
    return binary


def _mount_floor(base: Path, files: int, size: int) -> tuple[Path, subprocess.Popen[bytes]]:
    root = base / "floor"
    root.mkdir()
    env = dict(os.environ)
    if library := os.environ.get("FUSE_LIBRARY_PATH"):  # the libfuse mfusepy loads, here too
        env["LD_LIBRARY_PATH"] = os.path.dirname(library)
    proc = subprocess.Popen(
        [str(_build_floor()), str(root), str(files), str(size)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    _wait_ready(lambda: os.path.ismount(root), proc, "fuse_floor")
    return root, proc


def _unmount(root: Path, proc: subprocess.Popen[bytes]) -> None:
    subprocess.run(["fusermount3", "-u", str(root)], check=False, capture_output=True)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        subprocess.run(["fusermount3", "-u", "-z", str(root)], check=False, capture_output=True)


def _stat_all(directory: str, names: list[str]) -> None:
    for name in names:
        os.stat(os.path.join(directory, name))


def _list(directory: str, names: list[str]) -> None:
    for _ in range(len(names) // 10 or 1):
        os.listdir(directory)


def _read_all(directory: str, names: list[str]) -> None:
    for name in names:
        with open(os.path.join(directory, name), "rb") as handle:
            handle.read()


def _rate(op: Callable[[str, list[str]], None], directory: str, names: list[str]) -> float:
    start = time.perf_counter()
    op(directory, names)
    return 1.0 / (time.perf_counter() - start)


def file_ops(storage: Path, root: Path, floor: Path, args: argparse.Namespace) -> bool:
    names = [f"f{i:04d}.txt" for i in range(args.files)]
    mounted = root / "shared" / "bench"
    mounted.mkdir()
    payload = b"x" * args.size
    for name in names:
        (mounted / name).write_bytes(payload)
    places = {"direct": str(storage / "shared" / "bench"), "floor": str(floor),
              "mount": str(mounted)}  # fmt: skip
    ops = {"stat": _stat_all, "readdir": _list, "read": _read_all}
    print(f"\n## File operations: {args.files} files of {args.size} bytes, {args.rounds} rounds")
    print(f"{'operation':<10}{'direct/s':>12}{'floor/s':>12}{'mount/s':>12}"
          f"{'mount/direct':>14}{'mount/floor':>13}  goal")  # fmt: skip
    met = True
    for label, op in ops.items():
        count = len(names) if label != "readdir" else (len(names) // 10 or 1)
        rates: dict[str, list[float]] = {place: [] for place in places}
        for directory in places.values():
            op(directory, names)  # warm every cache
        for turn in range(args.rounds):
            order = list(places)[turn % 3 :] + list(places)[: turn % 3]
            for place in order:
                rates[place].append(_rate(op, places[place], names) * count)
        to_direct = statistics.median(
            m / d for m, d in zip(rates["mount"], rates["direct"], strict=True)
        )
        to_floor = statistics.median(
            m / f for m, f in zip(rates["mount"], rates["floor"], strict=True)
        )
        ok = to_floor >= FLOOR_GOAL
        met = met and ok
        print(
            f"{label:<10}{statistics.median(rates['direct']):>12,.0f}"
            f"{statistics.median(rates['floor']):>12,.0f}{statistics.median(rates['mount']):>12,.0f}"
            f"{to_direct:>14.2f}{to_floor:>13.2f}  {'met' if ok else 'NOT met'} (>= {FLOOR_GOAL})"
        )
    return met


def _write(path: str, value: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, value)
    finally:
        os.close(fd)


def write_then_list(root: Path, args: argparse.Namespace) -> None:
    """What a control write costs the next listing of a directory: each round times
    `--files` / 10 listings of `shared/bench` right after a control write (the write
    itself untimed: it fsyncs, and its noise would swamp a listing) and as many
    listings alone, alternating which goes first. Reported: the median per-round
    ratio of the two; 1.0 means the write left that listing's cache alone."""
    controls = root / "tool" / "bench-write.d"
    controls.mkdir()
    policy = str(controls / "policy")
    values = [f"allow {t}_t tool:bench-write execute\n".encode() for t in ("a", "b")]
    listed = str(root / "shared" / "bench")
    count = args.files // 10 or 1

    def after_write() -> float:
        spent = 0.0
        for i in range(count):
            _write(policy, values[i % 2])
            start = time.perf_counter()
            os.listdir(listed)
            spent += time.perf_counter() - start
        return spent / count

    def alone() -> float:
        start = time.perf_counter()
        for _ in range(count):
            os.listdir(listed)
        return (time.perf_counter() - start) / count

    after_write(), alone()  # warm
    seconds: dict[str, list[float]] = {"after a write": [], "alone": []}
    for turn in range(args.rounds):
        for name in ["after a write", "alone"][:: 1 if turn % 2 else -1]:
            seconds[name].append(after_write() if name == "after a write" else alone())
    ratio = statistics.median(
        w / a for w, a in zip(seconds["after a write"], seconds["alone"], strict=True)
    )
    print(f"\n## A listing of {args.files} entries after a control write, {args.rounds} rounds")
    for name, values_s in seconds.items():
        print(f"listing {name:<16}{statistics.median(values_s) * 1e6:>10.1f} us")
    print(f"after a write / alone = {ratio:.2f}")


def _server(args: argparse.Namespace, base: Path) -> tuple[str, list[str], str, dict[str, object]]:
    """(server name, command, remote tool, arguments)."""
    if args.server == "fs":
        if not FS_SERVER.exists():
            raise SystemExit(
                "npm install --prefix bench/.cache @modelcontextprotocol/server-filesystem "
                "(or --server calc)"
            )
        shared = base / "fs-root"
        shared.mkdir()
        (shared / "hello.txt").write_text("hello\n")
        return (
            "fs",
            [str(FS_SERVER), str(shared)],
            "read_text_file",
            {"path": str(shared / "hello.txt")},
        )
    sys.path.insert(0, str(TEST_SUPPORT))
    from fake_mcp import CALC_SERVER  # type: ignore[import-not-found]

    script = base / "calc_server.py"
    script.write_text(CALC_SERVER)
    return "calc", [sys.executable, str(script)], "add", {"a": 2, "b": 3}


def _grant(root: Path, tool: str) -> dict[str, str]:
    controls = root / "agent" / "bench.d"
    controls.mkdir()
    for control, text in (
        ("label", "user_u:agent_r:bench_t:s0\n"), ("perm", "rwx\n"), ("tools", f"{tool}\n"),
        ("policy", f"allow bench_t tool:{tool} execute\n"),
    ):  # fmt: skip
        (controls / control).write_text(text)
    (root / "tool" / f"{tool}.d" / "policy").write_text(f"allow bench_t tool:{tool} execute\n")
    return {"PATH": f"{BIN}:/usr/bin:/bin", "CTX_ROOT": str(root), "CTX_AGENT": "bench",
            "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/root")}  # fmt: skip


def _timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} exited {done.returncode}: {done.stdout!r} {done.stderr!r}")
    return elapsed, done.stdout


def warm_calls(root: Path, base: Path, args: argparse.Namespace) -> bool:
    # This script is itself named cortexfs.py: import the package, not the script.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH]
    sys.modules.pop("cortexfs", None)
    from cortexfs.mcp_client import McpSession

    name, command, remote, arguments = _server(args, base)
    projected = subprocess.run(
        [str(BIN / "ctx"), "mcp", "project", name, "--into", str(root / "tool"), "--", *command],
        capture_output=True, env={**os.environ, "CTX_ROOT": str(root)},
    )  # fmt: skip
    if projected.returncode != 0:
        raise SystemExit(f"ctx mcp project: {projected.stderr.decode()}")
    tool = f"{name}.{remote}"
    env = _grant(root, tool)
    call = [str(root / "tool" / tool), json.dumps(arguments)]
    first, out = _timed(call, env)  # starts the warm host and the server
    expected = json.loads(out.decode().splitlines()[-2])["text"]
    times: dict[str, list[float]] = {"projected": [], "direct": [], "bare": []}
    with McpSession(command) as session:
        session.initialize()
        session.call_tool(remote, arguments)
        for _ in range(args.calls):
            elapsed, out = _timed(call, env)
            assert json.loads(out.decode().splitlines()[-2])["text"] == expected
            times["projected"].append(elapsed)
            start = time.perf_counter()
            session.call_tool(remote, arguments)
            times["direct"].append(time.perf_counter() - start)
            times["bare"].append(_timed([sys.executable, "-c", "pass"])[0])
    median = {k: statistics.median(v) * 1000 for k, v in times.items()}
    budget = CALL_GOAL * median["bare"]
    over = median["projected"] - median["direct"]
    print(f"\n## Warm MCP calls: {' '.join(command[:1])} {remote}, {args.calls} rounds")
    print(f"first projected call (host and server start): {first * 1000:.1f} ms")
    print(f"{'what':<48}{'median ms':>10}{'p10':>8}{'p90':>8}")
    labels = {"projected": f"projected {tool} (exec through /ctx)",
              "direct": "direct MCP client, same server (in process)",
              "bare": "bare interpreter start (python -c pass)"}  # fmt: skip
    for key, label in labels.items():
        q = statistics.quantiles([t * 1000 for t in times[key]], n=10)
        print(f"{label:<48}{median[key]:>10.2f}{q[0]:>8.2f}{q[-1]:>8.2f}")
    ok = over <= budget
    print(f"projected - direct = {over:.2f} ms = {over / median['bare']:.2f}x bare start; "
          f"goal <= {CALL_GOAL}x ({budget:.2f} ms): {'met' if ok else 'NOT met'}")  # fmt: skip
    return ok


def goals_line(verdicts: dict[str, bool | None]) -> str:
    """The closing line: each part's verdict; a part not run (None, `--skip`) gets none."""
    said = [
        f"{part} {'skipped (no verdict)' if met is None else 'met' if met else 'NOT met'}"
        for part, met in verdicts.items()
    ]
    return f"goals: {', '.join(said)}"


def machine() -> str:
    model = next(
        (line.split(":", 1)[1].strip() for line in subprocess.run(
            ["lscpu"], capture_output=True, text=True).stdout.splitlines()
         if line.startswith("Model name")), "unknown CPU")  # fmt: skip
    library = os.environ.get("FUSE_LIBRARY_PATH")
    loaded = f" ({library})" if library else ""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} CPUs, kernel {platform.release()}, libfuse "
            f"{_pkg_config('--modversion')}{loaded}, Python {platform.python_version()}, "
            f"load average {load}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--server", choices=["fs", "calc"], default="fs")
    parser.add_argument("--skip", choices=["files", "calls"], default=None)
    parser.add_argument("--cpu", type=int, default=min(os.sched_getaffinity(0)))
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})  # inherited by every process started below
    print(f"machine: {machine()}")
    print(f"pinned to CPU {args.cpu}" if args.cpu >= 0 else "not pinned")
    base = Path(tempfile.mkdtemp(prefix="cortexfs-bench-"))
    os.chmod(base, 0o755)
    storage, root, proc = _mount(base)
    floor = None
    verdicts: dict[str, bool | None] = {"file operations": None, "warm calls": None}
    try:
        if args.skip != "files":
            floor = _mount_floor(base, args.files, args.size)
            verdicts["file operations"] = file_ops(storage, root, floor[0], args)
            write_then_list(root, args)
        if args.skip != "calls":
            verdicts["warm calls"] = warm_calls(root, base, args)
    finally:
        if floor is not None:
            _unmount(*floor)
        _unmount(root, proc)
        shutil.rmtree(base, ignore_errors=True)
    print(f"\n{goals_line(verdicts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
