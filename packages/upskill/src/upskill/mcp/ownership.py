"""Which MCP config entries are upskill's: the ones still as upskill left them.

A server of the same name that the user configured, or edited since, is the
user's (docs/upskill/security.md). upskill records the sha256 of each entry it
wrote (read back from the client's config file, so an entry a client CLI wrote
in its own shape is covered too) and replaces or deletes an entry only while
it still has that digest. A record without a digest (written before digests,
or planted in a lockfile) proves nothing: such an entry is treated as the
user's unless it is exactly the entry upskill would write.
"""

from __future__ import annotations

import enum
import hashlib
import json

from upskill.clientconf import configfile
from upskill.clientconf.places import ConfigLocation
from upskill.errors import UpskillError


def digest(value: object) -> str:
    """sha256 of an entry's canonical JSON: key order and spacing do not matter."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class Verdict(enum.Enum):
    FREE = "free"  # no entry of that name: write it
    OURS = "ours"  # the entry upskill wrote, unchanged: replace or delete it
    SAME = "same"  # already exactly what upskill would write: adopt it
    THEIRS = "theirs"  # the user's entry (or changed since): leave it
    UNKNOWN = "unknown"  # the file cannot be read: the caller decides


def judge(
    location: ConfigLocation | None,
    name: str,
    recorded: str | None,
    wanted: object | None = None,
) -> tuple[Verdict, str | None]:
    """(verdict, digest of the current entry) for server `name` in `location`."""
    if location is None:
        return Verdict.UNKNOWN, None
    try:
        current = configfile.member(location, name)
    except UpskillError:
        return Verdict.UNKNOWN, None
    if current is configfile.ABSENT:
        return Verdict.FREE, None
    seen = digest(current)
    if recorded is not None and seen == recorded:
        return Verdict.OURS, seen
    if wanted is not None and digest(_lean(current)) == digest(_lean(wanted)):
        return Verdict.SAME, seen
    return Verdict.THEIRS, seen


def _lean(entry: object) -> object:
    """An entry without empty members: `claude mcp add` writes `"env": {}` for a server
    without environment, where upskill's own shape omits it; both say the same."""
    if type(entry) is not dict:
        return entry
    return {k: v for k, v in entry.items() if v != {} and v != []}


def current_digest(location: ConfigLocation | None, name: str) -> str | None:
    """The digest of the entry now in `location`, when it can be read (after a write)."""
    verdict, seen = judge(location, name, None)
    return seen if verdict is Verdict.THEIRS else None
