"""Where items come from: the `<source>` grammar, labels and fetching (git or local)."""
