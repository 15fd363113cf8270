"""One turn of a real client against the local model endpoint (`model_endpoint.py`).

Each function points one client at `endpoint` with that client's own documented
setting (an environment variable, a user config file, or its `auth` verb), asks it to
"say ok" in the installed project, and returns the body of the request that carries
the turn: the system prompt with the instructions files and rules, the tools with the
skills and subagents. `prompt_text` flattens that body for counting. The suites in
tests/clients/ share these, so each client is driven one way only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from client_probe import Install, ask
from model_endpoint import Endpoint
from real_clients import Clients

from upskill.lifecycle.compiled import split_block
from upskill.render.compiled import parse_sections

Turn = Callable[[Clients, Install, Endpoint], dict[str, Any]]


def _provider(url: str) -> str:
    """An opencode-style config naming the endpoint as provider `local`, model `m`
    (opencode and Kilo bundle the OpenAI-compatible provider, so nothing is fetched)."""
    local = {
        "npm": "@ai-sdk/openai-compatible",
        "options": {"baseURL": f"{url}/v1", "apiKey": "x"},
        "models": {"m": {}},
    }
    return json.dumps({"provider": {"local": local}})


def gemini(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    # The `gemini-api-key` auth honours GOOGLE_GEMINI_BASE_URL; it is chosen in the user's
    # settings (a system defaults file under /tmp is refused as insecure), next to the
    # MCP servers upskill may have written there. A named model skips the routing
    # classifier's own request.
    settings = at.home / ".gemini/settings.json"
    merged = json.loads(settings.read_text()) if settings.exists() else {}
    merged.setdefault("security", {})["auth"] = {"selectedType": "gemini-api-key"}
    settings.write_text(json.dumps(merged))
    ask(clients, at, "gemini", "-m", "gemini-2.5-flash", "-p", "say ok",
        GEMINI_API_KEY="x", GOOGLE_GEMINI_BASE_URL=endpoint.url)  # fmt: skip
    return endpoint.first(":streamGenerateContent?alt=sse")


def opencode(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    ask(clients, at, "opencode", "run", "-m", "local/m", "say ok",
        OPENCODE_CONFIG_CONTENT=_provider(endpoint.url))  # fmt: skip
    return endpoint.first("/chat/completions", having="tools")  # the first titles the session


def kilo(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    ask(clients, at, "kilo", "run", "-m", "local/m", "say ok",
        KILO_CONFIG_CONTENT=_provider(endpoint.url))  # fmt: skip
    return endpoint.first("/chat/completions", having="tools")


def copilot(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    ask(clients, at, "copilot", "-p", "say ok", COPILOT_OFFLINE="true",
        COPILOT_PROVIDER_BASE_URL=f"{endpoint.url}/v1", COPILOT_PROVIDER_API_KEY="x",
        COPILOT_MODEL="m")  # fmt: skip
    return endpoint.first("/chat/completions")


def qwen(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    ask(
        clients, at, "qwen", "--auth-type", "openai", "say ok",
        "--allowed-mcp-server-names", "none",  # a listing, not a session: start no server
        OPENAI_API_KEY="x", OPENAI_BASE_URL=f"{endpoint.url}/v1", OPENAI_MODEL="m",
    )  # fmt: skip
    return endpoint.first("/chat/completions")


def cline(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    ask(clients, at, "cline", "auth", "-p", "openai", "-k", "x", "-m", "m",
        "-b", f"{endpoint.url}/v1")  # fmt: skip
    ask(clients, at, "cline", "--json", "say ok now")
    return endpoint.first("/chat/completions")


def cline_skill(
    clients: Clients, at: Install, endpoint: Endpoint, name: str
) -> tuple[list[str], str]:
    """The skills Cline's turn lists, and the text of the file it loads for `name`.
    Cline names skills without their description, so which copy it holds shows only once
    it loads one: the turn is answered with a call of its `skills` tool, and the next
    request carries the file."""
    endpoint.tool_call = ("skills", json.dumps({"skill": name}))
    (names,) = re.findall(r"Available skills: ([^.\n]*)", prompt_text(cline(clients, at, endpoint)))
    chats = [body for path, body in endpoint.requests if path.endswith("/chat/completions")]
    return names.split(", "), prompt_text(chats[1])


def augment(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    session = {"accessToken": "x", "tenantURL": f"{endpoint.url}/", "scopes": ["email"]}
    # The recorded turn is what counts; the answer is not Auggie's format, so the run fails.
    clients.run(
        ["auggie", "--print", "--quiet", "say ok now"],
        cwd=at.cwd,
        env={**at.env, "AUGMENT_SESSION_AUTH": json.dumps(session)},
    )
    return endpoint.first("/chat-stream")


def factory(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    model = {"model": "m", "displayName": "M", "baseUrl": f"{endpoint.url}/v1", "apiKey": "x",
             "provider": "generic-chat-completion-api", "maxOutputTokens": 100}  # fmt: skip
    settings = at.home / ".factory/settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"customModels": [model]}))
    ask(clients, at, "droid", "exec", "-m", "custom:m", "say ok now")
    return endpoint.first("/chat/completions")


def continue_(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    config = at.home / ".continue/config.yaml"
    config.parent.mkdir(exist_ok=True)
    config.write_text(
        "name: probe\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: m\n    provider: openai\n"
        f"    model: m\n    apiBase: {endpoint.url}/v1\n    apiKey: x\n    roles: [chat]\n"
    )
    ask(clients, at, "cn", "-p", "--config", str(config), "say ok now")
    return endpoint.first("/chat/completions")


def claude(clients: Clients, at: Install, endpoint: Endpoint) -> dict[str, Any]:
    # Claude Code 2.1.197 takes the Messages API's base URL and key from the environment;
    # no non-essential traffic (update checks, telemetry) leaves the machine. The turn is
    # the request carrying the tools: a session may first ask the small model for a title.
    ask(clients, at, "claude", "-p", "say ok", "--model", "m",
        ANTHROPIC_BASE_URL=endpoint.url, ANTHROPIC_API_KEY="x",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")  # fmt: skip
    return endpoint.first("/v1/messages?beta=true", having="tools")


TURNS: dict[str, Turn] = {
    "claude": claude,
    "gemini": gemini,
    "opencode": opencode,
    "kilo": kilo,
    "copilot": copilot,
    "qwen": qwen,
    "cline": cline,
    "augment": augment,
    "factory": factory,
    "continue": continue_,
}


def prompt_text(body: Any) -> str:
    """Every string in a request body, one after another: the text the model is sent,
    whatever the client's wire shape (messages, system instruction, tools, rules)."""
    if isinstance(body, str):
        return body
    if isinstance(body, dict):
        body = list(body.values())
    if isinstance(body, list):
        return "\n".join(prompt_text(v) for v in body)
    return ""


def line_count(text: str, line: str) -> int:
    """How often `line` is a whole line of `text`."""
    return len(re.findall(rf"^{re.escape(line)}$", text, re.M))


def compiled_headings(path: Path) -> dict[str, str]:
    """The rules upskill compiled into `path` (a whole file, or the managed block of a
    team's own), each with its section's first line: the heading a prompt shows it by."""
    data = path.read_bytes()
    sections = parse_sections(data)
    if sections is None:
        block = split_block(data)
        assert block is not None, f"{path}: neither compiled nor with a managed block"
        sections = parse_sections(block.content)
    assert sections is not None, f"{path}: the managed block is not upskill's compilation"
    return {name: body.decode().split("\n", 1)[0] for name, body in sections.items()}


def reached_once(text: str, headings: dict[str, str]) -> None:
    """Each compiled rule's heading is a line of the prompt exactly once."""
    assert headings
    seen = {name: line_count(text, heading) for name, heading in headings.items()}
    assert seen == dict.fromkeys(headings, 1), seen
