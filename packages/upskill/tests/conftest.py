"""Fixtures shared by every upskill test area."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "black_box: the test's `cli` spawns the real console script per call (signals, "
        "fault injection's SIGKILL, locks across processes, start-up) instead of running "
        "in process",
    )


@pytest.fixture(scope="session")
def markdownlint() -> Callable[[Iterable[Path]], list[str]]:
    """The one markdownlint configuration generated Markdown must pass (format §7.4).

    pymarkdownlnt's default rules with front matter enabled; MD041 (first line a
    heading: upstream never prepends an H1) and MD013 (line length: prose is never
    re-wrapped) are off, as docs/upskill/format.md explains. Returns the failures.
    """
    from pymarkdown.api import PyMarkdownApi

    api = (
        PyMarkdownApi()
        .enable_extension_by_identifier("front-matter")
        .disable_rule_by_identifier("md041")
        .disable_rule_by_identifier("md013")
    )

    def scan(paths: Iterable[Path]) -> list[str]:
        failures: list[str] = []
        for path in paths:
            result = api.scan_path(str(path))
            failures.extend(str(f) for f in result.scan_failures)
            failures.extend(str(e) for e in result.pragma_errors)
        return failures

    return scan
