"""The public skills.sh search API.

`GET {base}/api/search?q=<query>&limit=<n>` with the query URL-encoded
(upstream sends it raw, which breaks on `&`, `#` and spaces). urllib honours
HTTPS_PROXY/HTTP_PROXY/NO_PROXY from the environment.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from upskill.errors import UpskillError
from upskill.search.model import PublicHit

DEFAULT_BASE_URL = "https://skills.sh"
REGISTRY_URL_ENV = "UPSKILL_REGISTRY_URL"
TIMEOUT_SECONDS = 15.0
MAX_RESPONSE_BYTES = 8 * 1024 * 1024

Fetch = Callable[[str, float], bytes]


class PublicSearchError(UpskillError):
    """skills.sh could not be queried (network, HTTP status, or a malformed answer)."""


def search_url(query: str, limit: int, env: Mapping[str, str]) -> str:
    from urllib.parse import urlencode

    base = (env.get(REGISTRY_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
    return f"{base}/api/search?{urlencode({'q': query, 'limit': limit})}"


def _urllib_fetch(url: str, timeout: float) -> bytes:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            data: bytes = response.read(MAX_RESPONSE_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise PublicSearchError(f"skills.sh answered HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", exc)
        raise PublicSearchError(f"skills.sh is unreachable: {reason}") from None
    if len(data) > MAX_RESPONSE_BYTES:
        raise PublicSearchError("skills.sh answer is too large")
    return data


def _hit(raw: Any) -> PublicHit | None:
    if not isinstance(raw, dict):
        return None
    name, source = raw.get("name"), raw.get("source")
    if type(name) is not str or type(source) is not str or not name or not source:
        return None
    installs = raw.get("installs")
    description = raw.get("description")
    return PublicHit(
        name=name,
        source=source,
        installs=installs if type(installs) is int else None,
        description=description if type(description) is str else "",
    )


def search_public(
    query: str, limit: int, env: Mapping[str, str], fetch: Fetch = _urllib_fetch
) -> list[PublicHit]:
    """Hits in the server's order; entries without a name or source are dropped."""
    body = fetch(search_url(query, limit, env), TIMEOUT_SECONDS)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # also not UTF-8, or a 5,000-digit number
        raise PublicSearchError("skills.sh answered with malformed JSON") from None
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, list):
        raise PublicSearchError("skills.sh answer has no `skills` list")
    return [hit for hit in map(_hit, skills) if hit is not None][:limit]


def install_command(hit: PublicHit) -> str:
    """`upskill add <source> <name>`; skills.sh prefixes sources with their host."""
    source = hit.source
    if source.startswith("github/"):
        source = source.removeprefix("github/")
    elif source.startswith("gitlab/"):
        source = "https://gitlab.com/" + source.removeprefix("gitlab/")
    return f"upskill add {source} {hit.name}"
