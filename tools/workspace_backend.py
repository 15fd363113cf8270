"""The build backend that lets pip (and so pre-commit) install this repository's root.

pre-commit installs a hook repository with `pip install .` at its root, and the root
is a uv workspace whose members are named in `[project].dependencies` and found
through `[tool.uv.sources]` (`workspace = true`), a table only uv reads. This
backend does for pip what uv does: it builds a wheel holding only metadata, whose
`Requires-Dist` points each workspace member at its directory as a `file://` URL,
so pip builds the members from this checkout and never takes a same-named
distribution from an index. uv never calls it (`[tool.uv] package = false`).

Only the wheel hooks exist: the root is an installer's entry point, not a
distribution, and an sdist of it would point at a directory that is gone once
unpacked. Publish the members instead (`uv build --all-packages`).
"""

from __future__ import annotations

import base64
import hashlib
import re
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_TAG = "py3-none-any"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    name, files = _dist_info()
    target = Path(metadata_directory) / name
    target.mkdir(parents=True, exist_ok=True)
    for filename, data in files.items():
        (target / filename).write_bytes(data)
    return name


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    dist_info, files = _dist_info()
    wheel_name = f"{dist_info.removesuffix('.dist-info')}-{_TAG}.whl"
    records = [
        f"{dist_info}/{filename},sha256={_digest(data)},{len(data)}"
        for filename, data in files.items()
    ]
    records.append(f"{dist_info}/RECORD,,")
    files["RECORD"] = ("\n".join(records) + "\n").encode()
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w") as wheel:
        for filename, data in files.items():
            wheel.writestr(f"{dist_info}/{filename}", data)
    return wheel_name


def _dist_info() -> tuple[str, dict[str, bytes]]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    members = _members(pyproject)
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    for requirement in project["dependencies"]:
        lines.append(f"Requires-Dist: {_pinned_to_member(requirement, members)}")
    metadata = ("\n".join(lines) + "\n").encode()
    wheel = f"Wheel-Version: 1.0\nGenerator: {__name__}\nRoot-Is-Purelib: true\nTag: {_TAG}\n"
    stem = f"{_normalise(project['name'])}-{project['version']}"
    return f"{stem}.dist-info", {"METADATA": metadata, "WHEEL": wheel.encode()}


def _members(pyproject: dict[str, Any]) -> dict[str, Path]:
    """Each workspace member's normalised name -> its directory."""
    found: dict[str, Path] = {}
    for pattern in pyproject["tool"]["uv"]["workspace"]["members"]:
        for directory in sorted(ROOT.glob(pattern)):
            manifest = directory / "pyproject.toml"
            if manifest.is_file():
                member = tomllib.loads(manifest.read_text(encoding="utf-8"))
                found[_normalise(member["project"]["name"])] = directory
    return found


def _pinned_to_member(requirement: str, members: dict[str, Path]) -> str:
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    if name is None or _normalise(name.group()) not in members:
        raise ValueError(f"pyproject.toml: {requirement!r} is not a workspace member")
    return f"{name.group()} @ {members[_normalise(name.group())].as_uri()}"


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
