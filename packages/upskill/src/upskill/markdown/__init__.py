"""The one Markdown formatter configuration upskill uses everywhere.

`fmt` and `lint` go through :func:`format_markdown`, so canonicalised sources
and the `body-format` lint check agree byte for byte. Install never formats:
it only rewrites link destinations in place (:func:`rewrite_links`).
mdformat and markdown-it are imported lazily (first call), keeping CLI
start-up lean.
"""

from upskill.markdown import formatter as _formatter
from upskill.markdown import links as _links
from upskill.markdown.formatter import (
    FORMATTER_EXTENSIONS,
    FORMATTER_OPTIONS,
    format_body,
    format_markdown,
    kept_as_written,
)
from upskill.markdown.links import LinkRewrite, rewrite_links


def clear_caches() -> None:
    """Forget every formatted result, for measurements that must start cold."""
    _formatter._format.cache_clear()
    _links._rewrite_cached.cache_clear()


__all__ = [
    "FORMATTER_EXTENSIONS",
    "FORMATTER_OPTIONS",
    "LinkRewrite",
    "clear_caches",
    "format_body",
    "format_markdown",
    "kept_as_written",
    "rewrite_links",
]
