"""The public skills.sh search API.

`GET {base}/api/search?q=<query>&limit=<n>` with the query URL-encoded
(upstream sends it raw, which breaks on `&`, `#` and spaces).
HTTPS_PROXY/HTTP_PROXY/NO_PROXY (either case, lowercase winning, as urllib
reads them) come from the run's environment (`World.env`), not the process's.
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


def proxies_of(env: Mapping[str, str]) -> dict[str, str]:
    """`urllib.request.getproxies_environment()`, read from `env`: `<scheme>_proxy` in either
    case, a lowercase one winning (an empty lowercase one unsets), `no` for NO_PROXY."""
    proxies = {
        name.lower()[:-6]: v for name, v in env.items() if v and name.lower()[-6:] == "_proxy"
    }
    if "REQUEST_METHOD" in env:  # CVE-2016-1000110: a CGI request sets HTTP_PROXY
        proxies.pop("http", None)
    for name, value in env.items():
        if name[-6:] == "_proxy":
            if value:
                proxies[name[:-6]] = value
            else:
                proxies.pop(name[:-6], None)
    return proxies


def _urllib_fetch(url: str, timeout: float, env: Mapping[str, str]) -> bytes:
    import urllib.error
    import urllib.request

    proxies = proxies_of(env)

    class Proxies(urllib.request.ProxyHandler):
        """urllib's proxy handler, bypassed by the run's NO_PROXY (urllib's own asks
        the process environment)."""

        def proxy_open(self, req: urllib.request.Request, proxy: str, type: str) -> Any:
            bypass = urllib.request.proxy_bypass_environment  # type: ignore[attr-defined]
            if req.host and bypass(req.host, proxies):
                return None
            return super().proxy_open(req, proxy, type)

    opener = urllib.request.build_opener(Proxies({k: v for k, v in proxies.items() if k != "no"}))
    request = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310
    try:
        with opener.open(request, timeout=timeout) as response:
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
    query: str, limit: int, env: Mapping[str, str], fetch: Fetch | None = None
) -> list[PublicHit]:
    """Hits in the server's order; entries without a name or source are dropped. `fetch`:
    default, urllib with `env`'s proxies."""
    url = search_url(query, limit, env)
    body = (
        _urllib_fetch(url, TIMEOUT_SECONDS, env) if fetch is None else fetch(url, TIMEOUT_SECONDS)
    )
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
