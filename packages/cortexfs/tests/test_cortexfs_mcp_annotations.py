"""MCP annotations -> the projected tool's cap ceiling (pure)."""

from __future__ import annotations

import pytest

from cortexfs.authorize import required_bits
from cortexfs.mcp_project import annotation_caps, plan_projection


@pytest.mark.parametrize(
    ("annotations", "bits"),
    [
        (None, "wx"),  # no hints: the protocol's defaults say destructive, open world
        ({}, "wx"),
        ("not an object", "wx"),
        ({"readOnlyHint": True}, "rx"),
        ({"readOnlyHint": True, "openWorldHint": False}, "rx"),
        ({"readOnlyHint": True, "openWorldHint": True}, "rwx"),
        ({"readOnlyHint": True, "destructiveHint": True}, "rwx"),
        ({"readOnlyHint": "yes"}, "wx"),  # only a JSON true counts
        ({"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False}, "wx"),
        ({"destructiveHint": True}, "wx"),
        ({"openWorldHint": True}, "wx"),
    ],
)
def test_annotations_map_to_perm_bits(annotations: object, bits: str) -> None:
    assert required_bits(annotation_caps(annotations)) == bits


def test_projection_writes_the_cap_lines() -> None:
    tools = [
        {"name": "read_file", "annotations": {"readOnlyHint": True}},
        {"name": "write_file", "annotations": {"readOnlyHint": False}},
        {"name": "fetch", "annotations": {"readOnlyHint": True, "openWorldHint": True}},
    ]
    planned = plan_projection("fs", ["srv"], tools)
    assert [(p.name, p.cap) for p in planned] == [
        ("fs.read_file", "fs.read\n"),
        ("fs.write_file", "fs.write\n"),
        ("fs.fetch", "fs.read\nfs.write\n"),
    ]
