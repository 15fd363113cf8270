"""Receipt documents (schema 1): building, strict reading, deployment bookkeeping."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agents_md_compiler.errors import ReceiptError
from agents_md_compiler.fileio import ReadProblem, read_regular
from agents_md_compiler.models import IDENTIFIER_RE, SHA256_RE, PathPair, sha256_hex

RECEIPT_SCHEMA_VERSION = 1
OPID_RE = re.compile(r"\A[0-9a-f]{8,64}\Z")
MODE_RE = re.compile(r"\A0[0-7]{3,4}\Z")
COMPLETED_RE = re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\Z")
COMMON_KEYS = frozenset(
    {
        "receipt_schema_version",
        "operation",
        "operation_id",
        "compiler_version",
        "bundle_id",
        "manifest_path",
        "lock_path",
        "target_path",
        "manifest_sha256",
        "lock_sha256",
        "modules",
        "previous_target",
        "backup",
        "completed_at",
        "runtime_verification",
    }
)
INSTALL_KEYS = COMMON_KEYS | {"installed"}
ROLLBACK_KEYS = COMMON_KEYS | {"restored", "source_receipt", "preserved_path"}
LAST_INSTALLED = "last-installed.json"
JOURNAL = "journal.json"
ROLLBACK_JOURNAL = "rollback-journal.json"


def format_mode(mode: int) -> str:
    return f"0{mode & 0o7777:03o}"


@dataclass(frozen=True)
class DeploymentDirs:
    root: str

    @property
    def receipts(self) -> str:
        return str(Path(self.root, "receipts"))

    @property
    def backups(self) -> str:
        return str(Path(self.root, "backups"))

    @property
    def preserved(self) -> str:
        return str(Path(self.root, "preserved"))

    @property
    def last_installed(self) -> str:
        return str(Path(self.root, LAST_INSTALLED))

    @property
    def journal(self) -> str:
        return str(Path(self.root, JOURNAL))

    @property
    def rollback_journal(self) -> str:
        return str(Path(self.root, ROLLBACK_JOURNAL))

    def receipt_files(self) -> list[str]:
        return _listing(self.receipts, ".json")

    def backup_files(self) -> list[str]:
        return _listing(self.backups, ".bak")


def _listing(directory: str, suffix: str) -> list[str]:
    try:
        names = sorted(
            p.name for p in Path(directory).iterdir() if p.name.endswith(suffix) and p.is_file()
        )
    except OSError:
        return []
    return [str(Path(directory, n)) for n in names]


@dataclass(frozen=True)
class InstallReceipt:
    """The fields rollback relies on, taken from a validated install receipt."""

    path: str
    sha256: str
    document: Mapping[str, object]
    operation_id: str
    bundle_id: str
    target_resolved: str
    installed_sha256: str
    previous_mode: str | None
    backup_path: str | None
    backup_sha256: str | None


def load_install_receipt(path: PathPair, max_bytes: int) -> InstallReceipt:
    try:
        data = read_regular(path.resolved, max_bytes).data
    except ReadProblem as exc:
        raise _error(path, f"receipt {exc}") from None
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _error(path, "receipt is not valid JSON") from None
    if not isinstance(doc, dict):
        raise _error(path, "receipt must be a JSON object")
    problem = install_receipt_problem(doc)
    if problem is not None:
        raise _error(path, f"receipt is not a valid install receipt: {problem}")
    backup = doc["backup"]
    return InstallReceipt(
        path=path.resolved,
        sha256=sha256_hex(data),
        document=doc,
        operation_id=doc["operation_id"],
        bundle_id=doc["bundle_id"],
        target_resolved=doc["target_path"]["resolved"],
        installed_sha256=doc["installed"]["sha256"],
        previous_mode=doc["previous_target"]["mode"],
        backup_path=None if backup is None else backup["path"],
        backup_sha256=None if backup is None else backup["sha256"],
    )


def install_receipt_problem(doc: Mapping[str, object]) -> str | None:
    """First schema violation of an install receipt, or None."""
    version = doc.get("receipt_schema_version")
    if type(version) is not int or version != RECEIPT_SCHEMA_VERSION:
        return "receipt_schema_version must be the integer 1"
    if doc.get("operation") != "install":
        return "operation must be install"
    if set(doc) != INSTALL_KEYS:
        return "unexpected or missing keys"
    checks: list[tuple[bool, str]] = [
        (_match(OPID_RE, doc["operation_id"]), "operation_id"),
        (
            isinstance(doc["compiler_version"], str) and bool(doc["compiler_version"]),
            "compiler_version",
        ),
        (_match(IDENTIFIER_RE, doc["bundle_id"]), "bundle_id"),
        (all(_is_pair(doc[k]) for k in ("manifest_path", "lock_path", "target_path")), "paths"),
        (_match(SHA256_RE, doc["manifest_sha256"]), "manifest_sha256"),
        (_match(SHA256_RE, doc["lock_sha256"]), "lock_sha256"),
        (_is_modules(doc["modules"]), "modules"),
        (_is_previous(doc["previous_target"]), "previous_target"),
        (doc["backup"] is None or _is_blob(doc["backup"], {"path"}), "backup"),
        (_is_blob(doc["installed"], {"mode"}, min_size=1), "installed"),
        (_match(COMPLETED_RE, doc["completed_at"]), "completed_at"),
        (doc["runtime_verification"] is None, "runtime_verification"),
    ]
    for ok, field in checks:
        if not ok:
            return f"{field} is malformed"
    return None


def _match(pattern: re.Pattern[str], value: object) -> bool:
    return isinstance(value, str) and pattern.match(value) is not None


def _is_int(value: object, minimum: int) -> bool:
    return type(value) is int and value >= minimum


def _is_pair(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"lexical", "resolved"}
        and all(isinstance(v, str) and v for v in value.values())
    )


def _is_modules(value: object) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(m, dict)
            and set(m) == {"id", "sha256", "size_bytes"}
            and _match(IDENTIFIER_RE, m["id"])
            and _match(SHA256_RE, m["sha256"])
            and _is_int(m["size_bytes"], 1)
            for m in value
        )
    )


def _is_previous(value: object) -> bool:
    if not isinstance(value, dict) or set(value) != {"state", "sha256", "size_bytes", "mode"}:
        return False
    return (
        value["state"] in ("MISSING", "MANAGED", "UNMANAGED")
        and (value["sha256"] is None or _match(SHA256_RE, value["sha256"]))
        and (value["size_bytes"] is None or _is_int(value["size_bytes"], 0))
        and (value["mode"] is None or _match(MODE_RE, value["mode"]))
    )


def _is_blob(value: object, extra: set[str], min_size: int = 0) -> bool:
    keys = {"sha256", "size_bytes"} | extra
    if not isinstance(value, dict) or set(value) != keys:
        return False
    ok = _match(SHA256_RE, value["sha256"]) and _is_int(value["size_bytes"], min_size)
    if "mode" in extra:
        ok = ok and _match(MODE_RE, value["mode"])
    if "path" in extra:
        ok = ok and isinstance(value["path"], str) and bool(value["path"])
    return ok


def _error(path: PathPair, message: str) -> ReceiptError:
    return ReceiptError(message, lexical=path.lexical, resolved=path.resolved)
