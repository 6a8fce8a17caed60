"""Setup failures: a report whose decisive line says the software could not be installed, loaded or
matched to its runtime, or that Google Cloud had no capacity or quota for the TPU.

The troubleshooting guide behind the knowledge base covers a TPU that runs and misbehaves; it does
not cover installing the frameworks or getting capacity. Such reports share many words with its
entries ("TPU", "jax", "torch_xla", "create", "UnavailableError") and were answered with
confidence as a connection or creation problem, so the decision (`decide.outside_guide`) abstains
on them unless a specific signature of an entry explains the line (a missing profiler plugin is
the op-profiling entry's own), and the answer says why (`answer.note_setup`).

Only the key lines are read (`Facts.key_lines`: the title and the error lines), so a warning deep in
a long log does not turn a real TPU problem into a setup one.
"""

from __future__ import annotations

import re
from typing import Any

_FRAMEWORK = r"(?:tensorflow|jax|jaxlib|torch|torch_xla|keras|flax|libtpu)"

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "install",
        re.compile(
            # a module or a shared library that does not load
            r"\bImportError\b|\bModuleNotFoundError\b|\bundefined symbol\b|"
            r"\bcannot open shared object file\b|"
            # versions that do not go together
            r"\bversions? (?:mismatch|do(?:es)?n'?t match|do(?:es)? not match|are incompatible)\b|"
            r"\bmismatched\b[\w ]{0,40}\bversion\b|"
            r"\bincompatible (?:with )?(?:" + _FRAMEWORK + r"|version)\b|"
            # an API the installed release no longer has (tf.contrib under TensorFlow 2…)
            r"\bmodule '" + _FRAMEWORK + r"[\w.]*' has no attribute\b|"
            # pip could not install the package at all
            r"\bNo matching distribution found\b|\bCould not find a version that satisfies\b|"
            r"\bFailed building wheel\b",
            re.I,
        ),
    ),
    (
        "capacity",
        re.compile(
            r"\bno more capacity in the zone\b|\binsufficient (?:reserved )?capacity\b|"
            r"\bZONE_RESOURCE_POOL_EXHAUSTED\b|\bResourcesUnavailableError\b|"
            r"\bFailed to acquire resources\b|\bquota (?:metrics? )?exceed(?:s|ed)?\b|"
            r"\bexceeded (?:the )?quota\b|\bQuota '[\w.-]+' exceeded\b",
            re.I,
        ),
    ),
)


def read_setup(key_lines: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first setup failure in `key_lines` ([{"line", "text"}]): {"kind": "install" or
    "capacity", "text": the words that say so, "line": its line number}; None if there is none."""
    for key in key_lines:
        for kind, rx in _RULES:
            m = rx.search(key["text"])
            if m:
                return {"kind": kind, "text": m.group(0), "line": key["line"]}
    return None
