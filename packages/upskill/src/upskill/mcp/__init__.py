"""Bundle MCP servers: configure, unregister and reconcile them per client.

Data flow: `model` (typed server specs and lockfile records) -> `shapes`
(pure per-target config entries, CLI argument lists and file locations) ->
`configure` / `unregister` / `reconcile` (side effects through the `ClientCli`
and `ConfigFiles` seams). Nothing here prints; callers get reports.
"""
