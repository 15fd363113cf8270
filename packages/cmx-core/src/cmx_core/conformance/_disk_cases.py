"""Generated categories that need a real filesystem: checksum walks over trees with
symlinks and non-UTF-8 names, and lockfile load → save round trips."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cmx_core._checksum import checksum_dir
from cmx_core._errors import CmxError
from cmx_core._lockfile import load_lockfile, save_lockfile
from cmx_core.conformance._diffing import diff_bytes
from cmx_core.conformance._manifest import Case, Fields, FixtureError, typed
from cmx_core.conformance._text_cases import blob

CHECKSUM_TREE = Fields(
    input=frozenset({"entries"}),
    expected=frozenset(),
    optional_expected=frozenset({"checksum", "error"}),
)
LOCKFILE_ROUNDTRIP = Fields(
    input=frozenset({"text"}),
    expected=frozenset(),
    optional_expected=frozenset({"output", "error"}),
)


def build_tree(root: Path, entries: list[object]) -> None:
    """Create the fixture's files, directories and symlinks under `root` (names as bytes)."""
    for entry in entries:
        if type(entry) is not dict:
            raise FixtureError("each entry must be an object")
        path = root / os.fsdecode(blob(entry["path"]))
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = entry["kind"]
        if kind == "file":
            path.write_bytes(blob(entry["content"]))
        elif kind == "dir":
            path.mkdir(parents=True, exist_ok=True)
        elif kind == "symlink":
            path.symlink_to(os.fsdecode(blob(entry["target"])))
        else:
            raise FixtureError(f"unknown entry kind {kind!r}")


def _outcome(expected: dict[str, object], actual: str | None, error: CmxError | None) -> str | None:
    if "error" in expected:
        if error is None:
            return f"expected an error ({expected['error']}), got {actual!r}"
        return None
    if error is not None:
        wanted = expected.get("checksum", "success")
        return f"expected {wanted}, raised {type(error).__name__}: {error}"
    return None


def run_checksum_tree(case: Case) -> str | None:
    entries = typed(case, case.input, "entries", list)
    expected = dict(case.expected)
    if len(expected) != 1:
        raise FixtureError("expected holds exactly one of checksum or error")
    with tempfile.TemporaryDirectory(prefix="cmx-conformance-") as tmp:
        root = Path(tmp) / "tree"
        root.mkdir()
        build_tree(root, entries)
        try:
            actual, error = checksum_dir(root), None
        except CmxError as exc:
            actual, error = None, exc
    problem = _outcome(expected, actual, error)
    if problem is None and "checksum" in expected and actual != expected["checksum"]:
        problem = f"checksum: expected {expected['checksum']}, got {actual}"
    return problem


def run_lockfile_roundtrip(case: Case) -> str | None:
    expected = dict(case.expected)
    if len(expected) != 1:
        raise FixtureError("expected holds exactly one of output or error")
    with tempfile.TemporaryDirectory(prefix="cmx-conformance-") as tmp:
        source, target = Path(tmp) / "cmx-lock.json", Path(tmp) / "out" / "cmx-lock.json"
        source.write_bytes(blob(case.input["text"]))
        try:
            save_lockfile(target, load_lockfile(source))
            actual, error = target.read_bytes(), None
        except CmxError as exc:
            actual, error = None, exc
    problem = _outcome(
        expected, None if actual is None else actual.decode("utf-8", "replace"), error
    )
    if problem is None and actual is not None:
        problem = diff_bytes(blob(expected["output"]), actual)
    return problem
