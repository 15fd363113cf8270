"""One instructions file compiled from rules, in agents-md-compiler's format.

Codex, Gemini CLI, Amp, Junie and Zed read their instructions from a single file
(`AGENTS.md`; Gemini's `GEMINI.md`, which imports `.gemini/upskill.md`). upskill
writes that file with agents-md-compiler's renderer, so the file is
self-describing: a generated header, then one `module-begin id=<rule> sha256=…
bytes=…` … `module-end` section per rule, and `agents-md-compiler` recognises it
as generated. The sections double as the record
of what each rule contributed: a run that changes one rule reads the other rules'
sections back from the file (`parse_sections`) instead of needing their sources.

The header's two digests name the content, since there is no manifest or lock of
agents-md-compiler's own: `manifest-sha256` over the rule names in order,
`lock-sha256` over each name with its section's digest.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

from agents_md_compiler.models import ModuleSpec, SourceSnapshot, sha256_hex
from agents_md_compiler.rendering import RenderInput, render_bundle

BUNDLE_ID = "upskill"
_BEGIN = re.compile(
    rb"<!-- agents-md-compiler:module-begin id=([a-z0-9][a-z0-9-]*) "
    rb"sha256=([0-9a-f]{64}) bytes=(0|[1-9][0-9]{0,9}) -->\n"
)


def section_bytes(body: str) -> bytes:
    """A rule's section: its body, ending in exactly one newline (the end marker's line)."""
    return body.rstrip("\n").encode("utf-8") + b"\n"


def _input(sections: Mapping[str, bytes]) -> RenderInput:
    names = sorted(sections)
    snapshots = tuple(
        SourceSnapshot(
            ModuleSpec(n, f"rule:{n}", f"rule:{n}"), sections[n], sha256_hex(sections[n])
        )
        for n in names
    )
    manifest = hashlib.sha256("".join(f"{n}\n" for n in names).encode()).hexdigest()
    lock = hashlib.sha256("".join(f"{s.spec.id} {s.sha256}\n" for s in snapshots).encode())
    return RenderInput(BUNDLE_ID, manifest, lock.hexdigest(), snapshots)


def compile_document(sections: Mapping[str, bytes]) -> bytes:
    """The file for these rule sections (name -> bytes), ordered by rule name."""
    return render_bundle(_input(sections))


def parse_sections(data: bytes) -> dict[str, bytes] | None:
    """The sections of a file `compile_document` wrote, or None when it is not one
    byte for byte (edited by hand, or never ours): only an exact round trip counts."""
    pos = data.find(b"\n\n<!-- agents-md-compiler:module-begin ")
    if pos < 0:
        return None
    pos += 1
    sections: dict[str, bytes] = {}
    while pos < len(data):
        if data[pos : pos + 1] != b"\n":
            return None
        match = _BEGIN.match(data, pos + 1)
        if match is None:
            return None
        name, digest, size = match.group(1).decode(), match.group(2).decode(), int(match.group(3))
        start = match.end()
        body = data[start : start + size]
        end = f"<!-- agents-md-compiler:module-end id={name} -->\n".encode()
        if sha256_hex(body) != digest or data[start + size : start + size + len(end)] != end:
            return None
        sections[name] = body
        pos = start + size + len(end)
    if not sections or compile_document(sections) != data:
        return None
    return sections


__all__ = ["BUNDLE_ID", "compile_document", "parse_sections", "section_bytes"]
