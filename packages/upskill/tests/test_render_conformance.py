"""Golden conformance: every case under conformance/upskill/cases renders byte for byte.

Each case is `input/<item-dir>/...` (plus an optional `case.json` with an
`alias`); `expected/<client>/` holds the exact tree for claude, copilot and
opencode (files and executable bits) and `expected/<client>.warnings` the
warnings, with the case directory shown as `<case>`. Set
UPSKILL_UPDATE_GOLDEN=1 to regenerate the expected trees.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from upskill.clients import RENDER_TARGETS
from upskill.clients.base import Carrier
from upskill.format import load_item_dir
from upskill.lifecycle.compiled import compiled_paths, fronts, import_line
from upskill.render import render_item
from upskill.render.compiled import compile_document
from upskill.render.tables import carrier

ROOT = Path(__file__).resolve().parents[3] / "conformance" / "upskill"
CASES = sorted(p for p in (ROOT / "cases").iterdir() if p.is_dir())
CLIENTS = RENDER_TARGETS  # every generation client of the registry
COMPILED = compiled_paths(home=False)
UPDATE = os.environ.get("UPSKILL_UPDATE_GOLDEN") == "1"


def render_case(
    case: Path, client: str, *, entrypoints: list[str] | None = None
) -> tuple[dict[str, tuple[bytes, int]], list[str]]:
    options = json.loads((case / "case.json").read_text()) if (case / "case.json").exists() else {}
    tree: dict[str, tuple[bytes, int]] = {}
    warnings: list[str] = []
    sections: dict[str, dict[str, bytes]] = {}  # compiled file -> rule name -> section
    for directory in sorted(p for p in (case / "input").iterdir() if p.is_dir()):
        for item in load_item_dir(directory):
            rendering = render_item(item, client, alias=options.get("alias"))
            for out in rendering.files:
                assert out.path not in tree, f"two items write {out.path}"
                if carrier(item.kind, client) is Carrier.COMPILED:
                    assert isinstance(out.data, bytes)
                    sections.setdefault(out.path, {})[options.get("alias") or item.name] = out.data
                    continue
                tree[out.path] = (out.data, out.mode)
            if entrypoints is not None and rendering.files:
                entrypoints.append(rendering.files[0].path)
            warnings.extend(w.replace(str(case), "<case>") for w in rendering.warnings)
    for path, parts in sections.items():
        tree[path] = (compile_document(parts), 0o644)
        for front, target in fronts(home=False).items():
            if target == path:  # `GEMINI.md` holds the import of `.gemini/upskill.md`
                tree[front] = (import_line(target), 0o644)
    return tree, warnings


def read_tree(root: Path) -> dict[str, tuple[bytes, int]]:
    if not root.exists():
        return {}
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mode & 0o111)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def write_expected(
    case: Path, client: str, tree: dict[str, tuple[bytes, int]], warnings: list[str]
) -> None:
    target = case / "expected" / client
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)  # an empty tree is a valid expectation
    (target / ".keep").write_text("")
    for path, (data, mode) in tree.items():
        file = target / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(data)
        file.chmod(0o755 if mode & 0o111 else 0o644)
    notes = case / "expected" / f"{client}.warnings"
    notes.unlink(missing_ok=True)
    if warnings:
        notes.write_text("".join(w + "\n" for w in warnings))


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_renders_golden_tree(case: Path, client: str) -> None:
    tree, warnings = render_case(case, client)
    if UPDATE:
        write_expected(case, client, tree, warnings)
    expected = read_tree(case / "expected" / client)
    expected.pop(".keep", None)
    actual = {path: (data, mode & 0o111) for path, (data, mode) in tree.items()}
    assert sorted(actual) == sorted(expected)
    for path, (data, mode) in expected.items():
        assert actual[path][0] == data, path
        assert actual[path][1] == mode, f"{path}: executable bit differs"
    notes = case / "expected" / f"{client}.warnings"
    assert warnings == (notes.read_text().splitlines() if notes.exists() else [])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_vscode_renders_copilot_tree(case: Path) -> None:
    assert render_case(case, "vscode")[0] == render_case(case, "copilot")[0]


def _entrypoints(cases: list[Path]) -> list[Path]:
    found: list[Path] = []
    for case in cases:
        for client in CLIENTS:
            paths: list[str] = []
            render_case(case, client, entrypoints=paths)
            found.extend(
                case / "expected" / client / path
                for path in paths
                # Codex role files are TOML; a compiled AGENTS.md is agents-md-compiler's
                # byte format, holding rule bodies verbatim (linted in the other trees).
                if path.endswith((".md", ".mdc")) and path not in COMPILED
            )
    return found


def test_golden_bodies_are_the_source_bodies_verbatim() -> None:
    """Install reformats nothing: where no directive, link rewrite or appended
    section applies, the delivered body is the source's from its first
    non-blank line, byte for byte (only the frontmatter is the client's)."""
    from upskill.clients import render_target
    from upskill.format.directives import has_directives
    from upskill.format.model import Agent

    compared = 0
    for case in CASES:
        for directory in sorted(p for p in (case / "input").iterdir() if p.is_dir()):
            for item in load_item_dir(directory):
                for client in CLIENTS:
                    target = render_target(client)
                    source = item.overrides.get(target, item.body)
                    if (
                        has_directives(source)
                        or item.resources
                        or (isinstance(item, Agent) and item.preload_skills)
                    ):
                        continue
                    files = render_item(item, client).files
                    if not files or not files[0].path.endswith((".md", ".mdc")):
                        continue
                    text = bytes(files[0].data).decode()
                    body = (
                        text.split("---\n", 2)[2].removeprefix("\n")
                        if text.startswith("---\n")
                        else text
                    )
                    assert body == source.lstrip("\n"), (case.name, client, files[0].path)
                    compared += 1
    assert compared > 50


def test_goldens_pass_markdownlint_when_their_sources_do(markdownlint, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every golden entrypoint of a case whose sources pass the project's markdownlint
    configuration passes it too: bodies are delivered verbatim, so a source's own
    findings (skill-directives writes double blank lines on purpose) are its
    author's, but directive removal, link rewriting and frontmatter add none. A
    Cursor `.mdc` rule is linted by its body: its frontmatter is MDC, not YAML."""
    clean = [c for c in CASES if not markdownlint(sorted((c / "input").rglob("*.md")))]
    assert len(clean) >= len(CASES) - 1
    paths = []
    for index, path in enumerate(_entrypoints(clean)):
        if path.suffix == ".mdc":
            copy = tmp_path / f"{index}-{path.stem}.md"
            copy.write_text(path.read_text().split("---\n", 2)[2].lstrip("\n"))
            path = copy
        paths.append(path)
    assert markdownlint(paths) == []


def test_markdownlint_configuration_reports_violations(markdownlint, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The gate above can fail: a heading without its space (MD018) is reported."""
    bad = tmp_path / "bad.md"
    bad.write_text("---\nname: x\n---\n\n#Heading\n")
    assert any("MD018" in failure for failure in markdownlint([bad]))
