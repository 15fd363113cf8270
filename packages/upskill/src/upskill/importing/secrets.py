"""Recognise literal secrets in MCP server settings, so import never copies one.

A value is a secret when its key is named like one (`*TOKEN*`, `*KEY*`, `*SECRET*`,
`*PASSWORD*`, `Authorization`) or when it matches a known token shape (GitHub, OpenAI
and Anthropic, Slack, AWS, Google, GitLab, npm keys, JWTs, long random strings). A
value that is only a `${VAR}` reference (after an optional auth scheme) is not one.
"""

from __future__ import annotations

import re

ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_SECRET_KEY = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|^AUTHORIZATION$", re.I)
_SCHEME = re.compile(r"(?i)(Bearer|Basic|Token|Bot)[ \t]+")
TOKEN_SHAPES = re.compile(
    r"gh[pousr]_[A-Za-z0-9]{20,}"
    r"|github_pat_[A-Za-z0-9_]{20,}"
    r"|sk-[A-Za-z0-9_-]{16,}"
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"
    r"|AKIA[0-9A-Z]{16}"
    r"|AIza[0-9A-Za-z_-]{30,}"
    r"|glpat-[A-Za-z0-9_-]{20,}"
    r"|npm_[A-Za-z0-9]{30,}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
    r"|(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}"
)


def secret_key(key: str) -> bool:
    return _SECRET_KEY.search(key) is not None


def literal_part(value: str) -> str:
    """What remains of `value` once an auth scheme and `${VAR}` references are removed."""
    rest = _SCHEME.sub("", value, count=1) if _SCHEME.match(value) else value
    return ENV_REF.sub("", rest).strip()


def scheme_of(value: str) -> str:
    match = _SCHEME.match(value)
    return match.group(0) if match is not None else ""


def looks_secret(key: str, value: str) -> bool:
    """Whether `value`, stored under `key`, must not be copied."""
    literal = literal_part(value)
    if not literal:
        return False
    return secret_key(key) or TOKEN_SHAPES.search(literal) is not None


def env_name(text: str) -> str:
    """An environment variable name made from a key or server name."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").upper()
    return name if name and not name[0].isdigit() else f"_{name}"
