"""§5 checksum: filter, ordering, and in-memory vs on-disk identity."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cmx_core._bundle import BundledSkill, SkillFile
from cmx_core._checksum import canonical_order, checksum_dir, checksum_pairs, is_canonical
from cmx_core._errors import UnsafePathError
from cmx_core._treewriter import commit_trees, stage_tree


def test_hash_is_path_then_content_without_separators() -> None:
    expected = hashlib.sha256(b"a" + b"bare\n" + b"a.b" + b"dotted\n" + b"a/b" + b"nested\n")
    pairs = [("a/b", b"nested\n"), ("a.b", b"dotted\n"), ("a", b"bare\n")]
    assert checksum_pairs(pairs) == "sha256:" + expected.hexdigest()


@pytest.mark.parametrize(
    ("path", "canonical"),
    [
        ("SKILL.md", True),
        ("scripts/tool.py", True),
        (".env", False),
        ("scripts/.hidden", False),
        (".github/workflow.yml", False),
        ("node_modules/x.js", False),
        ("a/__pycache__/m.txt", False),
        ("a/.git/config", False),
        (".DS_Store", False),
        ("x.PYC", False),
        ("x.pyc.txt", True),
        ("pyc", True),
    ],
)
def test_canonical_filter(path: str, canonical: bool) -> None:
    assert is_canonical(path) is canonical


def test_string_sort_puts_dot_before_slash() -> None:
    assert canonical_order(["a/b", "a.b", "a", "B", "é"]) == ["B", "a", "a.b", "a/b", "é"]


def test_on_disk_walk_skips_excluded_and_matches_memory(tmp_path: Path) -> None:
    files = [
        SkillFile.text("SKILL.md", "# s\n"),
        SkillFile.text("scripts/.env", "SECRET=${TOKEN}\n"),
        SkillFile.text("node_modules/pkg/index.js", "x"),
        SkillFile.text("docs/a.b", "1"),
        SkillFile.text("docs/a/b", "2"),
    ]
    commit_trees([stage_tree(tmp_path / "skill", files)])
    assert (tmp_path / "skill/scripts/.env").read_text() == "SECRET=${TOKEN}\n"
    assert checksum_dir(tmp_path / "skill") == checksum_pairs((f.rel_path, f.data) for f in files)


def test_symlink_leaving_the_skill_dir_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    skill = tmp_path / "skill"
    skill.mkdir()
    (skill / "SKILL.md").write_text("# s\n")
    os.symlink(outside, skill / "leak.md")
    with pytest.raises(UnsafePathError, match=r"leak\.md: symlink points outside"):
        checksum_dir(skill)


def test_symlink_inside_the_skill_dir_is_hashed_as_content(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    skill.mkdir()
    (skill / "SKILL.md").write_text("# s\n")
    os.symlink(skill / "SKILL.md", skill / "alias.md")
    assert checksum_dir(skill) == checksum_pairs([("SKILL.md", b"# s\n"), ("alias.md", b"# s\n")])


_component = st.text(alphabet=st.sampled_from("abcXYZ._-é1"), min_size=1, max_size=6).filter(
    lambda c: c not in (".", "..")
)
_paths = st.lists(_component, min_size=1, max_size=3).map("/".join)


@st.composite
def _bundles(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    paths = draw(st.lists(_paths, min_size=1, max_size=8, unique=True))
    # A path cannot be both a file and a directory on disk.
    paths = [p for p in paths if not any(q.startswith(p + "/") for q in paths)]
    return [(p, draw(st.binary(max_size=64))) for p in paths]


@given(_bundles(), st.randoms(use_true_random=False))
def test_checksum_ignores_input_order(pairs: list[tuple[str, bytes]], rnd: object) -> None:
    shuffled = list(pairs)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert checksum_pairs(shuffled) == checksum_pairs(pairs)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_bundles())
def test_in_memory_checksum_equals_on_disk(tmp_path: Path, pairs: list[tuple[str, bytes]]) -> None:
    dest = tmp_path / f"skill-{abs(hash(tuple(pairs)))}"
    bundle = BundledSkill.from_files(SkillFile.binary(p, d) for p, d in pairs)
    commit_trees([stage_tree(dest, bundle.files)])
    assert checksum_dir(dest) == checksum_pairs(pairs)


def test_symlink_cycle_inside_the_tree_is_refused(tmp_path: Path) -> None:
    """The reference fails on a loop (ELOOP once 40 links deep, checksum-tree/
    symlink-dir-cycle-nested); ctxkit stops at the first repeat with a typed error."""
    skill = tmp_path / "skill"
    (skill / "sub").mkdir(parents=True)
    (skill / "sub/a.md").write_text("a")
    os.symlink(skill, skill / "sub/loop")
    with pytest.raises(UnsafePathError, match="symlink loop"):
        checksum_dir(skill)


def test_symlinked_sibling_directory_counts_under_both_names(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    (skill / "docs").mkdir(parents=True)
    (skill / "docs/a.md").write_text("a")
    os.symlink(skill / "docs", skill / "alias")
    expected = checksum_pairs([("alias/a.md", b"a"), ("docs/a.md", b"a")])
    assert checksum_dir(skill) == expected
