"""The lean filesystem primitives under apply: directory checks, observation, hashing,
staged writes and the fast-path state they feed. Each keeps the safety rule of the
straightforward version it replaced (checked here) while examining less of the disk."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upskill import fsio
from upskill.lifecycle import fsops, journal
from upskill.lifecycle.fastpath import state_file
from upskill.lifecycle.fsops import ScopeDirs, UnsafePath
from upskill.lifecycle.hashing import NOT_REGULAR, file_digest, probe, tree_hash
from upskill.lifecycle.journal import (
    JournalError,
    Transaction,
    Write,
    apply_transaction,
    recover,
)
from upskill.lifecycle.observe import FOREIGN, Observer


def _write_journal(
    root: Path, ops: list[dict[str, object]], *, lockfile: str | None = None
) -> Path:
    """A journal as `apply_transaction` commits it, for the run staged in `root`: in the
    state directory `root/st`, naming the staging directory and each staged file's sha256
    (of what is staged now; an op whose file was already moved gets any digest)."""
    staging = root / ".upskill" / "txn"
    for op in ops:
        staged = staging / str(op.get("staged", "-"))
        if "sha256" not in op:
            data = staged.read_bytes() if staged.is_file() else b"moved"
            op["sha256"] = hashlib.sha256(data).hexdigest()
    seen = os.lstat(staging)
    record: dict[str, object] = {
        "version": 2,
        "root": os.path.realpath(root),
        "staging": [seen.st_dev, seen.st_ino],
        "ops": ops,
        "lockfile": lockfile,
    }
    if lockfile is not None:
        record["lockfile_sha256"] = hashlib.sha256((staging / lockfile).read_bytes()).hexdigest()
    (root / "st").mkdir(mode=0o700, exist_ok=True)
    journal_file = root / "st" / "journal.json"
    journal_file.write_text(json.dumps(record))
    return journal_file


def _spy(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """Record the paths `fsops` passes to `os.<name>`."""
    calls: list[str] = []
    real = getattr(os, name)

    def spy(path, *args, **kw):  # type: ignore[no-untyped-def]
        calls.append(str(path))
        return real(path, *args, **kw)

    monkeypatch.setattr(fsops.os, name, spy)
    return calls


def test_missing_tree_costs_one_lstat_and_each_directory_is_made_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _spy(monkeypatch, "lstat")
    made = _spy(monkeypatch, "mkdir")
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        dirs = ScopeDirs(tmp_path, fd)
        rels = [f".claude/skills/s{i}/SKILL.md" for i in range(50)] + [".claude/rules/r.md"]
        for rel in rels:
            assert dirs.check_parent(rel) is False
        for rel in rels:
            dirs.make_parent(rel)
    finally:
        os.close(fd)
    assert calls == [".claude"]  # everything below a missing directory is known missing
    assert sorted(made) == sorted(
        [".claude", ".claude/skills", ".claude/rules"] + [f".claude/skills/s{i}" for i in range(50)]
    )
    assert all((tmp_path / rel).parent.is_dir() for rel in rels)


def test_existing_directories_are_examined_once_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".github/instructions").mkdir(parents=True)
    calls = _spy(monkeypatch, "lstat")
    dirs = ScopeDirs(tmp_path)
    for i in range(20):
        assert dirs.check_parent(f".github/instructions/r{i}.md") is True
    assert [Path(c).relative_to(tmp_path).as_posix() for c in calls] == [
        ".github",
        ".github/instructions",
    ]


@pytest.mark.parametrize("fd", [False, True])
def test_symlinked_or_blocked_directories_are_refused(tmp_path: Path, fd: bool) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "skills").symlink_to(outside)
    (root / ".github").write_text("a file\n")
    root_fd = os.open(root, os.O_RDONLY) if fd else None
    try:
        dirs = ScopeDirs(root, root_fd)
        with pytest.raises(UnsafePath) as link:
            dirs.make_parent(".claude/skills/x/SKILL.md")
        assert link.value.path == root / ".claude/skills"
        assert "symlinked directory" in str(link.value)
        with pytest.raises(UnsafePath) as blocked:
            dirs.check_parent(".github/instructions/r.md")
        assert blocked.value.path == root / ".github"
        assert "a file is in the way" in str(blocked.value)
    finally:
        if root_fd is not None:
            os.close(root_fd)
    assert list(outside.iterdir()) == []


def test_a_file_written_where_a_made_directory_goes_is_still_refused(tmp_path: Path) -> None:
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        dirs = ScopeDirs(tmp_path, fd)
        dirs.make_parent("a/b")
        (tmp_path / "a" / "b").write_text("x")  # a file where a later output needs a dir
        with pytest.raises(UnsafePath, match="a file is in the way"):
            dirs.make_parent("a/b/c")
    finally:
        os.close(fd)


def test_observer_classifies_every_kind_of_path(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.md").write_bytes(b"hello\n")
    (tmp_path / "d" / "link.md").symlink_to(tmp_path / "d" / "f.md")
    (tmp_path / "d" / "sub").mkdir()
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "x.md").write_text("x")
    (tmp_path / "via").symlink_to(tmp_path / "real")
    (tmp_path / "blocker").write_text("file")
    os.mkfifo(tmp_path / "d" / "pipe")
    observer = Observer(tmp_path)
    paths = ("d/f.md", "d/link.md", "d/sub", "blocker/y.md", "missing/z.md")
    seen = observer.observe((*paths, "d/no.md", "d/pipe"))
    assert seen == {
        "d/f.md": (hashlib.sha256(b"hello\n").hexdigest(), 6, False),
        "d/link.md": FOREIGN,
        "d/sub": FOREIGN,
        "blocker/y.md": None,
        "missing/z.md": None,
        "d/no.md": None,
        "d/pipe": FOREIGN,  # never opened for a blocking read
    }
    st_ = os.lstat(tmp_path / "d" / "f.md")
    assert list(observer.files) == ["d/f.md"]
    assert (observer.files["d/f.md"].size, observer.files["d/f.md"].mtime_ns) == (
        st_.st_size,
        st_.st_mtime_ns,
    )
    # behind a symlinked directory nothing is read: the run stops and names the link
    with pytest.raises(UnsafePath, match="refusing to use a symlinked directory") as err:
        observer.observe(["via/x.md"])
    assert err.value.path == tmp_path / "via"


def test_file_digest_never_follows_a_final_symlink(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc")
    (tmp_path / "l").symlink_to(tmp_path / "f")
    assert file_digest(tmp_path / "f") == (hashlib.sha256(b"abc").hexdigest(), 3)
    assert file_digest(tmp_path / "l") is None
    assert probe(tmp_path / "l") is NOT_REGULAR
    assert probe(tmp_path) is NOT_REGULAR
    assert probe(tmp_path / "nope") is None


def _tree_hash_reference(directory: Path) -> str | None:
    """The os.walk formulation tree_hash must keep matching (upstream's item hash)."""
    digest = hashlib.sha256()
    files: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if not (Path(dirpath) / d).is_symlink()]
        for name in filenames:
            full = Path(dirpath) / name
            if not full.is_symlink():
                files.append((full.relative_to(directory).as_posix(), full))
    if not files:
        return None
    for rel, full in sorted(files):
        digest.update(rel.encode())
        digest.update(full.read_bytes())
    return digest.hexdigest()


