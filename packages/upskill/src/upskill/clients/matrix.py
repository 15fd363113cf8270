"""The support matrix, rendered from the registry for people to read.

`docs/upskill/clients.md` and the README carry these tables between
`<!-- clients:<table>:begin -->` and `<!-- clients:<table>:end -->` markers; a
test fails when they differ from what this module renders, and
`python -m upskill.clients.matrix FILE...` rewrites the marked blocks.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from upskill.clients.base import AGENT, RULE, SKILL, Base, Carrier, Client, ConfigFile
from upskill.clients.registry import CLIENTS

_BASE_PREFIX = {
    Base.ROOT: "",
    Base.HOME: "~/",
    Base.CONFIG: "~/.config/",
    Base.APP_CONFIG: "<user config>/",
}


def _cell(client: Client, kind: str, *, home: bool) -> str:
    path = client.entrypoint(kind, "<n>", home=home)
    if path is None:
        return "—"
    cell = f"`~/{path}`" if home else f"`{path}`"
    where = client.kinds[kind]
    if where.carrier is Carrier.COMPILED:
        front = where.front(home)
        cell += " (compiled: always-on rules" + (f"; `{front}` imports it" if front else "")
        if where.override and not home:
            cell += f"; `{where.override}` where another client would read one twice"
        if where.alternative and not home:
            cell += f"; `{where.alternative}` beside a team's own `{where.project.template}`"
        cell += ")"
    return cell


def _config(file: ConfigFile | None, *, home: bool) -> str:
    if file is None:
        return "—"
    prefix = "~/" if home and file.base is Base.ROOT else _BASE_PREFIX[file.base]
    return f"`{prefix}{file.path}`"


def _flag(client: Client) -> str:
    return f"{client.name} (`--{client.id}`)"


def project_table() -> str:
    lines = [
        "| client | rules | skills | agents | MCP servers |",
        "| --- | --- | --- | --- | --- |",
    ]
    for c in CLIENTS:
        if c.tree:
            tree = f"{_by_id(c.tree).name}'s tree"
            cells = [tree, tree, tree]
        else:
            cells = [_cell(c, k, home=False) for k in (RULE, SKILL, AGENT)]
        mcp = "—" if c.mcp is None else f"{_config(c.mcp.project, home=False)} `{c.mcp.root_key}`"
        if c.mcp is not None and c.mcp.shell_expands:
            mcp += " (shell-expanded: values escaped, `$(` and backticks refused)"
        lines.append(f"| {_flag(c)} | {' | '.join(cells)} | {mcp} |")
    return "\n".join(lines) + "\n"


def global_table() -> str:
    lines = [
        "| client | rules | skills | agents | MCP servers |",
        "| --- | --- | --- | --- | --- |",
    ]
    for c in CLIENTS:
        if c.tree:
            continue
        cells = [_cell(c, k, home=True) for k in (RULE, SKILL, AGENT)]
        mcp = "—" if c.mcp is None else _config(c.mcp.user, home=True)
        lines.append(f"| {c.name} | {' | '.join(cells)} | {mcp} |")
    return "\n".join(lines) + "\n"


def sources_table() -> str:
    lines = ["| client | detected by | facts from |", "| --- | --- | --- |"]
    for c in CLIENTS:
        marks = [f"`{p}`" for p in c.detect.paths] + [
            f"`{e}` on PATH" for e in c.detect.executables
        ]
        lines.append(f"| {c.name} | {', '.join(marks)} | {'; '.join(c.docs)} |")
    return "\n".join(lines) + "\n"


def skills_table() -> str:
    """Which copy a client shows when one skill name is in several trees it reads."""
    lines = [
        "| client | project skill trees it reads, preferred first | one name in several "
        "| user-level skill trees it reads (under `~`) | one name in several |"
    ]
    lines.append("| --- | --- | --- | --- | --- |")
    for c in CLIENTS:
        if (c.tree and not c.skill_trees) or SKILL not in c.kinds:
            continue  # a client rendering another's tree is listed where its facts differ
        project = _shows(c, c.project_skill_trees(), bool(c.skill_trees), ordered=c.skill_order)
        user = _shows(
            c, c.skill_trees_at(True), bool(c.user_skill_trees), ordered=c.user_skill_order
        )
        if not c.user_skill_trees:  # its own tree is known; what else it reads is not
            user = user.replace(" |", " (others not verified) |", 1)
        lines.append(f"| {c.name} | {project} | {user} |")
    return "\n".join(lines) + "\n"


def _shows(c: Client, trees: tuple[str, ...], verified: bool, *, ordered: bool) -> str:
    """Two cells: the trees, and which copy of a name found in several the client shows."""
    listed = ", ".join(f"`{t}`" for t in trees) or "—"
    if len(trees) <= 1:
        shows = "—"
    elif c.dedupes and not ordered:
        shows = "one copy, not always from the same tree"
    elif c.dedupes:
        shows = "the first tree's copy only" if verified else "one copy (order unverified)"
    else:
        shows = "every copy" if verified else "every copy (unverified)"
    return f"{listed} | {shows}"


def agents_table() -> str:
    """Which agent trees a client reads, and what it lists for one name in several."""
    lines = ["| client | project agent trees it reads, preferred first | one name in several |"]
    lines.append("| --- | --- | --- |")
    for c in CLIENTS:
        if AGENT not in c.kinds:
            continue
        trees = c.project_agent_trees()
        if len(trees) == 1:
            shows = "—"
        else:
            shows = (
                "the first tree's copy only"
                if c.one_agent_per_name
                else "every copy"
                if c.lists_agent_copies
                else "every copy (unverified)"
            )
        lines.append(f"| {c.name} | {', '.join(f'`{t}`' for t in trees)} | {shows} |")
    return "\n".join(lines) + "\n"


def _by_id(client_id: str) -> Client:
    return next(c for c in CLIENTS if c.id == client_id)


TABLES: dict[str, Callable[[], str]] = {
    "project": project_table,
    "global": global_table,
    "sources": sources_table,
    "skills": skills_table,
    "agents": agents_table,
}
_BLOCK = re.compile(
    r"(<!-- clients:(?P<name>[a-z]+):begin -->\n).*?(<!-- clients:(?P=name):end -->)", re.S
)


def refresh(text: str) -> str:
    """`text` with every marked block replaced by the table it names."""
    return _BLOCK.sub(lambda m: m.group(1) + TABLES[m.group("name")]() + m.group(3), text)


def main(argv: list[str]) -> int:
    for name in argv:
        path = Path(name)
        path.write_text(refresh(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
