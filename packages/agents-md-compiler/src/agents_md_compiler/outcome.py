"""What a command hands back to the CLI layer, which alone prints."""

from __future__ import annotations

from dataclasses import dataclass, field

from agents_md_compiler.errors import STATE_EXIT_CODES, BundleState
from agents_md_compiler.models import CompiledBundle, PathPair


@dataclass
class Outcome:
    state: BundleState | None
    exit_code: int
    fields: dict[str, object] = field(default_factory=dict)
    stdout: bytes | None = None
    progress: list[str] = field(default_factory=list)
    detail: str | None = None
    state_line: bool = True

    @classmethod
    def for_state(cls, state: BundleState, **fields: object) -> Outcome:
        return cls(state, STATE_EXIT_CODES[state], dict(fields))


def bundle_fields(
    bundle: CompiledBundle,
    lock_path: PathPair,
    target_path: PathPair | None,
    target_sha256: str | None,
) -> dict[str, object]:
    """The fields validate, render, check, status (and install, verify-codex) share."""
    return {
        "bundle_id": bundle.manifest.bundle_id,
        "manifest_path": bundle.manifest.path.resolved,
        "lock_path": lock_path.resolved,
        "manifest_sha256": bundle.manifest.sha256,
        "lock_sha256": bundle.lock_sha256,
        "output_sha256": bundle.rendered_sha256,
        "output_bytes": len(bundle.rendered),
        "modules": bundle.module_identities(),
        "target_path": None if target_path is None else target_path.resolved,
        "target_sha256": target_sha256,
    }
