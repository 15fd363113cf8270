"""Benchmark: cmx-core plan+apply of a 200-file bundle to all 14 platforms (global scope)
against `shutil.copytree` of the same bytes into the same directories, in one run.

    uv run python bench/cmx_core_install.py [--runs N]

Each repetition uses a fresh temporary HOME on a machine whose cmx config manages all
14 platforms, so apply writes the 9 distinct skill directories, 14 lockfiles, the
`sources.json` registration and the home copy. The baseline copies the bundle
directory with `shutil.copytree` into the same distinct directories. Medians of the
repetitions are reported, and the ratio of the medians; the target is <= 2.0x.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from cmx_core import (
    ALL_PLATFORMS,
    BundledSkill,
    Environment,
    FixedHome,
    FixedWorkdir,
    Scope,
    SkillInstaller,
    ToolIdentity,
)

FILE_COUNT = 200
TOOL = ToolIdentity("bench-tool", "1.0.0")


def make_bundle_dir(root: Path) -> Path:
    """SKILL.md plus 199 files of 0.5-8 KiB spread over nested directories."""
    bundle = root / "bundle"
    (bundle / "SKILL.md").parent.mkdir(parents=True)
    (bundle / "SKILL.md").write_text(
        "---\nname: bench-tool\ndescription: Benchmark skill\n---\n# Bench\n" + "text\n" * 200
    )
    for i in range(FILE_COUNT - 1):
        path = bundle / f"section-{i % 7}" / f"part-{i % 3}" / f"file-{i:03}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        size = 512 + (i * 397) % 7680
        path.write_bytes(bytes((i + j) % 251 for j in range(size)))
    return bundle


def fresh_home(root: Path, name: str) -> Environment:
    home = root / name
    config = home / ".config" / "context-mixer"
    config.mkdir(parents=True)
    platforms = [p.value for p in ALL_PLATFORMS]
    (config / "config.json").write_text(json.dumps({"version": 1, "platforms": platforms}))
    return Environment(home=FixedHome(home), workdir=FixedWorkdir(home))


def destinations(env: Environment, bundle: BundledSkill) -> list[Path]:
    """Every directory an apply writes: the planned targets plus the managed home copy."""
    plan = SkillInstaller(TOOL, env).plan(bundle, Scope.GLOBAL)
    dirs = {target.dest_dir for target in plan.targets}
    dirs.add(env.home.home() / ".config" / "context-mixer" / "home" / "skills" / TOOL.name)
    return sorted(dirs)


def time_cmx(bundle: BundledSkill, env: Environment) -> tuple[float, float]:
    installer = SkillInstaller(TOOL, env)
    os.sync()  # untimed: start from a clean page cache, so no side pays for the other's I/O
    start = time.perf_counter()
    plan = installer.plan(bundle, Scope.GLOBAL)
    planned = time.perf_counter()
    report = installer.apply(bundle, plan)
    done = time.perf_counter()
    assert len(report.applied) == len(ALL_PLATFORMS) and report.source_registered
    return planned - start, done - start


def time_copytree(source: Path, bundle: BundledSkill, env: Environment) -> float:
    targets = destinations(env, bundle)
    os.sync()  # untimed, as for cmx-core
    start = time.perf_counter()
    for target in targets:
        shutil.copytree(source, target)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cmx-bench-") as tmp:
        root = Path(tmp)
        source = make_bundle_dir(root)
        bundle = BundledSkill.from_directory(source)
        total_bytes = sum(len(f.data) for f in bundle.files)
        plan_times: list[float] = []
        cmx_times: list[float] = []
        copy_times: list[float] = []
        for run in range(args.runs):
            # Alternate the order so neither side always runs on a warmer page cache.
            if run % 2:
                copy_times.append(time_copytree(source, bundle, fresh_home(root, f"copy-{run}")))
                plan_s, total_s = time_cmx(bundle, fresh_home(root, f"cmx-{run}"))
            else:
                plan_s, total_s = time_cmx(bundle, fresh_home(root, f"cmx-{run}"))
                copy_times.append(time_copytree(source, bundle, fresh_home(root, f"copy-{run}")))
            plan_times.append(plan_s)
            cmx_times.append(total_s)
        dirs = len(destinations(fresh_home(root, "probe"), bundle))
    cmx = statistics.median(cmx_times)
    copy = statistics.median(copy_times)
    print(
        f"bundle: {FILE_COUNT} files, {total_bytes} bytes; "
        f"{dirs} destination dirs; runs: {args.runs}"
    )
    print(f"cmx-core plan (median):        {statistics.median(plan_times) * 1000:8.1f} ms")
    print(f"cmx-core plan+apply (median):  {cmx * 1000:8.1f} ms")
    print(f"shutil.copytree (median):      {copy * 1000:8.1f} ms")
    print(f"ratio cmx/copytree:            {cmx / copy:8.2f}x (target <= 2.00x)")


if __name__ == "__main__":
    main()
