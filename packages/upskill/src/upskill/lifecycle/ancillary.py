"""Files outside the per-item trees that clients need (reference notes §5).

`CLAUDE.md` (created once with `@AGENTS.md`, only when `AGENTS.md` exists),
`opencode.json` (`instructions` must include the rule glob) and `.vscode/settings.json` (the Copilot
instructions folder registered). Each function is pure: current bytes in,
new bytes out (or None when nothing must change). `remove` never touches them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from upskill import jsonc
from upskill.errors import UpskillError
from upskill.fsio import read_contained

CLAUDE_MD = "CLAUDE.md"
AGENTS_MD = "AGENTS.md"
OPENCODE_JSON = "opencode.json"
VSCODE_SETTINGS = ".vscode/settings.json"
OPENCODE_RULE_GLOB = ".agents/rules/**/RULE.md"
VSCODE_KEY = "chat.instructionsFilesLocations"
VSCODE_DIR = ".github/instructions"


class AncillaryError(UpskillError):
    """An ancillary file has a shape upskill cannot safely extend."""


def claude_md(current: bytes | None) -> bytes | None:
    return b"@AGENTS.md\n" if current is None else None


def _dump(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()


def _load(current: bytes, path: str) -> tuple[dict[str, Any], str, bytes]:
    """(value, text, BOM): every edit is textual (`jsonc`), for strict JSON too, so the
    user's numbers (`1e5`), duplicate keys, layout, comments and BOM stay as they were."""
    bom = b"\xef\xbb\xbf" if current.startswith(b"\xef\xbb\xbf") else b""
    try:
        text = current[len(bom) :].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AncillaryError(f"cannot update: not UTF-8 ({exc.reason})", path=path) from None
    try:
        value = jsonc.loads(text)
    except jsonc.JsoncError as exc:
        raise AncillaryError(f"cannot update: invalid JSON: {exc}", path=path) from None
    if type(value) is not dict:
        raise AncillaryError("cannot update: the top level is not a JSON object", path=path)
    return value, text, bom


def opencode_json(current: bytes | None) -> bytes | None:
    if current is None:
        return _dump({"instructions": [OPENCODE_RULE_GLOB]})
    value, text, bom = _load(current, OPENCODE_JSON)
    instructions = value.get("instructions")
    if instructions is not None and type(instructions) is not list:
        raise AncillaryError("cannot update: `instructions` is not an array", path=OPENCODE_JSON)
    if instructions is not None and OPENCODE_RULE_GLOB in instructions:
        return None
    return bom + jsonc.append_item(text, ("instructions",), OPENCODE_RULE_GLOB).encode()


def vscode_settings(current: bytes | None) -> bytes | None:
    if current is None:
        return _dump({VSCODE_KEY: {VSCODE_DIR: True}})
    value, text, bom = _load(current, VSCODE_SETTINGS)
    locations = value.get(VSCODE_KEY)
    if locations is not None and type(locations) is not dict:
        raise AncillaryError(
            f"cannot update: `{VSCODE_KEY}` is not an object", path=VSCODE_SETTINGS
        )
    if locations is not None and VSCODE_DIR in locations:
        return None
    return bom + jsonc.set_member(text, (VSCODE_KEY, VSCODE_DIR), True).encode()


Updater = Callable[[bytes | None], bytes | None]


def ancillary_updaters(
    clients: frozenset[str], has_rules: Mapping[str, bool], *, agents_md: bool = False
) -> dict[str, Updater]:
    """Which ancillary files this install touches, given the render targets written,
    whether each target received a rule, and whether the scope has an `AGENTS.md`:
    `CLAUDE.md`'s `@AGENTS.md` is written only when it resolves (Claude Code and
    Copilot inject an unresolved reference as literal text)."""
    out: dict[str, Updater] = {}
    if "claude" in clients and agents_md:
        out[CLAUDE_MD] = claude_md
    if has_rules.get("opencode"):
        out[OPENCODE_JSON] = opencode_json
    if has_rules.get("copilot"):
        out[VSCODE_SETTINGS] = vscode_settings
    return out


def read_optional(path: Path, root: Path) -> bytes | None:
    """A file in the scope `root` upskill edits or replaces, if it exists: a regular file
    inside the scope, never a FIFO or a symlink to a secret (`fsio.read_contained`)."""
    return read_contained(path, within=root)
