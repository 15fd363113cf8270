"""Bundle plugins: client-native packages installed through each client's own CLI.

Data flow: `model` (lockfile records) -> `steps` (pure: identifier and argument
lists per descriptor form) -> `install` / `uninstall` / `reconcile` (side
effects through the shared `ClientCli` seam) ; `lint` adds author-time warnings.
"""
