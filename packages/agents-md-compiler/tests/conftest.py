"""Shared helpers for the agents-md-compiler suite.

Test modules cannot import each other (importlib mode), so the workspace, the
in-process and subprocess runners, the fake codex and a minimal JSON Schema
validator live here as fixtures.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agents_md_compiler import cli
from agents_md_compiler.locking import LockTiming
from agents_md_compiler.seams import MutationHooks, Seams

FIXTURES = Path(__file__).parent / "fixtures"
SCHEMAS = Path(__file__).parents[1] / "src" / "agents_md_compiler" / "schemas"
GOLDEN_LOCK_SHA = "9a12daad4c2c91c632ef11d550fbb22c0ae1d8aee4f0627feb387e8630bb1dfc"
GOLDEN_RENDER_SHA = "a381b51ddffdd62777b0fc4b33d5bc2e9c9590a19f217926d5e22f89db9f991f"


@dataclass
class Result:
    code: int
    stdout: bytes
    stderr: str

    @property
    def json(self) -> dict[str, Any]:
        assert self.stdout.endswith(b"\n") and self.stdout.count(b"\n") == 1, self.stdout
        doc = json.loads(self.stdout)
        assert list(doc) == sorted(doc)
        return doc


def run_in_process(argv: list[str], seams: Seams) -> tuple[int, bytes, bytes]:
    """`cli.main(argv)` in this process with stdout and stderr captured as bytes."""
    out_buffer, err_buffer = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_buffer, encoding="utf-8", newline="")
    err = io.TextIOWrapper(err_buffer, encoding="utf-8", newline="")
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = cli.main(argv, seams=seams)
    finally:
        sys.stdout, sys.stderr = saved
        out.flush()
        err.flush()
    return code, out_buffer.getvalue(), err_buffer.getvalue()


@pytest.fixture
def cli_in_process() -> Callable[[list[str], Seams], tuple[int, bytes, bytes]]:
    return run_in_process


class Workspace:
    """A temp tree with the fixture manifests and modules, a temp HOME and state root."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.state = root / "state"
        self.bin = root / "bin"
        for directory in (self.home, self.state, self.bin):
            directory.mkdir()
        shutil.copytree(FIXTURES / "manifests", root / "manifests")
        shutil.copytree(FIXTURES / "modules", root / "modules")
        (root / "manifests" / "out").mkdir()
        self.manifest = root / "manifests" / "minimal.toml"
        self.lock = root / "manifests" / "minimal.toml.lock.json"
        self.target = root / "manifests" / "out" / "AGENTS.md"
        self.env: dict[str, str] = {
            "HOME": str(self.home),
            "XDG_STATE_HOME": str(self.state),
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
            "LANG": "C.UTF-8",
        }
        self.hooks = MutationHooks()
        self.timing = LockTiming()
        self.clock: Callable[[], dt.datetime] | None = None
        self.operation_id: Callable[[], str] | None = None

    def seams(self, cwd: Path | None = None) -> Seams:
        where = str(cwd or self.root)
        seams = Seams(
            environ=dict(self.env), cwd=lambda: where, hooks=self.hooks, lock_timing=self.timing
        )
        if self.clock is not None:
            seams = dataclasses.replace(seams, clock=self.clock)
        if self.operation_id is not None:
            seams = dataclasses.replace(seams, operation_id=self.operation_id)
        return seams

    def run(self, *argv: str, cwd: Path | None = None) -> Result:
        """In-process `cli.main(argv)` with captured byte-level streams."""
        code, out, err = run_in_process(list(argv), self.seams(cwd))
        return Result(code, out, err.decode("utf-8"))

    def sub(self, *argv: str, cwd: Path | None = None, console: bool = False) -> Result:
        """The real program as a subprocess (module form, or the console script)."""
        if console:
            script = Path(sys.executable).parent / "agents-md-compiler"
            command = [str(script), *argv]
        else:
            command = [sys.executable, "-m", "agents_md_compiler", *argv]
        done = subprocess.run(
            command,
            cwd=cwd or self.root,
            env=self.env,
            capture_output=True,
            timeout=120,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        return Result(done.returncode, done.stdout, done.stderr.decode("utf-8"))

    def m(self, *argv: str) -> list[str]:
        """argv with --manifest pointing at the minimal fixture."""
        return [*argv, "--manifest", str(self.manifest)]

    def locked(self) -> None:
        assert self.run(*self.m("lock")).code == 0

    def installed(self) -> dict[str, Any]:
        self.locked()
        result = self.run(*self.m("install", "--apply"), "--format", "json")
        assert result.code == 0, result.stderr
        return result.json

    def files(self, under: Path | None = None) -> list[str]:
        base = under or self.state
        return sorted(str(p.relative_to(base)) for p in base.rglob("*") if p.is_file())

    def fake_codex(self) -> Path:
        """A `codex` on PATH: a /bin/sh shim (short shebang) running the Python fake."""
        script = self.root / "fake_codex.py"
        script.write_text(FAKE_CODEX)
        path = self.bin / "codex"
        path.write_text(
            f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(script))} "$@"\n'
        )
        path.chmod(0o755)
        return path