_names = st.sampled_from(["a", "b", "SKILL.md", "z.md", "ref", "Ä.md", "a b"])


@settings(max_examples=40, deadline=None)
@given(
    files=st.dictionaries(
        st.lists(_names, min_size=1, max_size=3).map(tuple), st.binary(max_size=64), max_size=6
    ),
    links=st.booleans(),
)
def test_tree_hash_matches_the_walk_formulation(
    tmp_path_factory: pytest.TempPathFactory, files: dict[tuple[str, ...], bytes], links: bool
) -> None:
    root = tmp_path_factory.mktemp("item")
    for parts, data in files.items():
        target = root.joinpath(*parts)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except (FileExistsError, IsADirectoryError, NotADirectoryError):
            continue  # a generated path collides with a directory or file: skip it
    if links:
        (root / "linked-dir").symlink_to(root)
        (root / "linked-file").symlink_to(root / "nowhere")
    assert tree_hash(root) == _tree_hash_reference(root)


def test_staged_writes_keep_their_mode_under_any_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        st_ = fsio.write_unsynced(tmp_path / "x", b"data", 0o755)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.lstat(tmp_path / "x").st_mode) == 0o755
    assert st_.st_size == 4


def test_apply_reports_what_it_wrote_as_the_disk_has_it(tmp_path: Path) -> None:
    (tmp_path / ".upskill").mkdir()
    txn = Transaction(
        (
            Write(".claude/rules/a.md", b"one\n"),
            Write(".agents/skills/s/SKILL.md", b"two\n", 0o600),
        ),
        (),
        b"{}\n",
    )
    written = apply_transaction(
        tmp_path, tmp_path / ".upskill-lock.json", txn, state=tmp_path / "st"
    )
    for rel in (".claude/rules/a.md", ".agents/skills/s/SKILL.md"):
        st_ = os.lstat(tmp_path / rel)
        assert written[rel] == (st_.st_size, st_.st_mtime_ns)
    assert stat.S_IMODE(os.lstat(tmp_path / ".agents/skills/s/SKILL.md").st_mode) == 0o600
    assert (tmp_path / ".upskill-lock.json").read_bytes() == b"{}\n"
    assert sorted(p.name for p in (tmp_path / ".upskill").iterdir()) == []


