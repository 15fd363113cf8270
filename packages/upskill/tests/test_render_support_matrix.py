"""The README's support matrix states the same output paths as the layout table.

The matrix is prose for people; `upskill.render.tables.LAYOUTS` is what the
code writes. This test makes the two one source of truth: a path changed in
one place and not the other fails here.
"""

from __future__ import annotations

from pathlib import Path

from upskill.format.model import Kind
from upskill.render.tables import LAYOUTS

README = Path(__file__).resolve().parents[1] / "README.md"
COLUMNS = {Kind.RULE: 1, Kind.SKILL: 2, Kind.AGENT: 3}
ROWS = {"claude": "Claude Code", "copilot": "GitHub Copilot", "opencode": "opencode"}


def _matrix() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in README.read_text().splitlines():
        if line.startswith("| ") and "`--" in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].split(" (")[0]] = cells
    return rows


def test_readme_matrix_matches_layouts() -> None:
    matrix = _matrix()
    for (kind, client), layout in LAYOUTS.items():
        cell = matrix[ROWS[client]][COLUMNS[kind]]
        assert cell == f"`{layout.entrypoint('<n>')}`", (kind, client)


def test_vscode_row_points_at_copilots_tree() -> None:
    row = _matrix()["VS Code"]
    assert row[1:4] == ["Copilot's tree"] * 3
