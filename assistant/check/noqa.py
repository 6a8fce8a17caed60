"""`# noqa` comments, as ruff reads them: `# noqa` silences every finding on its line,
`# noqa: TPU101, TPU2` the codes (or code prefixes) it names; a code that moved is read as its new
code."""

from __future__ import annotations

import re
from collections.abc import Mapping

_NOQA = re.compile(
    r"#\s*noqa(?P<sep>\s*:\s*(?P<codes>[A-Z]+[0-9]*(?:[\s,]+[A-Z]+[0-9]*)*))?", re.IGNORECASE
)
_CODE = re.compile(r"[A-Z]+[0-9]*", re.IGNORECASE)

ALL = frozenset({"*"})


def directives(text: str, redirects: Mapping[str, str] | None = None) -> dict[int, frozenset[str]]:
    """Line (1-based) -> the codes silenced there; `ALL` for a bare `# noqa`."""
    moved = redirects or {}
    out: dict[int, frozenset[str]] = {}
    if "noqa" not in text.lower():
        return out
    for n, line in enumerate(text.splitlines(), start=1):
        if "#" not in line or "noqa" not in line.lower():
            continue
        m = _NOQA.search(line)
        if m is None:
            continue
        if m.group("codes"):
            codes = (c.upper() for c in _CODE.findall(m.group("codes")))
            out[n] = frozenset(moved.get(c, c) for c in codes)
        else:
            out[n] = ALL
    return out


def silenced(codes: frozenset[str] | None, code: str) -> bool:
    if not codes:
        return False
    return codes is ALL or "*" in codes or any(code.startswith(c) for c in codes)
