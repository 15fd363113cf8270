"""Unit tests: manifest parsing, source invariants, lock parsing, rendering, detection."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from agents_md_compiler.compile import compile_bundle, load_and_compile
from agents_md_compiler.errors import (
    STATE_EXIT_CODES,
    BundleState,
    LockError,
    ManifestError,
    SourceError,
)
from agents_md_compiler.lockfile import parse_lock, serialize_lock, staleness
from agents_md_compiler.manifest import load_manifest, parse_manifest
from agents_md_compiler.models import BundleLimits, Lock, LockedModule, ModuleSpec, PathPair
from agents_md_compiler.paths import expand_user, resolve
from agents_md_compiler.rendering import (
    RenderError,
    RenderInput,
    declared_format,
    render_bundle,
    validate_rendered,
)
from agents_md_compiler.sources import read_source, read_sources

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"
GOLDEN_LOCK_SHA = "9a12daad4c2c91c632ef11d550fbb22c0ae1d8aee4f0627feb387e8630bb1dfc"
GOLDEN_RENDER_SHA = "a381b51ddffdd62777b0fc4b33d5bc2e9c9590a19f217926d5e22f89db9f991f"
ENV = {"HOME": "/home/tester"}


def manifest_at(path: Path) -> PathPair:
    return PathPair(str(path), str(path))


def test_golden_vector_lock_and_render() -> None:
    bundle = load_and_compile(manifest_at(FIXTURES / "manifests" / "minimal.toml"), ENV)
    assert hashlib.sha256(bundle.lock_bytes).hexdigest() == GOLDEN_LOCK_SHA
    assert len(bundle.rendered) == 982
    assert hashlib.sha256(bundle.rendered).hexdigest() == GOLDEN_RENDER_SHA
    assert bundle.rendered == (GOLDEN / "minimal.AGENTS.md").read_bytes()
    assert bundle.lock_bytes == (GOLDEN / "minimal.lock.json").read_bytes()
    assert bundle.manifest.sha256.startswith("4e089bbd")
    assert [s.size_bytes for s in bundle.sources] == [122, 142]


def test_three_module_golden_keeps_manifest_order() -> None:
    bundle = load_and_compile(manifest_at(FIXTURES / "manifests" / "three-modules.toml"), ENV)
    assert bundle.rendered == (GOLDEN / "three-modules.AGENTS.md").read_bytes()
    text = bundle.rendered.decode()
    assert text.index("id=core") < text.index("id=python") < text.index("id=extras")
    assert bundle.rendered.endswith(b"-->\n") and not bundle.rendered.endswith(b"\n\n")


def test_lock_bytes_are_canonical_json_with_source_last() -> None:
    text = (GOLDEN / "minimal.lock.json").read_text()
    assert text.endswith("}\n")
    assert '      "size_bytes": 122,\n      "source": "../modules/core.md"\n' in text
    assert "Core Policy" not in text


def test_path_resolution_is_lexical() -> None:
    assert resolve("~/x/../y", "/base", ENV) == "/home/tester/y"
    assert resolve("$HOME/x", "/base", ENV) == "/base/$HOME/x"
    assert resolve("a/./b/../c", "/base", ENV) == "/base/a/c"
    assert resolve("/abs//p", "/base", ENV) == "/abs/p"
    assert expand_user("~", ENV) == "/home/tester"
    assert expand_user("x~", ENV) == "x~"
    assert expand_user("~no-such-user-here/x", ENV) == "~no-such-user-here/x"
    assert expand_user("~root/x", ENV).endswith("/x") and not expand_user("~root", ENV).startswith(
        "~"
    )


def test_manifest_resolves_relative_to_its_directory(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "m.toml"
    data = (
        b'schema_version = 1\nbundle_id = "b"\ndefault_target = "~/t/AGENTS.md"\n'
        b'[[modules]]\nid = "a"\nsource = "../m/a.md"\n'
    )
    manifest = parse_manifest(data, manifest_at(path), ENV)
    assert manifest.default_target_resolved == "/home/tester/t/AGENTS.md"
    assert manifest.modules == (ModuleSpec("a", "../m/a.md", str(tmp_path / "m" / "a.md")),)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"schema_version = 1\nbundle_id = \n", "not valid TOML"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_manifest_syntax_errors(data: bytes, problem: str) -> None:
    with pytest.raises(ManifestError, match=problem):
        parse_manifest(data, manifest_at(Path("/m.toml")), ENV)


def test_manifest_file_rules(tmp_path: Path) -> None:
    real = tmp_path / "real.toml"
    real.write_bytes((FIXTURES / "manifests" / "minimal.toml").read_bytes())
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    with pytest.raises(ManifestError, match="symbolic link"):
        load_manifest(manifest_at(link), ENV)
    with pytest.raises(ManifestError, match="does not exist"):
        load_manifest(manifest_at(tmp_path / "absent.toml"), ENV)
    with pytest.raises(ManifestError, match="larger than 10 bytes"):
        load_manifest(manifest_at(real), ENV, BundleLimits(max_manifest_bytes=10))
    with pytest.raises(ManifestError, match="not a regular file"):
        load_manifest(manifest_at(tmp_path), ENV)


def test_module_count_limit() -> None:
    body = b'schema_version = 1\nbundle_id = "b"\ndefault_target = "t"\n'
    body += b"".join(b'[[modules]]\nid = "m%d"\nsource = "s%d.md"\n' % (i, i) for i in range(3))
    with pytest.raises(ManifestError, match="too many modules"):
        parse_manifest(body, manifest_at(Path("/m.toml")), ENV, BundleLimits(max_modules=2))


def spec_for(path: Path) -> ModuleSpec:
    return ModuleSpec("m", path.name, str(path))


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "source is empty"),
        (b"\xef\xbb\xbf# T\n", "byte order mark"),
        (b"# T\x00\n", "NUL byte at offset 3"),
        (b"# T\r\n", "carriage return at byte offset 3"),
        (b"# T \xff\n", r"not valid UTF-8 \(byte offset 4\)"),
        (b"# T", "must end with a newline"),
        (b"# T\n\n", "must not end with a blank line"),
        (b"# T\n<!-- agents-md-compiler:x -->\n", "reserved compiler marker at byte offset 4"),
    ],
)
def test_source_content_invariants(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "s.md"
    path.write_bytes(content)
    with pytest.raises(SourceError, match=problem) as info:
        read_source(spec_for(path))
    assert info.value.state is BundleState.INVALID_SOURCE


def test_source_file_invariants(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_bytes(b"# Real\n")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    with pytest.raises(SourceError, match="symbolic link"):
        read_source(spec_for(link))
    with pytest.raises(SourceError, match="does not exist"):
        read_source(spec_for(tmp_path / "absent.md"))
    with pytest.raises(SourceError, match="not a regular file"):
        read_source(spec_for(tmp_path))
    with pytest.raises(SourceError, match="larger than 4 bytes"):
        read_source(spec_for(real), BundleLimits(max_source_bytes=4))
    linked_dir = tmp_path / "linked"
    linked_dir.symlink_to(tmp_path)
    assert read_source(spec_for(linked_dir / "real.md")).content == b"# Real\n"


def test_duplicate_content_and_total_limit(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"# Same\n")
    (tmp_path / "b.md").write_bytes(b"# Same\n")
    data = (
        b'schema_version = 1\nbundle_id = "b"\ndefault_target = "t"\n'
        b'[[modules]]\nid = "a"\nsource = "a.md"\n[[modules]]\nid = "b"\nsource = "b.md"\n'
    )
    manifest = parse_manifest(data, manifest_at(tmp_path / "m.toml"), ENV)
    with pytest.raises(SourceError, match="DUPLICATE_CONTENT"):
        read_sources(manifest)
    (tmp_path / "b.md").write_bytes(b"# Other\n")
    with pytest.raises(SourceError, match="total limit"):
        read_sources(manifest, BundleLimits(max_total_bytes=10))


def golden_bundle():  # type: ignore[no-untyped-def]
    return load_and_compile(manifest_at(FIXTURES / "manifests" / "minimal.toml"), ENV)


def test_validate_rendered_rejects_structural_damage() -> None:
    bundle = golden_bundle()
    data = RenderInput(
        bundle.manifest.bundle_id, bundle.manifest.sha256, bundle.lock_sha256, bundle.sources
    )
    validate_rendered(bundle.rendered, data)
    damaged = [
        bundle.rendered + b"x",
        bundle.rendered.replace(b"# Agent", b"# Agnet", 1),
        bundle.rendered.replace(b"Prefer", b"Prefur"),
        bundle.rendered.replace(b"module-end id=core", b"module-end id=cure"),
        bundle.rendered.replace(
            b"\n\n<!-- agents-md-compiler:module-begin id=python",
            b"\n<!-- agents-md-compiler:module-begin id=python",
        ),
    ]
    for rendered in damaged:
        with pytest.raises(RenderError):
            validate_rendered(rendered, data)


def test_render_error_maps_to_invalid_source(monkeypatch: pytest.MonkeyPatch) -> None:
    import agents_md_compiler.compile as compile_module

    monkeypatch.setattr(compile_module, "render_bundle", lambda data: b"# broken\n")
    manifest = load_manifest(manifest_at(FIXTURES / "manifests" / "minimal.toml"), ENV)
    with pytest.raises(SourceError, match="header"):
        compile_bundle(manifest)


def test_declared_format_detection() -> None:
    bundle = golden_bundle()
    data = RenderInput(
        bundle.manifest.bundle_id, bundle.manifest.sha256, bundle.lock_sha256, bundle.sources
    )
    assert declared_format(bundle.rendered) == 2
    assert declared_format(render_bundle(data, 1)) == 1
    assert render_bundle(data, 1).startswith(
        b"# Global Agent Instructions\n\n<!-- agents-md-compiler:generated format=1 -->\n"
    )
    assert declared_format(render_bundle(data, 7)) == 7
    assert (
        declared_format(b"# Agent Instructions\n\n<!-- agents-md-compiler:generated format=2 -->")
        is None
    )
    assert declared_format(bundle.rendered.replace(b"\n", b"\r\n")) is None
    assert (
        declared_format(
            b"# Global Agent Instructions\n\n<!-- agents-md-compiler:generated format=2 -->\nx\n"
        )
        is None
    )
    assert (
        declared_format(
            b"# Agent Instructions\n\n<!-- agents-md-compiler:generated format=01 -->\nx\n"
        )
        is None
    )
    assert (
        declared_format(
            b"# Agent Instructions\nx\n<!-- agents-md-compiler:generated format=2 -->\nx\n"
        )
        is None
    )
    assert declared_format(b"# Hand written\n\ntext\n\nmore\n") is None


def test_lock_parser_accepts_both_formats_and_reports_staleness() -> None:
    bundle = golden_bundle()
    path = PathPair("l.json", "/l.json")
    assert parse_lock(bundle.lock_bytes, path) == bundle.lock
    v1 = Lock(
        1,
        bundle.lock.bundle_id,
        bundle.lock.manifest_sha256,
        tuple(
            LockedModule(m.id, m.sha256, m.size_bytes, "/abs/" + m.id + ".md")
            for m in bundle.lock.modules
        ),
    )
    v1_bytes = serialize_lock(v1)
    assert b'"resolved_source": "/abs/core.md"' in v1_bytes
    parsed = parse_lock(v1_bytes, path)
    assert parsed.format_version == 1
    assert (
        staleness(v1_bytes, parsed, bundle.lock, bundle.lock_bytes) == "lock format is not current"
    )
    reformatted = bundle.lock_bytes.replace(b"\n", b"\n ")
    assert (
        staleness(reformatted, bundle.lock, bundle.lock, bundle.lock_bytes)
        == "lock bytes are not canonical"
    )


@pytest.mark.parametrize(
    ("mutate", "problem"),
    [
        (
            lambda d: d.replace(b'"format_version": 2', b'"format_version": 3'),
            "unsupported lock format_version 3",
        ),
        (
            lambda d: d.replace(b'"format_version": 2', b'"format_version": true'),
            "unsupported lock format_version True",
        ),
        (lambda d: d.replace(b'"bundle_id"', b'"bundle"'), "unknown key"),
        (
            lambda d: d.replace(b'"size_bytes": 122', b'"size_bytes": 0'),
            "size_bytes must be an integer >= 1",
        ),
        (
            lambda d: d.replace(b'"size_bytes": 122', b'"size_bytes": true'),
            "size_bytes must be an integer >= 1",
        ),
        (
            lambda d: d.replace(b'"source": "../modules/core.md"', b'"resolved_source": "/x"'),
            "keys must be exactly",
        ),
        (lambda d: d.replace(b'"id": "core"', b'"id": "Core"'), "not a valid identifier"),
        (lambda d: d.replace(b'"sha256": "8c19', b'"sha256": "8C19'), "not a lowercase sha256"),
        (lambda d: b"[]", "must be a JSON object"),
        (lambda d: d[:-3], "not valid JSON"),
    ],
)
def test_lock_parser_rejections(mutate, problem: str) -> None:  # type: ignore[no-untyped-def]
    data = mutate((GOLDEN / "minimal.lock.json").read_bytes())
    with pytest.raises(LockError, match=problem) as info:
        parse_lock(data, PathPair("l.json", "/l.json"))
    assert info.value.exit_code == 1


def test_state_exit_table_is_exhaustive() -> None:
    assert set(STATE_EXIT_CODES) == set(BundleState)
    expected = {
        "CURRENT": 0,
        "INVALID_MANIFEST": 1,
        "INVALID_LOCK": 1,
        "INVALID_SOURCE": 1,
        "RUNTIME_UNVERIFIED": 1,
        "LOCK_MISSING": 2,
        "LOCK_STALE": 2,
        "DRIFTED": 2,
        "MISSING": 2,
        "SHADOWED": 3,
        "UNMANAGED_TARGET": 3,
        "CONCURRENT_CHANGE": 3,
    }
    assert {str(k): v for k, v in STATE_EXIT_CODES.items()} == expected


def test_oversized_target_is_refused(tmp_path: Path) -> None:
    from agents_md_compiler.errors import TargetError
    from agents_md_compiler.models import PathPair
    from agents_md_compiler.target import TargetKind, observe_target

    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"x" * 20)
    pair = PathPair(str(path), str(path))
    assert observe_target(pair, limit=20).kind is TargetKind.UNMANAGED
    with pytest.raises(TargetError, match="larger than 19 bytes"):
        observe_target(pair, limit=19)
