"""Minimal textual edits to JSON / JSONC documents (the one JSONC editor of upskill).

Client config files (`.vscode/mcp.json`, `opencode.json`, `~/.claude.json`)
are hand-edited and may carry `//` and `/* */` comments and trailing commas.
Re-serialising them would drop comments and churn formatting, and no
maintained Python library does comment-preserving round trips (json5 and
commentjson parse but cannot write back), so we parse into a span tree and
splice only the bytes of the member we add, replace or delete. Everything
else, comments included, stays byte-identical.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from upskill.errors import UpskillError


class JsoncError(UpskillError):
    """The document is not JSON/JSONC, or a path in it has the wrong type."""


@dataclass
class Node:
    start: int
    end: int
    kind: str  # "object" | "array" | "scalar"
    value: object = None
    members: list[Member] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)
    commas: list[int | None] = field(default_factory=list)  # per member/item


@dataclass
class Member:
    key: str
    key_start: int
    value: Node


_WS = " \t\r\n"


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, message: str, at: int | None = None) -> JsoncError:
        where = self.pos if at is None else at
        line = self.text.count("\n", 0, where) + 1
        return JsoncError(f"invalid JSON: {message}", line=line)

    def skip(self) -> None:
        t = self.text
        while self.pos < len(t):
            c = t[self.pos]
            if c in _WS:
                self.pos += 1
            elif t.startswith("//", self.pos):
                nl = t.find("\n", self.pos)
                self.pos = len(t) if nl < 0 else nl
            elif t.startswith("/*", self.pos):
                close = t.find("*/", self.pos + 2)
                if close < 0:
                    raise self.fail("unterminated comment")
                self.pos = close + 2
            else:
                return

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def value(self) -> Node:
        c = self.peek()
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c == '"':
            start = self.pos
            text = self.string()
            return Node(start, self.pos, "scalar", text)
        return self.scalar()

    def string(self) -> str:
        start = self.pos
        t = self.text
        i = start + 1
        while i < len(t):
            if t[i] == "\\":
                i += 2
                continue
            if t[i] == '"':
                self.pos = i + 1
                try:
                    return str(json.loads(t[start : i + 1]))
                except json.JSONDecodeError as exc:
                    raise self.fail(f"bad string ({exc.msg})", start) from None
            if t[i] == "\n":
                break
            i += 1
        raise self.fail("unterminated string", start)

    def scalar(self) -> Node:
        start = self.pos
        t = self.text
        end = start
        while end < len(t) and (t[end].isalnum() or t[end] in "+-.eE"):
            end += 1
        token = t[start:end]
        if not token:
            raise self.fail("expected a value" if start < len(t) else "unexpected end of input")
        try:
            value = json.loads(token)
        except json.JSONDecodeError:
            raise self.fail(f"unexpected {token!r}", start) from None
        except ValueError:  # a number beyond Python's int conversion limit (4,300 digits)
            raise self.fail(f"number too long ({len(token)} characters)", start) from None
        self.pos = end
        return Node(start, end, "scalar", value)

    def _expect(self, char: str) -> int:
        if self.peek() != char:
            raise self.fail(f"expected {char!r}")
        self.pos += 1
        return self.pos - 1

    def _comma(self, closer: str) -> tuple[int | None, bool]:
        """Consume an optional comma; report whether the container closes next."""
        c = self.peek()
        if c == ",":
            at = self.pos
            self.pos += 1
            return at, self.peek() == closer
        if c == closer:
            return None, True
        raise self.fail(f"expected ',' or {closer!r}")

    def obj(self) -> Node:
        node = Node(self._expect("{"), 0, "object")
        done = self.peek() == "}"
        while not done:
            if self.peek() != '"':
                raise self.fail("expected a string key")
            key_start = self.pos
            key = self.string()
            self._expect(":")
            node.members.append(Member(key, key_start, self.value()))
            comma, done = self._comma("}")
            node.commas.append(comma)
        node.end = self._expect("}") + 1
        node.value = {m.key: to_python(m.value) for m in node.members}
        return node

    def arr(self) -> Node:
        node = Node(self._expect("["), 0, "array")
        done = self.peek() == "]"
        while not done:
            node.items.append(self.value())
            comma, done = self._comma("]")
            node.commas.append(comma)
        node.end = self._expect("]") + 1
        node.value = [to_python(i) for i in node.items]
        return node


def to_python(node: Node) -> object:
    return node.value


def parse(text: str) -> Node:
    """Parse a whole document into a span tree (comments and trailing commas allowed)."""
    parser = _Parser(text)
    try:
        node = parser.value()
    except RecursionError:  # a hostile file 100,000 brackets deep: one error, no traceback
        raise JsoncError("invalid JSON: nested too deeply", line=1) from None
    if parser.peek():
        raise parser.fail("trailing content")
    return node


def loads(text: str) -> object:
    return to_python(parse(text))


def _indent_unit(text: str) -> str:
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            return line[: len(line) - len(stripped)]
    return "  "


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    prefix = text[start:pos]
    return prefix[: len(prefix) - len(prefix.lstrip(" \t"))]


def _dump(value: object, indent: str, unit: str) -> str:
    return json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + indent)


def _find(node: Node, key: str) -> int | None:
    for i, member in enumerate(node.members):
        if member.key == key:
            return i
    return None


def _end_of_line_after(text: str, pos: int) -> int:
    """Position of the newline ending `pos`'s line if only blanks/a comment follow, else pos."""
    i = pos
    while i < len(text) and text[i] in " \t":
        i += 1
    if text.startswith("//", i):
        nl = text.find("\n", i)
        return len(text) if nl < 0 else nl
    if i >= len(text) or text[i] in "\r\n":
        return i
    return pos


