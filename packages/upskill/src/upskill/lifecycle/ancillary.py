"""Files outside the per-item trees that clients need (reference notes §5).

Project scope: `CLAUDE.md` (created once with `@AGENTS.md`, only when `AGENTS.md`
exists), `opencode.json` (`instructions` must include the rule glob) and
`.vscode/settings.json` (the Copilot instructions folder registered). Global scope:
opencode's user config `~/.config/opencode/opencode.json`, one `instructions` entry
per rule, because opencode matches an absolute instruction's glob in its last path
component only (`~/.agents/rules/**/RULE.md` finds nothing). Entries follow what the
lockfile says is installed before and after a run, so narrowing or removing drops
the entries of rules that are gone. Each updater is pure: current bytes in, new
bytes out (or None when nothing must change).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill import jsonc
from upskill.clients import OPENCODE, render_target
from upskill.errors import UpskillError
from upskill.format.model import Kind
from upskill.fsio import read_contained
from upskill.render.tables import Site, layout
from upskill.state.lockfile import Lockfile

CLAUDE_MD = "CLAUDE.md"
AGENTS_MD = "AGENTS.md"
OPENCODE_JSON = "opencode.json"
OPENCODE_USER_JSON = ".config/opencode/opencode.json"
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


def opencode_instructions(
    path: str, add: Sequence[str], drop: Sequence[str] = ()
) -> Callable[[bytes | None], bytes | None]:
    """An updater making `instructions` hold every entry of `add` and none of `drop`."""

    def update(current: bytes | None) -> bytes | None:
        if current is None:
            return _dump({"instructions": list(add)}) if add else None
        value, text, bom = _load(current, path)
        instructions = value.get("instructions")
        if instructions is not None and type(instructions) is not list:
            raise AncillaryError("cannot update: `instructions` is not an array", path=path)
        present = list(instructions or ())
        new = text
        for entry in drop:
            if entry in present:
                new = jsonc.remove_item(new, ("instructions",), entry)
                present.remove(entry)
        for entry in add:
            if entry not in present:
                new = jsonc.append_item(new, ("instructions",), entry)
                present.append(entry)
        return None if new == text else bom + new.encode()

    return update


def opencode_json(current: bytes | None) -> bytes | None:
    """The project's `opencode.json` with the rule glob in `instructions`."""
    return opencode_instructions(OPENCODE_JSON, (OPENCODE_RULE_GLOB,))(current)


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


@dataclass(frozen=True)
class Installed:
    """What a lockfile says upskill installed in a scope, as the ancillary files see it."""

    targets: frozenset[str]  # render targets holding any item
    rule_targets: frozenset[str]  # render targets holding a rule
    opencode_rules: tuple[str, ...]  # opencode rule entrypoints, scope-relative


def installed(lock: Lockfile, *, home: bool) -> Installed:
    targets: set[str] = set()
    rule_targets: set[str] = set()
    entrypoints = {
        layout(Kind.RULE, OPENCODE, Site(home)).entrypoint(i.name)
        for i in lock.items
        if i.kind == Kind.RULE.value
    }
    opencode_rules: set[str] = set()
    for output in lock.outputs:
        for owner in output.owners:
            target = render_target(owner.client)
            targets.add(target)
            if owner.item.startswith("rule:"):
                rule_targets.add(target)
                if target == OPENCODE and output.path in entrypoints:
                    opencode_rules.add(output.path)
    return Installed(frozenset(targets), frozenset(rule_targets), tuple(sorted(opencode_rules)))


def ancillary_updaters(
    before: Installed, after: Installed, *, home: bool, agents_md: bool = False
) -> dict[str, Updater]:
    """Which ancillary files a run touches, given what was installed before and after it
    and whether the scope has an `AGENTS.md`: `CLAUDE.md`'s `@AGENTS.md` is written only
    when it resolves (Claude Code and Copilot inject an unresolved reference as literal
    text). Nothing a run did not change is rewritten."""
    out: dict[str, Updater] = {}
    if home:
        entries = [f"~/{p}" for p in after.opencode_rules]
        gone = [f"~/{p}" for p in before.opencode_rules if p not in after.opencode_rules]
        if entries or gone:
            out[OPENCODE_USER_JSON] = opencode_instructions(OPENCODE_USER_JSON, entries, gone)
        return out
    if "claude" in after.targets and agents_md:
        out[CLAUDE_MD] = claude_md
    if "opencode" in after.rule_targets:
        out[OPENCODE_JSON] = opencode_json
    elif "opencode" in before.rule_targets:
        out[OPENCODE_JSON] = opencode_instructions(OPENCODE_JSON, (), (OPENCODE_RULE_GLOB,))
    if "copilot" in after.rule_targets:
        out[VSCODE_SETTINGS] = vscode_settings
    return out


def read_optional(path: Path, root: Path) -> bytes | None:
    """A file in the scope `root` upskill edits or replaces, if it exists: a regular file
    inside the scope, never a FIFO or a symlink to a secret (`fsio.read_contained`)."""
    return read_contained(path, within=root)
