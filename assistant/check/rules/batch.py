"""TPU2xx — batch size (entries `small-batch`, `tensor-padding`): the TPU pads the batch
dimension to 8 per core, so a global batch below 64 costs the time of 64, and one that is not a
multiple of 64 (8 per core) is padded on every step."""

from __future__ import annotations

from collections.abc import Iterator

from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU201", "small-batch", "batch-below-64", tpu_only=True),
    Rule("TPU202", "tensor-padding", "batch-not-multiple-of-64", tpu_only=True),
    Rule("TPU203", "tensor-padding", "per-core-batch-not-multiple-of-8", tpu_only=True),
]


def check(ctx: Context) -> Iterator[Finding]:
    if not ctx.facts.tpu:
        return
    seen: set[tuple[int, int]] = set()
    global_batch = ctx.an.distinct(per_core=False)
    for b in ctx.an.batch_values:
        if (b.line, b.col) in seen:
            continue
        seen.add((b.line, b.col))
        args = {"n": b.value, "where": b.name or b.origin}
        if b.per_core:
            if b.value % 8:
                yield ctx.finding(
                    "TPU203", b.line, b.col, args=args, values={"batch_size": global_batch}
                )
        elif b.value < 64:
            yield ctx.finding("TPU201", b.line, b.col, args=args, values={"batch_size": b.value})
        elif b.value % 64:
            yield ctx.finding("TPU202", b.line, b.col, args=args, values={"batch_size": b.value})
