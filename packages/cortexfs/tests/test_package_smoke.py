"""The distribution imports and reports its version."""

import cortexfs


def test_version_is_semver_like() -> None:
    parts = cortexfs.__version__.split(".")
    assert len(parts) == 3
    assert all(part.isdigit() for part in parts)
