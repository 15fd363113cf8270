"""Resolve -> render -> plan (pure) -> apply: installing items into a scope."""