def test_a_journal_pointing_outside_the_scope_is_refused(tmp_path: Path) -> None:
    state = tmp_path / ".upskill"
    (state / "txn").mkdir(parents=True)
    (state / "txn" / "0").write_text("evil")
    journal_file = _write_journal(tmp_path, [{"op": "write", "path": "../escaped", "staged": "0"}])
    with pytest.raises(JournalError, match="is not a relative path inside the scope") as err:
        recover(tmp_path, tmp_path / ".upskill-lock.json", state=tmp_path / "st")
    assert err.value.path == journal_file
    assert not (tmp_path.parent / "escaped").exists()


def test_saved_state_holds_the_stat_data_of_every_output(cli, project, registry) -> None:  # type: ignore[no-untyped-def]
    cli.ok("add", str(registry), cwd=project)
    lock = json.loads((project / ".upskill-lock.json").read_text())
    state = json.loads(state_file(cli.home / ".cache" / "upskill", project).read_text())
    expected = {}
    for record in lock["outputs"]:
        st_ = os.lstat(project / record["path"])
        expected[record["path"]] = [st_.st_size, st_.st_mtime_ns, 0]
    assert state["outputs"] == expected
    out = cli.ok("update", cwd=project)
    assert out.stderr == "Already up to date.\n"


def test_replay_does_not_recreate_directories_of_files_already_moved(tmp_path: Path) -> None:
    """A run killed after moving `.claude/skills/gone/SKILL.md`; the user then deleted
    `.claude/`."""
    state = tmp_path / ".upskill"
    (state / "txn").mkdir(parents=True)
    (state / "txn" / "1").write_bytes(b"b\n")
    _write_journal(
        tmp_path,
        [
            {"op": "write", "path": ".claude/skills/gone/SKILL.md", "staged": "0"},
            {"op": "write", "path": ".agents/rules/b/RULE.md", "staged": "1"},
        ],
    )
    assert recover(tmp_path, tmp_path / ".upskill-lock.json", state=tmp_path / "st") is True
    assert not (tmp_path / ".claude").exists()
    assert (tmp_path / ".agents/rules/b/RULE.md").read_bytes() == b"b\n"
    assert sorted(p.name for p in state.iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "st").iterdir()) == []


