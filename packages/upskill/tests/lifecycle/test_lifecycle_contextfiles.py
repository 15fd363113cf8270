"""`lifecycle.contextfiles`: the instruction files Gemini CLI's project settings name
(`context.fileName`, a string or a list), read from `.gemini/settings.json`."""

from __future__ import annotations

import pytest

from upskill.lifecycle.contextfiles import configured_reads


def _reads(data: bytes | None) -> dict[str, frozenset[str]]:
    files = {".gemini/settings.json": data}
    return configured_reads(lambda rel: files.get(rel))


@pytest.mark.parametrize(
    ("data", "names"),
    [
        (b'{"context": {"fileName": "AGENTS.md"}}', {"AGENTS.md"}),
        (b'{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}', {"AGENTS.md", "GEMINI.md"}),
        (
            b'{"context": {"fileName": ["./AGENTS.md", " CONTEXT.md "]}}',
            {"AGENTS.md", "CONTEXT.md"},
        ),
        (
            b'\xef\xbb\xbf{\n  // ours\n  "context": {"fileName": ["AGENTS.md",],},\n}',
            {"AGENTS.md"},
        ),
    ],
)
def test_the_names_the_setting_lists(data: bytes, names: set[str]) -> None:
    assert _reads(data) == {"gemini": frozenset(names)}


@pytest.mark.parametrize(
    "data",
    [
        None,  # no settings file
        b"{}",
        b'{"context": {"includeDirectoryTree": false}}',
        b'{"context": {"fileName": ["AGENTS.md", 3]}}',  # not Gemini's shape: nothing
        b'{"context": {"fileName": {"a": "AGENTS.md"}}}',
        b'{"context": "AGENTS.md"}',
        b'{"context": {"fileName": ["", "  "]}}',
        b"[1, 2]",
        b"{not json",
        b"\xff\xfe",
    ],
)
def test_nothing_else_names_a_file(data: bytes | None) -> None:
    assert _reads(data) == {}
