"""Installed distribution version; never required to exist, never rendered.

`--version` must start about as fast as the interpreter itself, and importing
importlib.metadata alone costs more than Python's own start-up. So the lookup
first walks the search path in order, as importlib.metadata's path finder does,
and reads the `Version:` header of the first `*.dist-info` of this
distribution. Anything the walk cannot read with certainty (an `.egg-info`, a
zip archive on the path, no match at all) defers to importlib.metadata, which
stays the authority.
"""

# pathlib imports re, fnmatch and urllib: too costly for --version, so os.path here.
# ruff: noqa: PTH110, PTH112, PTH118, PTH123, PTH208

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself costs start-up time; mypy honours the name
if TYPE_CHECKING:
    from collections.abc import Sequence

DISTRIBUTION = "agents-md-compiler"
UNKNOWN_VERSION = "0.0.0+unknown"

_NORMALIZED = "agents_md_compiler"


def installed_version(search_path: Sequence[str] | None = None) -> str:
    found = _scan(sys.path if search_path is None else search_path)
    if found is not None:
        return found
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN_VERSION


def _scan(search_path: Sequence[str]) -> str | None:
    """The version from the first matching dist-info, or None to defer."""
    for entry in search_path:
        directory = entry or "."
        if not os.path.isdir(directory):
            if os.path.exists(directory):
                return None  # a zip or other archive: importlib.metadata knows how
            continue
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            return None
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            if _normalize(stem.partition("-")[0]) != _NORMALIZED:
                continue
            if suffix != "dist-info":
                return None
            return _read_version(os.path.join(directory, name, "METADATA"))
    return None


def _normalize(project: str) -> str:
    """PEP 503 name normalisation (runs of `-_.` become one `_`), without `re`."""
    folded = project.lower().replace("-", "_").replace(".", "_")
    while "__" in folded:
        folded = folded.replace("__", "_")
    return folded


def _read_version(metadata_file: str) -> str | None:
    try:
        with open(metadata_file, encoding="utf-8") as handle:
            for line in handle:
                if line in ("\n", "\r\n"):
                    break  # end of the headers
                if line.startswith("Version:"):
                    return line[len("Version:") :].strip()
    except (OSError, UnicodeDecodeError):
        return None
    return None
