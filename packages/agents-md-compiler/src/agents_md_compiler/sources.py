"""Read every module source once and enforce the content invariants."""

from __future__ import annotations

from agents_md_compiler.errors import SourceError
from agents_md_compiler.fileio import ReadProblem, read_regular
from agents_md_compiler.models import (
    DEFAULT_LIMITS,
    BundleLimits,
    Manifest,
    ModuleSpec,
    SourceSnapshot,
    sha256_hex,
)

RESERVED_MARKER = b"<!-- agents-md-compiler:"
BOM = b"\xef\xbb\xbf"


def read_sources(
    manifest: Manifest, limits: BundleLimits = DEFAULT_LIMITS
) -> tuple[SourceSnapshot, ...]:
    snapshots: list[SourceSnapshot] = []
    total = 0
    by_digest: dict[str, str] = {}
    for spec in manifest.modules:
        snapshot = read_source(spec, limits)
        total += snapshot.size_bytes
        if total > limits.max_total_bytes:
            raise _error(spec, f"sources exceed the total limit of {limits.max_total_bytes} bytes")
        if snapshot.sha256 in by_digest:
            raise _error(
                spec,
                f"DUPLICATE_CONTENT: module {spec.id!r} has the same bytes as module "
                f"{by_digest[snapshot.sha256]!r}",
            )
        by_digest[snapshot.sha256] = spec.id
        snapshots.append(snapshot)
    return tuple(snapshots)


def read_source(spec: ModuleSpec, limits: BundleLimits = DEFAULT_LIMITS) -> SourceSnapshot:
    try:
        spec.resolved_source.encode("utf-8")
    except UnicodeEncodeError:
        raise _error(spec, "source path is not valid UTF-8") from None
    try:
        data = read_regular(spec.resolved_source, limits.max_source_bytes, allow_empty=False).data
    except ReadProblem as exc:
        raise _error(spec, f"source {exc}") from None
    check_content(data, spec)
    return SourceSnapshot(spec, data, sha256_hex(data))


def check_content(data: bytes, spec: ModuleSpec) -> None:
    """Content invariants, in the documented order; messages never quote content."""
    if data.startswith(BOM):
        raise _error(spec, "source starts with a UTF-8 byte order mark")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise _error(spec, f"source contains a NUL byte at offset {nul}")
    cr = data.find(b"\r")
    if cr >= 0:
        raise _error(spec, f"source contains a carriage return at byte offset {cr}")
    try:
        data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise _error(spec, f"source is not valid UTF-8 (byte offset {exc.start})") from None
    if not data.endswith(b"\n"):
        raise _error(spec, "source must end with a newline")
    if data.endswith(b"\n\n"):
        raise _error(spec, "source must not end with a blank line")
    marker = data.find(RESERVED_MARKER)
    if marker >= 0:
        raise _error(spec, f"source contains the reserved compiler marker at byte offset {marker}")


def _error(spec: ModuleSpec, message: str) -> SourceError:
    return SourceError(message, lexical=spec.source, resolved=spec.resolved_source)
