"""VS Code (GitHub Copilot Chat): it reads the files written for Copilot (`.github/**`),
so it is a selection and MCP target that renders Copilot's tree. It has no offline
CLI: its facts come from its documentation and source, cited beside each."""

from __future__ import annotations

from upskill.clients import copilot
from upskill.clients.base import (
    Base,
    Client,
    ConfigFile,
    Detect,
    EntryStyle,
    McpCli,
    McpRoute,
    PluginRoute,
    PluginStyle,
    Registration,
)

CLIENT = Client(
    id="vscode",
    name="VS Code",
    family="copilot",
    tree="copilot",
    kinds=copilot.KINDS,
    detect=Detect(paths=(".vscode",), executables=("code",)),
    docs=(
        "https://code.visualstudio.com/docs/copilot/customization/mcp-servers",
        "https://code.visualstudio.com/docs/agents/reference/agent-skills-reference",
    ),
    tools=copilot.TOOLS,
    models=copilot.MODELS,
    rule_fields=copilot.rule_fields,
    mcp=McpRoute(
        EntryStyle.STANDARD,
        "servers",
        project=ConfigFile(".vscode/mcp.json"),
        user=ConfigFile("Code/User/mcp.json", Base.APP_CONFIG),
        # `code --add-mcp` writes the user's profile only.
        cli=McpCli(
            "code",
            add_scopes=frozenset({"user"}),
            remove_scopes=frozenset(),
            scope_flag=False,
            env_flag="",
            header_flag="",
            add_payload=True,
        ),
    ),
    plugins=PluginRoute(
        PluginStyle.EXTENSION,
        "code",
        listed_in=".vscode/extensions.json",
        listed_at_home=False,
    ),
    # VS Code finds the instructions folder once the workspace settings register it; only
    # VS Code reads `.vscode/settings.json`, so nothing is written there for Copilot CLI.
    registration=Registration(
        settings=".vscode/settings.json",
        settings_key=("chat.instructionsFilesLocations", ".github/instructions"),
        agent_trees_key="chat.agentFilesLocations",
    ),
    # Copilot CLI's list less `GEMINI.md`, which VS Code is not documented to read.
    reads=tuple(r for r in copilot.CLIENT.reads if r != "GEMINI.md"),
    # VS Code has no offline CLI. Its skill trees: the docs' "Skill locations" table
    # (code.visualstudio.com/docs/agents/reference/agent-skills-reference: Copilot
    # `.github/skills/`, Codex `.agents/skills/`, Claude `.claude/skills/`), in the order
    # of microsoft/vscode's `DEFAULT_SKILL_SOURCE_FOLDERS` (chat/common/promptSyntax/
    # config/promptFileLocations.ts). One name in several: `computeSkillDiscoveryInfo`
    # (promptSyntax/service/promptsServiceImpl.ts) loads the first, workspace before
    # personal, and skips the others as `duplicate-name`.
    skill_trees=(".github/skills/", ".agents/skills/", ".claude/skills/"),
    dedupes=True,
    # Agents, from microsoft/vscode's source (src/vs/workbench/contrib/chat/; the
    # repository is too large to fetch whole, so these are its stored files): `.github/
    # agents` and `.claude/agents` are default workspace agent folders
    # (`DEFAULT_AGENT_SOURCE_FOLDERS` in common/promptSyntax/config/promptFileLocations.ts,
    # the `chat.agentFilesLocations` default in browser/chat.contribution.ts), read unless
    # that setting maps the path to false (`PromptsConfig.promptSourceFolders`,
    # common/promptSyntax/config/config.ts at 047238f9fe1b, keeps a default folder unless
    # its value is `false`; `ConfigurationModel.mergeContents`,
    # platform/configuration/common/configurationModels.ts at 01272b921e9c, merges a
    # workspace object into the default one key by key, so `{".claude/agents": false}`
    # leaves `.github/agents` read). The current locator lists a workspace's agent files
    # from those folders alone (`PromptFilesLocator.listFiles` via `getPromptSourceFolders`,
    # common/promptSyntax/utils/promptFilesLocator.ts, in stored builds of the workbench);
    # an older one appended `DEFAULT_AGENT_SOURCE_FOLDERS` whatever the setting said, so
    # there the member changes nothing. The setting is `restricted`: an untrusted
    # workspace ignores it. In a folder it reads the files directly inside (no
    # subfolders) that end in `.md`, except `README.md` (`getPromptFileType`); Copilot CLI
    # 1.0.102 also reads `README.md` and subfolders of `.github/agents`, and ignores
    # `.vscode/settings.json` (tests/clients/test_vscode_agent_trees.py). No setting like
    # `chat.useClaudeMdFile` gates Claude's agents. The release that added
    # `.claude/agents` is not pinned here: the file at 0783120be12f lists `.github/agents`
    # only. One name in both trees is two entries: `computeAgentDiscoveryInfo`
    # (common/promptSyntax/service/promptsServiceImpl.ts) loads every file, with no
    # `duplicate-name` skip as for skills, and `ChatModeService.refreshCustomPromptModes`
    # (common/chatModes.ts at 50cdf4531ba3) keeps one mode per file URI. So no
    # `agent_trees`: beside Claude Code it would list an agent twice, and upskill sets
    # `.claude/agents` to false where that hides only such copies (`agent_trees_key`).
    lists_agent_copies=True,
    baseline=True,
)
