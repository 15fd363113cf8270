"""Pure per-client rendering of SSOT items (format spec §7, Appendix B)."""

from upskill.render.item import (
    OutputFile,
    Rendering,
    output_path,
    render_item,
    targets_client,
)
from upskill.render.tables import (
    PROJECT,
    Layout,
    Site,
    layout,
    resolve_model,
)

__all__ = [
    "PROJECT",
    "Layout",
    "OutputFile",
    "Rendering",
    "Site",
    "layout",
    "output_path",
    "render_item",
    "resolve_model",
    "targets_client",
]
