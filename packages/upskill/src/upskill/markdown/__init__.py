"""The one Markdown formatter configuration upskill uses everywhere.

Render, `fmt` and `lint` all go through :func:`format_markdown`, so generated
files, canonicalised sources and the `body-format` lint check agree byte for
byte. mdformat and markdown-it are imported lazily (first call), keeping CLI
start-up lean.
"""

from upskill.markdown.formatter import (
    FORMATTER_EXTENSIONS,
    FORMATTER_OPTIONS,
    format_body,
    format_markdown,
)
from upskill.markdown.links import LinkRewrite, rewrite_links

__all__ = [
    "FORMATTER_EXTENSIONS",
    "FORMATTER_OPTIONS",
    "LinkRewrite",
    "format_body",
    "format_markdown",
    "rewrite_links",
]
