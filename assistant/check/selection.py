"""`--select` / `--ignore`: codes or prefixes (`TPU1`, `TPU10`, `TPU101`, `ALL`), as in ruff:
a code is checked when it matches a selected prefix and no ignored prefix that is at least as
specific."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class SelectionError(ValueError):
    """A code or prefix that names no rule."""


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()

    @classmethod
    def parse(
        cls, select: Iterable[str] | None, ignore: Iterable[str] | None, known: Iterable[str]
    ) -> Selection:
        codes = list(known)
        sel = _split(select) or ["ALL"]
        ign = _split(ignore)
        for p in [*sel, *ign]:
            if p != "ALL" and not any(c.startswith(p) for c in codes):
                raise SelectionError(f"{p!r} matches no rule (codes: {', '.join(codes)})")
        return cls(tuple(sel), tuple(ign))

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
