"""`--select` / `--ignore`: codes or prefixes (`TPU1`, `TPU10`, `TPU101`, `ALL`), as in ruff:
a code is checked when it matches a selected prefix and no ignored prefix that is at least as
specific. A code that moved (a redirect) is read as its new code, and the move is kept to be
told."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class SelectionError(ValueError):
    """A code or prefix that names no rule."""


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    remapped: tuple[tuple[str, str], ...] = ()  # (old code, new code) met in the options

    @classmethod
    def parse(
        cls,
        select: Iterable[str] | None,
        ignore: Iterable[str] | None,
        known: Iterable[str],
        redirects: Mapping[str, str] | None = None,
    ) -> Selection:
        codes = list(known)
        moved = redirects or {}
        sel = _split(select) or ["ALL"]
        ign = _split(ignore)
        remapped = tuple(dict.fromkeys((p, moved[p]) for p in [*sel, *ign] if p in moved))
        sel = [moved.get(p, p) for p in sel]
        ign = [moved.get(p, p) for p in ign]
        for p in [*sel, *ign]:
            if p != "ALL" and not any(c.startswith(p) for c in codes):
                raise SelectionError(f"{p!r} matches no rule (codes: {', '.join(codes)})")
        return cls(tuple(sel), tuple(ign), remapped)

    def allows(self, code: str) -> bool:
        """Selected by some prefix, and not ignored by one at least as specific (ties go to
        `--ignore`)."""
        chosen = _longest(self.select, code)
        return chosen >= 0 and _longest(self.ignore, code) < chosen


def _split(items: Iterable[str] | None) -> list[str]:
    out: list[str] = []
    for item in items or []:
        out += [p.strip().upper() for p in item.split(",") if p.strip()]
    return out


def _longest(prefixes: tuple[str, ...], code: str) -> int:
    """Length of the longest prefix matching `code` (ALL counts as 0), -1 if none."""
    best = -1
    for p in prefixes:
        if p == "ALL":
            best = max(best, 0)
        elif code.startswith(p):
            best = max(best, len(p))
    return best
