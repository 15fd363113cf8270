"""Large resources are streamed, never held whole in memory (issue 24, 3).

A resource above `blobs.STREAM_THRESHOLD` travels as a `FileBlob` (path, size, sha256
taken in one chunked read) and is streamed into the journal's staging directory, which
checks it is still the file that was hashed. A source's resources are capped in total.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from upskill_cli import UPSKILL

from upskill.blobs import STREAM_THRESHOLD, BlobChanged, FileBlob
from upskill.errors import FormatError
from upskill.format import discover
from upskill.format import resources as resources_module
from upskill.lifecycle.journal import Transaction, Write, apply_transaction

MIB = 1024 * 1024


def _big(path: Path, size: int, seed: bytes) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    block = hashlib.sha256(seed).digest() * (MIB // 32)
    with path.open("wb") as out:
        for _ in range(size // MIB):
            out.write(block)
    return path.read_bytes() if size <= 8 * MIB else b""


def test_large_resources_are_references_small_ones_bytes(registry: Path) -> None:
    refs = registry / "skills" / "review" / "references"
    data = _big(refs / "big.bin", 2 * MIB, b"a")
    catalog = discover(registry)
    review = next(i for i in catalog.items if i.name == "review")
    by_path = {r.path: r.data for r in review.resources}
    assert by_path["references/list.md"] == b"# List\n\n- one\n"
    blob = by_path["references/big.bin"]
    assert isinstance(blob, FileBlob)
    assert (blob.size, blob.sha256) == (len(data), hashlib.sha256(data).hexdigest())
    assert blob.size > STREAM_THRESHOLD


def test_a_large_resource_installs_byte_identical(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    data = _big(registry / "skills" / "review" / "references" / "big.bin", 3 * MIB, b"b")
    cli.ok("add", str(registry), "review", "--claude", "--opencode", cwd=project)
    for tree in (".claude/skills", ".agents/skills"):
        assert (project / tree / "review/references/big.bin").read_bytes() == data
    assert cli.run("doctor", cwd=project).returncode == 0


def test_a_file_changed_after_hashing_fails_the_run_whole(tmp_path: Path) -> None:
    root = tmp_path / "scope"
    root.mkdir()
    source = tmp_path / "big.bin"
    _big(source, 2 * MIB, b"c")
    blob = FileBlob(source, 2 * MIB, hashlib.sha256(source.read_bytes()).hexdigest())
    source.write_bytes(source.read_bytes()[:-1] + b"!")  # same size, other bytes
    txn = Transaction(
        (Write(".claude/rules/a.md", b"a\n"), Write(".claude/skills/s/big.bin", blob)),
        (),
        b"{}\n",
    )
    with pytest.raises(BlobChanged, match="changed while upskill was installing it"):
        apply_transaction(root, root / ".upskill-lock.json", txn, state=tmp_path / "state")
    assert sorted(os.listdir(root)) in ([], [".upskill"])  # nothing written, no lockfile
    assert not (root / ".claude").exists() and not (root / ".upskill-lock.json").exists()


def test_a_source_over_the_total_cap_is_refused(registry: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _big(registry / "skills" / "review" / "references" / "a.bin", 2 * MIB, b"d")
    _big(registry / "skills" / "style" / "b.bin", 2 * MIB, b"e")
    monkeypatch.setattr(resources_module, "MAX_SOURCE_RESOURCE_BYTES", 3 * MIB)
    with pytest.raises(FormatError, match="the source's resources exceed 3145728 bytes in total"):
        discover(registry)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's unit")
def test_installing_192_mib_of_resources_stays_small(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    """Four 48 MiB files in one item: held in memory they alone would take 192 MiB."""
    for n in range(4):
        _big(registry / "skills" / "review" / "assets" / f"f{n}.bin", 48 * MIB, bytes([n]))
    # A fresh parent whose only child is upskill reports that child's peak RSS.
    measure = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], check=True, stdin=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    argv = [sys.executable, "-c", measure, UPSKILL, "add", str(registry), "review", "--claude"]
    done = subprocess.run(argv, cwd=project, env=cli.env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    peak_kib = int(done.stdout.split()[-1])
    assert peak_kib < 120 * 1024, f"peak RSS {peak_kib} KiB"
    assert (project / ".claude/skills/review/assets/f3.bin").stat().st_size == 48 * MIB
