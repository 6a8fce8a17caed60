"""The rules, one module per family. Each module declares its `RULES` and a `check(ctx)` that
yields findings; `ALL` and `CHECKS` gather them in code order."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model import Finding, Rule
from . import (
    accuracy,
    batch,
    collectives,
    dynamic_shape,
    input_pipeline,
    launch,
    layers,
    loop,
    ops,
    syntax,
)
from .base import Context

_MODULES = [
    syntax,
    dynamic_shape,
    batch,
    layers,
    loop,
    ops,
    input_pipeline,
    accuracy,
    launch,
    collectives,
]

ALL: dict[str, Rule] = {r.code: r for m in _MODULES for r in m.RULES}
CHECKS: list[Callable[[Context], Iterable[Finding]]] = [m.check for m in _MODULES[1:]]
# Codes that moved, as ruff's rule redirects: `--select`/`--ignore` and noqa comments still take
# the old code and read it as the new one. TPU104/105 (a host read in a PyTorch/XLA loop) were
# filed under dynamic-shape; the knowledge base answers them with steps-per-execution.
REDIRECTS: dict[str, str] = {"TPU104": "TPU403", "TPU105": "TPU404"}

__all__ = ["ALL", "CHECKS", "REDIRECTS", "Context"]
