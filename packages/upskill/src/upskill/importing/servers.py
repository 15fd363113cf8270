"""Read the MCP servers the selected clients are configured with, as bundle `mcps:` entries.

Where each client keeps its servers, and how it spells an entry, is the registry's
`McpRoute` (`root_key`, the config file per scope, the entry style, the `env_ref`
syntax). An entry is read back in any of the spellings `mcp/shapes.py` writes, and
Codex's forms (`env_vars`, `env_http_headers`, `bearer_token_env_var`) and a client's
reference syntax (`{env:VAR}`, `${env:VAR}`) become `${VAR}`. A literal secret is
replaced by a `${VAR}` reference plus `requires-env`, with a note naming the file and
key and never the value (`secrets`). A client that shell-expands values (Crush) has
them read as it expands them (`shellvalue.unshell`); a server one of whose values it
would evaluate is left out with a `skip` note, never imported as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upskill import jsonc
from upskill.clientconf.places import Places, locate
from upskill.clients import BY_ID
from upskill.clients.base import Base, ConfigFile, EntryStyle
from upskill.errors import FormatError
from upskill.importing import secrets
from upskill.importing.model import Note, NoteKind
from upskill.importing.names import slug
from upskill.importing.read import parse_toml, read_text
from upskill.mcp import shellvalue
from upskill.mcp.shapes import name_problem

KNOWN_KEYS = frozenset(
    {
        "type",
        "command",
        "args",
        "env",
        "environment",
        "url",
        "httpUrl",
        "serverUrl",
        "headers",
        "http_headers",
        "env_vars",
        "env_http_headers",
        "bearer_token_env_var",
    }
)


@dataclass(frozen=True)
class FoundServer:
    """One server as a bundle `mcps:` entry: `{local|remote: …, requires-env: […]}`."""

    name: str
    client: str
    path: str
    entry: Mapping[str, Any]


def _unref(template: str | None) -> re.Pattern[str] | None:
    """A pattern matching a client's own reference syntax (`{env:NAME}`), or None."""
    if template is None or template == "${NAME}":
        return None
    return re.compile(re.escape(template).replace("NAME", r"([A-Za-z_][A-Za-z0-9_]*)"))


class _Reader:
    """Turns one client entry into the portable entry, collecting notes as it goes."""

    def __init__(self, server: str, path: str, template: str | None, shell: bool) -> None:
        self.server = server
        self.shell = shell
        self.path = path
        self.pattern = _unref(template)
        self.notes: list[Note] = []
        self.required: list[str] = []

    def value(self, where: str, key: str, raw: object, *, keyed: bool, field: str) -> str:
        """The portable text of one value; `field` names it (`args[2]`, `env.K`) in the
        `_Evaluated` a shell-expanding client's value raises when it is not a literal."""
        text = raw if isinstance(raw, str) else str(raw)
        if self.shell:
            try:
                text = shellvalue.unshell(text)
            except shellvalue.Unexpressible as exc:
                raise _Evaluated(f"{field} {exc}") from None
        if self.pattern is not None:
            text = self.pattern.sub(lambda m: "${" + m.group(1) + "}", text)
        secret = secrets.looks_secret(key, text) if keyed else _shaped(text)
        if secret:
            var = self._variable(where, key)
            text = f"{secrets.scheme_of(text)}${{{var}}}" if keyed else _redact(text, var)
            self.notes.append(
                Note(
                    NoteKind.SECRET,
                    f"{self.path}: mcp server {self.server!r}: {where} {key!r} holds a literal "
                    f"secret; imported as ${{{var}}} (set {var} in the environment)",
                )
            )
        for ref in secrets.ENV_REF.findall(text):
            if ref not in self.required:
                self.required.append(ref)
        return text

    def _variable(self, where: str, key: str) -> str:
        if where == "env" and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
            return key
        suffix = "TOKEN" if key.lower() == "authorization" else key
        return secrets.env_name(f"{self.server}_{suffix}")

    def mapping(self, where: str, raw: object, label: str) -> dict[str, str]:
        if not isinstance(raw, dict):
            return {}
        return {
            str(k): self.value(where, str(k), v, keyed=True, field=f"{label}.{k}")
            for k, v in raw.items()
        }


