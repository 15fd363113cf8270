"""`render_item`: one SSOT item -> the files one client reads.

Pure: the item already holds its body, overrides and resource bytes, so the
result depends only on the arguments. Paths are POSIX, relative to the
install root (project dir or $HOME); `Site` says which, since some clients read
their user-level content from other directories than their project content.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from upskill.blobs import Payload
from upskill.clients import family, get, render_target
from upskill.clients.base import Carrier
from upskill.errors import RenderError
from upskill.format.model import Item, Rule
from upskill.format.names import name_problem
from upskill.markdown import LinkRewrite
from upskill.render.body import render_body
from upskill.render.compiled import section_bytes
from upskill.render.frontmatter import build_frontmatter
from upskill.render.imports import at_imports, import_note
from upskill.render.tables import (
    GENERATED_FILE_MODE,
    PROJECT,
    Site,
    carrier,
    layout,
    placement,
)
from upskill.render.toml_emit import emit_strings
from upskill.render.yaml_emit import emit_mapping


@dataclass(frozen=True)
class OutputFile:
    path: str  # POSIX, relative to the install root
    data: Payload  # resources above `blobs.STREAM_THRESHOLD` by reference
    mode: int


@dataclass(frozen=True)
class Rendering:
    files: tuple[OutputFile, ...]
    warnings: tuple[str, ...]


def targets_client(item: Item, client: str) -> bool:
    """Whether the item's `audience:` admits `client` (vscode counts as copilot)."""
    return item.audience is None or family(client) in item.audience


def output_path(item: Item, client: str, *, alias: str | None = None, site: Site = PROJECT) -> str:
    """The entrypoint path `render_item` writes for this item and client."""
    return layout(item.kind, render_target(client), site).entrypoint(alias or item.name)


def assemble(frontmatter: str, body: str) -> str:
    if not body:
        return f"---\n{frontmatter}---\n"
    return f"---\n{frontmatter}---\n\n{body}"


# The role-file keys a TOML-carried agent may hold, in order; the body is the last one.
TOML_KEYS = ("name", "description", "model")
TOML_BODY = "developer_instructions"


def emit_frontmatter(fields: dict[str, object], raw: frozenset[str]) -> str:
    """YAML frontmatter; keys in `raw` (string values) follow verbatim, unquoted."""
    verbatim = {k: v for k, v in fields.items() if k in raw and type(v) is str}
    text = emit_mapping({k: v for k, v in fields.items() if k not in verbatim})
    return text + "".join(f"{k}: {v}\n" for k, v in verbatim.items())


def toml_document(fields: dict[str, object], body: str) -> tuple[str, list[str]]:
    """A TOML role file: the string fields it knows, then the body; the names of the
    fields it had to leave out (a list of tools, a passthrough key of another type)."""
    kept = {k: v for k, v in fields.items() if k in TOML_KEYS and type(v) is str}
    dropped = [k for k in fields if k not in kept]
    text = emit_strings({**kept, TOML_BODY: body}, long=frozenset({TOML_BODY}))
    return text, dropped


# The JSON agent file's first keys (Kiro CLI's agent configuration); the body is `prompt`.
JSON_BODY = "prompt"


def json_document(fields: dict[str, object], body: str) -> str:
    """A JSON agent file: `name`, `description`, the body as `prompt`, then the client's
    other fields, two-space indented with a final newline (rulesync 17 `kiro` target)."""
    head = {k: fields[k] for k in ("name", "description") if k in fields}
    rest = {k: v for k, v in fields.items() if k not in head and k != JSON_BODY}
    return json.dumps({**head, JSON_BODY: body, **rest}, indent=2, ensure_ascii=False) + "\n"


def render_item(
    item: Item, client: str, *, alias: str | None = None, site: Site = PROJECT
) -> Rendering:
    """Render `item` for `client` (claude, copilot, vscode or opencode).

    `alias` installs the item under another name: paths, the resource
    directory, link prefixes and the emitted `name:` all use it.
    """
    target = render_target(client)
    if not targets_client(item, client):
        audience = ", ".join(item.audience or ())
        return Rendering(
            (),
            (
                f"{item.entrypoint}: {item.kind.value} {item.name!r} skipped for "
                f"{client}: its audience is {audience}",
            ),
        )
    if placement(item.kind, target, site) is None:
        return Rendering(
            (),
            (f"{item.entrypoint}: {client} has no place for {item.kind.plural}; not delivered",),
        )
    if alias is not None and (problem := name_problem(alias)) is not None:
        raise RenderError(f"invalid alias: {problem}", path=item.entrypoint)
    return _render(item, target, alias or item.name, site)


# Small: the point is sharing one rendering between copilot and vscode, and
# renderings hold resource bytes.
@functools.lru_cache(maxsize=64)
def _render(item: Item, target: str, name: str, site: Site) -> Rendering:
    """Items are immutable and hash by identity, so copilot and vscode share one rendering."""
    where = layout(item.kind, target, site)
    rewrite = LinkRewrite(name, item.resource_paths) if where.flat and item.resources else None
    if carrier(item.kind, target) is Carrier.COMPILED:
        # A section of the client's one instructions file (`lifecycle.compiled`).
        if isinstance(item, Rule) and item.scope_paths:
            why = f"{target} reads one instructions file, without file patterns"
            return Rendering((), (f"{item.entrypoint}: path-scoped rule not delivered: {why}",))
        body = render_body(item, target, None)
        data = section_bytes(body)
        lost = [f"{item.entrypoint}: {target} reads one instructions file: resources not delivered"]
        spec = get(target)
        notes = [import_note(spec.name, w) for _, w in at_imports(body)] if spec.at_imports else []
        return Rendering(
            (OutputFile(where.entrypoint(name), data, GENERATED_FILE_MODE),),
            tuple((lost if item.resources else []) + [f"{item.entrypoint}: {n}" for n in notes]),
        )
    fields, warnings = build_frontmatter(item, target, name, site)
    body = render_body(item, target, rewrite)
    if carrier(item.kind, target) is Carrier.TOML:
        text, dropped = toml_document(fields, body)
        warnings += [f"{item.entrypoint}: field {k!r} has no {target} equivalent" for k in dropped]
    elif carrier(item.kind, target) is Carrier.JSON:
        text = json_document(fields, body)
    elif isinstance(item, Rule) and get(target).bare_rules:
        text = body
        if item.scope_paths:
            warnings.append(
                f"{item.entrypoint}: {target} reads no `paths:`: the rule applies everywhere"
            )
    else:
        text = assemble(emit_frontmatter(fields, get(target).raw_keys), body)
    files = [OutputFile(where.entrypoint(name), text.encode("utf-8"), GENERATED_FILE_MODE)]
    base = where.resource_dir(name)
    files.extend(OutputFile(f"{base}/{r.path}", r.data, r.mode) for r in item.resources)
    return Rendering(tuple(files), tuple(warnings))