def _object_at(root: Node, keys: tuple[str, ...]) -> tuple[Node, tuple[str, ...]]:
    """Walk existing objects along `keys`; return the deepest one and the missing rest."""
    node = root
    for depth, key in enumerate(keys):
        if node.kind != "object":
            raise JsoncError(f"{'.'.join(keys[:depth]) or 'top level'} is not an object")
        i = _find(node, key)
        if i is None:
            return node, keys[depth:]
        node = node.members[i].value
    if node.kind != "object":
        raise JsoncError(f"{'.'.join(keys) or 'top level'} is not an object")
    return node, ()


def set_member(text: str, keys: tuple[str, ...], value: object) -> str:
    """Set `keys[-1]` inside the object at `keys[:-1]`, creating objects on the way."""
    root = parse(text)
    parent, missing = _object_at(root, keys[:-1])
    unit = _indent_unit(text)
    if not missing:
        i = _find(parent, keys[-1])
        if i is not None:
            old = parent.members[i].value
            if to_python(old) == value and type(to_python(old)) is type(value):
                return text
            indent = _line_indent(text, parent.members[i].key_start)
            return text[: old.start] + _dump(value, indent, unit) + text[old.end :]
    nested: object = value
    for key in reversed((*missing, keys[-1])[1:]):
        nested = {key: nested}
    first = (*missing, keys[-1])[0]
    return _insert_member(text, parent, first, nested, unit)


def _insert_member(text: str, obj: Node, key: str, value: object, unit: str) -> str:
    if "\n" not in text.strip():  # a one-line document stays on one line
        member = json.dumps(key) + ": " + json.dumps(value, ensure_ascii=False)
        if not obj.members:
            return text[: obj.start + 1] + member + text[obj.start + 1 :]
        if obj.commas[-1] is not None:
            return text[: obj.end - 1] + " " + member + text[obj.end - 1 :]
        last_end = obj.members[-1].value.end
        return text[:last_end] + ", " + member + text[last_end:]
    if obj.members:
        indent = _line_indent(text, obj.members[0].key_start)
        member = json.dumps(key) + ": " + _dump(value, indent, unit)
        comma = obj.commas[-1]
        if comma is not None:  # JSONC trailing comma: keep the style
            at = _end_of_line_after(text, comma + 1)
            return text[:at] + "\n" + indent + member + "," + text[at:]
        last_end = obj.members[-1].value.end
        at = _end_of_line_after(text, last_end)
        return text[:last_end] + "," + text[last_end:at] + "\n" + indent + member + text[at:]
    outer = _line_indent(text, obj.start)
    indent = outer + unit
    member = json.dumps(key) + ": " + _dump(value, indent, unit)
    inside = text[obj.start + 1 : obj.end - 1]
    tail = "" if "\n" in inside else "\n" + outer
    return text[: obj.start + 1] + "\n" + indent + member + tail + text[obj.start + 1 :]


def _cut(text: str, start: int, end: int) -> str:
    """Delete [start, end), taking the whole line when nothing else is on it."""
    line_start = text.rfind("\n", 0, start) + 1
    after = _end_of_line_after(text, end)
    alone = after >= len(text) or text[after] in "\r\n"
    if not text[line_start:start].strip() and alone:
        return text[: line_start - 1 if line_start else 0] + text[after:]
    return text[:start] + text[end:]


def _delete_entry(text: str, container: Node, i: int, start: int, end: int) -> str:
    """Delete entry `i` (spanning [start, end)) of an object or array, with its comma."""
    comma = container.commas[i]
    if comma is not None:
        after = comma + 1
        while after < len(text) and text[after] == " ":
            after += 1
        return _cut(text, start, after)
    if i > 0:
        previous_comma = container.commas[i - 1]
        assert previous_comma is not None
        return text[:previous_comma] + text[end:]
    return _cut(text, start, end)


def delete_member(text: str, keys: tuple[str, ...]) -> str:
    """Delete `keys[-1]` from the object at `keys[:-1]`; unchanged text when absent."""
    root = parse(text)
    parent, missing = _object_at(root, keys[:-1])
    i = None if missing else _find(parent, keys[-1])
    if i is None:
        return text
    member = parent.members[i]
    text = _delete_entry(text, parent, i, member.key_start, member.value.end)
    if len(parent.members) > 1:
        return text
    return _close_if_empty(text, parent.start, "}")


def _close_if_empty(text: str, opener: int, closer: str) -> str:
    """Join an emptied container's `closer` to its opening bracket at `opener`.

    Deleting the last entry line by line leaves the brackets on lines of their own, which reads
    as a layout left half-edited; `[]` / `{}` is what a person would write. Only blanks are
    dropped: a comment still inside is the user's, so then the layout stays as it is. (A
    closer inside such a comment is found first, but the comment makes the span non-blank.)
    """
    close = text.index(closer, opener)
    if text[opener + 1 : close].strip():
        return text
    return text[: opener + 1] + text[close:]


def array_at(text: str, keys: tuple[str, ...]) -> list[object] | None:
    """The Python list at `keys`, or None when absent (error when not a list)."""
    node = parse(text)
    for key in keys:
        if node.kind != "object":
            return None
        i = _find(node, key)
        if i is None:
            return None
        node = node.members[i].value
    if node.kind != "array":
        raise JsoncError(f"{'.'.join(keys)} is not an array")
    return [to_python(n) for n in node.items]


def append_item(text: str, keys: tuple[str, ...], value: object) -> str:
    """Append `value` to the array at `keys` (created when absent); no-op when present."""
    current = array_at(text, keys)
    if current is None:
        return set_member(text, keys, [value])
    if value in current:
        return text
    node = _array_node(text, keys)
    item = json.dumps(value, ensure_ascii=False)
    if not node.items:
        return text[: node.start + 1] + item + text[node.start + 1 :]
    last = node.items[-1]
    if node.commas[-1] is not None:
        at = node.commas[-1] + 1
        return text[:at] + " " + item + "," + text[at:]
    if "\n" in text[node.start : node.end]:
        indent = _line_indent(text, last.start)
        at = _end_of_line_after(text, last.end)
        return text[: last.end] + "," + text[last.end : at] + "\n" + indent + item + text[at:]
    return text[: last.end] + ", " + item + text[last.end :]


def remove_item(text: str, keys: tuple[str, ...], value: object) -> str:
    """Remove every element equal to `value` from the array at `keys`; an array left
    empty closes up to `[]`, as `delete_member` does for `{}`."""
    current = array_at(text, keys)
    while current is not None and value in current:
        node = _array_node(text, keys)
        i = current.index(value)
        text = _delete_entry(text, node, i, node.items[i].start, node.items[i].end)
        current = array_at(text, keys)
        if not current:
            text = _close_if_empty(text, node.start, "]")
    return text


def _array_node(text: str, keys: tuple[str, ...]) -> Node:
    node = parse(text)
    for key in keys:
        i = _find(node, key)
        assert i is not None
        node = node.members[i].value
    return node
