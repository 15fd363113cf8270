"""One test per deliberate deviation from the Rust reference (README, "Deliberate
deviations"), plus the parity rules issue #20 asked for (items 1, 4 and 5)."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from cmx_core import (
    BundledSkill,
    FileFormatError,
    InvalidInputError,
    Scope,
    SkillFile,
    ToolIdentity,
    UnsafePathError,
)
from cmx_core._checksum import checksum_dir, checksum_pairs
from cmx_core._lockfile import load_lockfile

README = Path(__file__).resolve().parents[1] / "README.md"
EXTRA = Path(__file__).resolve().parents[3] / "conformance" / "cmx-core-extra"
SKILL = "---\nname: sample\n---\n# Sample\n"


def _readme_ids() -> set[str]:
    section = README.read_text(encoding="utf-8").split("## Deliberate deviations", 1)[1]
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", section.split("\n## ", 1)[0], re.MULTILINE))


def test_every_fixture_deviation_is_documented() -> None:
    used = {
        case["expected"]["deviation"]
        for manifest in EXTRA.glob("*/manifest.json")
        for case in json.loads(manifest.read_text(encoding="utf-8"))["cases"]
        if "deviation" in case["expected"]
    }
    assert used, "the fixtures record no deviation at all"
    assert used <= _readme_ids()


def test_every_documented_deviation_has_a_test_here() -> None:
    names = {n for n in globals() if n.startswith("test_")}
    for ident in _readme_ids():
        assert f"test_deviation_{ident.replace('-', '_')}" in names, ident


# --- deviations -----------------------------------------------------------------------


def test_deviation_symlink_leaves_tree(tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("secret")
    tree = tmp_path / "skill"
    tree.mkdir()
    (tree / "SKILL.md").write_text(SKILL)
    (tree / "leak.txt").symlink_to("../outside.txt")
    with pytest.raises(UnsafePathError, match="outside"):
        checksum_dir(tree)
    with pytest.raises(UnsafePathError, match="outside"):
        BundledSkill.from_directory(tree)


def test_deviation_format_version_1_only(machine: Any) -> None:
    machine.config_root.mkdir(parents=True)
    lock = machine.config_root / "cmx-lock.json"
    lock.write_text('{"version": 2, "packages": {}}')
    with pytest.raises(FileFormatError, match="unsupported lockfile version 2"):
        load_lockfile(lock)
    lock.unlink()
    (machine.config_root / "config.json").write_text('{"version": 2}')
    bundle = BundledSkill.single_md(SKILL)
    with pytest.raises(FileFormatError, match="config version 2"):
        machine.installer().plan(bundle, Scope.GLOBAL)


def test_deviation_special_files_refused(tmp_path: Path) -> None:
    tree = tmp_path / "skill"
    tree.mkdir()
    (tree / "SKILL.md").write_text(SKILL)
    os.mkfifo(tree / "pipe")
    with pytest.raises(UnsafePathError, match="not a regular file"):
        BundledSkill.from_directory(tree)


@pytest.mark.parametrize("name", ["../x", ".hidden", "a/b", " padded", ""])
def test_deviation_identity_validated(name: str) -> None:
    with pytest.raises(InvalidInputError):
        ToolIdentity(name, "1.0.0")
    with pytest.raises(InvalidInputError):
        ToolIdentity("ok", '1.0"')


@pytest.mark.parametrize("path", ["../x", "/abs", "a//b", "a/./b", "a/"])
def test_deviation_bundle_paths_validated(path: str) -> None:
    with pytest.raises(InvalidInputError):
        SkillFile.text(path, "x")


def test_deviation_config_home_tilde(machine: Any) -> None:
    machine.config_root.mkdir(parents=True)
    config = {"version": 1, "platforms": ["claude"], "home": "~/agent-home"}
    (machine.config_root / "config.json").write_text(json.dumps(config))
    bundle = BundledSkill.single_md(SKILL)
    installer = machine.installer()
    installer.apply(bundle, installer.plan(bundle, Scope.GLOBAL))
    assert (machine.home / "agent-home" / "skills" / "sample" / "SKILL.md").is_file()


def test_deviation_lossy_name_ties_by_raw_bytes(tmp_path: Path) -> None:
    tree = tmp_path / "skill"
    tree.mkdir()
    (tree / os.fsdecode(b"a\xff")).write_bytes(b"1")
    (tree / os.fsdecode(b"a\xfe")).write_bytes(b"2")
    low, high = os.fsdecode(b"a\xfe"), os.fsdecode(b"a\xff")
    assert checksum_dir(tree) == checksum_pairs([(high, b"1"), (low, b"2")])
    digest = hashlib.sha256("a\ufffd".encode() + b"2" + "a\ufffd".encode() + b"1").hexdigest()
    assert checksum_dir(tree) == f"sha256:{digest}"


def test_deviation_sources_json_kept_when_registered(machine: Any) -> None:
    machine.config_root.mkdir(parents=True)
    (machine.config_root / "config.json").write_text('{"version": 1, "platforms": ["claude"]}')
    sources = machine.config_root / "sources.json"
    entry = '{"type": "local", "path": "/x", "pin": 1}'
    original = '{"version": 1, "sources": {"bundled:sample": ' + entry + "}}"
    sources.write_text(original)
    bundle = BundledSkill.single_md(SKILL)
    installer = machine.installer()
    report = installer.apply(bundle, installer.plan(bundle, Scope.GLOBAL))
    assert report.source_registered
    assert sources.read_text() == original
    # Issue #20 item 1: the home copy is still written although the entry existed.
    home_copy = machine.config_root / "home" / "skills" / "sample" / "SKILL.md"
    assert home_copy.is_file()


# --- parity rules (issue #20 items 1, 4, 5) ---------------------------------------------


def _tree_with_symlinked_dir(root: Path) -> Path:
    tree = root / "bundle"
    (tree / "real").mkdir(parents=True)
    (tree / "SKILL.md").write_text(SKILL)
    (tree / "real" / "x.md").write_text("x")
    (tree / "alias").symlink_to("real")
    (tree / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"latin-1 name")
    return tree


def test_bundle_checksum_equals_checksum_of_what_was_written(machine: Any, tmp_path: Path) -> None:
    bundle = BundledSkill.from_directory(_tree_with_symlinked_dir(tmp_path))
    assert {f.rel_path for f in bundle.files} >= {"alias/x.md", "real/x.md"}
    installer = machine.installer()
    plan = installer.plan(bundle, Scope.GLOBAL)
    installer.apply(bundle, plan)
    written = plan.targets[0].dest_dir
    assert checksum_dir(written) == plan.source_checksum
    assert (written / os.fsdecode(b"caf\xe9.txt")).read_bytes() == b"latin-1 name"
    assert not installer.status(Scope.GLOBAL).any_drifted


def test_dangling_symlink_in_a_bundle_is_refused_before_any_write(
    machine: Any, tmp_path: Path
) -> None:
    tree = _tree_with_symlinked_dir(tmp_path)
    (tree / "gone").symlink_to("missing")
    before = machine.files()
    with pytest.raises(UnsafePathError, match="dangling symlink"):
        BundledSkill.from_directory(tree)
    assert machine.files() == before


def test_dangling_symlink_in_an_installed_skill_fails_the_plan(machine: Any) -> None:
    bundle = BundledSkill.single_md(SKILL)
    installer = machine.installer()
    installer.apply(bundle, installer.plan(bundle, Scope.GLOBAL))
    dest = installer.plan(bundle, Scope.GLOBAL).targets[0].dest_dir
    (dest / "gone").symlink_to("missing")
    with pytest.raises(UnsafePathError, match="dangling symlink"):
        installer.plan(bundle, Scope.GLOBAL)
