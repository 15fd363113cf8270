"""Format many distinct bodies on two cores before they are rendered one by one.

Formatting dominates a large cold install (400 bodies take ~0.3 s on one
core). `format.forked` formats every other text in a forked child while this
process formats the rest; the renderer then finds them ready
(`formatter.preformatted`). Output cannot differ: both processes run the same
pure function on the same texts. A text that fails to format is left out, so
the renderer raises its error in the usual order.
"""

from __future__ import annotations

from collections.abc import Sequence

from upskill.format.forked import two_process_map
from upskill.markdown import engine
from upskill.markdown.formatter import format_uncached, preformatted

MIN_TEXTS = 64


def format_ahead(texts: Sequence[str], *, min_texts: int | None = None) -> None:
    """Format `texts` now, half in a forked child; `format_document` then hits."""
    distinct = list(dict.fromkeys(texts))
    minimum = MIN_TEXTS if min_texts is None else min_texts
    if len(distinct) < minimum:
        return
    engine.parser()  # built before the fork, so the child imports nothing
    results = two_process_map(format_uncached, distinct, min_inputs=minimum)
    preformatted({t: r for t, r in zip(distinct, results, strict=True) if r is not None})
