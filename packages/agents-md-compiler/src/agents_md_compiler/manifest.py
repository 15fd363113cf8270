"""Strict manifest parsing: TOML bytes -> Manifest, or ManifestError naming the problem."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

from agents_md_compiler.errors import ManifestError
from agents_md_compiler.fileio import ReadProblem, read_regular
from agents_md_compiler.models import (
    DEFAULT_LIMITS,
    IDENTIFIER_RE,
    BundleLimits,
    Manifest,
    ModuleSpec,
    PathPair,
    sha256_hex,
)
from agents_md_compiler.paths import resolve
from agents_md_compiler.toml_shape import shape_problem

TOP_KEYS = frozenset({"schema_version", "bundle_id", "default_target", "modules"})
MODULE_KEYS = frozenset({"id", "source"})
SCHEMA_VERSION = 1


def load_manifest(
    path: PathPair, environ: Mapping[str, str], limits: BundleLimits = DEFAULT_LIMITS
) -> Manifest:
    try:
        data = read_regular(path.resolved, limits.max_manifest_bytes).data
    except ReadProblem as exc:
        raise _error(path, f"manifest {exc}") from None
    return parse_manifest(data, path, environ, limits)


def parse_manifest(
    data: bytes, path: PathPair, environ: Mapping[str, str], limits: BundleLimits = DEFAULT_LIMITS
) -> Manifest:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(path, f"manifest is not UTF-8 (byte offset {exc.start})") from None
    problem = shape_problem(text)
    if problem is not None:
        raise _error(path, f"manifest is not a valid manifest: {problem}")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _error(path, f"manifest is not valid TOML: {exc}") from None
    except RecursionError:  # defence in depth: shape_problem bounds nesting first
        raise _error(path, "manifest nests too deeply") from None
    unknown = sorted(set(doc) - TOP_KEYS)
    if unknown:
        raise _error(path, f"unknown top-level key(s): {', '.join(unknown)}")
    version = doc.get("schema_version")
    if version is None:
        raise _error(path, "schema_version is missing")
    if type(version) is not int:
        raise _error(path, f"schema_version must be an integer, not {_tname(version)}")
    if version != SCHEMA_VERSION:
        raise _error(path, f"unsupported schema_version {version} (expected 1)")
    bundle_id = _identifier(doc, "bundle_id", "bundle_id", path)
    target = _nonblank(doc, "default_target", "default_target", path)
    base = str(Path(path.resolved).parent)
    modules = _modules(doc, base, path, environ, limits)
    return Manifest(
        path=path,
        sha256=sha256_hex(data),
        bundle_id=bundle_id,
        default_target=target,
        default_target_resolved=resolve(target, base, environ),
        modules=modules,
    )


def check_target_alias(manifest: Manifest, resolved_target: str) -> None:
    """A source that is also the output would be overwritten by install."""
    for spec in manifest.modules:
        if spec.resolved_source == resolved_target:
            raise _error(
                manifest.path,
                f"TARGET_ALIASES_SOURCE: module {spec.id!r} source is the target {resolved_target}",
            )


def _modules(
    doc: Mapping[str, object],
    base: str,
    path: PathPair,
    environ: Mapping[str, str],
    limits: BundleLimits,
) -> tuple[ModuleSpec, ...]:
    raw = doc.get("modules")
    if raw is None:
        raise _error(path, "modules is missing")
    if not isinstance(raw, list):
        raise _error(path, f"modules must be an array of tables, not {_tname(raw)}")
    if not raw:
        raise _error(path, "modules must not be empty")
    if len(raw) > limits.max_modules:
        raise _error(path, f"too many modules ({len(raw)} > {limits.max_modules})")
    specs: list[ModuleSpec] = []
    seen_ids: set[str] = set()
    seen_paths: dict[str, str] = {}
    for index, entry in enumerate(raw):
        where = f"modules[{index}]"
        if not isinstance(entry, dict):
            raise _error(path, f"{where} must be a table, not {_tname(entry)}")
        unknown = sorted(set(entry) - MODULE_KEYS)
        if unknown:
            raise _error(path, f"{where}: unknown key(s): {', '.join(unknown)}")
        module_id = _identifier(entry, "id", f"{where}.id", path)
        if module_id in seen_ids:
            raise _error(path, f"{where}: duplicate module id {module_id!r}")
        seen_ids.add(module_id)
        source = _nonblank(entry, "source", f"{where}.source", path)
        resolved = resolve(source, base, environ)
        if resolved in seen_paths:
            raise _error(
                path,
                f"{where}: duplicate source path {resolved} (also module {seen_paths[resolved]!r})",
            )
        seen_paths[resolved] = module_id
        specs.append(ModuleSpec(module_id, source, resolved))
    return tuple(specs)


def _string(table: Mapping[str, object], key: str, label: str, path: PathPair) -> str:
    value = table.get(key)
    if value is None:
        raise _error(path, f"{label} is missing")
    if type(value) is not str:
        raise _error(path, f"{label} must be a string, not {_tname(value)}")
    return value


def _identifier(table: Mapping[str, object], key: str, label: str, path: PathPair) -> str:
    value = _string(table, key, label, path)
    if not value:
        raise _error(path, f"{label} must not be empty")
    if not IDENTIFIER_RE.match(value):
        raise _error(path, f"{label} {value!r} does not match [a-z][a-z0-9-]{{0,63}}")
    return value


def _nonblank(table: Mapping[str, object], key: str, label: str, path: PathPair) -> str:
    value = _string(table, key, label, path)
    if not value.strip():
        raise _error(path, f"{label} must not be blank")
    return value


def _tname(value: object) -> str:
    names = {bool: "boolean", int: "integer", float: "float", str: "string", list: "array"}
    return names.get(type(value), "table" if isinstance(value, dict) else type(value).__name__)


def _error(path: PathPair, message: str) -> ManifestError:
    return ManifestError(message, lexical=path.lexical, resolved=path.resolved)
