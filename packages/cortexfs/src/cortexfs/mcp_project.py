"""Project a stdio MCP server's tools as CortexFS tool objects `<server>.<tool>`.

The projection writes the object, its description, schema, driver and cap; it never
writes policy, so a projected tool grants nothing until an administrator allows it.
The MCP annotations set the `cap` ceiling (`annotation_caps`), so an agent whose perm
lacks `w` cannot run a tool that may write, whatever the server calls it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from cortexfs.ctl_write import os_error, write_control
from cortexfs.errors import BadInput
from cortexfs.names import name_problem


@dataclass(frozen=True)
class ProjectedTool:
    name: str  # <server>.<tool>
    remote: str
    description: str
    schema: str  # JSON text + LF
    driver: str  # KEY=VALUE lines
    cap: str  # one capability per line


def annotation_caps(annotations: object) -> tuple[str, ...]:
    """The perm a tool needs beyond `x`, from its MCP annotations. They are hints with
    the protocol's defaults (readOnlyHint false, destructiveHint and openWorldHint
    true), so only a tool that says it is read-only runs with `r` alone; any other
    tool, and a read-only one that still says it is destructive or open-world, needs `w`."""
    hints = annotations if isinstance(annotations, dict) else {}
    if hints.get("readOnlyHint") is not True:
        return ("fs.write",)
    if hints.get("destructiveHint") is True or hints.get("openWorldHint") is True:
        return ("fs.read", "fs.write")
    return ("fs.read",)


def plan_projection(
    server: str, command: list[str], tools: list[dict[str, Any]]
) -> list[ProjectedTool]:
    """Validate every tool first so a bad one leaves nothing half-projected."""
    problem = name_problem(server)
    if problem:
        raise BadInput(f"server name {server!r}: {problem}")
    planned = []
    for tool in tools:
        remote = tool.get("name")
        if not isinstance(remote, str):
            raise BadInput(f"{server}: a tool has no string name")
        name = f"{server}.{remote}"
        problem = name_problem(name)
        if problem:
            raise BadInput(f"{server}: tool {remote!r} gives object name {name!r} that {problem}")
        description = tool.get("description") or ""
        schema = tool.get("inputSchema", {"type": "object"})
        driver = f"kind=mcp\ncommand={json.dumps(command)}\ntool={remote}\n"
        one_line = " ".join(str(description).split())
        text = f"{one_line}\n" if one_line else ""
        schema_text = json.dumps(schema, sort_keys=True) + "\n"
        cap = "".join(f"{c}\n" for c in annotation_caps(tool.get("annotations")))
        planned.append(ProjectedTool(name, remote, text, schema_text, driver, cap))
    return planned


def apply_projection(into: str, planned: list[ProjectedTool]) -> list[str]:
    """mkdir <name>.d (the filesystem creates defaults and the wrapper), then set controls."""
    lines = []
    for tool in planned:
        controls = os.path.join(into, f"{tool.name}.d")
        if not os.path.isdir(controls):
            try:
                os.mkdir(controls)
            except OSError as exc:
                raise os_error(controls, exc) from exc
        # cap first: a driver never runs under an older, looser ceiling.
        for control, text in (
            ("cap", tool.cap),
            ("description", tool.description),
            ("schema", tool.schema),
            ("driver", tool.driver),
        ):
            write_control(os.path.join(controls, control), text.encode())
        lines.append(f"projected {os.path.join(into, tool.name)}")
    return lines
