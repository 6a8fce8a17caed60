"""Errors shared across layers that must be importable without the knowledge schema (pydantic):
the TUI catches them at start-up time without loading the walk."""

from __future__ import annotations


class WalkError(ValueError):
    """An answer or node the tree does not have; the message says what would be valid."""
