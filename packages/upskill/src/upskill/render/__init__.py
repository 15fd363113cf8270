"""Pure per-client rendering of SSOT items (format spec §7, Appendix B)."""

from upskill.render.ahead import format_bodies_ahead
from upskill.render.item import (
    OutputFile,
    Rendering,
    output_path,
    render_item,
    targets_client,
)
from upskill.render.tables import LAYOUTS, MODEL_ALIASES, TOOL_NAMES, Layout, layout, resolve_model

__all__ = [
    "LAYOUTS",
    "MODEL_ALIASES",
    "TOOL_NAMES",
    "Layout",
    "OutputFile",
    "Rendering",
    "format_bodies_ahead",
    "layout",
    "output_path",
    "render_item",
    "resolve_model",
    "targets_client",
]
