"""Project a stdio MCP server's tools as CortexFS tool objects `<server>.<tool>`.

The projection writes the object, its description, schema and driver; it never writes
policy, so a projected tool grants nothing until an administrator allows it.
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
        planned.append(ProjectedTool(name, remote, text, schema_text, driver))
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
        for control, text in (
            ("description", tool.description),
            ("schema", tool.schema),
            ("driver", tool.driver),
        ):
            write_control(os.path.join(controls, control), text.encode())
        lines.append(f"projected {os.path.join(into, tool.name)}")
    return lines