def _rename_spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Destinations of every rename the journal makes."""
    calls: list[str] = []
    real = os.rename

    def spy(src, dst, *args, **kw):  # type: ignore[no-untyped-def]
        calls.append(str(dst))
        return real(src, dst, *args, **kw)

    monkeypatch.setattr(journal.os, "rename", spy)
    monkeypatch.setattr(fsops.os, "rename", spy)
    return calls


def test_new_directories_move_into_place_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".upskill").mkdir()
    (tmp_path / ".claude").mkdir()
    renames = _rename_spy(monkeypatch)
    txn = Transaction(
        (
            Write(".claude/skills/a/SKILL.md", b"a\n"),
            Write(".claude/skills/b/SKILL.md", b"b\n", 0o600),
            Write(".claude/skills/a/references/r.md", b"r\n"),
            Write(".agents/rules/c/RULE.md", b"c\n"),
            Write("CLAUDE.md", b"top\n"),
        ),
        (),
        b"{}\n",
    )
    written = apply_transaction(
        tmp_path, tmp_path / ".upskill-lock.json", txn, state=tmp_path / "st"
    )
    # one rename per topmost missing directory, one per file in an existing one
    assert renames == [
        ".claude/skills",
        ".agents",
        "CLAUDE.md",
        str(tmp_path / ".upskill-lock.json"),
    ]
    for w in txn.writes:
        st_ = os.lstat(tmp_path / w.path)
        assert (tmp_path / w.path).read_bytes() == w.data
        assert stat.S_IMODE(st_.st_mode) == w.mode
        assert written[w.path] == (st_.st_size, st_.st_mtime_ns)
    assert sorted(p.name for p in (tmp_path / ".upskill").iterdir()) == []


def test_a_directory_appearing_before_the_move_is_filled_file_by_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone creates `.agents/` (with a file of their own) between staging and the move."""
    (tmp_path / ".upskill").mkdir()
    real = journal.atomic_write

    def commit_then_interfere(path: Path, data: bytes, mode: int = 0o644) -> None:
        real(path, data, mode)
        (tmp_path / ".agents/skills").mkdir(parents=True)
        (tmp_path / ".agents/skills/mine.md").write_bytes(b"mine\n")

    monkeypatch.setattr(journal, "atomic_write", commit_then_interfere)
    txn = Transaction(
        (Write(".agents/skills/s/SKILL.md", b"s\n"), Write(".agents/rules/r/RULE.md", b"r\n")),
        (),
        None,
    )
    apply_transaction(tmp_path, tmp_path / ".upskill-lock.json", txn, state=tmp_path / "st")
    assert (tmp_path / ".agents/skills/mine.md").read_bytes() == b"mine\n"
    assert (tmp_path / ".agents/skills/s/SKILL.md").read_bytes() == b"s\n"
    assert (tmp_path / ".agents/rules/r/RULE.md").read_bytes() == b"r\n"
    assert sorted(p.name for p in (tmp_path / ".upskill").iterdir()) == []


def test_replay_moves_what_is_left_of_a_staged_tree(tmp_path: Path) -> None:
    """Killed after `.claude` was moved whole, before `.github`."""
    state = tmp_path / ".upskill"
    (state / "txn/tree/.github/skills/s").mkdir(parents=True)
    (state / "txn/tree/.github/skills/s/SKILL.md").write_bytes(b"g\n")
    (tmp_path / ".claude/skills/s").mkdir(parents=True)
    (tmp_path / ".claude/skills/s/SKILL.md").write_bytes(b"c\n")
    ops: list[dict[str, object]] = [
        {"op": "write", "path": p, "staged": f"tree/{p}"}
        for p in (".claude/skills/s/SKILL.md", ".github/skills/s/SKILL.md")
    ]
    _write_journal(tmp_path, ops)
    assert recover(tmp_path, tmp_path / ".upskill-lock.json", state=tmp_path / "st") is True
    assert (tmp_path / ".claude/skills/s/SKILL.md").read_bytes() == b"c\n"
    assert (tmp_path / ".github/skills/s/SKILL.md").read_bytes() == b"g\n"
    assert sorted(p.name for p in state.iterdir()) == []


