"""Persistent state: the `.upskill-lock.json` lockfile and the YAML config files."""
