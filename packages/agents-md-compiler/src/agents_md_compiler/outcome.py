"""What a command hands back to the CLI layer, which alone prints.

Streams follow the reference: stdout carries the state token (text) or the one
JSON object; `notes` are progress (dropped by --quiet and in JSON mode);
`text_diagnostics` are the nonzero-state lines text mode adds on stderr;
`diagnostics` reach stderr in both formats.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents_md_compiler.errors import STATE_EXIT_CODES, BundleState
from agents_md_compiler.models import CompiledBundle, PathPair


@dataclass
class Outcome:
    state: BundleState | None
    exit_code: int
    fields: dict[str, object] = field(default_factory=dict)
    ok: bool | None = None
    text: str | None = None
    stdout: bytes | None = None
    notes: list[str] = field(default_factory=list)
    text_diagnostics: list[str] = field(default_factory=list)
    diagnostics: list[str] = field(default_factory=list)

    @property
    def succeeded(self) -> bool:
        return self.exit_code == 0 if self.ok is None else self.ok

    @classmethod
    def report(cls, state: BundleState, **fields: object) -> Outcome:
        """A state report: the token on stdout, and on stderr too when it is not exit 0."""
        code = STATE_EXIT_CODES[state]
        outcome = cls(state, code, dict(fields))
        if code != 0:
            outcome.text_diagnostics.append(str(state))
        return outcome


def bundle_fields(
    bundle: CompiledBundle, lock_path: PathPair, target_path: PathPair | None
) -> dict[str, object]:
    """The identity fields validate, render, check, status, install and verify-codex share."""
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
    }
