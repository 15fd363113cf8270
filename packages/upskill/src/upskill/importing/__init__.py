"""`upskill import`: read what the clients already have back into a portable registry.

The reverse of rendering, driven by the same client registry (`upskill.clients`):
every tree a client's items land in is read back (`scan`), instruction files become
always-on rules (`instructions`), MCP configs become a bundle (`servers`), the
frontmatter is mapped back by running the render tables in reverse and checking the
result against the forward rendering (`reverse`), findings of several clients merge
into one item (`merge`), and the registry is written all at once (`output`, `write`).
Nothing here prints: the command reports the `Import` value it gets back.
"""
