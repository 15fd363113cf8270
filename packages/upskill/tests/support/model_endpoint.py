"""A model endpoint on 127.0.0.1 that records what a client sends and answers "ok".

Several clients have no offline listing of what they loaded (Qwen Code, Cline, Factory
Droid, Continue, Auggie), or none of their instructions files (Gemini CLI, opencode,
Kilo, Copilot CLI); what they loaded is in the first request of a turn: the
system prompt carries the rules and instructions files, the tools carry the skills and
subagents. The client is pointed here with its own documented base-URL setting. Every
POST is recorded as (path, JSON body); a chat request (OpenAI's shape, streamed or not)
is answered with one assistant message "ok" (Gemini's `generateContent` shape on its
paths, the Anthropic Messages API's events on `/v1/messages`), any other path with
that same body, which clients that only probe (Auggie's `get-models`,
`report-error`) accept and move past; Auggie's `find-missing` (which blobs the index
lacks) is told none, or it retries.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_DONE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}


def _chunk(delta: dict[str, Any], finish: str | None) -> bytes:
    body = {
        "id": "ok",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **({"usage": _DONE} if finish else {}),
    }
    return b"data: " + json.dumps(body).encode() + b"\n\n"


_STREAM = (
    _chunk({"role": "assistant", "content": "ok"}, None) + _chunk({}, "stop") + b"data: [DONE]\n\n"
)
# Gemini's generateContent answer; streamed (`:streamGenerateContent?alt=sse`) as one event.
_GEMINI = json.dumps(
    {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}
        ],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
    }
).encode()


def _event(kind: str, data: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


# The Anthropic Messages API's answer (Claude Code, `/v1/messages`): one text block "ok",
# as the stream of events it is sent as when the request asks `stream: true`.
_ANTHROPIC_USAGE = {"input_tokens": 1, "output_tokens": 1}
_ANTHROPIC = {
    "id": "msg_ok",
    "type": "message",
    "role": "assistant",
    "model": "m",
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": _ANTHROPIC_USAGE,
}
_ANTHROPIC_STREAM = b"".join(
    (
        _event(
            "message_start",
            {
                "type": "message_start",
                "message": {**_ANTHROPIC, "content": [], "stop_reason": None},
            },
        ),
        _event(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        _event(
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "ok"},
            },
        ),
        _event("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        ),
        _event("message_stop", {"type": "message_stop"}),
    )
)


def _tool_stream(name: str, arguments: str) -> bytes:
    call = {"index": 0, "id": "call_0", "type": "function",
            "function": {"name": name, "arguments": arguments}}  # fmt: skip
    return (
        _chunk({"role": "assistant", "tool_calls": [call]}, None)
        + _chunk({}, "tool_calls")
        + b"data: [DONE]\n\n"
    )


_NOTHING_MISSING = json.dumps({"unknown_memory_names": [], "nonindexed_blob_names": []}).encode()
_MESSAGE = json.dumps(
    {
        "id": "ok",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
        ],
        "usage": _DONE,
    }
).encode()


@dataclass
class Endpoint:
    url: str  # http://127.0.0.1:<port>, no trailing slash
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    # A tool call (name, JSON arguments) the first streamed chat request offering tools
    # is answered with, in OpenAI's shape: what a client returns for it (a skill's
    # file, for Cline, whose prompt names skills without saying which copy) is in the
    # next request. None: every chat request is answered "ok".
    tool_call: tuple[str, str] | None = None

    def first(self, path_suffix: str, having: str | None = None) -> dict[str, Any]:
        """The body of the first request whose path ends with `path_suffix` (and whose
        body has the key `having`: opencode titles a session before the turn)."""
        for path, body in self.requests:
            if path.endswith(path_suffix) and (having is None or having in body):
                return body
        seen = ", ".join(p for p, _ in self.requests) or "none"
        raise AssertionError(f"no request to *{path_suffix} (requests: {seen})")


@contextmanager
def model_endpoint() -> Iterator[Endpoint]:
    lock = threading.Lock()
    endpoint = Endpoint(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body = json.loads(raw)
            except ValueError:
                body = {}
            body = body if isinstance(body, dict) else {}
            with lock:
                turn = "tools" in body and not any("tools" in b for _, b in endpoint.requests)
                endpoint.requests.append((self.path, body))
            gemini = ":generateContent" in self.path or ":streamGenerateContent" in self.path
            streamed = bool(body.get("stream")) or "alt=sse" in self.path
            self.send_response(200)
            self.send_header(
                "content-type", "text/event-stream" if streamed else "application/json"
            )
            if gemini:
                payload = b"data: " + _GEMINI + b"\n\n" if streamed else _GEMINI
            elif "/v1/messages" in self.path:
                payload = _ANTHROPIC_STREAM if streamed else json.dumps(_ANTHROPIC).encode()
            elif turn and streamed and endpoint.tool_call is not None:
                payload = _tool_stream(*endpoint.tool_call)
            else:
                payload = _STREAM if streamed else _MESSAGE
            if self.path.endswith("/find-missing"):
                payload = _NOTHING_MISSING
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self) -> None:
            self.send_response(404)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    endpoint.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()
