"""The shipped JSON Schemas describe exactly what the tool reads and writes."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"
UPSTREAM = FIXTURES / "schemas-format1-upstream"


def keywords(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            found.add(key)
            if key in ("properties", "$defs"):
                for sub in value.values():
                    found |= keywords(sub)
            elif key not in ("const", "enum", "required", "type"):
                found |= keywords(value)
    elif isinstance(node, list):
        for item in node:
            found |= keywords(item)
    return found


def test_shipped_schema_set(schemas) -> None:  # type: ignore[no-untyped-def]
    names = sorted(p.name for p in schemas.directory.glob("*.json"))
    assert names == [
        "lock-v1.schema.json",
        "lock-v2.schema.json",
        "manifest-v1.schema.json",
        "receipt-v1.schema.json",
    ]
    for name in names:
        schema = schemas.load(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert keywords(schema) - {"description"} <= schemas.keywords, name


def test_format1_schemas_match_upstream(schemas) -> None:  # type: ignore[no-untyped-def]
    for name in ("manifest-v1.schema.json", "receipt-v1.schema.json"):
        assert schemas.load(name) == json.loads((UPSTREAM / name).read_text())
    ours = schemas.load("lock-v1.schema.json")
    upstream = json.loads((UPSTREAM / "lock-v1.schema.json").read_text())
    ours["properties"]["format_version"].pop("description")
    upstream["properties"]["format_version"].pop("description")
    assert ours == upstream


def test_lock_v2_differs_only_in_version_and_source(schemas) -> None:  # type: ignore[no-untyped-def]
    v2 = schemas.load("lock-v2.schema.json")
    module = v2["$defs"]["lockedModule"]
    assert module["required"] == ["id", "sha256", "size_bytes", "source"]
    assert "resolved_source" not in module["properties"]
    assert v2["properties"]["format_version"]["const"] == 2


def test_written_lock_validates(ws, schemas) -> None:  # type: ignore[no-untyped-def]
    ws.locked()
    lock = json.loads(ws.lock.read_bytes())
    assert schemas.errors(lock, "lock-v2.schema.json") == []
    assert schemas.errors(lock, "lock-v1.schema.json") != []
    v1 = dict(lock, format_version=1)
    v1["modules"] = [
        {k: v for k, v in m.items() if k != "source"} | {"resolved_source": "/abs/x.md"}
        for m in lock["modules"]
    ]
    assert schemas.errors(v1, "lock-v1.schema.json") == []
    assert schemas.errors(v1, "lock-v2.schema.json") != []


def test_golden_locks_validate(schemas) -> None:  # type: ignore[no-untyped-def]
    for path in GOLDEN.glob("*.lock.json"):
        assert schemas.errors(json.loads(path.read_bytes()), "lock-v2.schema.json") == []


def test_manifest_schema_against_fixtures(schemas) -> None:  # type: ignore[no-untyped-def]
    for name in ("minimal.toml", "three-modules.toml"):
        doc = tomllib.loads((FIXTURES / "manifests" / name).read_text())
        assert schemas.errors(doc, "manifest-v1.schema.json") == []


@pytest.mark.parametrize(
    "path", sorted((FIXTURES / "manifests" / "invalid").glob("*.toml")), ids=lambda p: p.stem
)
def test_invalid_manifests_fail_schema_unless_uniqueness(schemas, path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = tomllib.loads(path.read_text())
    errors = schemas.errors(doc, "manifest-v1.schema.json")
    if path.stem.startswith("duplicate-"):
        assert errors == []  # uniqueness is enforced by the compiler, not expressible here
    else:
        assert errors != []


def test_validator_rejects_broken_receipts(ws, schemas) -> None:  # type: ignore[no-untyped-def]
    doc = ws.installed()
    receipt = json.loads(Path(doc["receipt_path"]).read_bytes())
    assert schemas.errors(receipt, "receipt-v1.schema.json") == []
    broken = [
        dict(receipt, completed_at="yesterday"),
        dict(receipt, restored=None),
        {k: v for k, v in receipt.items() if k != "installed"},
        dict(receipt, operation="rollback"),
        dict(receipt, receipt_schema_version=True),
        dict(receipt, backup={"path": "", "sha256": "0" * 64, "size_bytes": 1}),
    ]
    for item in broken:
        assert schemas.errors(item, "receipt-v1.schema.json") != [], item
