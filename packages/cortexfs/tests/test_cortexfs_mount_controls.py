"""Control files through the mount: whole-file writes, atomic replace, errnos, ownership."""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

from oserrors import err

from cortexfs.ctl_write import write_control

OTHER_UID = 4242
THIRD_UID = 4343


def write_whole(path: Path, data: bytes, offset: int = 0) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        os.pwrite(fd, data, offset)
    finally:
        os.close(fd)


def wait_gone(path: Path, timeout: float = 3.0) -> bool:
    """Side-effect removals reach the kernel's entry cache right after the reply."""
    deadline = time.monotonic() + timeout
    while os.path.lexists(path):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def new_agent(root: Path, name: str) -> Path:
    os.mkdir(root / "agent" / f"{name}.d")
    return root / "agent" / f"{name}.d"


def test_new_agent_gets_default_controls(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    assert (controls / "owner").read_bytes() == b"0\n"
    assert (controls / "perm").read_bytes() == b"r-x\n"
    assert (controls / "policy").read_bytes() == b""
    assert (controls / "status").read_bytes() == b"stopped\n"
    wrapper = (ctx_mount.root / "agent" / unique).read_text().splitlines()
    assert wrapper[1:] == ["# cortexfs.object=agent", f"# cortexfs.name={unique}"]
    assert stat.S_IMODE((controls / "owner").stat().st_mode) == 0o444
    assert stat.S_IMODE((controls / "perm").stat().st_mode) == 0o644
    assert err(lambda: os.mkdir(ctx_mount.root / "agent" / f"{unique}.d")) == errno.EEXIST


def test_whole_file_write_replaces_value(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    (controls / "life").write_bytes(b"ephemeral\n")
    assert (controls / "life").read_bytes() == b"ephemeral\n"
    (controls / "life").write_bytes(b"persistent\n")
    assert (controls / "life").read_bytes() == b"persistent\n"
    (controls / "groups").write_bytes(b"10\n20\n")
    assert (controls / "groups").read_bytes() == b"10\n20\n"
    (controls / "groups").write_bytes(b"")
    assert (controls / "groups").read_bytes() == b""


def test_control_write_errnos(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    label = controls / "label"
    before = label.read_bytes()
    assert err(lambda: write_whole(label, b"x", offset=3)) == errno.EINVAL
    assert err(lambda: write_whole(label, b"\xff\xfe\n")) == errno.EILSEQ
    assert err(lambda: write_whole(label, b"a" * (64 * 1024 + 1))) == errno.EMSGSIZE
    assert err(lambda: write_whole(label, b"two\nlines\n")) == errno.EINVAL
    assert err(lambda: write_whole(controls / "perm", b"rwz\n")) == errno.EINVAL
    assert err(lambda: write_whole(controls / "iso", b"yes\n")) == errno.EINVAL
    assert err(lambda: write_whole(controls / "uid", b"-1\n")) == errno.EINVAL
    assert err(lambda: write_whole(controls / "policy", b"# comment\n")) == errno.EINVAL
    bad_mount = b"/src\t/etc\tro\tbind\n"
    assert err(lambda: write_whole(controls / "mount", bad_mount)) == errno.EINVAL
    assert err(lambda: write_whole(controls / "owner", b"5\n")) == errno.EROFS
    assert label.read_bytes() == before
    # Truncating a single-value control to nothing is a write of "" and is refused at close.
    assert err(lambda: os.close(os.open(label, os.O_WRONLY | os.O_TRUNC))) == errno.EINVAL
    assert label.read_bytes() == before
    assert err(lambda: os.truncate(label, 3)) == errno.EINVAL


def test_atomic_replace_by_same_directory_rename(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    temp = controls / f".policy.tmp-{os.getpid()}-abcd-0"
    temp.write_bytes(b"allow coder_t tool:echo execute\n")
    assert (controls / "policy").read_bytes() == b""
    os.rename(temp, controls / "policy")
    assert (controls / "policy").read_bytes() == b"allow coder_t tool:echo execute\n"
    assert not temp.exists()
    # An invalid temp is refused at rename and the control keeps its value.
    temp.write_bytes(b"deny everything\n")
    assert err(lambda: os.rename(temp, controls / "policy")) == errno.EINVAL
    assert (controls / "policy").read_bytes() == b"allow coder_t tool:echo execute\n"
    os.unlink(temp)
    # Renames from another directory are not control updates.
    other = new_agent(ctx_mount.root, unique + "x")
    temp2 = other / f".life.tmp-{os.getpid()}-ef-0"
    temp2.write_bytes(b"ephemeral\n")
    assert err(lambda: os.rename(temp2, controls / "life")) == errno.EXDEV


def test_perm_shows_as_owner_mode_bits_and_chmod_rewrites_it(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    wrapper = ctx_mount.root / "agent" / unique
    assert stat.S_IMODE(wrapper.stat().st_mode) == 0o555
    os.chmod(wrapper, 0o755)
    assert (controls / "perm").read_bytes() == b"rwx\n"
    assert stat.S_IMODE(wrapper.stat().st_mode) == 0o755
    os.chmod(wrapper, 0o155)
    assert (controls / "perm").read_bytes() == b"--x\n"
    (controls / "perm").write_bytes(b"r--\n")
    deadline = time.monotonic() + 3
    while stat.S_IMODE(wrapper.stat().st_mode) != 0o455 and time.monotonic() < deadline:
        time.sleep(0.02)  # invalidated right after the reply (attr_timeout=1s at worst)
    assert stat.S_IMODE(wrapper.stat().st_mode) == 0o455


def test_only_the_owner_uid_changes_an_agent(ctx_mount, unique: str, as_uid) -> None:
    agent = ctx_mount.root / "agent"
    controls = agent / f"{unique}.d"
    assert as_uid(OTHER_UID, lambda: os.mkdir(controls)) == 0
    assert (controls / "owner").read_bytes() == f"{OTHER_UID}\n".encode()
    assert (controls / "uid").read_bytes() == f"{OTHER_UID}\n".encode()
    assert (agent / unique).stat().st_uid == OTHER_UID
    assert (controls / "life").stat().st_uid == OTHER_UID
    # The owner may change its controls, whole-file or by rename.
    assert as_uid(OTHER_UID, lambda: write_control(str(controls / "cwd"), b"/work\n")) == 0
    assert (controls / "cwd").read_bytes() == b"/work\n"
    assert as_uid(OTHER_UID, lambda: write_whole(controls / "life", b"ephemeral\n")) == 0
    assert (controls / "life").read_bytes() == b"ephemeral\n"
    # ... but not point the agent at another identity.
    assert as_uid(OTHER_UID, lambda: write_whole(controls / "uid", b"0\n")) == errno.EACCES
    assert as_uid(OTHER_UID, lambda: write_control(str(controls / "uid"), b"0\n")) != 0
    assert (controls / "uid").read_bytes() == f"{OTHER_UID}\n".encode()
    # Another uid may not, and neither may root: the filesystem refuses, not mode bits.
    assert as_uid(THIRD_UID, lambda: write_whole(controls / "life", b"x\n")) == errno.EACCES
    assert as_uid(THIRD_UID, lambda: write_control(str(controls / "cwd"), b"/x\n")) != 0
    assert err(lambda: write_whole(controls / "life", b"root\n")) == errno.EACCES
    temp = controls / ".life.tmp-1-aa-0"
    assert err(lambda: temp.write_bytes(b"root\n")) == errno.EACCES
    assert err(lambda: os.chmod(agent / unique, 0o755)) == errno.EACCES
    assert err(lambda: os.unlink(agent / unique)) == errno.EACCES
    assert (controls / "life").read_bytes() == b"ephemeral\n"
    assert as_uid(OTHER_UID, lambda: os.unlink(agent / unique)) == 0
    assert wait_gone(controls)


def test_home_uid_is_owned_by_that_uid(ctx_mount, as_uid) -> None:
    home = ctx_mount.root / "home"
    mine = home / str(OTHER_UID)
    if not mine.exists():
        assert as_uid(THIRD_UID, lambda: os.mkdir(mine)) == errno.EACCES
        assert as_uid(OTHER_UID, lambda: os.mkdir(mine)) == 0
    assert mine.stat().st_uid == OTHER_UID
    assert sorted(os.listdir(mine)) == [".tshrc", "agent", "model", "tool"]
    note = mine / "notes.txt"
    assert as_uid(OTHER_UID, lambda: note.write_text("hello\n")) == 0
    assert note.stat().st_uid == OTHER_UID
    assert as_uid(THIRD_UID, lambda: note.write_text("x\n")) == errno.EACCES
    assert err(lambda: note.write_text("root\n")) == errno.EACCES
    assert note.read_text() == "hello\n"
    # A user's own tool objects live in its home and belong to it.
    assert as_uid(OTHER_UID, lambda: os.mkdir(mine / "tool" / "mytool.d")) == 0
    assert (mine / "tool" / "mytool").stat().st_uid == OTHER_UID
    assert err(lambda: os.mkdir(mine / "tool" / "roottool.d")) == errno.EACCES
    # System tools are root's to create.
    assert as_uid(OTHER_UID, lambda: os.mkdir(ctx_mount.root / "tool" / "sneaky.d")) == errno.EACCES


def test_create_new_control_by_whole_write(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    fresh = controls / "approval"
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, b"never\n")
    os.close(fd)
    assert fresh.read_bytes() == b"never\n"
    assert "approval" in os.listdir(controls)


def closed_by_forked_child(fd: int) -> None:
    """A forked child inherits `fd` and exits without writing: its exit closes its
    duplicate, which reaches the daemon as a flush of the same handle."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_child_closing_an_inherited_fd_commits_nothing(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    fresh = controls / "approval"
    stored = ctx_mount.storage / "agent" / f"{unique}.d" / "approval"
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        closed_by_forked_child(fd)
        # Created and listed, but without a value: never read as an empty one.
        assert "approval" in os.listdir(controls)
        assert err(fresh.read_bytes) == errno.ENOENT
        assert not stored.exists()
        assert os.write(fd, b"never\n") == 6
    finally:
        os.close(fd)
    assert fresh.read_bytes() == b"never\n"
    assert stored.read_bytes() == b"never\n"


def test_an_invalid_value_after_a_childs_close_leaves_no_control(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    fresh = controls / "approval"
    writer = os.fdopen(os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), "wb")
    closed_by_forked_child(writer.fileno())
    writer.write(b"two\nlines\n")  # buffered: reaches the mount at close
    assert err(writer.close) == errno.EINVAL
    assert not (ctx_mount.storage / "agent" / f"{unique}.d" / "approval").exists()
    assert err(fresh.read_bytes) == errno.ENOENT


def test_an_existing_control_keeps_its_value_through_a_childs_close(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    approval = controls / "approval"
    approval.write_bytes(b"old\n")
    writer = os.fdopen(os.open(approval, os.O_WRONLY | os.O_TRUNC), "wb")
    closed_by_forked_child(writer.fileno())
    assert approval.read_bytes() == b"old\n"
    writer.write(b"two\nlines\n")
    assert err(writer.close) == errno.EINVAL
    assert approval.read_bytes() == b"old\n"
    # The truncating process's own close without a write is still `: > ctl`.
    fd = os.open(approval, os.O_WRONLY | os.O_TRUNC)
    closed_by_forked_child(fd)
    assert approval.read_bytes() == b"old\n"
    os.close(fd)
    assert approval.read_bytes() == b""
    # ... and an invalid empty value is refused at that close, not at the child's.
    label = controls / "label"
    before = label.read_bytes()
    fd = os.open(label, os.O_WRONLY | os.O_TRUNC)
    closed_by_forked_child(fd)
    assert err(lambda: os.close(fd)) == errno.EINVAL
    assert label.read_bytes() == before


def test_shared_space_belongs_to_its_creator(ctx_mount, unique: str, as_uid) -> None:
    space = ctx_mount.root / "shared" / unique
    assert as_uid(OTHER_UID, lambda: os.mkdir(space)) == 0
    assert space.stat().st_uid == OTHER_UID
    job = space / "job.txt"
    assert as_uid(OTHER_UID, lambda: job.write_text("todo\n")) == 0
    assert as_uid(OTHER_UID, lambda: os.rename(job, space / "done.txt")) == 0
    assert (space / "done.txt").read_text() == "todo\n"
    assert as_uid(THIRD_UID, lambda: os.unlink(space / "done.txt")) == errno.EACCES
    assert err(lambda: os.unlink(space / "done.txt")) == errno.EACCES
    assert as_uid(OTHER_UID, lambda: os.unlink(space / "done.txt")) == 0
    assert as_uid(OTHER_UID, lambda: os.rmdir(space)) == 0


def test_socket_alias_and_nested_controls(ctx_mount, unique: str) -> None:
    controls = new_agent(ctx_mount.root, unique)
    sock = ctx_mount.root / "agent" / f"{unique}.sock"
    assert err(lambda: os.symlink("/etc/passwd", sock)) == errno.EINVAL
    os.symlink(f"/run/user/0/cortexfs/agent/{unique}.sock", sock)
    assert os.readlink(sock) == f"/run/user/0/cortexfs/agent/{unique}.sock"
    assert err(lambda: os.mkdir(controls / "hooks")) == errno.EROFS
    assert err(lambda: os.link(controls / "perm", controls / "perm2")) == errno.EPERM
    assert err(lambda: os.chown(controls / "perm", 5, 5)) == errno.EPERM
