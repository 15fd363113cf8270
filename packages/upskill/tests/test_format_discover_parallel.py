"""Discovery that parses half the item directories in a forked child finds the same catalog."""

from __future__ import annotations

import dataclasses
import importlib
import os
from pathlib import Path
from typing import Any

import pytest

from upskill.errors import FormatError
from upskill.format import discover, forked

pytestmark = pytest.mark.skipif(not forked.can_fork(), reason="needs fork and two CPUs")
# `upskill.format.discover` names the function; the module holds the threshold.
DISCOVERY = importlib.import_module("upskill.format.discover")


def registry(root: Path, count: int, broken: dict[int, str] | None = None) -> Path:
    for index in range(count):
        directory = root / "skills" / f"item-{index:02d}"
        (directory / "refs").mkdir(parents=True)
        text = (
            f"---\nschema: 1\ndescription: Use when {index}\nmetadata: {{n: {index}}}\n---\n\n"
            f"Body {index}: see [r](refs/r.md).\n"
        )
        (directory / ("SKILL.md" if index % 2 else "RULE.md")).write_text(
            (broken or {}).get(index, text)
        )
        (directory / "refs" / "r.md").write_bytes(b"resource %d\n" % index)
    return root


def snapshot(catalog: Any) -> Any:
    items = [(type(i).__name__, dataclasses.astuple(i)) for i in catalog.items]
    return items, [str(p) for p in catalog.problems], catalog.bundles


def outcome(root: Path, strict: bool) -> Any:
    try:
        return snapshot(discover(root, strict=strict))
    except FormatError as exc:
        return ("error", str(exc), exc.line)


def both(root: Path, monkeypatch: pytest.MonkeyPatch, strict: bool = True) -> tuple[Any, Any]:
    monkeypatch.setattr(DISCOVERY, "PARALLEL_ITEM_DIRS", 10**9)
    serial = outcome(root, strict)
    monkeypatch.setattr(DISCOVERY, "PARALLEL_ITEM_DIRS", 2)
    return serial, outcome(root, strict)


def test_parallel_discovery_finds_the_same_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial, parallel = both(registry(tmp_path, 24), monkeypatch)
    assert parallel == serial
    assert len(serial[0]) == 24


@pytest.mark.parametrize("strict", [True, False])
def test_errors_in_either_process_surface_in_path_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strict: bool
) -> None:
    broken = {
        3: "---\ndescription: [unclosed\n---\n",  # the child's share
        6: "---\ndescription: d\ndescription: again\n---\n",  # this process's share
        9: "no frontmatter\n",
    }
    serial, parallel = both(registry(tmp_path, 12, broken), monkeypatch, strict)
    assert parallel == serial
    if strict:
        assert serial[0] == "error" and "item-03" in serial[1]
    else:
        assert len(serial[1]) == 3


def test_duplicates_across_processes_are_still_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = registry(tmp_path, 8)
    (root / "item-05").mkdir()
    (root / "item-05" / "SKILL.md").write_text("---\ndescription: d\n---\n")
    serial, parallel = both(root, monkeypatch)
    assert parallel == serial
    assert serial[0] == "error" and "duplicate skill 'item-05'" in serial[1]


def _square_or_fail(value: int) -> int:
    if value % 7 == 3:
        raise ValueError(value)
    return value * value


def test_two_process_map_keeps_order_and_leaves_failures_to_the_caller() -> None:
    inputs = list(range(40))
    results = forked.two_process_map(_square_or_fail, inputs, min_inputs=2)
    assert results == [None if v % 7 == 3 else v * v for v in inputs]
    assert forked.two_process_map(_square_or_fail, inputs, min_inputs=41) == [None] * 40


def _interrupted_at_four(value: int) -> int:
    if value == 4:
        raise KeyboardInterrupt
    return value


def test_an_interrupt_in_this_process_stops_the_child_and_propagates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    children: list[int] = []
    real_fork = os.fork

    def recording_fork() -> int:
        pid = real_fork()
        if pid:
            children.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recording_fork)
    with pytest.raises(KeyboardInterrupt):
        forked.two_process_map(_interrupted_at_four, list(range(10)), min_inputs=2)
    assert len(children) == 1
    with pytest.raises(ChildProcessError):  # killed and reaped, no zombie left
        os.waitpid(children[0], os.WNOHANG)
