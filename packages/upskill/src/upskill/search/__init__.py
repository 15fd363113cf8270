"""`upskill search` and `upskill index`.

Data flow: `scan` (registry tree -> entries) -> `store` (one SQLite FTS5
database in the user cache, rows per registry, rebuilt when a registry's head
moves) -> `public` (the skills.sh HTTP API) -> `rank` (one bm25 ranking over
registry rows and public hits together) -> the commands print.
"""
