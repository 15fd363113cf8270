"""The distribution imports and reports its version."""

import upskill


def test_version_is_semver_like() -> None:
    parts = upskill.__version__.split(".")
    assert len(parts) == 3
    assert all(part.isdigit() for part in parts)
