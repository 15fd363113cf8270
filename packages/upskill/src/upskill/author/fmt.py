"""`upskill fmt` planning: the canonical bytes of each target, decided before any write.

Planning is pure apart from reading; the command applies the plan with
atomic replaces, and `--check` only reports it. A file that is already
canonical is never written, so its mtime does not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from upskill.author.canonical import canonical_text, markdown_body
from upskill.author.targets import Target
from upskill.errors import UpskillError


@dataclass(frozen=True)
class FmtOutcome:
    """`canonical` holds the new bytes when the file must change; `error` when it cannot;
    `body_kept` when the body was left as written because formatting it would change
    its Markdown structure (the author hears of it rather than trusting a silent pass)."""

    target: Target
    canonical: bytes | None = None
    error: UpskillError | None = None
    body_kept: bool = False

    @property
    def changed(self) -> bool:
        return self.canonical is not None


def plan_file(target: Target) -> FmtOutcome:
    from upskill.format.items import read_text
    from upskill.markdown import kept_as_written

    try:
        text = read_text(target.path)
        raw = target.path.read_bytes()
        canonical = canonical_text(text, target.kind, target.path).encode("utf-8")
    except UpskillError as error:
        return FmtOutcome(target, error=error)
    except OSError as error:
        return FmtOutcome(
            target, error=UpskillError(f"cannot read: {error.strerror}", path=target.path)
        )
    body = markdown_body(text, target.kind, target.path)
    kept = body is not None and kept_as_written(body)
    return FmtOutcome(target, None if canonical == raw else canonical, body_kept=kept)


def plan_fmt(targets: Sequence[Target]) -> list[FmtOutcome]:
    return [plan_file(target) for target in targets]
