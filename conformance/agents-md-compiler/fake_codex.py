#!/usr/bin/python3
"""A stand-in `codex` for verify-codex: prints the AGENTS.md files Codex would load.

Shared by the differential scenarios (run by the reference and by ctxkit) and the
package tests. FAKE_CODEX_MODE selects a failure; FAKE_CODEX_LOG, when set, gets
one JSON line per probe with its argv and working directory.
"""

import json
import os
import sys
import time

mode = os.environ.get("FAKE_CODEX_MODE", "ok")
args = sys.argv[1:]
if args == ["--version"]:
    if mode == "version-fail":
        sys.exit(3)
    print("codex-cli 9.9.9")
    sys.exit(0)
if args == ["debug", "prompt-input", "--help"]:
    sys.exit(2 if mode == "no-capability" else 0)
if args[:2] != ["debug", "prompt-input"]:
    sys.exit(64)
if mode == "timeout":
    time.sleep(30)
if mode == "probe-fail":
    sys.exit(5)
if mode == "not-json":
    print("plain text")
    sys.exit(0)
home = os.environ.get("CODEX_HOME") or os.path.join(os.environ["HOME"], ".codex")
found = [os.path.join(home, "AGENTS.md")]
here = os.getcwd()
while True:
    if os.path.isfile(os.path.join(here, "AGENTS.md")):
        found.append(os.path.join(here, "AGENTS.md"))
        break
    if os.path.dirname(here) == here:
        break
    here = os.path.dirname(here)
chunks = []
for path in found:
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            chunks.append(handle.read())
text = "\n".join(chunks)
if mode == "drop-markers":
    text = text.replace("module-end", "module-fin")
if mode == "twice":
    text = text + text
if mode == "drop-sentinels":
    text = "\n".join(line for line in text.split("\n") if line.startswith(("<!--", "#")))
log = os.environ.get("FAKE_CODEX_LOG")
if log:
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"argv": args, "cwd": os.getcwd()}) + "\n")
print(json.dumps({"items": [{"role": "user", "content": [{"text": text}]}]}))
