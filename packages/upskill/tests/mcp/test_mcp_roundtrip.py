"""configure then remove-mcp returns any existing client config to its exact bytes."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from upskill.clientconf.clientcli import CliResult
from upskill.clientconf.places import Places, Scope
from upskill.mcp.configure import configure_servers
from upskill.mcp.model import Status, server_from_values
from upskill.mcp.shapes import config_location
from upskill.mcp.unregister import unregister


class NoClients:
    """Every client CLI is absent: the config-file path is exercised."""

    def run(self, argv: list[str], cwd: Path) -> CliResult | None:
        return None


keys = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=6,
)
SERVER = server_from_values(
    "drawio",
    remote={"type": "sse", "url": "https://e.x/sse", "headers": {"A": "${TOKEN}"}},
)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["claude", "vscode", "opencode"]),
    st.sampled_from([Scope.PROJECT, Scope.USER]),
    st.dictionaries(keys, values, max_size=4),
    st.dictionaries(keys.filter(lambda k: k != "drawio"), values, max_size=3),
    st.sampled_from([0, 2, 4]),
    st.booleans(),
)
def test_configure_then_remove_restores_bytes(
    target: str,
    scope: Scope,
    other: dict[str, object],
    servers: dict[str, object],
    indent: int,
    commented: bool,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        places = Places(root=base / "p", home=base / "h", config_home=base / "h/.config")
        location = config_location(target, scope, places)
        assert location is not None
        doc = {k: v for k, v in other.items() if k != location.root_key}
        doc[location.root_key] = servers
        text = json.dumps(doc, indent=indent or None) + "\n"
        if commented and indent:
            text = "// user settings\n" + text.replace("{\n", "{\n  /* keep */\n", 1)
        location.path.parent.mkdir(parents=True)
        location.path.write_text(text)
        report = configure_servers(
            [SERVER], [target], scope=scope, bundle="b", places=places, cli=NoClients(), env={}
        )
        assert [r.status for r in report.records] == [Status.INSTALLED]
        ref = "{env:TOKEN}" if target == "opencode" else "${TOKEN}"
        assert ref in location.path.read_text()  # kept as a reference, never expanded
        again = configure_servers(
            [SERVER], [target], scope=scope, bundle="b", places=places, cli=NoClients(), env={}
        )
        assert again.records == report.records
        unregister(report.records, places=places, cli=NoClients())
        assert location.path.read_text() == text
