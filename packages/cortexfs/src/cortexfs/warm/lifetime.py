"""How long a warm host's directory lives: as long as the host that holds its lock.

Each installation has its own directory (`<uid dir>/<install key>`, warm/paths.py), and
every test world, checkout or upgrade is a new installation, so directories kept after
their host stopped piled up by the hundred. A host therefore removes its directory
when it stops, and one that was killed leaves it to the next host of the uid, which
reaps, at its start, every sibling whose lock is free.

`host.lock` is the only authority: whoever holds it owns the directory, and a file
is unlinked only by its holder. A host that opened the lock just before its holder
unlinked it would then hold a lock nobody else can see, so taking the lock checks that
the file held is still the one at the path, and starts over when it is not.

The uid directory may be under /tmp, writable by everyone: reaping touches it only if
it is a real directory of the uid that nobody else can enter, opens every entry
without following symlinks, relative to its parent's descriptor, and touches only
install-key names. The uid directory itself stays, one per uid, as /run/user does.
"""

from __future__ import annotations

import fcntl
import os
import stat

from cortexfs.warm.paths import LOCK, SOCKET, host_dirs, private_dir

_ATTEMPTS = 5  # each retry means another process removed the lock meanwhile
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_HEX = frozenset("0123456789abcdef")


def take_lock(directory: str, uid: int) -> int | None:
    """Make `directory` (private to `uid`) and hold its lock: the descriptor, or None
    when a live host holds it. PermissionError when someone else owns the directory;
    OSError when its lock kept being removed under us."""
    path = f"{directory}/{LOCK}"
    for _ in range(_ATTEMPTS):
        private_dir(directory, uid)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except FileNotFoundError:
            continue  # the directory was removed after private_dir made it: again
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        try:
            if _same_file(fd, os.stat(path, follow_symlinks=False)):
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)  # the previous holder unlinked it while we waited for it
    raise OSError(f"{directory}: its lock was removed {_ATTEMPTS} times while taking it")


def remove_own(directory: str, lock_fd: int) -> bool:
    """A stopping host (holding `lock_fd`) removes its socket, lock and directory;
    False when something else is in the directory (it then stays)."""
    parent, name = os.path.split(directory)
    try:
        parent_fd = os.open(parent, _DIR_FLAGS)
    except OSError:
        return False
    try:
        return _clear_held(parent_fd, name, lock_fd)
    finally:
        os.close(parent_fd)


def reap_around(directory: str, uid: int) -> list[str]:
    """What a host starting in `directory` reaps: the dead hosts' directories beside it
    and in the uid's other place (warm/paths.py `host_dirs`: /run/user or /tmp). Once
    /run/user/<uid> exists, no host starts under /tmp any more to reap what is there.
    In the other place even this installation's directory goes, when no host holds it."""
    parent, name = os.path.split(directory)
    others = dict.fromkeys(os.path.dirname(d) for d in host_dirs(uid))
    others.pop(parent, None)
    reaped = [f"{parent}/{gone}" for gone in reap_stale(parent, uid, keep=name)]
    return reaped + [f"{p}/{gone}" for p in others for gone in reap_stale(p, uid, keep="")]


def reap_stale(parent: str, uid: int, keep: str) -> list[str]:
    """Remove every host directory in `parent` other than `keep` that no live host
    holds (its lock free, or never made); the names removed. Nothing when `parent` is
    not a real directory private to `uid`."""
    try:
        parent_fd = os.open(parent, _DIR_FLAGS)
    except OSError:
        return []
    try:
        if not _private(os.fstat(parent_fd), uid):
            return []
        names = sorted(n for n in os.listdir(parent_fd) if n != keep and _is_key(n))
        return [name for name in names if _reap(parent_fd, name, uid)]
    finally:
        os.close(parent_fd)


def _reap(parent_fd: int, name: str, uid: int) -> bool:
    try:
        dir_fd = os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
    except OSError:
        return False  # a symlink (ELOOP), not a directory, or already gone
    try:
        if not _private(os.fstat(dir_fd), uid):
            return False
        try:
            lock_fd = os.open(LOCK, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
        except FileNotFoundError:
            # A runner made it and its host has not yet made the lock: rmdir fails once
            # the lock is there, and a host whose directory went makes it again.
            return _rmdir(parent_fd, name)
        except OSError:
            return False
    finally:
        os.close(dir_fd)
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock_fd)
        return False  # a live host's
    try:
        return _clear_held(parent_fd, name, lock_fd)
    finally:
        os.close(lock_fd)


def _clear_held(parent_fd: int, name: str, lock_fd: int) -> bool:
    """With `lock_fd` locked: if it is still the directory's lock, unlink the socket and
    the lock, then rmdir the directory (which fails if anything else is in it)."""
    try:
        dir_fd = os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
    except OSError:
        return False
    try:
        try:
            if not _same_file(lock_fd, os.stat(LOCK, dir_fd=dir_fd, follow_symlinks=False)):
                return False
        except FileNotFoundError:
            return False  # its holder, or another reaper, removed it first
        try:
            os.unlink(SOCKET, dir_fd=dir_fd)
        except FileNotFoundError:
            pass
        except OSError:
            return False
        os.unlink(LOCK, dir_fd=dir_fd)
    except OSError:
        return False
    finally:
        os.close(dir_fd)
    return _rmdir(parent_fd, name)


def _rmdir(parent_fd: int, name: str) -> bool:
    try:
        os.rmdir(name, dir_fd=parent_fd)
    except OSError:
        return False
    return True


def _same_file(fd: int, st: os.stat_result) -> bool:
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (st.st_dev, st.st_ino)


def _private(st: os.stat_result, uid: int) -> bool:
    return stat.S_ISDIR(st.st_mode) and st.st_uid == uid and not st.st_mode & 0o077


def _is_key(name: str) -> bool:
    """An install key's name (warm/paths.py: eight lowercase hex digits)."""
    return len(name) == 8 and _HEX.issuperset(name)
