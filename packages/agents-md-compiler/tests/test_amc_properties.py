"""Property tests: any valid module set renders, self-validates, locks and checks CURRENT."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents_md_compiler.compile import load_and_compile
from agents_md_compiler.lockfile import parse_lock, serialize_lock
from agents_md_compiler.manifest import parse_manifest
from agents_md_compiler.models import PathPair
from agents_md_compiler.rendering import RenderInput, declared_format, validate_rendered
from agents_md_compiler.scaffold import toml_quote

IDS = st.from_regex(r"\A[a-z][a-z0-9-]{0,20}\Z")
LINE_CHARS = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\r\x00\ufeff")
LINE = st.text(LINE_CHARS, max_size=60).filter(lambda s: "<!-- agents-md-compiler:" not in s)


@st.composite
def module_bodies(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(LINE, min_size=1, max_size=8))
    lines[-1] = lines[-1] or "end"
    return ("\n".join(lines) + "\n").encode("utf-8")


MODULE_SETS = st.lists(
    st.tuples(IDS, module_bodies()),
    min_size=1,
    max_size=5,
    unique_by=(lambda m: m[0], lambda m: m[1]),
)


def write_bundle(root: Path, modules: list[tuple[str, bytes]]) -> Path:
    (root / "src").mkdir()
    (root / "out").mkdir()
    parts = ['schema_version = 1\nbundle_id = "prop-bundle"\ndefault_target = "out/AGENTS.md"\n']
    for module_id, body in modules:
        (root / "src" / f"{module_id}.md").write_bytes(body)
        parts.append(f'\n[[modules]]\nid = "{module_id}"\nsource = "src/{module_id}.md"\n')
    manifest = root / "agents-md.toml"
    manifest.write_text("".join(parts))
    return manifest


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(modules=MODULE_SETS)
def test_valid_module_sets_round_trip_to_current(make_workspace, modules) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as temp:
        ws = make_workspace(Path(temp))
        (ws.root / "bundle").mkdir()
        manifest = write_bundle(ws.root / "bundle", modules)
        pair = PathPair(str(manifest), str(manifest))
        bundle = load_and_compile(pair, ws.env)
        data = RenderInput(
            "prop-bundle", bundle.manifest.sha256, bundle.lock_sha256, bundle.sources
        )
        validate_rendered(bundle.rendered, data)
        assert declared_format(bundle.rendered) == 2
        assert parse_lock(bundle.lock_bytes, pair) == bundle.lock
        assert serialize_lock(parse_lock(bundle.lock_bytes, pair)) == bundle.lock_bytes
        assert bundle.rendered.isascii() or any(not b.isascii() for _, b in modules)
        assert ws.run("lock", "--manifest", str(manifest)).code == 0
        assert ws.run("install", "--apply", "--manifest", str(manifest)).code == 0
        checked = ws.run("check", "--manifest", str(manifest), "--format", "json")
        assert checked.code == 0 and checked.json["state"] == "CURRENT"
        assert [m["id"] for m in checked.json["modules"]] == [m for m, _ in modules]
        rendered = ws.run("render", "--manifest", str(manifest), "--locked")
        assert rendered.stdout == (manifest.parent / "out" / "AGENTS.md").read_bytes()


TARGETS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)


@settings(max_examples=30, deadline=None)
@given(
    bundle_id=IDS,
    target=TARGETS.filter(str.strip),
    ids=st.lists(IDS, min_size=1, max_size=4, unique=True),
)
def test_manifest_parser_accepts_generated_valid_manifests(
    bundle_id: str, target: str, ids: list[str]
) -> None:
    text = (
        f"schema_version = 1\nbundle_id = {toml_quote(bundle_id)}\n"
        f"default_target = {toml_quote(target)}\n"
        + "".join(f'[[modules]]\nid = "{i}"\nsource = "m/{i}.md"\n' for i in ids)
    )
    manifest = parse_manifest(text.encode(), PathPair("/w/m.toml", "/w/m.toml"), {"HOME": "/h"})
    assert manifest.bundle_id == bundle_id and manifest.default_target == target
    assert [m.id for m in manifest.modules] == ids
