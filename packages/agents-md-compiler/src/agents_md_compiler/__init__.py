"""agents-md-compiler: compile AGENTS.md from a TOML manifest of Markdown modules."""

__version__ = "1.0.1"
