"""The `upskill` commands, one module each.

Each module exposes ``configure(parser)`` to declare its arguments and
``run(args, console) -> int`` to do the work; it raises `UpskillError` for
anything the user must fix and leaves reporting it to the CLI's one error
boundary (`upskill.cli.dispatch`).
"""

# name -> (module under upskill.commands, one-line help). The table is the
# single place a command is registered; the order is the order of --help.
COMMANDS: dict[str, tuple[str, str]] = {
    "add": ("add", "Install items from a source into every selected client"),
    "update": ("update", "Re-fetch sources and regenerate changed items"),
    "remove": ("remove", "Remove installed items"),
    "remove-mcp": ("remove_mcp", "Unregister an MCP server a bundle configured"),
    "list": ("list_installed", "Show what is installed"),
    "doctor": ("doctor", "Check on-disk state against the lockfile"),
    "clients": ("clients", "List the supported clients, what each takes, and which are detected"),
    "search": ("search", "Search the public registry and configured registries"),
    "index": ("index", "Build or clear the local registry index"),
    "import": ("import_", "Read the clients' existing files into a portable registry"),
    "new": ("new", "Scaffold a new rule, skill or agent"),
    "lint": ("lint", "Validate SSOT files against the format spec"),
    "fmt": ("fmt", "Canonicalise frontmatter and format Markdown bodies"),
    "completion": ("completion", "Print the shell hook for TAB completion (bash, zsh, fish)"),
}
