"""`.upskill-lock.json`: upstream-compatible shape, unknown fields kept, strict reading."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.clients import SELECTABLE_CLIENTS
from upskill.state.lockfile import (
    ItemRecord,
    Lockfile,
    LockfileError,
    OutputRecord,
    Owner,
    lockfile_to_json,
    parse_lockfile,
    serialise_lockfile,
)
from upskill.state.records import McpEntry, PluginEntry

SELECTABLE = ", ".join(SELECTABLE_CLIENTS)

UPSTREAM = {
    "schema": 1,
    "items": [
        {
            "kind": "rule",
            "name": "a-rule",
            "source": "github:o/r",
            "ref": "v1",
            "hash": "ab",
            "group": "a-rule",
            "clients": ["claude"],
            "future": {"x": 1},
        },
        {
            "kind": "skill",
            "name": "alias",
            "source": "local:/x",
            "source_name": "orig",
            "required_by": ["agent:z"],
        },
    ],
    "bundles": [
        {"name": "base", "source": "github:o/r", "ref": "v1", "items": ["a-rule"], "note": "kept"}
    ],
    "plugins": [
        {
            "name": "sp",
            "client": "claude",
            "identifier": "sp@m",
            "scope": "project",
            "bundle": "base",
            "status": "skipped",
        }
    ],
    "mcps": [
        {
            "name": "drawio",
            "client": "claude",
            "scope": "project",
            "bundle": "base",
            "status": "installed",
        }
    ],
    "someday": True,
}


def test_round_trip_is_byte_stable():
    data = (json.dumps(UPSTREAM, indent=2) + "\n").encode()
    lock = parse_lockfile(data, Path("l.json"))
    assert serialise_lockfile(lock) == data
    assert lock.items[0].extra == {"future": {"x": 1}}
    assert lock.bundles[0].extra == {"note": "kept"}


def test_canonical_order_and_outputs_extension():
    raw = dict(UPSTREAM, items=list(reversed(UPSTREAM["items"])))
    lock = parse_lockfile(json.dumps(raw).encode(), Path("l.json"))
    lock = dataclasses.replace(
        lock,
        outputs=(
            OutputRecord(
                ".claude/rules/a.md",
                "ff",
                3,
                (Owner("rule:a-rule", "copilot"), Owner("rule:a-rule", "claude")),
            ),
        ),
    )
    text = serialise_lockfile(lock).decode()
    out = json.loads(text)
    assert [i["name"] for i in out["items"]] == ["a-rule", "alias"]
    assert list(out) == ["schema", "items", "bundles", "plugins", "mcps", "outputs", "someday"]
    assert out["outputs"] == [
        {
            "path": ".claude/rules/a.md",
            "sha256": "ff",
            "size": 3,
            "owners": ["rule:a-rule@claude", "rule:a-rule@copilot"],
        }
    ]
    assert list(out["items"][1]) == ["kind", "name", "source", "source_name", "required_by"]
    assert parse_lockfile(text.encode(), Path("l.json")).outputs == lock.normalised().outputs


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{", "invalid JSON"),
        (b"[]", "top level must be an object"),
        (b'{"schema": "1"}', "`schema` must be an integer"),
        (b'{"schema": 2, "items": []}', "newer than this upskill supports"),
        (b'{"schema": 1, "items": {}}', "`items` must be an array"),
        (b'{"schema": 1, "items": [{"kind": "rule", "name": "x"}]}', "`source`"),
        (b'{"schema": 1, "items": [{"kind": "tool", "name": "x", "source": "s"}]}', "kind"),
        (
            b'{"schema": 1, "items": [{"kind": "rule", "name": "../x", "source": "s"}]}',
            "not a plain name",
        ),
        (
            b'{"schema": 1, "outputs": [{"path": "../x", "sha256": "a", "size": 1, "owners": []}]}',
            "stay inside",
        ),
        (
            b'{"schema": 1, "outputs": [{"path": "x", "sha256": "a", "size": true, "owners": []}]}',
            "size",
        ),
        (
            b'{"schema": 1, "outputs": [{"path": "x", "sha256": "a", "size": 1, "owners": ["x"]}]}',
            "kind:name@client",
        ),
    ],
)
def test_malformed(data, message):
    with pytest.raises(LockfileError, match=message) as info:
        parse_lockfile(data, Path("/p/.upskill-lock.json"))
    assert str(info.value).startswith("/p/.upskill-lock.json")


def _with(key: str, *records: object) -> bytes:
    return json.dumps({"schema": 1, key: list(records)}).encode()


_MCP = {"name": "drawio", "client": "claude", "bundle": "b", "status": "installed"}
_PLUGIN = {"name": "sp", "client": "vscode", "identifier": "a.sp", "bundle": "b"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_with("mcps", _MCP, "drawio"), "`mcps[1]` must be an object"),
        (_with("mcps", {**_MCP, "client": "acme"}), "`mcps[0]` (drawio): field `client` is "
         f"'acme', not one of {SELECTABLE}"),
        (_with("mcps", {k: v for k, v in _MCP.items() if k != "client"}),
         "`mcps[0]` (drawio): field `client` is required"),
        (_with("mcps", {**_MCP, "name": ""}), "`mcps[0]`: field `name` is required"),
        (_with("mcps", {**_MCP, "bundle": 3}), "`mcps[0]` (drawio): field `bundle` must be a "
         "str, not int"),
        (_with("mcps", {**_MCP, "scope": "global"}), "field `scope` is 'global', not one of "
         "project, user"),
        (_with("mcps", {**_MCP, "status": "instructions"}), "field `status` is 'instructions'"),
        (_with("mcps", {**_MCP, "status": True}), "field `status` must be a str, not bool"),
        (_with("plugins", _PLUGIN, {**_PLUGIN, "identifier": None}),
         "`plugins[1]` (sp): field `identifier` is required"),
        (_with("plugins", {**_PLUGIN, "status": "broken"}), "`plugins[0]` (sp): field `status`"),
        (_with("plugins", {}), "`plugins[0]`: field `name` is required"),
    ],
)  # fmt: skip
def test_malformed_mcp_and_plugin_records_are_errors_naming_file_and_record(data, message):
    with pytest.raises(LockfileError) as info:
        parse_lockfile(data, Path("/p/.upskill-lock.json"))
    assert str(info.value).startswith("/p/.upskill-lock.json: malformed lockfile: `")
    assert message in str(info.value)


def test_mcp_and_plugin_records_are_typed_with_upstream_defaults():
    raw = {"schema": 1, "plugins": [_PLUGIN], "mcps": [{**_MCP, "x-extra": [1]}]}
    lock = parse_lockfile(json.dumps(raw).encode(), Path("l.json"))
    assert lock.mcps == (
        McpEntry(name="drawio", client="claude", bundle="b", status="installed",
                 extra={"x-extra": [1]}),
    )  # fmt: skip
    # A missing scope stays missing (the lockfile's own scope); a missing status is installed.
    assert lock.plugins == (
        PluginEntry(name="sp", client="vscode", identifier="a.sp", bundle="b", scope=None),
    )
    out = json.loads(serialise_lockfile(lock))
    assert out["mcps"] == [{**_MCP, "x-extra": [1]}]
    assert out["plugins"] == [{**_PLUGIN, "status": "installed"}]


@pytest.mark.parametrize(
    "command", [["add", "../registry"], ["update"], ["remove", "x"], ["list"], ["doctor"]]
)
def test_cli_malformed_lockfile_names_file_and_writes_nothing(command, cli, h, project, registry):
    lock = project / ".upskill-lock.json"
    lock.write_text('{"schema": 1, "items": [}')
    before = h.snapshot(project)
    out = cli.run(*command, cwd=project)
    assert out.returncode == 1, out.stderr
    assert f"{lock}:" in out.stderr and "invalid JSON" in out.stderr
    assert h.snapshot(project) == before


@pytest.mark.parametrize("command", [["remove-mcp", "drawio"], ["doctor"], ["update"]])
def test_cli_malformed_mcp_record_is_one_error_line_and_writes_nothing(command, cli, h, project):
    lock = project / ".upskill-lock.json"
    lock.write_bytes(_with("mcps", {**_MCP, "client": "acme"}))
    before = h.snapshot(project)
    out = cli.run(*command, cwd=project)
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr == (
        f"upskill: error: {lock}: malformed lockfile: `mcps[0]` (drawio): field `client` is "
        f"'acme', not one of {SELECTABLE}\n"
    )
    assert h.snapshot(project) == before


def test_cli_malformed_config_names_file(cli, h, project, registry):
    config = project / ".upskill" / "config.yaml"
    config.parent.mkdir()
    config.write_text("clients: [claude, emacs]\n")
    out = cli.run("add", "../registry", cwd=project)
    assert out.returncode == 1
    assert str(config) in out.stderr and "emacs" in out.stderr
    assert not (project / ".upskill-lock.json").exists()
    config.write_text("clients: [claude\n")
    out = cli.run("add", "../registry", cwd=project)
    assert out.returncode == 1  # the same YAML 1.2 loader and wording as items (format/yamlio)
    assert out.stderr == (
        f"upskill: error: {config}:2: invalid YAML: expected ',' or ']', but got '<stream end>'\n"
    )


_names = st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)
_items = st.builds(
    ItemRecord,
    kind=st.sampled_from(["rule", "skill", "agent"]),
    name=_names,
    source=st.sampled_from(["github:o/r", "local:/x", "https://h.example/g/r@v1:s"]),
    ref=st.none() | st.just("v1"),
    hash=st.none() | st.text("0123456789abcdef", min_size=64, max_size=64),
    source_name=st.none() | _names,
    required_by=st.lists(_names.map(lambda n: f"skill:{n}"), max_size=2).map(tuple),
    group=st.none() | _names,
    clients=st.sampled_from([(), ("claude",), ("copilot", "vscode")]),
    commit=st.none() | st.text("0123456789abcdef", min_size=40, max_size=40),
)
_outputs = st.builds(
    OutputRecord,
    path=st.lists(_names, min_size=1, max_size=3).map("/".join),
    sha256=st.text("0123456789abcdef", min_size=64, max_size=64),
    size=st.integers(0, 10**6),
    owners=st.lists(
        st.builds(Owner, _names.map(lambda n: f"rule:{n}"), st.sampled_from(["claude", "vscode"])),
        min_size=1,
        max_size=3,
    ).map(tuple),
)


@settings(max_examples=100)
@given(
    items=st.lists(_items, max_size=5, unique_by=lambda i: (i.kind, i.name)),
    outputs=st.lists(_outputs, max_size=5, unique_by=lambda o: o.path),
)
def test_serialise_parse_round_trip(items, outputs):
    lock = Lockfile(items=tuple(items), outputs=tuple(outputs)).normalised()
    data = serialise_lockfile(lock)
    again = parse_lockfile(data, Path("l.json"))
    assert again == lock
    assert serialise_lockfile(again) == data


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=100)
@given(
    items=st.lists(_items, max_size=4, unique_by=lambda i: (i.kind, i.name)),
    outputs=st.lists(_outputs, max_size=4, unique_by=lambda o: o.path),
    paths=st.lists(st.text(min_size=1, max_size=6), max_size=2),
    extra=st.dictionaries(st.sampled_from(["zz", "outputs", "ünï"]), _json_values, max_size=2),
    plugins=st.lists(
        st.builds(
            PluginEntry,
            name=st.text(min_size=1, max_size=4),
            client=st.sampled_from(["claude", "vscode"]),
            identifier=st.text(min_size=1, max_size=6),
            bundle=st.text(min_size=1, max_size=4),
            scope=st.none() | st.sampled_from(["project", "user"]),
            extra=st.dictionaries(st.sampled_from(["x-note", "ünï"]), _json_values, max_size=2),
        ),
        max_size=2,
    ),
)
def test_serialised_bytes_are_exactly_the_indented_json_dump(items, outputs, paths, extra, plugins):
    """The templated `outputs` layout must never drift from `json.dumps(indent=2)`:
    non-ASCII and escaped characters in paths, unknown top-level fields included."""
    odd = [
        dataclasses.replace(o, path=f"{o.path}/{p}") for o, p in zip(outputs, paths, strict=False)
    ]
    lock = Lockfile(
        items=tuple(items),
        outputs=tuple(odd) + tuple(outputs[len(odd) :]),
        plugins=tuple(plugins),
        generator="upskill 0.1.0",
        extra=extra,
    )
    reference = json.dumps(lockfile_to_json(lock), indent=2, ensure_ascii=False) + "\n"
    assert serialise_lockfile(lock) == reference.encode()
