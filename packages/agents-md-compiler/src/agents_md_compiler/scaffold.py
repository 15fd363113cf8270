"""init: scaffold an example manifest and two modules, refusing every existing path."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.errors import OutputExistsError, UsageError
from agents_md_compiler.invocation import Invocation
from agents_md_compiler.models import IDENTIFIER_RE
from agents_md_compiler.outcome import Outcome
from agents_md_compiler.paths import (
    DEFAULT_MANIFEST,
    TARGET_NAME,
    codex_home,
    expand_user,
    resolve,
)

DEFAULT_BUNDLE_ID = "example-bundle"
FILE_MODE = 0o644
DIR_MODE = 0o755

CORE_MODULE = b"""# Working Agreement

Follow these rules on every task in this repository.

- Read the surrounding code before changing it, and match its conventions.
- Prefer the smallest change that fully solves the problem.
- State assumptions explicitly when a request is ambiguous.
- Run the project's tests before declaring a change complete.
"""

PYTHON_MODULE = b"""# Python Rules

Apply these rules when a change touches Python code.

- Annotate every public function, including its return type.
- Leave layout to the project's formatter instead of aligning code by hand.
- Check input where it enters the program, then trust it inside.
"""


@dataclass(frozen=True)
class ScaffoldFile:
    relative: str
    content: bytes


_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def toml_quote(value: str) -> str:
    """JSON-style quoting that is also a valid TOML basic string.

    Identical to json.dumps for ASCII and the BMP; DEL and astral characters get
    TOML escapes because JSON's literal DEL and surrogate pairs are invalid TOML.
    """
    out = []
    for char in value:
        code = ord(char)
        if char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif code < 0x20 or 0x7F <= code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        elif code > 0xFFFF:
            out.append(f"\\U{code:08x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def manifest_text(bundle_id: str, target: str) -> bytes:
    return (
        "schema_version = 1\n"
        f"bundle_id = {toml_quote(bundle_id)}\n"
        f"default_target = {toml_quote(target)}\n"
        "\n"
        "[[modules]]\n"
        'id = "core"\n'
        'source = "modules/core.md"\n'
        "\n"
        "[[modules]]\n"
        'id = "python"\n'
        'source = "modules/python.md"\n'
    ).encode()


def scaffold_target(inv: Invocation, directory: str) -> str:
    """The manifest's default_target value as it will be serialized."""
    value = inv.option("target")
    environ = inv.seams.environ
    if value is None:
        if environ.get("CODEX_HOME", ""):
            return str(Path(codex_home(environ, inv.seams.cwd()), TARGET_NAME))
        return "~/.codex/AGENTS.md"
    if not value.strip():
        raise UsageError("--target must not be empty or whitespace only")
    if value.startswith("~"):
        return value
    resolved = resolve(value, inv.seams.cwd(), environ)
    if Path(expand_user(value, environ)).is_absolute():
        return resolved
    try:
        return os.path.relpath(resolved, directory)
    except ValueError:
        return resolved


def cmd_init(inv: Invocation) -> Outcome:
    bundle_id = inv.option("bundle_id") or DEFAULT_BUNDLE_ID
    if not IDENTIFIER_RE.match(bundle_id):
        raise UsageError(f"--bundle-id {bundle_id!r} does not match [a-z][a-z0-9-]{{0,63}}")
    directory = resolve(inv.option("directory") or ".", inv.seams.cwd(), inv.seams.environ)
    target = scaffold_target(inv, directory)
    files = (
        ScaffoldFile(DEFAULT_MANIFEST, manifest_text(bundle_id, target)),
        ScaffoldFile(str(Path("modules", "core.md")), CORE_MODULE),
        ScaffoldFile(str(Path("modules", "python.md")), PYTHON_MODULE),
    )
    for item in files:
        path = str(Path(directory, item.relative))
        if os.path.lexists(path):
            raise OutputExistsError(
                f"refusing to write {path}: path exists; init never replaces a file", lexical=path
            )
    modules = Path(directory, "modules")
    if not modules.is_dir():
        modules.mkdir(mode=DIR_MODE, parents=True)
        modules.chmod(DIR_MODE)
    created: list[str] = []
    for item in files:
        path = str(Path(directory, item.relative))
        _create_exclusive(path, item.content)
        created.append(path)
    manifest_path = str(Path(directory, DEFAULT_MANIFEST))
    next_command = ["agents-md-compiler", "lock", "--manifest", manifest_path]
    outcome = Outcome(
        None,
        0,
        {
            "directory": directory,
            "created": created,
            "target_path": resolve(target, directory, inv.seams.environ),
            "next_command": next_command,
        },
    )
    outcome.text = "".join(path + "\n" for path in created)
    outcome.notes.append(f"scaffolded {len(created)} files; run {' '.join(next_command)}")
    return outcome


def _create_exclusive(path: str, content: bytes) -> None:
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
    try:
        os.write(fd, content)
        os.fsync(fd)
    finally:
        os.close(fd)
    Path(path).chmod(FILE_MODE)
