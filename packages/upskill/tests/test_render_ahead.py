"""Formatting ahead on two cores changes no byte and degrades to the serial path."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from upskill.format import forked, load_item_dir
from upskill.format.model import Item
from upskill.markdown import formatter, parallel
from upskill.render import format_bodies_ahead, render_item

CLIENTS = ("claude", "copilot", "vscode", "opencode")

needs_fork = pytest.mark.skipif(not forked.can_fork(), reason="needs fork and two CPUs")


@pytest.fixture(autouse=True)
def cold_caches() -> Iterator[None]:
    def clear() -> None:
        formatter._PREFORMATTED.clear()
        formatter._format_cached.cache_clear()

    clear()
    yield
    clear()


def body(index: int) -> str:
    directive = "<!-- @client:claude -->\n\nClaude only.\n\n<!-- @endclient -->\n\n"
    return (
        f"## Item {index}\n\nRead [the guide](./references/guide.md) and [r][ref].\n\n"
        + (directive if index % 3 == 0 else "")
        + f"| a | b |\n|---|---|\n| {index} | x |\n\n- one\n- two *{index}*\n\n"
        + ("[ref]: references/guide.md\n" if index % 2 else "[ref]: https://example.com\n")
    )


KINDS = (
    ("RULE.md", "scope:\n  paths: ['src/**']\n"),
    ("SKILL.md", ""),
    ("AGENT.md", "preload-skills: [helper]\n"),
)


def generate(root: Path, count: int) -> list[Item]:
    items: list[Item] = []
    for index in range(count):
        entry, extra = KINDS[index % 3]
        directory = root / f"item-{index}"
        (directory / "references").mkdir(parents=True)
        (directory / entry).write_text(
            f"---\nschema: 1\ndescription: Use when {index}\n{extra}---\n\n{body(index)}"
        )
        (directory / "references" / "guide.md").write_text("guide\n")
        items.extend(load_item_dir(directory))
    return items


def render_all(items: list[Item]) -> list[tuple[str, bytes]]:
    return [
        (out.path, out.data)
        for item in items
        for client in CLIENTS
        for out in render_item(item, client).files
    ]


@needs_fork
def test_renderings_are_byte_identical_with_and_without_formatting_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = render_all(generate(tmp_path / "a", 30))
    formatter._format_cached.cache_clear()
    monkeypatch.setattr(parallel, "MIN_TEXTS", 2)
    items = generate(tmp_path / "b", 30)
    format_bodies_ahead((item, client) for item in items for client in CLIENTS)
    assert len(formatter._PREFORMATTED) >= 30
    assert render_all(items) == serial


@needs_fork
def test_child_results_equal_in_process_results() -> None:
    texts = [body(i) for i in range(20)] + ["", "   \n", "plain"]
    parallel.format_ahead(texts, min_texts=1)
    assert set(formatter._PREFORMATTED) == set(texts)
    for text, result in formatter._PREFORMATTED.items():
        assert result == formatter.format_uncached(text)


def test_below_the_threshold_nothing_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("forked")

    monkeypatch.setattr(os, "fork", no_fork)
    parallel.format_ahead([body(i) for i in range(parallel.MIN_TEXTS - 1)])
    assert formatter._PREFORMATTED == {}


@needs_fork
def test_a_failing_fork_leaves_the_serial_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError("EAGAIN")

    monkeypatch.setattr(os, "fork", no_fork)
    texts = [body(i) for i in range(10)]
    parallel.format_ahead(texts, min_texts=1)
    assert set(formatter._PREFORMATTED) == {texts[0]}  # formatted before the fork


@needs_fork
def test_a_failing_child_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("cannot pickle")

    monkeypatch.setattr(forked.pickle, "dumps", broken)
    texts = [body(i) for i in range(10)]
    parallel.format_ahead(texts, min_texts=1)
    assert set(formatter._PREFORMATTED) == set(texts[0::2])  # this process's half


@needs_fork
def test_errors_are_left_for_the_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    real = formatter.format_uncached

    def fragile(text: str) -> formatter.Formatted:
        if "boom" in text:
            raise RecursionError("too deep")
        return real(text)

    monkeypatch.setattr(parallel, "format_uncached", fragile)
    monkeypatch.setattr(formatter, "format_uncached", fragile)
    parallel.format_ahead(["a", "boom 1", "boom 2", "c"], min_texts=1)
    assert set(formatter._PREFORMATTED) == {"a", "c"}  # one failure in each process
    for text in ("boom 1", "boom 2"):
        with pytest.raises(RecursionError):
            formatter.format_document(text)


def test_other_threads_prevent_forking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked.threading, "active_count", lambda: 2)
    assert not forked.can_fork()
