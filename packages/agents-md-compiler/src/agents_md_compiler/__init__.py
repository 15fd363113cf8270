"""agents-md-compiler: compile AGENTS.md from a TOML manifest of Markdown modules."""

__version__ = "0.1.0"
