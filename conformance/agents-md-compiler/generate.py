#!/usr/bin/env python3
"""Regenerate the differential fixtures by running the reference agents-md-compiler 1.0.1.

    python3 conformance/agents-md-compiler/generate.py [--only SUBSTRING] [--keep]

What it does, in a throw-away directory (deleted afterwards unless --keep):

1. Downloads the reference wheel, agents-md-compiler==1.0.1, from the Python
   package index with `pip download --no-deps` and unpacks it (a wheel is a zip).
2. Finds a Python 3.14 interpreter, which the reference requires (it uses 3.14-only
   syntax, so `--ignore-requires-python` on an older interpreter cannot work):
   `python3.14` on PATH if there is one; otherwise Debian's own python3.14 packages
   from the `sid` suite, fetched with `apt-get download` into a private apt state
   directory (the system's apt configuration is not touched), unpacked with
   `dpkg-deb -x` together with the C library they were built against, and started
   through that C library's dynamic loader. fixtures/meta.json records which.
3. Runs every scenario of scenarios.py through harness.py against the reference
   (one process per CLI run, with the scenario's HOME, PATH and cwd) and writes one
   fixture per scenario to fixtures/scenarios/<id>.json.
4. Runs oracle.py inside the reference interpreter to freeze the answers of the
   reference's pure functions (fixtures/oracle.json) for the property tests.

The reference's code is only executed, never copied: the fixtures are observations.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402
import scenarios  # noqa: E402

REFERENCE = "agents-md-compiler==1.0.1"
SID_PACKAGES = [
    "python3.14-minimal",
    "libpython3.14-minimal",
    "libpython3.14-stdlib",
    "libc6",
    "libexpat1",
    "zlib1g",
    "libssl3t64",
    "libffi8",
    "liblzma5",
    "libbz2-1.0",
    "libzstd1",
    "libuuid1",
]
BOOT = (
    "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
    "sys.argv[0] = 'agents-md-compiler'; "
    "runpy.run_module('agents_md_compiler', run_name='__main__', alter_sys=True)"
)


def fetch_wheel(work: Path) -> Path:
    wheels = work / "wheel"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--ignore-requires-python",
            "--only-binary=:all:",
            REFERENCE,
            "-d",
            str(wheels),
        ],
        check=True,
    )
    (wheel,) = wheels.glob("*.whl")
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def interpreter(work: Path) -> tuple[list[str], str]:
    """argv prefix that starts Python 3.14, and a sentence saying how."""
    found = shutil.which("python3.14")
    if found:
        return [found, "-I"], f"{found} (python3.14 on PATH)"
    state = work / "apt"
    for sub in ("lists/partial", "cache/archives/partial"):
        (state / sub).mkdir(parents=True)
    (state / "sources.list").write_text("deb http://deb.debian.org/debian sid main\n")
    apt_options = [
        "-o",
        f"Dir::Etc::SourceList={state / 'sources.list'}",
        "-o",
        "Dir::Etc::SourceParts=/dev/null",
        "-o",
        f"Dir::State::Lists={state / 'lists'}",
        "-o",
        f"Dir::Cache={state / 'cache'}",
        "-o",
        "APT::Sandbox::User=root",
    ]
    subprocess.run(["apt-get", *apt_options, "-q", "update"], check=True, stdout=subprocess.DEVNULL)
    debs = work / "debs"
    debs.mkdir()
    subprocess.run(
        ["apt-get", *apt_options, "-q", "download", *SID_PACKAGES],
        check=True,
        cwd=debs,
        stdout=subprocess.DEVNULL,
    )
    root = work / "py314"
    versions = []
    for deb in sorted(debs.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
        versions.append(deb.name)
    loader = root / "usr/lib64/ld-linux-x86-64.so.2"
    libs = root / "usr/lib/x86_64-linux-gnu"
    python = root / "usr/bin/python3.14"
    prefix = [str(loader), "--library-path", str(libs), str(python), "-I"]
    # Debian ships no bytecode (postinst compiles it); compile once so each run starts fast.
    subprocess.run(
        [*prefix, "-m", "compileall", "-q", str(root / "usr/lib/python3.14")],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    how = (
        "Python 3.14 from Debian sid packages (" + ", ".join(versions) + "), unpacked with "
        "dpkg-deb and started through their own ld-linux-x86-64.so.2 --library-path"
    )
    return prefix, how


def reference_runner(prefix: list[str], site: Path) -> harness.Runner:
    def run(argv: list[str], cwd: str, env: dict[str, str]) -> tuple[int, bytes, bytes]:
        done = subprocess.run(
            [*prefix, "-c", BOOT, str(site), *argv],
            cwd=cwd,
            env=dict(env),
            capture_output=True,
            timeout=120,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        return done.returncode, done.stdout, done.stderr

    return run  # type: ignore[return-value]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="regenerate scenarios whose id contains this")
    parser.add_argument("--keep", action="store_true", help="keep the throw-away directory")
    parser.add_argument("--work", help="provision into (or reuse) this directory and keep it")
    args = parser.parse_args()
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="amc-reference-"))
    out = HERE / "fixtures"
    try:
        site = work / "site" if (work / "site").is_dir() else fetch_wheel(work)
        if (work / "interpreter.json").is_file():  # a --work directory provisioned before
            prefix, how = json.loads((work / "interpreter.json").read_text())
        else:
            prefix, how = interpreter(work)
            (work / "interpreter.json").write_text(json.dumps([prefix, how]))
        runner = reference_runner(prefix, site)
        version = runner(["--version"], str(work), {"PATH": "/usr/bin:/bin"})[1].decode().strip()
        assert version == "1.0.1", version
        corpus = scenarios.scenarios()
        ids = [s["id"] for s in corpus]
        assert len(ids) == len(set(ids)), "duplicate scenario id"
        (out / "scenarios").mkdir(parents=True, exist_ok=True)
        if not args.only:
            for stale in (out / "scenarios").glob("*.json"):
                stale.unlink()
        sandboxes = work / "sandboxes"
        for scenario in corpus:
            if args.only and args.only not in scenario["id"]:
                continue
            root = sandboxes / scenario["id"]
            if root.exists():
                shutil.rmtree(root)
            root.mkdir(parents=True)
            observed = harness.run_scenario(scenario, root, runner)
            document = {**scenario, **observed}
            path = out / "scenarios" / f"{scenario['id']}.json"
            path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
            shutil.rmtree(root)
        oracle = subprocess.run(
            [*prefix, str(HERE / "oracle.py"), str(site)], check=True, capture_output=True
        )
        (out / "oracle.json").write_bytes(oracle.stdout)
        meta = {
            "reference": REFERENCE,
            "reference_version": version,
            "interpreter": how,
            "scenarios": len(corpus),
            "regenerate": "python3 conformance/agents-md-compiler/generate.py",
        }
        (out / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
        print(f"{len(corpus)} scenarios; reference {version}; {how}")
    finally:
        if not args.keep and not args.work:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
