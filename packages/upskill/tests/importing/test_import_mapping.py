"""The reverse mapping, unit by unit: frontmatter back to portable fields, merges,
renames, `--split`, MCP spellings and secrets (through `plan_import`, no CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from upskill.clientconf.places import Places
from upskill.clients import SELECTABLE_CLIENTS
from upskill.errors import FormatError
from upskill.format.yamlio import load_yaml
from upskill.importing import secrets
from upskill.importing.model import ImportPlan, NoteKind
from upskill.importing.plan import plan_import


def _plan(root: Path, files: dict[str, str], *, split: bool = False) -> ImportPlan:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    places = Places(root, root / "home", root / "home" / ".config")
    return plan_import(places, SELECTABLE_CLIENTS, home=False, split=split)


def _file(plan: ImportPlan, rel: str) -> str:
    found = {f.path: f.data for f in plan.files}
    data = found[rel]
    assert isinstance(data, bytes)
    return data.decode()


def _frontmatter(plan: ImportPlan, rel: str) -> dict[str, Any]:
    text = _file(plan, rel)
    data = load_yaml(text.split("---\n")[1], Path(rel))
    assert isinstance(data, dict)
    return data


def test_copilot_apply_to_everything_is_an_unscoped_rule(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path, {".github/instructions/a.instructions.md": "---\napplyTo: '**'\n---\n\nA.\n"}
    )
    assert _frontmatter(plan, "rules/a/RULE.md") == {
        "schema": 1,
        "name": "a",
        "description": "Rule a imported from .github/instructions/a.instructions.md",
    }


def test_cursor_globs_become_scope_paths_and_always_apply_needs_no_passthrough(
    tmp_path: Path,
) -> None:
    plan = _plan(
        tmp_path,
        {
            ".cursor/rules/py.mdc": "---\ndescription: Py\nglobs: **/*.py, *.pyi\n"
            "alwaysApply: false\n---\n\nPy.\n",
            ".cursor/rules/all.mdc": "---\ndescription: All\nalwaysApply: true\n---\n\nAll.\n",
        },
    )
    assert _frontmatter(plan, "rules/py/RULE.md")["scope"] == {"paths": ["**/*.py", "*.pyi"]}
    assert "cursor" in _frontmatter(plan, "rules/py/RULE.md")  # `, ` is not Cursor's `,`
    assert _frontmatter(plan, "rules/all/RULE.md") == {
        "schema": 1,
        "name": "all",
        "description": "All",
    }


def test_agent_tools_and_model_map_back_and_client_ids_stay_in_passthrough(
    tmp_path: Path,
) -> None:
    plan = _plan(
        tmp_path,
        {
            ".claude/agents/a.md": "---\nname: a\ndescription: A\nmodel: opus\n"
            "tools: Read, Bash\n---\n\nA.\n",
            ".github/agents/b.agent.md": "---\nname: b\ndescription: B\n"
            "model: gpt-5\ntools:\n- read\n- search\n---\n\nB.\n",
        },
    )
    a = _frontmatter(plan, "agents/a/AGENT.md")
    assert (a["model"], a["tools"]) == ("opus", ["read", "bash"])
    assert a["claude"] == {"tools": "Read, Bash"}
    b = _frontmatter(plan, "agents/b/AGENT.md")
    assert b["tools"] == ["read", "grep", "glob"]
    assert "model" not in b
    assert b["copilot"] == {"model": "gpt-5"}


def test_unknown_tool_names_keep_the_whole_list_in_passthrough(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {".claude/agents/a.md": "---\ndescription: A\ntools:\n- Read\n- mcp__x__y\n---\n\nA.\n"},
    )
    fm = _frontmatter(plan, "agents/a/AGENT.md")
    assert "tools" not in fm
    assert fm["claude"] == {"tools": ["Read", "mcp__x__y"]}


def test_split_makes_one_rule_per_top_level_section(tmp_path: Path) -> None:
    text = (
        "Intro.\n\n# Build\n\nRun make.\n\n## Details\n\nMore.\n\n"
        "# Test\n\n```sh\n# not a heading\n```\n"
    )
    plan = _plan(tmp_path, {"CLAUDE.md": text}, split=True)
    assert [i.name for i in plan.items] == ["claude-md", "build", "test"]
    assert _file(plan, "rules/build/RULE.md").endswith(
        "description: Build\n---\n\nRun make.\n\n## Details\n\nMore.\n"
    )
    assert _file(plan, "rules/test/RULE.md").endswith("```sh\n# not a heading\n```\n")


def test_an_h1_moves_down_a_level_without_split(tmp_path: Path) -> None:
    plan = _plan(tmp_path, {"AGENTS.md": "# Title\n\n## Sub\n\nText.\n"})
    assert _file(plan, "rules/agents-md/RULE.md").endswith("\n## Title\n\n### Sub\n\nText.\n")


def test_a_stub_importing_another_instruction_file_is_left_out(tmp_path: Path) -> None:
    plan = _plan(tmp_path, {"CLAUDE.md": "@AGENTS.md\n", "AGENTS.md": "Use uv.\n"})
    assert [i.name for i in plan.items] == ["agents-md"]
    assert [n.kind for n in plan.notes] == [NoteKind.SKIP]


def test_renames_are_deterministic_and_reported(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            ".claude/rules/My_Rule.md": "One.\n",
            ".claude/rules/my-rule.md": "Two.\n",
            ".claude/rules/claude-md.md": "Three.\n",
            "CLAUDE.md": "Four.\n",
        },
    )
    names = sorted(i.name for i in plan.items)
    assert names == ["claude-md", "claude-md-2", "my-rule", "my-rule-2"]
    renames = [n.message for n in plan.notes if n.kind is NoteKind.RENAME]
    assert renames == [
        ".claude/rules/My_Rule.md: rule name 'My_Rule' is not a portable name; "
        "imported as 'my-rule'",
        ".claude/rules/my-rule.md: rule 'my-rule' is already taken by .claude/rules/My_Rule.md; "
        "imported as 'my-rule-2'",
        "CLAUDE.md: rule 'claude-md' is already taken by .claude/rules/claude-md.md; "
        "imported as 'claude-md-2'",
    ]


def test_bodies_differing_in_one_block_become_client_blocks_when_smaller(tmp_path: Path) -> None:
    shared = "".join(f"Paragraph {n} of the shared guidance, long enough.\n\n" for n in range(8))
    plan = _plan(
        tmp_path,
        {
            ".claude/rules/r.md": f"---\ndescription: R\n---\n\n{shared}Claude ends here.\n",
            ".github/instructions/r.instructions.md": "---\ndescription: R\napplyTo: '**'\n---\n\n"
            f"{shared}Copilot ends here.\n",
        },
    )
    body = _file(plan, "rules/r/RULE.md")
    assert "<!-- @client:!copilot -->\n\nClaude ends here.\n\n<!-- @endclient -->" in body
    assert "<!-- @client:copilot -->\n\nCopilot ends here.\n\n<!-- @endclient -->" in body
    assert [f.path for f in plan.files if "RULE." in f.path] == ["rules/r/RULE.md"]
    merges = [n.message for n in plan.notes if n.kind is NoteKind.MERGE]
    assert merges == [
        "rule 'r': merged .claude/rules/r.md, .github/instructions/r.instructions.md "
        "(differing bodies as @client blocks)"
    ]


def test_short_differing_bodies_become_override_files(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {".claude/rules/r.md": "Claude.\n", ".github/instructions/r.instructions.md": "Copilot.\n"},
    )
    assert _file(plan, "rules/r/RULE.copilot.md") == "Copilot.\n"
    assert _file(plan, "rules/r/RULE.md").endswith("\nClaude.\n")


def test_client_reference_syntax_becomes_dollar_braces(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            "opencode.json": '{"mcp": {"a": {"type": "local", "command": ["run", "x"],'
            ' "environment": {"K": "{env:K}", "P": "pre-{env:Q}"}}}}',
            ".cursor/mcp.json": '{"mcpServers": {"b": {"url": "https://b.example",'
            ' "headers": {"Authorization": "Bearer ${env:B_TOKEN}"}}}}',
            ".codex/config.toml": '[mcp_servers.c]\ncommand = "c"\nenv_vars = ["C_HOME"]\n'
            '[mcp_servers.d]\nurl = "https://d.example"\nbearer_token_env_var = "D_TOKEN"\n',
        },
    )
    bundle = load_yaml(_file(plan, "imported.bundle.yaml"), Path("b"))
    assert bundle["mcps"] == {
        "a": {
            "local": {"command": "run", "args": ["x"], "env": {"K": "${K}", "P": "pre-${Q}"}},
            "requires-env": ["K", "Q"],
        },
        "b": {
            "remote": {
                "type": "http",
                "url": "https://b.example",
                "headers": {"Authorization": "Bearer ${B_TOKEN}"},
            },
            "requires-env": ["B_TOKEN"],
        },
        "c": {
            "local": {"command": "c", "env": {"C_HOME": "${C_HOME}"}},
            "requires-env": ["C_HOME"],
        },
        "d": {
            "remote": {
                "type": "http",
                "url": "https://d.example",
                "headers": {"Authorization": "Bearer ${D_TOKEN}"},
            },
            "requires-env": ["D_TOKEN"],
        },
    }
    assert not [n for n in plan.notes if n.kind is NoteKind.SECRET]


def test_same_server_differing_between_clients_is_renamed(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            ".mcp.json": '{"mcpServers": {"s": {"command": "one"}}}',
            ".vscode/mcp.json": '{"servers": {"s": {"command": "two"}}}',
        },
    )
    assert plan.servers == ("s", "s-vscode")


@pytest.mark.parametrize(
    ("key", "value", "secret"),
    [
        ("GITHUB_TOKEN", "abc", True),
        ("Authorization", "Bearer abc", True),
        ("Authorization", "Bearer ${TOKEN}", False),
        ("API_KEY", "${API_KEY}", False),
        ("LOG_LEVEL", "debug", False),
        ("LOG_LEVEL", "ghp_" + "a1" * 18, True),
        ("REGION", "AKIA" + "A1B2C3D4E5F6G7H8", True),
        ("PATH_HINT", "/usr/local/bin", False),
        ("X", "", False),
    ],
)
def test_what_looks_like_a_secret(key: str, value: str, secret: bool) -> None:
    assert secrets.looks_secret(key, value) is secret


def test_opencode_plugins_become_config_write_descriptors(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {"opencode.json": '{"plugin": ["opencode-wakatime", "@acme/opencode-plugin@1.2.0"]}'},
    )
    bundle = load_yaml(_file(plan, "imported.bundle.yaml"), Path("b"))
    assert bundle["plugins"] == {
        "opencode-wakatime": {"opencode": {"plugin_uri": "opencode-wakatime"}},
        "acme-opencode-plugin-1-2-0": {"opencode": {"plugin_uri": "@acme/opencode-plugin@1.2.0"}},
    }
    assert plan.plugins == ("opencode-wakatime", "acme-opencode-plugin-1-2-0")


def test_an_instruction_file_linked_to_another_is_imported_once(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("Use uv.\n")
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    plan = _plan(tmp_path, {})
    assert [i.name for i in plan.items] == ["claude-md"]
    assert [n.message for n in plan.notes] == ["AGENTS.md: same text as CLAUDE.md; left out"]


def test_quoted_cursor_globs_are_read_as_yaml(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            ".cursor/rules/q.mdc": (
                '---\ndescription: Q\nglobs: "**/*.ts"\nalwaysApply: false\n---\n\nQ.\n'
            )
        },
    )
    fm = _frontmatter(plan, "rules/q/RULE.md")
    assert fm["scope"] == {"paths": ["**/*.ts"]}
    assert "cursor" not in fm


def test_legacy_single_rule_files_become_always_on_rules(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            ".cursorrules": "# Team\n\nUse uv.\n",
            ".windsurfrules": "Prefer small functions.\n",
        },
    )
    assert [i.name for i in plan.items] == ["cursorrules", "windsurfrules"]
    assert _file(plan, "rules/cursorrules/RULE.md") == (
        "---\nschema: 1\nname: cursorrules\n"
        "description: Always-on instructions imported from .cursorrules\n---\n\n"
        "## Team\n\nUse uv.\n"
    )
    assert "scope" not in _frontmatter(plan, "rules/windsurfrules/RULE.md")


def test_a_legacy_file_identical_to_another_instruction_file_is_imported_once(
    tmp_path: Path,
) -> None:
    plan = _plan(tmp_path, {"AGENTS.md": "Use uv.\n", ".cursorrules": "Use uv.\n"})
    assert [i.name for i in plan.items] == ["agents-md"]
    assert [n.message for n in plan.notes] == [".cursorrules: same text as AGENTS.md; left out"]


def test_claude_per_project_servers_of_this_project_are_imported(tmp_path: Path) -> None:
    user = {
        "mcpServers": {"everywhere": {"command": "user-only"}},
        "projects": {
            str(tmp_path): {
                "mcpServers": {
                    "db": {"command": "db-mcp", "env": {"DB_PASSWORD": "hunter2"}},
                    "shared": {"command": "s"},
                }
            },
            str(tmp_path / "other"): {"mcpServers": {"elsewhere": {"command": "x"}}},
        },
    }
    plan = _plan(
        tmp_path,
        {
            ".mcp.json": '{"mcpServers": {"shared": {"command": "s"}}}',
            "home/.claude.json": json.dumps(user),
        },
    )
    bundle = load_yaml(_file(plan, "imported.bundle.yaml"), Path("b"))
    assert bundle["mcps"] == {
        "shared": {"local": {"command": "s"}},
        "db": {
            "local": {"command": "db-mcp", "env": {"DB_PASSWORD": "${DB_PASSWORD}"}},
            "requires-env": ["DB_PASSWORD"],
        },
    }
    where = "~/.claude.json (projects entry of this project)"
    assert [n.message for n in plan.notes] == [
        f"{where}: mcp server 'db': env 'DB_PASSWORD' holds a literal secret; imported as "
        "${DB_PASSWORD} (set DB_PASSWORD in the environment)",
        f"mcp server 'shared': merged .mcp.json, {where}",
    ]
    assert all("hunter2" not in bytes(f.data).decode() for f in plan.files)


def test_a_broken_projects_map_names_the_user_file(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="`projects` must be an object") as caught:
        _plan(tmp_path, {"home/.claude.json": '{"projects": []}'})
    assert caught.value.path == tmp_path / "home" / ".claude.json"


def test_the_folder_beside_a_single_file_agent_is_its_resources(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            ".claude/agents/x.md": "---\nname: x\ndescription: X\n---\n\n"
            "Read [the guide](x/guide.md) and [notes](./x/docs/n.md), not [y](y.md).\n",
            ".claude/agents/x/guide.md": "# Guide\n",
            ".claude/agents/x/docs/n.md": "Notes.\n",
        },
    )
    assert [(i.kind.value, i.name) for i in plan.items] == [("agent", "x")]
    assert {f.path for f in plan.files} >= {"agents/x/guide.md", "agents/x/docs/n.md"}
    assert _file(plan, "agents/x/guide.md") == "# Guide\n"
    assert _file(plan, "agents/x/AGENT.md").endswith(
        "\nRead [the guide](guide.md) and [notes](./docs/n.md), not [y](y.md).\n"
    )


def test_rules_in_subfolders_get_deterministic_names_and_merge(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            ".claude/rules/frontend/react.md": "Use hooks.\n",
            ".cursor/rules/frontend/react.mdc": "---\nalwaysApply: true\n---\n\nUse hooks.\n",
            ".github/instructions/a/b.instructions.md": "---\napplyTo: '**/*.ts'\n---\n\nB.\n",
            ".claude/rules/a-b.md": "Flat a-b.\n",
            ".claude/rules/a/b.md": "Nested a/b.\n",
            ".claude/rules/style.md": "See [example](style/example.md).\n",
            ".claude/rules/style/example.md": "An example, not a rule.\n",
            ".claude/rules/.hidden/h.md": "Not read.\n",
        },
    )
    names = [i.name for i in plan.items]
    assert names == ["a-b", "style", "a-b-2", "frontend-react"]
    sources = {i.name: i.sources for i in plan.items}
    assert sources["frontend-react"] == (
        ".claude/rules/frontend/react.md",
        ".cursor/rules/frontend/react.mdc",
    )
    assert sources["a-b"] == (".claude/rules/a-b.md",)
    assert sources["a-b-2"] == (".claude/rules/a/b.md", ".github/instructions/a/b.instructions.md")
    assert _file(plan, "rules/style/example.md") == "An example, not a rule.\n"
    assert _file(plan, "rules/style/RULE.md").endswith("\nSee [example](example.md).\n")
    renames = [n.message for n in plan.notes if n.kind is NoteKind.RENAME]
    assert renames == [
        ".claude/rules/a/b.md: rule 'a-b' is already taken by .claude/rules/a-b.md; "
        "imported as 'a-b-2'",
        ".claude/rules/a/b.md: rule in a subfolder; imported as 'a-b-2'",
        ".claude/rules/frontend/react.md: rule in a subfolder; imported as 'frontend-react'",
        ".github/instructions/a/b.instructions.md: rule in a subfolder; imported as 'a-b-2'",
        ".cursor/rules/frontend/react.mdc: rule in a subfolder; imported as 'frontend-react'",
    ]


def test_files_a_flat_item_links_to_below_its_directory_are_resources(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        {
            ".claude/agents/x.md": "---\nname: x\ndescription: X\n---\n\n"
            "Run [tool](./helpers/tool.sh), read [guide](x/guide.md), ask [y](y.md), "
            "see [out](../outside.txt) and [gone](missing.txt).\n",
            ".claude/agents/x/guide.md": "# Guide\n",
            ".claude/agents/helpers/tool.sh": "#!/bin/sh\n",
            ".claude/agents/y.md": "---\nname: y\ndescription: Y\n---\n\nY.\n",
            ".claude/outside.txt": "not copied\n",
        },
    )
    x = next(i for i in plan.items if i.name == "x")
    assert [r.path for r in x.resources] == ["guide.md", "helpers/tool.sh"]
    assert _file(plan, "agents/x/helpers/tool.sh") == "#!/bin/sh\n"
    assert _file(plan, "agents/x/AGENT.md").endswith(
        "Run [tool](./helpers/tool.sh), read [guide](guide.md), ask [y](y.md), "
        "see [out](../outside.txt) and [gone](missing.txt).\n"
    )
    assert [n.message for n in plan.notes if n.kind is NoteKind.LOSSY] == [
        ".claude/agents/x.md: linked file(s) helpers/tool.sh imported as resources; "
        "add installs them in the item's folder (x/…) and links there"
    ]


def test_a_kiro_cli_agent_json_imports_with_its_prompt_as_the_body(cli, project) -> None:  # type: ignore[no-untyped-def]
    """Kiro CLI agents are JSON (`name`, `description`, `prompt`, `tools`): the prompt is
    the body, and the agent installs back into the same bytes."""
    import json

    agent = project / ".kiro" / "agents" / "helper.json"
    agent.parent.mkdir(parents=True)
    agent.write_text(
        json.dumps(
            {
                "name": "helper",
                "description": "Use when helping",
                "prompt": "## Helper\n\nHelp with care.\n",
                "tools": ["read", "grep"],
            },
            indent=2,
        )
        + "\n"
    )
    before = agent.read_bytes()
    cli.ok("import", "--from", "kiro", cwd=project)
    text = (project / ".upskill" / "registry" / "agents" / "helper" / "AGENT.md").read_text()
    assert text.endswith("---\n\n## Helper\n\nHelp with care.\n")
    assert "description: Use when helping\n" in text
    out = cli.ok("add", "./.upskill/registry", "imported", "--kiro", cwd=project)
    assert "kept" not in out.stderr, out.stderr
    assert agent.read_bytes() == before
