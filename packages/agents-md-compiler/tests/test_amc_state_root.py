"""The state root: XDG on POSIX, the local application-data folder on Windows."""

from __future__ import annotations

import pytest

from agents_md_compiler.paths import state_root


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"XDG_STATE_HOME": "/xdg", "HOME": "/home/u"}, "/xdg/agents-md-compiler"),
        ({"XDG_STATE_HOME": "", "HOME": "/home/u"}, "/home/u/.local/state/agents-md-compiler"),
        ({"HOME": "/home/u"}, "/home/u/.local/state/agents-md-compiler"),
    ],
)
def test_posix_state_root(environ: dict[str, str], expected: str) -> None:
    assert state_root(environ, windows=False) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        (
            {"LOCALAPPDATA": "/users/u/AppData/Local", "XDG_STATE_HOME": "/xdg"},
            "/users/u/AppData/Local/agents-md-compiler",
        ),
        ({"LOCALAPPDATA": "", "HOME": "/users/u"}, "/users/u/AppData/Local/agents-md-compiler"),
    ],
)
def test_windows_state_root_is_local_app_data(environ: dict[str, str], expected: str) -> None:
    assert state_root(environ, windows=True) == expected
