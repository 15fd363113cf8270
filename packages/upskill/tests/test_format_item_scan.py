"""Item directories are loaded from one listing per directory, exactly as probing did.

`load_item_dir` and `scan_files` read what exists from scandir (entry types
from the listing, no stat per entry). These tests pin that the result is the
same as the per-path probing loader (`_load_probing`) and the stat-per-entry
walk it replaced (`reference_scan`, kept here as the oracle): same items,
resources and modes, and the same first error, message for message.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from upskill_testing import write_tree as write

from upskill.errors import FormatError
from upskill.format import discover
from upskill.format.discover import _visible_dirs
from upskill.format.items import _load_probing, load_item_dir, read_text
from upskill.format.model import BaseItem, Item
from upskill.format.resources import (
    VCS_DIR,
    ItemFiles,
    _inside,
    collect_resources,
    scan_files,
)

RULE = "---\ndescription: d\n---\n\nRule body.\n"
SKILL = "---\ndescription: s\n---\n\nSkill body.\n"
AGENT = "---\ndescription: a\nignore: [vendor/]\n---\n\nAgent body.\n"


def reference_scan(directory: Path) -> ItemFiles:
    """The stat-per-entry os.walk scan that `scan_files` replaced (the oracle)."""
    root = directory.resolve()
    found: list[tuple[str, Path]] = []
    escaping: list[tuple[str, Path, Path]] = []
    for current, dirnames, filenames in os.walk(directory, followlinks=False):
        base = Path(current)
        dirnames[:] = sorted(d for d in dirnames if d != VCS_DIR)
        for name in sorted(dirnames + [f for f in filenames if f != VCS_DIR]):
            full = base / name
            relative = full.relative_to(directory).as_posix()
            if not full.is_symlink():
                if name in filenames:
                    found.append((relative, full))
                continue
            target = full.resolve()
            if not _inside(target, root):
                escaping.append((relative, full, target))
        dirnames[:] = [d for d in dirnames if not (base / d).is_symlink()]
    found.sort()
    return ItemFiles(tuple(found), tuple(escaping))


@pytest.fixture
def permissions_bind(tmp_path: Path) -> None:
    """Skip unless a mode-0 file is really unreadable (not as root with DAC override)."""
    probe = tmp_path / "probe"
    probe.write_text("p")
    probe.chmod(0)
    try:
        probe.read_bytes()
    except PermissionError:
        return
    finally:
        probe.chmod(0o644)
    pytest.skip("permissions do not bind this user")


def outcome(load: Callable[[Path], tuple[Item, ...]], directory: Path) -> object:
    """Items, or the error as (type, text, path, line): comparable across loaders."""
    try:
        return load(directory)
    except FormatError as exc:
        return ("FormatError", str(exc), exc.path, exc.line)
    except (OSError, RuntimeError) as exc:
        return (type(exc).__name__, str(exc))


def comparable(result: object) -> object:
    """Items compare by identity (eq=False): compare their fields instead."""
    if isinstance(result, tuple) and result and isinstance(result[0], BaseItem):
        return [
            (type(i).__name__, {f.name: getattr(i, f.name) for f in dataclasses.fields(i)})
            for i in result
        ]
    return result


def assert_same_as_probing(directory: Path) -> object:
    fast = outcome(load_item_dir, directory)
    assert comparable(fast) == comparable(outcome(_load_probing, directory))
    if isinstance(fast, tuple) and fast and isinstance(fast[0], str):
        return fast
    files = scan_files(directory)
    reference = reference_scan(directory)
    assert (files.files, files.escaping) == (reference.files, reference.escaping)
    return fast


def load_error(directory: Path) -> str:
    with pytest.raises(FormatError) as excinfo:
        load_item_dir(directory)
    assert outcome(_load_probing, directory) == (
        "FormatError",
        str(excinfo.value),
        excinfo.value.path,
        excinfo.value.line,
    )
    return str(excinfo.value)


def varied_tree(item: Path, outside: Path) -> None:
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret").write_text("s")
    write(
        item,
        {
            "RULE.md": RULE,
            "SKILL.md": SKILL,
            "AGENT.md": AGENT,
            "RULE.claude.md": "Claude rule body.\n",
            "SKILL.opencode.md": "OpenCode skill body.\n",
            "AGENT.copilot.md": "Copilot agent body.\n",
            "RULE.other.md": "not an override: a resource\n",
            "a-b.md": "sorts before a/",
            "a/z.md": "z",
            "a/b/c.md": "c",
            "a/.git/config": "vcs",
            "a/.hidden": "hidden files are resources",
            "bin/run.sh": "#!/bin/sh\n",
            "data.bin": b"\x00\xff\x00",
            "vendor/lib.md": "ignored by the agent only",
            "empty/.keep": "",
        },
    )
    (item / ".git").write_text("gitdir: ../.git/worktrees/x\n")
    (item / "bin" / "run.sh").chmod(0o755)
    (item / "alias.md").symlink_to(item / "a" / "z.md")
    (item / "a" / "up").symlink_to(item / "bin")
    (item / "vendor" / "leak").symlink_to(outside / "secret")
    (item / "dangling").symlink_to(item / "missing")


def test_varied_tree_matches_probing_field_by_field(tmp_path: Path) -> None:
    item = tmp_path / "item"
    varied_tree(item, tmp_path / "outside")
    (item / "vendor" / "leak").unlink()  # the rule and skill do not ignore vendor/
    rule, skill, agent = assert_same_as_probing(item)  # type: ignore[misc]
    assert [i.kind.name for i in (rule, skill, agent)] == ["RULE", "SKILL", "AGENT"]
    assert rule.overrides == {"claude": "Claude rule body.\n"}
    assert skill.overrides == {"opencode": "OpenCode skill body.\n"}
    assert agent.overrides == {"copilot": "Copilot agent body.\n"}
    umask = os.umask(0)
    os.umask(umask)
    mode = 0o666 & ~umask
    expected = [
        ("RULE.other.md", b"not an override: a resource\n", mode),
        ("a-b.md", b"sorts before a/", mode),
        ("a/.hidden", b"hidden files are resources", mode),
        ("a/b/c.md", b"c", mode),
        ("a/z.md", b"z", mode),
        ("bin/run.sh", b"#!/bin/sh\n", 0o755),
        ("data.bin", b"\x00\xff\x00", mode),
        ("empty/.keep", b"", mode),
        ("vendor/lib.md", b"ignored by the agent only", mode),
    ]
    assert [(r.path, r.data, r.mode) for r in rule.resources] == expected
    assert [r.path for r in agent.resources] == [p for p, _, _ in expected[:-1]]
    assert rule.resources == skill.resources


def test_escaping_symlink_error_is_the_first_in_walk_order(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE, "a/c/x.md": "x", "b/y.md": "y"})
    (tmp_path / "secret").write_text("s")
    for link in ("a/c/leak", "b/leak", "a/leak"):
        (item / link).symlink_to(tmp_path / "secret")
    (item / "z-leak").symlink_to(tmp_path)
    # Pre-order, a directory's own entries before its subdirectories' (os.walk order).
    assert load_error(item) == (
        f"{item}/z-leak: symlink leaves the item directory (points to {tmp_path})"
    )
    secret = tmp_path / "secret"
    assert scan_files(item).escaping == (
        ("z-leak", item / "z-leak", tmp_path),
        ("a/leak", item / "a" / "leak", secret),
        ("a/c/leak", item / "a" / "c" / "leak", secret),
        ("b/leak", item / "b" / "leak", secret),
    )
    (item / "z-leak").unlink()
    assert load_error(item) == (
        f"{item}/a/leak: symlink leaves the item directory (points to {secret})"
    )


def test_ignored_escaping_symlink_in_varied_tree(tmp_path: Path) -> None:
    item = tmp_path / "item"
    varied_tree(item, tmp_path / "outside")
    assert assert_same_as_probing(item) == (
        "FormatError",
        f"{item}/vendor/leak: symlink leaves the item directory "
        f"(points to {tmp_path / 'outside' / 'secret'})",
        item / "vendor" / "leak",
        None,
    )


def test_symlinked_second_entrypoint_fails_after_the_first_parses(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE, "real.md": SKILL})
    (item / "SKILL.md").symlink_to(item / "real.md")
    assert load_error(item) == f"{item}/SKILL.md: must be a regular file, not a symlink"
    (item / "RULE.md").write_text("---\ndescription: 12\n---\n")
    assert load_error(item) == (f"{item}/RULE.md:2: 'description' must be a string, got an integer")


def test_symlinked_first_entrypoint_even_when_dangling(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"SKILL.md": SKILL})
    (item / "RULE.md").symlink_to(item / "missing.md")
    assert load_error(item) == f"{item}/RULE.md: must be a regular file, not a symlink"


@pytest.mark.parametrize("target", ["inside", "dangling"])
def test_symlinked_override_file(tmp_path: Path, target: str) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE, "body.md": "b\n"})
    (item / "RULE.copilot.md").symlink_to(item / ("body.md" if target == "inside" else "no"))
    assert load_error(item) == f"{item}/RULE.copilot.md: must be a regular file, not a symlink"


def test_override_that_is_a_directory_cannot_be_read(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"SKILL.md": SKILL, "SKILL.claude.md/x": "x"})
    assert load_error(item) == f"{item}/SKILL.claude.md: cannot read: Is a directory"


def test_override_with_frontmatter(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"AGENT.md": AGENT, "AGENT.opencode.md": RULE})
    assert load_error(item) == (
        f"{item}/AGENT.opencode.md:1: override files contain body only; frontmatter comes "
        "from AGENT.md (remove the '---' block)"
    )


def test_entrypoint_directory_and_its_content(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md/inner.md": "i"})
    assert load_error(item) == f"{item}/RULE.md: cannot read: Is a directory"
    assert scan_files(item).files == (("RULE.md/inner.md", item / "RULE.md" / "inner.md"),)


def test_not_an_item_directory(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert load_error(tmp_path / "file") == f"{tmp_path}/file: not an item directory"
    assert load_error(tmp_path / "none") == f"{tmp_path}/none: not an item directory"


def test_no_entrypoint_only_git_pointer(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {".git": "gitdir: x\n", "README.md": "r"})
    assert load_error(item) == (
        f"{item}: no entrypoint (RULE.md, SKILL.md or AGENT.md) in item directory"
    )


def test_git_pointer_file_and_git_dirs_are_not_resources(tmp_path: Path) -> None:
    item = write(
        tmp_path / "item",
        {"RULE.md": RULE, ".git": "gitdir: ../x\n", "sub/.git/HEAD": "ref", "sub/k.md": "k"},
    )
    (rule,) = assert_same_as_probing(item)  # type: ignore[misc]
    assert [r.path for r in rule.resources] == ["sub/k.md"]


def test_item_directory_reached_through_a_symlink(tmp_path: Path) -> None:
    real = write(tmp_path / "real", {"RULE.md": RULE, "a.md": "a"})
    (real / "self").symlink_to(real)
    (tmp_path / "via").symlink_to(real)
    (rule,) = assert_same_as_probing(tmp_path / "via")  # type: ignore[misc]
    assert rule.entrypoint == tmp_path / "via" / "RULE.md"
    assert [(r.path, r.data) for r in rule.resources] == [("a.md", b"a")]


def test_symlink_loop_inside_the_item_is_the_same_runtime_error(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE})
    (item / "loop-a").symlink_to(item / "loop-b")
    (item / "loop-b").symlink_to(item / "loop-a")
    assert assert_same_as_probing(item) == (
        "RuntimeError",
        f"Symlink loop from '{item / 'loop-a'}'",
    )


def test_fifo_resource_is_skipped_without_opening_it(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    item = write(tmp_path / "item", {"RULE.md": RULE, "z.md": "z"})
    os.mkfifo(item / "pipe")
    (rule,) = assert_same_as_probing(item)  # type: ignore[misc]
    assert [r.path for r in rule.resources] == ["z.md"]


def test_too_large_resource(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"SKILL.md": SKILL})
    with (item / "big.bin").open("wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)
    assert load_error(item) == (
        f"{item}/big.bin: resource is too large (67108865 bytes, limit 67108864)"
    )


def test_names_differing_from_reserved_only_by_case(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE, "rule.claude.md": "r\n"})
    (rule,) = assert_same_as_probing(item)  # type: ignore[misc]
    if (item / "RULE.claude.md").exists():  # case-insensitive file system
        assert rule.overrides == {"claude": "r\n"}
    else:
        assert rule.overrides == {}
        assert [r.path for r in rule.resources] == ["rule.claude.md"]


def test_collect_resources_without_listing_types_stats_each_file(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE, "a.md": "a", "b/c.md": "c"})
    files = scan_files(item)
    assert files.regular == frozenset({"RULE.md", "a.md", "b/c.md"})
    assert files.top_names == frozenset({"RULE.md", "a.md", "b"})
    bare = ItemFiles(files.files, files.escaping)
    assert collect_resources(bare, ()) == collect_resources(files, ())
    assert [r.path for r in collect_resources(files, ())] == ["a.md", "b/c.md"]


def test_read_text_errors_unchanged(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_bytes(b"ok\nok\n\xff\n")
    (tmp_path / "big.md").write_bytes(b"x" * 11)
    (tmp_path / "crlf.md").write_bytes(b"a\r\nb\r\n")
    (tmp_path / "link.md").symlink_to(tmp_path / "crlf.md")
    cases = {
        "bad.md": "bad.md:3: file is not valid UTF-8",
        "big.md": "big.md: file is too large (11 bytes, limit 10)",
        "link.md": "link.md: must be a regular file, not a symlink",
        "none.md": "none.md: cannot read: No such file or directory",
    }
    for name, message in cases.items():
        with pytest.raises(FormatError) as excinfo:
            read_text(tmp_path / name, limit=10)
        assert str(excinfo.value) == f"{tmp_path}/{message}"
    assert read_text(tmp_path / "crlf.md") == "a\nb\n"


@pytest.mark.usefixtures("permissions_bind")
def test_unreadable_entrypoint_and_resource(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE, "res.md": "r"})
    (item / "res.md").chmod(0)
    assert assert_same_as_probing(item) == (
        "PermissionError",
        f"[Errno 13] Permission denied: '{item / 'res.md'}'",
    )
    (item / "RULE.md").chmod(0)
    assert load_error(item) == f"{item}/RULE.md: cannot read: Permission denied"


@pytest.mark.usefixtures("permissions_bind")
@pytest.mark.parametrize("where", [".", "sub"])
def test_listable_but_not_searchable_directory(tmp_path: Path, where: str) -> None:
    # An invalid entrypoint too: probing fails on the directory before parsing.
    item = write(tmp_path / "item", {"RULE.md": "---\ndescription: 1\n---\n", "sub/a.md": "a"})
    directory = item / where
    directory.chmod(stat.S_IRUSR | stat.S_IWUSR)
    try:
        result = outcome(load_item_dir, item)
        assert comparable(result) == comparable(outcome(_load_probing, item))
        denied = item / ("RULE.md" if where == "." else "sub/a.md")
        assert result == ("PermissionError", f"[Errno 13] Permission denied: '{denied}'")
    finally:
        directory.chmod(0o755)


@pytest.mark.usefixtures("permissions_bind")
def test_unlistable_subdirectory_is_skipped(tmp_path: Path) -> None:
    item = write(tmp_path / "item", {"RULE.md": RULE, "sub/a.md": "a", "b.md": "b"})
    (item / "sub").chmod(stat.S_IXUSR)
    try:
        (rule,) = assert_same_as_probing(item)  # type: ignore[misc]
        assert [r.path for r in rule.resources] == ["b.md"]
    finally:
        (item / "sub").chmod(0o755)


def reference_visible_dirs(directory: Path) -> list[Path]:
    """The stat-per-entry `_visible_dirs` that scandir replaced (the oracle)."""
    return [
        e
        for e in sorted(directory.iterdir())
        if e.is_dir() and not e.is_symlink() and not e.name.startswith(".")
    ]


def test_visible_dirs_skip_hidden_symlinked_and_files(tmp_path: Path) -> None:
    write(tmp_path, {"b/RULE.md": RULE, "a-x/SKILL.md": SKILL, ".h/RULE.md": RULE, "f": "f"})
    (tmp_path / "a").mkdir()
    (tmp_path / "c-link").symlink_to(tmp_path / "b")
    (tmp_path / "d-dangling").symlink_to(tmp_path / "none")
    assert _visible_dirs(tmp_path) == [tmp_path / "a", tmp_path / "a-x", tmp_path / "b"]
    assert _visible_dirs(tmp_path) == reference_visible_dirs(tmp_path)
    assert [i.directory.name for i in discover(tmp_path).items] == ["a-x", "b"]


def test_visible_dirs_of_a_file_is_a_format_error(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("f")
    with pytest.raises(FormatError) as excinfo:
        _visible_dirs(tmp_path / "f")
    assert str(excinfo.value) == f"{tmp_path}/f: cannot list directory: Not a directory"


@pytest.mark.usefixtures("permissions_bind")
def test_visible_dirs_of_an_unsearchable_directory(tmp_path: Path) -> None:
    write(tmp_path / "root", {"b/RULE.md": RULE, ".a": "hidden file first"})
    (tmp_path / "root").chmod(stat.S_IRUSR | stat.S_IWUSR)
    try:
        with pytest.raises(PermissionError) as fast:
            _visible_dirs(tmp_path / "root")
        with pytest.raises(PermissionError) as reference:
            reference_visible_dirs(tmp_path / "root")
        assert str(fast.value) == str(reference.value)
        assert str(fast.value) == f"[Errno 13] Permission denied: '{tmp_path}/root/.a'"
    finally:
        (tmp_path / "root").chmod(0o755)


PERMISSION_TESTS = (
    "test_unreadable_entrypoint_and_resource",
    "test_listable_but_not_searchable_directory",
    "test_unlistable_subdirectory_is_skipped",
    "test_visible_dirs_of_an_unsearchable_directory",
)


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="only root skips the permission tests, and setpriv can take its overrides away",
)
def test_permission_cases_also_run_as_root_without_its_overrides() -> None:
    """Root reads mode-0 files, so CI (which runs as root) would skip the tests above:
    run them again with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH out of the bounding set."""
    repo = Path(__file__).resolve().parents[3]
    out = subprocess.run(
        [
            "setpriv",
            "--bounding-set",
            "-dac_override,-dac_read_search",
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(Path(__file__).resolve()),
            "-k",
            " or ".join(PERMISSION_TESTS),
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "5 passed" in out.stdout and "skipped" not in out.stdout, out.stdout
