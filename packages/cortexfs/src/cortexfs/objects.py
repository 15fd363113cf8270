"""Executable objects: 0555 metadata files whose shebang hands them to the object runner."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from cortexfs.names import name_problem

RUNNER_NAME = "cortexfs-object-runner"
MAX_OBJECT_BYTES = 4096


class ObjectClass(Enum):
    BIN = "bin"
    MODEL = "model"
    AGENT = "agent"
    TOOL = "tool"
    CHANNEL = "channel"


@dataclass(frozen=True)
class ObjectHeader:
    runner: str
    object_class: ObjectClass
    name: str


def render_object(header: ObjectHeader) -> bytes:
    return (
        f"#!{header.runner}\n"
        f"# cortexfs.object={header.object_class.value}\n"
        f"# cortexfs.name={header.name}\n"
    ).encode()


def _valid_object_name(object_class: ObjectClass, name: str) -> bool:
    parts = name.split("/") if object_class is ObjectClass.MODEL else [name]
    return len(parts) <= 2 and all(name_problem(part) is None for part in parts)


def parse_object(data: bytes) -> ObjectHeader:
    """Parse an object file; ValueError unless it is exactly a runner header."""
    if len(data) > MAX_OBJECT_BYTES:
        raise ValueError("object file too large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("object file is not UTF-8") from exc
    lines = text.split("\n")
    if len(lines) != 4 or lines[3] != "":
        raise ValueError("object file must be exactly three lines")
    shebang, kind_line, name_line = lines[:3]
    runner = shebang.removeprefix("#!")
    if runner == shebang or not runner.startswith("/") or not runner.endswith(RUNNER_NAME):
        raise ValueError(f"shebang must name an absolute path to {RUNNER_NAME}")
    class_text = kind_line.removeprefix("# cortexfs.object=")
    name = name_line.removeprefix("# cortexfs.name=")
    if class_text == kind_line or name == name_line:
        raise ValueError("missing '# cortexfs.object=' or '# cortexfs.name=' line")
    try:
        object_class = ObjectClass(class_text)
    except ValueError as exc:
        raise ValueError(f"unknown object class {class_text!r}") from exc
    if not _valid_object_name(object_class, name):
        raise ValueError(f"bad object name {name!r}")
    return ObjectHeader(runner, object_class, name)