class _Evaluated(Exception):
    """A value the client would evaluate as shell code: the server is not imported."""


def _shaped(text: str) -> bool:
    return secrets.TOKEN_SHAPES.search(secrets.literal_part(text)) is not None


def _redact(text: str, var: str) -> str:
    return secrets.TOKEN_SHAPES.sub("${" + var + "}", text)


def portable_entry(
    name: str,
    entry: Mapping[str, Any],
    path: str,
    template: str | None,
    style: EntryStyle = EntryStyle.STANDARD,
    *,
    shell: bool = False,
) -> tuple[dict[str, Any] | None, list[Note]]:
    """The bundle `mcps:` value for one client entry, and its notes; None, with a `skip`
    note, when the client shell-expands values (`shell`) and would evaluate one of them."""
    try:
        return _portable(name, entry, path, _Reader(name, path, template, shell), style)
    except _Evaluated as exc:
        message = f"{path}: mcp server {name!r}: {exc}; not imported"
        return None, [Note(NoteKind.SKIP, message)]


def _portable(
    name: str, entry: Mapping[str, Any], path: str, reader: _Reader, style: EntryStyle
) -> tuple[dict[str, Any], list[Note]]:
    command = entry.get("command")
    out: dict[str, Any]
    if command is not None:
        words = command if isinstance(command, list) else [command]
        args = [*words[1:], *(entry.get("args") or [])]
        local: dict[str, Any] = {
            "command": reader.value("command", "command", words[0], keyed=False, field="command")
        }
        if args:
            local["args"] = [
                reader.value("args", "args", a, keyed=False, field=f"args[{i}]")
                for i, a in enumerate(args)
            ]
        env = reader.mapping("env", entry.get("env") or entry.get("environment"), "env")
        for var in entry.get("env_vars") or []:
            if isinstance(var, str):
                env.setdefault(
                    var, reader.value("env", var, f"${{{var}}}", keyed=True, field=f"env.{var}")
                )
        if env:
            local["env"] = env
        out = {"local": local}
    else:
        url_key = next((k for k in ("url", "httpUrl", "serverUrl") if k in entry), None)
        if url_key is None:
            raise FormatError(f"mcp server {name!r} has neither a command nor a url", path=path)
        sse_url = style is EntryStyle.HTTPURL and url_key == "url"
        transport = "sse" if entry.get("type") == "sse" or sse_url else "http"
        remote: dict[str, Any] = {
            "type": transport,
            "url": reader.value("url", "url", entry[url_key], keyed=False, field="url"),
        }
        headers = reader.mapping(
            "header", entry.get("headers") or entry.get("http_headers"), "headers"
        )
        for header, var in (entry.get("env_http_headers") or {}).items():
            headers[str(header)] = reader.value(
                "header", str(header), f"${{{var}}}", keyed=True, field=f"headers.{header}"
            )
        bearer = entry.get("bearer_token_env_var")
        if isinstance(bearer, str):
            headers["Authorization"] = reader.value(
                "header",
                "Authorization",
                f"Bearer ${{{bearer}}}",
                keyed=True,
                field="headers.Authorization",
            )
        if headers:
            remote["headers"] = headers
        out = {"remote": remote}
    if reader.required:
        out["requires-env"] = list(reader.required)
    unknown = sorted(k for k in entry if k not in KNOWN_KEYS)
    notes = reader.notes
    if unknown:
        notes.append(
            Note(
                NoteKind.LOSSY,
                f"{path}: mcp server {name!r}: {', '.join(unknown)} not portable; left out",
            )
        )
    return out, notes


def _load(path: Path, text: str) -> object:
    if path.suffix == ".toml":
        return parse_toml(text, path)
    try:
        return jsonc.loads(text)
    except jsonc.JsoncError as exc:
        raise FormatError(exc.message, path=path, line=exc.line) from None


