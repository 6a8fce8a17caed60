"""`tpu-assist check`: find the Cloud TPU guide's problems in a training script before it runs.

Pure standard-library `ast` over the source: the code is never imported or run. Each rule
(`rules/`, one module per family) names the knowledge entry whose guided fix applies and the
values it found, named like that entry's tree variables, so the walk can start pre-answered.
"""

from __future__ import annotations

from .model import Finding, Rule
from .rules import REDIRECTS
from .runner import (
    RULES,
    Report,
    check_file,
    check_paths,
    check_snippet,
    check_source,
    iter_files,
)
from .selection import Selection, SelectionError

__all__ = [
    "REDIRECTS",
    "RULES",
    "Finding",
    "Report",
    "Rule",
    "Selection",
    "SelectionError",
    "check_file",
    "check_paths",
    "check_snippet",
    "check_source",
    "iter_files",
]
