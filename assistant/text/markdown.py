"""Markdown -> plain text: what the index searches and what a terminal shows of a summary."""

from __future__ import annotations

import re

# Markdown syntax to drop. Underscores stay: they are part of identifiers (drop_remainder,
# steps_per_execution), and the knowledge base does not use them for emphasis.
_MD = re.compile(r"[`*>#]+|\[([^\]]*)\]\([^)]*\)")


def plain(markdown: str) -> str:
    """Markdown -> plain text, good enough for indexing and for one-line display."""
    return re.sub(r"\s+", " ", _MD.sub(lambda m: m.group(1) or " ", markdown)).strip()
