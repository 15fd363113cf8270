"""Warm MCP calls: one live session per projected server, kept by a per-uid host
process and reached by the object runner over a Unix socket (handoff.py), so a call
costs an interpreter start and a round trip instead of a server start-up."""