def _shown(path: Path, places: Places) -> str:
    bases = ((places.root, ""), (places.home, "~/"))
    # The nearer base names it (a home inside the project, as in tests, is still `~/`).
    for base, label in sorted(bases, key=lambda b: -len(b[0].parts)):
        if path.is_relative_to(base):
            return label + path.relative_to(base).as_posix()
    return path.as_posix()


def _servers_in(data: object, key: str, path: Path) -> dict[str, Any]:
    servers = data.get(key) if isinstance(data, dict) else None
    if servers is None:
        return {}
    if not isinstance(servers, dict):
        raise FormatError(f"`{key}` must be an object", path=path)
    return servers


def _project_entry(data: object, key: str, root: Path, path: Path) -> object:
    """This project's entry of a user file's per-project map (keyed by absolute path, as
    the client saw the directory: the path given or its real path)."""
    projects = data.get(key) if isinstance(data, dict) else None
    if projects is None:
        return None
    if not isinstance(projects, dict):
        raise FormatError(f"`{key}` must be an object", path=path)
    for candidate in dict.fromkeys((str(root), str(root.resolve()))):
        if candidate in projects:
            return projects[candidate]
    return None


def scan_servers(
    places: Places, clients: Iterable[str], *, home: bool
) -> tuple[list[FoundServer], list[Note]]:
    """Every server in the selected clients' config files of this scope, each file once,
    and in project scope the project's own servers a user file keeps (`per_project`)."""
    found: list[FoundServer] = []
    notes: list[Note] = []
    seen: set[tuple[Path, str]] = set()
    for client in clients:
        route = BY_ID[client].mcp
        if route is None:
            continue
        files: list[tuple[ConfigFile | None, str | None]] = [
            (route.user if home else route.project, None)
        ]
        if not home and route.per_project is not None:
            files.append((route.user, route.per_project))
        for file, per_project in files:
            if file is None:
                continue
            location = locate(file, route.root_key, places)
            path = next((p for p in (location.path, *location.alternatives) if p.is_file()), None)
            if path is None or (path, per_project or "") in seen:
                continue
            seen.add((path, per_project or ""))
            text = read_text(path, location.within if file.base is Base.ROOT else None)
            if text is None or not text.strip():
                continue
            data = _load(path, text)
            shown = _shown(path, places)
            if per_project is not None:
                data = _project_entry(data, per_project, places.root, path)
                shown = f"{shown} ({per_project} entry of this project)"
            for name, entry in _servers_in(data, route.root_key, path).items():
                if not isinstance(entry, dict):
                    raise FormatError(f"mcp server {name!r} must be an object", path=path)
                portable, more = portable_entry(
                    str(name), entry, shown, route.env_ref, route.style, shell=route.shell_expands
                )
                notes.extend(more)
                if portable is not None:
                    found.append(FoundServer(str(name), client, shown, portable))
    return found, notes


def merge_servers(found: Iterable[FoundServer]) -> tuple[dict[str, dict[str, Any]], list[Note]]:
    """One entry per name: identical entries merge, a differing one is renamed."""
    out: dict[str, dict[str, Any]] = {}
    origin: dict[str, list[str]] = {}
    notes: list[Note] = []
    for server in found:
        name = server.name
        if name_problem(name) is not None:
            name = slug(name) or "server"
            notes.append(
                Note(
                    NoteKind.RENAME,
                    f"{server.path}: mcp server {server.name!r} imported as {name!r}",
                )
            )
        if name in out and out[name] == server.entry:
            origin[name].append(server.path)
            continue
        if name in out:
            renamed = f"{name}-{server.client}"
            number = 2
            while renamed in out:
                renamed = f"{name}-{server.client}-{number}"
                number += 1
            notes.append(
                Note(
                    NoteKind.RENAME,
                    f"{server.path}: mcp server {name!r} differs from the one in "
                    f"{origin[name][0]}; imported as {renamed!r}",
                )
            )
            name = renamed
        out[name] = dict(server.entry)
        origin[name] = [server.path]
    for name, paths in origin.items():
        if len(paths) > 1:
            notes.append(Note(NoteKind.MERGE, f"mcp server {name!r}: merged {', '.join(paths)}"))
    return out, notes
