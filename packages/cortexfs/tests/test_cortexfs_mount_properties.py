"""Properties through the real mount: the filesystem accepts exactly what the pure
validator accepts, and a refused write leaves the previous value in place."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexfs.controls import check_control
from cortexfs.ctl_write import write_control
from cortexfs.errors import CtxError, FsRefusal

IO_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
# Runtime state (status, pid, log) is never writable, so it is not among them.
CONTROLS = ["life", "groups", "perm", "iso", "env", "policy", "uid", "tools", "label"]


def agent_controls(root: Path) -> Path:
    """One root-owned agent for these properties (root may set any value, uid included)."""
    controls = root / "agent" / "propcheck.d"
    if not controls.exists():
        os.mkdir(controls)
    return controls


def validator_accepts(name: str, data: bytes) -> bool:
    try:
        check_control(name, data)
    except FsRefusal:
        return False
    return True


@IO_SETTINGS
@given(name=st.sampled_from(CONTROLS), data=st.binary(max_size=40))
def test_whole_file_write_matches_validator(ctx_mount, name: str, data: bytes) -> None:
    control = agent_controls(ctx_mount.root) / name
    before = control.read_bytes()
    try:
        fd = os.open(control, os.O_WRONLY | os.O_TRUNC)
        try:
            if data:
                os.write(fd, data)
        finally:
            os.close(fd)  # an empty value is committed (or refused) here
        written = True
    except OSError:
        written = False
    assert written == validator_accepts(name, data)
    assert control.read_bytes() == (data if written else before)


@IO_SETTINGS
@given(values=st.lists(st.from_regex(r"[a-z0-9_]{1,12}", fullmatch=True), max_size=5))
def test_atomic_set_roundtrips_lists(ctx_mount, values: list[str]) -> None:
    path = agent_controls(ctx_mount.root) / "path"
    data = "".join(f"{v}\n" for v in values).encode()
    write_control(str(path), data)
    assert path.read_bytes() == data
    try:
        write_control(str(path), b"\n\n")
    except CtxError as exc:
        assert exc.exit_code == 2
    else:
        raise AssertionError("an empty list line was accepted")
    assert path.read_bytes() == data
