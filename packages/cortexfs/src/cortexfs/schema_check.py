"""Check a call's arguments against the tool's projected JSON Schema before any server
runs, so a malformed call is exit 2 / EINVAL from CortexFS rather than whatever the
server makes of it.

The checked vocabulary is what MCP servers emit for `inputSchema` (JSON Schema 2020-12
and draft-07): type, enum, const, the object, array, string and number keywords,
allOf/anyOf/oneOf/not, if/then/else, and `$ref` into the same document. `format` is an
annotation (as 2020-12 says by default); a `$ref` to another document is not followed,
so that part is left to the server. Pure, stdlib only.
"""

from __future__ import annotations

import re
from typing import Any

_TYPES = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
}


class SchemaMismatch(ValueError):
    """The arguments do not match; the message names where (`$.a.b[0]`) and why."""


def _kind(value: object) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](value):
            return name
    return type(value).__name__


def _json_equal(a: object, b: object) -> bool:
    """JSON equality: true is not 1, 1 is 1.0, containers compare element-wise."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return a == b  # None, strings and numbers (1 == 1.0)


def _resolve(root: Any, ref: str) -> Any:
    """`#` or `#/json/pointer` in the same document; None for anything else."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


class _Checker:
    def __init__(self, root: Any) -> None:
        self.root = root

    def check(self, schema: Any, value: Any, where: str, depth: int = 0) -> None:
        if schema is False:
            raise SchemaMismatch(f"{where}: no value is allowed here")
        if not isinstance(schema, dict):
            return
        if depth > 64:
            raise SchemaMismatch(f"{where}: schema nesting over 64 levels ($ref loop?)")
        if "$ref" in schema and isinstance(schema["$ref"], str):
            target = _resolve(self.root, schema["$ref"])
            if target is not None:
                self.check(target, value, where, depth + 1)
        self._type(schema, value, where)
        self._combinators(schema, value, where, depth)
        if isinstance(value, dict):
            self._object(schema, value, where, depth)
        elif isinstance(value, list):
            self._array(schema, value, where, depth)
        elif isinstance(value, str):
            self._string(schema, value, where)
        elif _TYPES["number"](value):
            self._number(schema, value, where)

    def _type(self, schema: dict[str, Any], value: Any, where: str) -> None:
        wanted = schema.get("type")
        names = [wanted] if isinstance(wanted, str) else wanted
        if isinstance(names, list) and not any(
            n in _TYPES and _TYPES[n](value) for n in names if isinstance(n, str)
        ):
            raise SchemaMismatch(f"{where}: expected {' or '.join(map(str, names))}, "
                                 f"got {_kind(value)}")  # fmt: skip
        enum = schema.get("enum")
        if isinstance(enum, list) and not any(_json_equal(value, e) for e in enum):
            raise SchemaMismatch(f"{where}: not one of the allowed values")
        if "const" in schema and not _json_equal(value, schema["const"]):
            raise SchemaMismatch(f"{where}: not the required constant")

    def _passes(self, schema: Any, value: Any, where: str, depth: int) -> bool:
        try:
            self.check(schema, value, where, depth + 1)
        except SchemaMismatch:
            return False
        return True

    def _combinators(self, schema: dict[str, Any], value: Any, where: str, depth: int) -> None:
        for sub in _list(schema.get("allOf")):
            self.check(sub, value, where, depth + 1)
        any_of = _list(schema.get("anyOf"))
        if any_of and not any(self._passes(s, value, where, depth) for s in any_of):
            raise SchemaMismatch(f"{where}: matches none of anyOf")
        one_of = _list(schema.get("oneOf"))
        if one_of and sum(self._passes(s, value, where, depth) for s in one_of) != 1:
            raise SchemaMismatch(f"{where}: does not match exactly one of oneOf")
        if "not" in schema and self._passes(schema["not"], value, where, depth):
            raise SchemaMismatch(f"{where}: matches a schema it must not")
        if "if" in schema:
            branch = "then" if self._passes(schema["if"], value, where, depth) else "else"
            if branch in schema:
                self.check(schema[branch], value, where, depth + 1)

    def _object(self, schema: dict[str, Any], value: dict[str, Any], where: str, depth: int,
                ) -> None:  # fmt: skip
        for name in _list(schema.get("required")):
            if isinstance(name, str) and name not in value:
                raise SchemaMismatch(f"{where}: missing required property {name!r}")
        for name, needs in _dict(schema.get("dependentRequired")).items():
            missing = [n for n in _list(needs) if name in value and n not in value]
            if missing:
                raise SchemaMismatch(f"{where}: {name!r} requires property {missing[0]!r}")
        _bounds(len(value), schema, "minProperties", "maxProperties", where, "properties")
        properties = _dict(schema.get("properties"))
        patterns = _dict(schema.get("patternProperties"))
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            at = f"{where}.{key}"
            if "propertyNames" in schema:
                self.check(schema["propertyNames"], key, at, depth + 1)
            matched = [s for p, s in patterns.items() if _search(p, key)]
            for sub in matched:
                self.check(sub, item, at, depth + 1)
            if key in properties:
                self.check(properties[key], item, at, depth + 1)
            elif not matched:
                if extra is False:
                    raise SchemaMismatch(f"{where}: unexpected property {key!r}")
                self.check(extra, item, at, depth + 1)

    def _array(self, schema: dict[str, Any], value: list[Any], where: str, depth: int) -> None:
        _bounds(len(value), schema, "minItems", "maxItems", where, "items")
        prefix = _list(schema.get("prefixItems"))
        items = schema.get("items", True)
        if isinstance(items, list):  # draft-07 tuple form
            prefix, items = items, schema.get("additionalItems", True)
        for index, item in enumerate(value):
            sub = prefix[index] if index < len(prefix) else items
            self.check(sub, item, f"{where}[{index}]", depth + 1)
        if schema.get("uniqueItems") is True:
            for i, a in enumerate(value):
                if any(_json_equal(a, b) for b in value[i + 1 :]):
                    raise SchemaMismatch(f"{where}: items are not unique")
        if "contains" in schema and not any(
            self._passes(schema["contains"], v, where, depth) for v in value
        ):
            raise SchemaMismatch(f"{where}: no item matches contains")

    def _string(self, schema: dict[str, Any], value: str, where: str) -> None:
        _bounds(len(value), schema, "minLength", "maxLength", where, "characters")
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and not _search(pattern, value):
            raise SchemaMismatch(f"{where}: does not match pattern {pattern!r}")

    def _number(self, schema: dict[str, Any], value: float, where: str) -> None:
        def limit(key: str) -> float | None:
            bound = schema.get(key)
            ok = isinstance(bound, int | float) and not isinstance(bound, bool)
            return bound if ok else None

        low, high = limit("minimum"), limit("maximum")
        below, above = limit("exclusiveMinimum"), limit("exclusiveMaximum")
        if low is not None and value < low:
            raise SchemaMismatch(f"{where}: must be >= {low}")
        if high is not None and value > high:
            raise SchemaMismatch(f"{where}: must be <= {high}")
        if below is not None and value <= below:
            raise SchemaMismatch(f"{where}: must be > {below}")
        if above is not None and value >= above:
            raise SchemaMismatch(f"{where}: must be < {above}")
        step = limit("multipleOf")
        if step and not _multiple(value, step):
            raise SchemaMismatch(f"{where}: not a multiple of {step}")


def _multiple(value: float, step: float) -> bool:
    if isinstance(value, int) and isinstance(step, int):
        return value % step == 0
    try:
        quotient = value / step
        return int(quotient) == quotient
    except (OverflowError, ZeroDivisionError):
        return False


def _search(pattern: str, text: str) -> bool:
    """A pattern Python cannot compile is not held against the caller."""
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return True


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _bounds(size: int, schema: dict[str, Any], low: str, high: str, where: str, unit: str,
            ) -> None:  # fmt: skip
    least, most = schema.get(low), schema.get(high)
    if isinstance(least, int) and size < least:
        raise SchemaMismatch(f"{where}: fewer than {least} {unit}")
    if isinstance(most, int) and size > most:
        raise SchemaMismatch(f"{where}: more than {most} {unit}")


def check_arguments(schema: Any, arguments: dict[str, Any]) -> None:
    """SchemaMismatch naming the first place `arguments` breaks `schema`."""
    _Checker(schema).check(schema, arguments, "$")