# One fake codex for these tests and the differential scenarios.
FAKE_CODEX = (
    Path(__file__).resolve().parents[3] / "conformance" / "agents-md-compiler" / "fake_codex.py"
).read_text()


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    yield Workspace(tmp_path)


# --- minimal JSON Schema (2020-12 subset used by the shipped schemas) -------------


def _type_ok(value: Any, name: str) -> bool:
    checks: dict[str, Callable[[Any], bool]] = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: type(v) is int,
        "boolean": lambda v: type(v) is bool,
        "null": lambda v: v is None,
    }
    return checks[name](value)


def schema_errors(
    value: Any, schema: dict[str, Any], root: dict[str, Any], where: str = "$"
) -> list[str]:
    errors: list[str] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/$defs/"), ref
        errors += schema_errors(value, root["$defs"][ref.split("/")[-1]], root, where)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_ok(value, n) for n in names):
            return [*errors, f"{where}: not of type {names}"]
    if "const" in schema and not (
        value == schema["const"] and type(value) is type(schema["const"])
    ):
        errors.append(f"{where}: not const {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: not in enum")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{where}: too short")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{where}: does not match {schema['pattern']}")
    if type(value) is int and "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{where}: below minimum")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{where}: too few items")
        if "items" in schema:
            for index, item in enumerate(value):
                errors += schema_errors(item, schema["items"], root, f"{where}[{index}]")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{where}: missing {key}")
        props = schema.get("properties", {})
        for key, item in value.items():
            if key in props:
                errors += schema_errors(item, props[key], root, f"{where}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: unexpected key {key}")
    for sub in schema.get("allOf", []):
        errors += schema_errors(value, sub, root, where)
    if "anyOf" in schema and not any(
        not schema_errors(value, s, root, where) for s in schema["anyOf"]
    ):
        errors.append(f"{where}: matches no anyOf branch")
    if "oneOf" in schema:
        matches = sum(1 for s in schema["oneOf"] if not schema_errors(value, s, root, where))
        if matches != 1:
            errors.append(f"{where}: matches {matches} oneOf branches")
    if "not" in schema and not schema_errors(value, schema["not"], root, where):
        errors.append(f"{where}: matches a forbidden schema")
    if "if" in schema and not schema_errors(value, schema["if"], root, where):
        errors += schema_errors(value, schema.get("then", {}), root, where)
    return errors


SUPPORTED_KEYWORDS = {
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "title",
    "description",
    "type",
    "const",
    "enum",
    "pattern",
    "minLength",
    "minimum",
    "minItems",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
}


def load_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


class SchemaKit:
    """What the schema tests need: the shipped schemas, the validator, its keyword set."""

    directory = SCHEMAS
    keywords = SUPPORTED_KEYWORDS

    @staticmethod
    def load(name: str) -> dict[str, Any]:
        return load_schema(name)

    @staticmethod
    def errors(value: Any, name: str) -> list[str]:
        schema = load_schema(name)
        return schema_errors(value, schema, schema)


@pytest.fixture
def schemas() -> SchemaKit:
    return SchemaKit()


@pytest.fixture
def assert_schema() -> Callable[[Any, str], None]:
    def check(value: Any, name: str) -> None:
        errors = SchemaKit.errors(value, name)
        assert errors == [], errors

    return check


@pytest.fixture
def make_workspace() -> Callable[[Path], Workspace]:
    """For hypothesis tests, which need a fresh tree per example."""
    return Workspace
