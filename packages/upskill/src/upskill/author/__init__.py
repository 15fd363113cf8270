"""Author-side tooling: scaffold (`new`), canonicalise (`fmt`) and check (`lint`) SSOT files.

These modules never print; the command modules under `upskill.commands` turn
their results into output and exit codes.
"""
