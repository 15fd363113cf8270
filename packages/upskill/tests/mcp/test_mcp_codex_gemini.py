"""Codex (TOML, no `${VAR}` expansion, no SSE) and Gemini CLI (JSON settings) MCP routes."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from upskill.clientconf import configfile
from upskill.clientconf.places import Places, Scope
from upskill.errors import UpskillError
from upskill.mcp.model import server_from_values
from upskill.mcp.shapes import (
    add_argv,
    config_entry,
    config_location,
    remove_argv,
    transport_problem,
    unexpanded,
)

LOCAL = server_from_values(
    "gh",
    local={
        "command": "npx",
        "args": ["-y", "server-github"],
        "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "MODE": "ro", "PAT": "${OTHER}"},
    },
)
REMOTE = server_from_values(
    "api",
    remote={
        "type": "http",
        "url": "https://api.example/mcp",
        "headers": {
            "Authorization": "Bearer ${API_TOKEN}",
            "X-Team": "${TEAM_ID}",
            "X-Static": "1",
            "X-Mixed": "id-${TEAM_ID}",
        },
    },
)
SSE = server_from_values("old", remote={"type": "sse", "url": "https://x.example/sse"})


def places(tmp_path: Path) -> Places:
    return Places(root=tmp_path / "p", home=tmp_path / "h", config_home=tmp_path / "h/.config")


def test_codex_entries_translate_references_it_can_forward() -> None:
    assert config_entry(LOCAL, "codex") == {
        "command": "npx",
        "args": ["-y", "server-github"],
        "env": {"MODE": "ro", "PAT": "${OTHER}"},
        "env_vars": ["GITHUB_TOKEN"],
    }
    assert config_entry(REMOTE, "codex") == {
        "url": "https://api.example/mcp",
        "bearer_token_env_var": "API_TOKEN",
        "http_headers": {"X-Static": "1", "X-Mixed": "id-${TEAM_ID}"},
        "env_http_headers": {"X-Team": "TEAM_ID"},
    }
    assert unexpanded(LOCAL, "codex") == ["PAT"]
    assert unexpanded(REMOTE, "codex") == ["X-Mixed"]
    assert unexpanded(LOCAL, "gemini") == []


def test_gemini_entries_are_what_gemini_mcp_add_writes() -> None:
    # gemini-cli 0.61.0 `gemini mcp add`: no "type" for stdio; url + type for remotes
    assert config_entry(LOCAL, "gemini") == {
        "command": "npx",
        "args": ["-y", "server-github"],
        "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "MODE": "ro", "PAT": "${OTHER}"},
    }
    assert config_entry(SSE, "gemini") == {"type": "sse", "url": "https://x.example/sse"}


def test_both_use_their_files_never_their_cli() -> None:
    for client in ("codex", "gemini"):
        for scope in Scope:
            assert add_argv(LOCAL, client, scope) is None
            assert remove_argv("gh", client, scope) is None


def test_config_locations(tmp_path: Path) -> None:
    p = places(tmp_path)
    codex = config_location("codex", Scope.PROJECT, p)
    assert codex is not None and codex.path == tmp_path / "p/.codex/config.toml"
    assert codex.root_key == "mcp_servers" and codex.within == tmp_path / "p"
    user = config_location("codex", Scope.USER, p)
    assert user is not None and user.path == tmp_path / "h/.codex/config.toml"
    gemini = config_location("gemini", Scope.USER, p)
    assert gemini is not None and gemini.path == tmp_path / "h/.gemini/settings.json"


def test_codex_takes_no_sse() -> None:
    assert transport_problem(SSE, "codex") == "codex does not support sse servers (only http)"
    assert transport_problem(SSE, "gemini") is None
    assert transport_problem(REMOTE, "codex") is None


def test_toml_edit_keeps_the_users_comments_and_tables(tmp_path: Path) -> None:
    p = places(tmp_path)
    location = config_location("codex", Scope.PROJECT, p)
    assert location is not None
    location.path.parent.mkdir(parents=True)
    mine = '# my settings\nmodel = "gpt-6.2-sol"  # keep\n\n[mcp_servers.own]\ncommand = "x"\n'
    location.path.write_text(mine)
    assert configfile.upsert(location, "gh", config_entry(LOCAL, "codex"))
    text = location.path.read_text()
    assert text.startswith(mine)
    assert tomllib.loads(text)["mcp_servers"]["gh"]["env_vars"] == ["GITHUB_TOKEN"]
    assert not configfile.upsert(location, "gh", config_entry(LOCAL, "codex"))  # no change
    assert configfile.lookup(location, "gh").registered
    assert configfile.delete(location, "gh")
    assert location.path.read_text() == mine
    assert not configfile.delete(location, "gh")


def test_malformed_toml_is_one_error_naming_the_file(tmp_path: Path) -> None:
    p = places(tmp_path)
    location = config_location("codex", Scope.PROJECT, p)
    assert location is not None
    location.path.parent.mkdir(parents=True)
    location.path.write_text("[mcp_servers\n")
    try:
        configfile.upsert(location, "gh", config_entry(LOCAL, "codex"))
    except UpskillError as exc:
        assert str(exc).startswith(f"{location.path}: invalid TOML: ")
        assert "\n" not in str(exc)
    else:
        raise AssertionError("malformed TOML was accepted")
    assert location.path.read_text() == "[mcp_servers\n"


_names = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,12}", fullmatch=True)
_values = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


@given(_names, st.dictionaries(_names, _values, max_size=4), st.lists(_values, max_size=3))
def test_any_codex_entry_round_trips_through_the_file(
    name: str, env: dict[str, str], args: list[str]
) -> None:
    import tempfile

    server = server_from_values(name, local={"command": "srv", "args": args, "env": env})
    with tempfile.TemporaryDirectory() as tmp:
        location = config_location("codex", Scope.USER, places(Path(tmp)))
        assert location is not None
        configfile.upsert(location, name, config_entry(server, "codex"))
        stored = tomllib.loads(location.path.read_text())["mcp_servers"][name]
        assert stored == config_entry(server, "codex")
