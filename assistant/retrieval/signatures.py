"""Error-signature channel: literal or RE2 patterns that real error output carries.

Patterns are compiled with RE2 (google-re2), a linear-time engine: no pattern from a knowledge file
and no pasted input can make matching backtrack catastrophically. RE2 has no backreferences or
lookaround; the linter reports such patterns (E030).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

# Compilation lives in the kb layer (the linter needs it too); re-exported here for callers.
from ..kb.patterns import SignatureError, compile_signature, pattern_source, re2_options
from ..kb.schema import Entry

if TYPE_CHECKING:  # the schema imports nothing from here; keep it that way at run time too
    from ..kb.loader import LoadedEntry
    from ..kb.schema import Signature

# (entry id, signature, compiled RE2 pattern); the RE2 binding ships no types.
Item = tuple[str, "Signature", Any]

__all__ = [
    "SignatureError",
    "SignatureHit",
    "SignatureMatcher",
    "compile_signature",
    "match_signatures",
]


@dataclass(frozen=True)
class SignatureHit:
    entry_id: str
    signature_id: str
    weight: float
    line_no: int  # 0-based index of the matched line in the searched text
    line: str
    matched: str
    captures: dict[str, str]


SET_SIZE = 512  # patterns per RE2 Set (measured by scripts/bench.py at 100k chunks)


def _compile_set(group: list[Item]) -> Any:
    import re2

    rset = re2.Set.SearchSet(re2_options(False, max_mem=64 << 20))
    try:
        for _, sig, _ in group:
            rset.Add(("(?i)" if sig.ignore_case else "") + pattern_source(sig.kind, sig.pattern))
        if (
            rset.Compile() is False
        ):  # the binding returns None on success, raises or False on failure
            return None
        return rset
    except Exception:
        return None


class SignatureMatcher:
    """All signatures of a knowledge base (one field: `signatures` or `excludes`) compiled once.

    RE2 Sets find in one linear pass each which of their patterns occur in the text; only those
    are then run on their own to locate the match and read its captures. With thousands of entries
    this keeps a search at a few scans of the input instead of one scan per pattern.
    """

    def __init__(self, entries: Iterable[LoadedEntry | Entry], field: str = "signatures") -> None:
        self.items: list[Item] = []
        for loaded in entries:
            entry = loaded if isinstance(loaded, Entry) else loaded.entry
            for sig in getattr(entry, field):
                try:
                    self.items.append((entry.id, sig, compile_signature(sig)))
                except SignatureError:
                    continue  # reported by the linter; never breaks a search
        # Several Sets of bounded size: one huge Set can exceed RE2's DFA budget and fail to
        # compile; a group that fails anyway is searched pattern by pattern.
        self._groups: list[tuple[int, Any, int]] = []  # (first item, Set or None, size)
        for first in range(0, len(self.items), SET_SIZE):
            group = self.items[first : first + SET_SIZE]
            self._groups.append((first, _compile_set(group), len(group)))

    def match(self, lines: list[str]) -> list[SignatureHit]:
        text = "\n".join(lines)
        starts: list[int] = []
        pos = 0
        for line in lines:
            starts.append(pos)
            pos += len(line) + 1
        candidates: list[int] = []
        for first, rset, size in self._groups:
            if rset is None:
                candidates.extend(range(first, first + size))
            else:
                candidates.extend(first + i for i in (rset.Match(text) or []))
        hits: list[SignatureHit] = []
        for i in sorted(candidates):
            entry_id, sig, rx = self.items[i]
            m = rx.search(text)
            if m is None:
                continue
            line_no = _line_of(starts, m.start())
            captures = {k: v for k, v in (m.groupdict() or {}).items() if v}
            hits.append(
                SignatureHit(
                    entry_id,
                    sig.id,
                    sig.weight,
                    line_no,
                    lines[line_no],
                    m.group(0)[:300],
                    captures,
                )
            )
        hits.sort(key=lambda h: (-h.weight, h.line_no))
        return hits


def match_signatures(
    entries: Iterable[LoadedEntry | Entry], lines: list[str], field: str = "signatures"
) -> list[SignatureHit]:
    """Every signature hit of every entry over `lines`, best (heaviest, earliest) first.

    `field="excludes"` matches the entries' look-alike patterns instead. A signature may span lines
    (`\\n` in a regex), so it is matched against the whole text; the hit is attributed to the line
    where the match starts. (Engines keep a `SignatureMatcher` instead of calling this per query.)
    """
    return SignatureMatcher(entries, field).match(lines)


def _line_of(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo
