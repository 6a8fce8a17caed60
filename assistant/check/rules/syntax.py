"""TPU0xx: files the checker cannot read. Reported as findings, never as a traceback."""

from __future__ import annotations

from ..model import Rule

RULES = [
    Rule("TPU001", None, "syntax-error", tpu_only=False),
    Rule("TPU002", None, "unreadable-file", tpu_only=False),
]
