"""Manifest -> sources -> fresh lock -> render, from one read of each input."""

from __future__ import annotations

from collections.abc import Mapping

from agents_md_compiler.errors import SourceError
from agents_md_compiler.lockfile import build_lock, serialize_lock
from agents_md_compiler.manifest import load_manifest
from agents_md_compiler.models import (
    DEFAULT_LIMITS,
    BundleLimits,
    CompiledBundle,
    Manifest,
    PathPair,
    sha256_hex,
)
from agents_md_compiler.rendering import RenderError, RenderInput, render_bundle, validate_rendered
from agents_md_compiler.sources import read_sources


def compile_bundle(manifest: Manifest, limits: BundleLimits = DEFAULT_LIMITS) -> CompiledBundle:
    sources = read_sources(manifest, limits)
    lock = build_lock(manifest, sources)
    lock_bytes = serialize_lock(lock)
    lock_sha = sha256_hex(lock_bytes)
    data = RenderInput(manifest.bundle_id, manifest.sha256, lock_sha, sources)
    rendered = render_bundle(data)
    try:
        validate_rendered(rendered, data)
    except RenderError as exc:
        raise SourceError(
            str(exc), lexical=manifest.path.lexical, resolved=manifest.path.resolved
        ) from None
    return CompiledBundle(
        manifest=manifest,
        sources=sources,
        lock=lock,
        lock_bytes=lock_bytes,
        lock_sha256=lock_sha,
        rendered=rendered,
        rendered_sha256=sha256_hex(rendered),
    )


def load_and_compile(
    path: PathPair, environ: Mapping[str, str], limits: BundleLimits = DEFAULT_LIMITS
) -> CompiledBundle:
    return compile_bundle(load_manifest(path, environ, limits), limits)