@pytest.mark.parametrize("staged", ["../../escaped", "tree/other.md", "tree/../x.md", "/abs"])
def test_a_journal_naming_a_file_outside_its_staging_is_refused(
    tmp_path: Path, staged: str
) -> None:
    state = tmp_path / ".upskill"
    (state / "txn").mkdir(parents=True)
    ops: list[dict[str, object]] = [{"op": "write", "path": ".claude/rules/x.md", "staged": staged}]
    _write_journal(tmp_path, ops)
    with pytest.raises(JournalError, match="bad operation"):
        recover(tmp_path, tmp_path / ".upskill-lock.json", state=tmp_path / "st")
    assert not (tmp_path / ".claude").exists()


def test_a_directory_appearing_at_the_move_is_filled_file_by_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.agents/` appears in the instant between its examination and the rename."""
    (tmp_path / ".upskill").mkdir()
    real = os.rename

    def racing_rename(src, dst, *args, **kw):  # type: ignore[no-untyped-def]
        if dst == ".agents" and not (tmp_path / ".agents").exists():
            (tmp_path / ".agents").mkdir()
            (tmp_path / ".agents/mine.md").write_bytes(b"mine\n")
        return real(src, dst, *args, **kw)

    monkeypatch.setattr(journal.os, "rename", racing_rename)
    txn = Transaction(
        (Write(".agents/skills/s/SKILL.md", b"s\n"), Write(".agents/rules/r/RULE.md", b"r\n")),
        (),
        None,
    )
    apply_transaction(tmp_path, tmp_path / ".upskill-lock.json", txn, state=tmp_path / "st")
    assert (tmp_path / ".agents/mine.md").read_bytes() == b"mine\n"
    assert (tmp_path / ".agents/skills/s/SKILL.md").read_bytes() == b"s\n"
    assert (tmp_path / ".agents/rules/r/RULE.md").read_bytes() == b"r\n"
    assert sorted(p.name for p in (tmp_path / ".upskill").iterdir()) == []


def test_replaced_file_follows_a_link_only_to_a_regular_file_in_the_scope(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "dot" / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "dot" / "sub" / "real").write_text("x")
    (outside / "secret").write_text("s")
    (root / "plain").write_text("p")
    cases = {
        "chain": "hop",  # a link to a link to the file
        "hop": "dot/sub/real",
        "via": "../root/dot/../dot/sub/real",  # out of the root by name, back in for real
        "dirlink": "dot/sub",
        "out": str(outside / "secret"),
        "outdir": str(outside),
        "dangling": "dot/none",
        "loop": "loop",
    }
    for name, to in cases.items():
        (root / name).symlink_to(to)
    (root / "ldir").symlink_to(outside)  # a symlinked directory leading out of the root
    (root / "through").symlink_to("ldir/secret")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    (root / "gitcfg").symlink_to(".git/config")
    real = root / "dot" / "sub" / "real"
    assert fsio.replaced_file(root / "plain", root=root) == root / "plain"
    assert fsio.replaced_file(root / "absent", root=root) == root / "absent"
    for name in ("chain", "hop", "via"):
        assert fsio.replaced_file(root / name, root=root) == real
    problems = {
        "dirlink": "is a symlink to something other than a regular file",
        "out": f"is a symlink to a file outside {root}; refusing to write through it or replace it",
        "outdir": f"is a symlink to a file outside {root}; refusing to write through it or "
        "replace it",
        "through": f"is a symlink to a file outside {root}; refusing to write through it or "
        "replace it",
        "dangling": "is a dangling symlink; refusing to write through it",
        "gitcfg": "is a symlink into a .git directory; refusing to write through it",
        "loop": "is a symlink that cannot be followed: Too many levels of symbolic links",
    }
    for name, problem in problems.items():
        with pytest.raises(fsio.UnsafeFile) as caught:
            fsio.replaced_file(root / name, root=root)
        assert str(caught.value) == f"{root / name}: {problem}", name
