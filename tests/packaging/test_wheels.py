"""The four distributions outside the workspace (issue 19, 11).

`uv build --all-packages` builds every wheel and sdist; the wheels go into a fresh
virtual environment that knows nothing of the workspace, and each console script runs:
`--version`, `--help` and one real command in a temp directory. This catches missing
package data, entry points and dependencies before a release.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DISTRIBUTIONS = ("agents_md_compiler", "cmx_core", "cortexfs", "upskill")


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{' '.join(argv)}: {done.returncode}\n{done.stdout}{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    uv = shutil.which("uv")
    if uv is None:
        pytest.fail("uv is not on PATH (it builds and installs the wheels)", pytrace=False)
    base = tmp_path_factory.mktemp("packaging")
    dist, venv = base / "dist", base / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["UV_PYTHON_DOWNLOADS"] = "never"
    _run([uv, "build", "--all-packages", "--out-dir", str(dist)], REPO, env)
    _run([uv, "venv", "--python", sys.executable, str(venv)], base, env)
    wheels = sorted(str(p) for p in dist.glob("*.whl"))
    _run([uv, "pip", "install", "--python", str(venv / "bin/python"), *wheels], base, env)
    run_env = {**env, "PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(base / "home")}
    (base / "home").mkdir()
    return dist, venv, run_env


def test_every_distribution_has_a_wheel_and_an_sdist_with_complete_metadata(installed) -> None:  # type: ignore[no-untyped-def]
    dist, _, _ = installed
    for name in DISTRIBUTIONS:
        (wheel,) = dist.glob(f"{name}-*.whl")
        assert list(dist.glob(f"{name}-*.tar.gz")), f"no sdist for {name}"
        with zipfile.ZipFile(wheel) as archive:
            meta_name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
            meta = email.message_from_bytes(archive.read(meta_name))
            assert any(n.endswith("/py.typed") for n in archive.namelist()), name
        assert meta["License-Expression"] == "MIT", name
        assert meta["Requires-Python"] == ">=3.11", name
        assert meta["Summary"] and meta.get_payload().strip(), f"{name}: no summary or readme"
        classifiers = meta.get_all("Classifier") or []
        assert "Programming Language :: Python :: 3.11" in classifiers, name
        assert "Typing :: Typed" in classifiers, name


def test_console_scripts_run_outside_the_workspace(installed, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, venv, env = installed
    bin_ = venv / "bin"
    for script in ("upskill", "agents-md-compiler", "ctx"):
        assert _run([str(bin_ / script), "--version"], tmp_path, env).stdout.strip()
        assert "usage:" in _run([str(bin_ / script), "--help"], tmp_path, env).stdout
    assert "usage:" in _run([str(bin_ / "cortexfs-mount"), "--help"], tmp_path, env).stdout
    # The object runner speaks JSON lines, not argparse: a bad object name is its error.
    runner = subprocess.run(
        [str(bin_ / "cortexfs-object-runner"), "--help"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert runner.stdout.splitlines()[-1] == '{"exit_code": 69, "status": "error", "type": "done"}'
    # upskill: the example registry, rendered and formatted for every client.
    project = tmp_path / "project"
    project.mkdir()
    _run(["git", "init", "-q"], project, env)
    registry = str(REPO / "examples" / "registry")
    out = _run([str(bin_ / "upskill"), "add", registry, "acme-baseline", "--claude"], project, env)
    assert "7 items installed for claude" in out.stderr
    assert (project / ".claude/skills/acme-code-review/scripts/diff-stats.sh").is_file()
    # agents-md-compiler: scaffold, lock, render.
    amc = str(bin_ / "agents-md-compiler")
    _run([amc, "init", "--directory", "rules", "--target", "AGENTS.md"], tmp_path, env)
    _run([amc, "lock", "--manifest", "rules/agents-md.toml"], tmp_path, env)
    _run([amc, "install", "--manifest", "rules/agents-md.toml", "--apply"], tmp_path, env)
    assert (tmp_path / "AGENTS.md").read_text().strip()
    # ctx and cmx-core: the name grammar, and the library's public API.
    _run([str(bin_ / "ctx"), "validate-name", "calc.add"], tmp_path, env)
    python = str(bin_ / "python")
    _run([python, "-c", "import cmx_core; assert cmx_core.__all__"], tmp_path, env)
