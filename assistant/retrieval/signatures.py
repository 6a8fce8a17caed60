"""Error-signature channel: literal or RE2 patterns that real error output carries.

Patterns are compiled with RE2 (google-re2), a linear-time engine: no pattern from a knowledge file
and no pasted input can make matching backtrack catastrophically. RE2 has no backreferences or
lookaround; the linter reports such patterns (E030).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

# Compilation lives in the kb layer (the linter needs it too); re-exported here for callers.
from ..kb.patterns import (
    SignatureError,
    compile_signature,
    pattern_source,
    re2_options,
    required_literals,
)
from ..kb.schema import Entry

if TYPE_CHECKING:  # the schema imports nothing from here; keep it that way at run time too
    from ..kb.loader import LoadedEntry
    from ..kb.schema import Signature

# (entry id, signature, the case-folded strings every match contains: see `required_literals`)
Item = tuple[str, "Signature", tuple[str, ...]]

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
    tpu_host_device: bool = False  # an exclude lifted on a TPU's host (see kb.schema.Signature)
    tpu_evidence: bool = True  # the message comes from a TPU setup (see kb.schema.Signature)
    # A pattern that reaches past its first line (a KeyboardInterrupt within a page of the TPU):
    # the line where the match ends and the part of the match on it ("" for a match on one line).
    # An index into the searched lines, like `line_no`; the engine renumbers it as the input's
    # line, the number it keeps beside each hit (`Evidence.signature_hits`).
    last_line_no: int = 0
    tail: str = ""
    sets: dict[str, str] = field(default_factory=dict)  # the situation it shows (kb.schema)
    aftermath: bool = False  # it tells what followed an error (see kb.schema.Signature)


SET_SIZE = 512  # patterns per RE2 Set (measured by scripts/bench.py at 100k chunks)
# Below this many (characters x patterns), running each pattern on its own beats building the
# Sets: compiling them costs ~70 ms for the built-in knowledge base (a one-shot `ask` pays it
# once per process), while 90 patterns search a pasted 30 kB trace in ~3 ms. Above it (a long
# log, or thousands of entries), one pass per Set is the fast way, and the Sets are compiled on
# that first need (or by `Engine.warm_up`, after which they are always used). Either way each
# candidate is then searched on its own, so the hits are the same by construction.
PER_PATTERN_BUDGET = 3_000_000


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


def _compiled(sig: Signature) -> Any:
    """The signature's RE2 pattern (compiled once per process), or None if RE2 refuses it (the
    linter reports that, E030; a search never breaks on it)."""
    try:
        return compile_signature(sig)
    except SignatureError:
        return None


class SignatureMatcher:
    """All signatures of a knowledge base (one field: `signatures` or `excludes`).

    Nothing is compiled up front: a one-shot `ask` compiles only the patterns its text can match.
    Each pattern carries the literal strings every match of it contains; a text without them is
    not searched with it, and most patterns are never compiled (compiling all of them costs
    ~60 ms, mostly the counted repetitions like `[\\s\\S]{0,1000}`). For a long text or many
    patterns, RE2 Sets find in one linear pass each which patterns occur; only those are then run
    on their own to locate the match and read its captures.
    """

    def __init__(self, entries: Iterable[LoadedEntry | Entry], field: str = "signatures") -> None:
        self.items: list[Item] = []
        for loaded in entries:
            entry = loaded if isinstance(loaded, Entry) else loaded.entry
            for sig in getattr(entry, field):
                self.items.append((entry.id, sig, required_literals(sig.kind, sig.pattern)))
        self._groups: list[tuple[list[int], Any]] | None = None  # built on first need

    def groups(self) -> list[tuple[list[int], Any]]:
        """(item indices, Set or None) per group of the patterns RE2 accepts. Several Sets of
        bounded size: one huge Set can exceed RE2's DFA budget and fail to compile; a group that
        fails anyway is searched pattern by pattern."""
        if self._groups is None:
            valid = [i for i, (_, sig, _) in enumerate(self.items) if _compiled(sig) is not None]
            groups = []
            for first in range(0, len(valid), SET_SIZE):
                members = valid[first : first + SET_SIZE]
                groups.append((members, _compile_set([self.items[i] for i in members])))
            # Published whole: a search on another thread (the TUI warms up in a worker) sees
            # either no Sets, and takes the literal path, or all of them, never a part.
            self._groups = groups
        return self._groups

    def match(self, lines: list[str]) -> list[SignatureHit]:
        text = "\n".join(lines)
        starts: list[int] = []
        pos = 0
        for line in lines:
            starts.append(pos)
            pos += len(line) + 1
        candidates: list[int] = []
        # Once the Sets exist (a warmed-up engine), they are the fast way whatever the text: the
        # literal test below is a Python loop over every pattern (~30 ms at 10,000 patterns).
        if self._groups is None and len(text) * len(self.items) <= PER_PATTERN_BUDGET:
            folded = text.casefold()
            candidates = [
                i
                for i, (_, _, needles) in enumerate(self.items)
                if all(needle in folded for needle in needles)
            ]
        else:
            for members, rset in self.groups():
                if rset is None:
                    candidates.extend(members)
                else:
                    candidates.extend(members[j] for j in (rset.Match(text) or []))
        hits: list[SignatureHit] = []
        for i in sorted(candidates):
            entry_id, sig, _ = self.items[i]
            rx = _compiled(sig)
            m = rx.search(text) if rx is not None else None
            if m is None:
                continue
            line_no = _line_of(starts, m.start())
            last_line_no = _line_of(starts, max(m.end() - 1, m.start()))
            spans = last_line_no > line_no
            tail = text[max(starts[last_line_no], m.end() - 300) : m.end()] if spans else ""
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
                    sig.tpu_host_device,
                    sig.tpu_evidence,
                    last_line_no,
                    tail,
                    dict(sig.sets),
                    sig.aftermath,
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
