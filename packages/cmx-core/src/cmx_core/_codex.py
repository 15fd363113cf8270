"""Markdown agent → Codex TOML subagent, matching the reference byte for byte."""

from __future__ import annotations

from cmx_core._frontmatter import split_frontmatter
from cmx_core._whitespace import trim

_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def toml_basic_string(value: str) -> str:
    out = ['"']
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _rust_lines(text: str) -> list[str]:
    """Rust's `str::lines`: split on `\\n`, drop one trailing `\\r`, no final empty line."""
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return [p[:-1] if p.endswith("\r") else p for p in parts]


def _field(frontmatter: str | None, key: str) -> str | None:
    if frontmatter is None:
        return None
    prefix = f"{key}:"
    for line in _rust_lines(frontmatter):
        if line.startswith((" ", "\t")):
            continue
        if line.startswith(prefix):
            return trim(line[len(prefix) :]).strip("'\"")
    return None


def markdown_to_codex_toml(markdown: str, fallback_name: str) -> str:
    spans = split_frontmatter(markdown)
    frontmatter, body = (None, markdown) if spans is None else (spans.inner, spans.body)
    name = _field(frontmatter, "name") or fallback_name
    description = _field(frontmatter, "description") or ""
    model = _field(frontmatter, "model")
    lines = [f"name = {toml_basic_string(name)}", f"description = {toml_basic_string(description)}"]
    if model:
        lines.append(f"model = {toml_basic_string(model)}")
    lines.append(f"developer_instructions = {toml_basic_string(body.rstrip(chr(10)))}")
    return "\n".join(lines) + "\n"
