"""TPU7xx — accuracy after the move (entry `accuracy-drop`): batch norm computes its
statistics over one core's slice of the batch, and a loss summed per replica in a custom loop
is scaled by the number of replicas."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..facts import tokens
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU701", "accuracy-drop", "batch-norm-small-per-core-batch", tpu_only=True),
    Rule("TPU702", "accuracy-drop", "sum-loss-without-average", tpu_only=False),
]

_BATCH_NORM = frozenset(
    {"BatchNormalization", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "BatchNorm"}
)
MIN_PER_CORE = 32


def check(ctx: Context) -> Iterator[Finding]:
    yield from _batch_norm(ctx)
    yield from _sum_loss(ctx)


def _batch_norm(ctx: Context) -> Iterator[Finding]:
    an, f = ctx.an, ctx.facts
    if not f.tpu:
        return
    norms = [c for c in f.calls_named(*_BATCH_NORM) if "sync" not in (c.dotted or "").lower()]
    if not norms:
        return
    per_core = an.distinct(per_core=True)
    global_batch = an.distinct(per_core=False)
    cores = an.core_count
    if per_core is None and global_batch is not None and cores and global_batch % cores == 0:
        per_core = global_batch // cores
    if per_core is None or per_core >= MIN_PER_CORE:
        return
    line, col = norms[0].position()
    yield ctx.finding(
        "TPU701",
        line,
        col,
        args={"per_core": per_core},
        values={"batch_size": global_batch, "per_device_batch": per_core},
        answers={"batchnorm": "yes"},
    )


def _sum_loss(ctx: Context) -> Iterator[Finding]:
    an, f = ctx.an, ctx.facts
    if not f.tensorflow or not any(True for _ in an.strategy_runs()):
        return
    if any(c.attr == "compute_average_loss" for c in f.calls):
        return
    if _divides_by_global_batch(ctx):
        return
    for c in f.calls:
        k = c.kw("reduction")
        if k is None:
            continue
        v = k.value
        d = f.dotted(v) or ""
        is_sum = d.endswith("Reduction.SUM") or (
            isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.lower() == "sum"
        )
        if is_sum:
            yield ctx.finding("TPU702", v.lineno, v.col_offset + 1, args={"fn": c.attr})


def _divides_by_global_batch(ctx: Context) -> bool:
    """`loss * (1.0 / GLOBAL_BATCH_SIZE)` or `/ global_batch`: the manual form of the average."""
    for node in ast.walk(ctx.facts.tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mult)):
            for side in (node.left, node.right):
                for n in ast.walk(side):
                    if isinstance(n, ast.Name):
                        toks = tokens(n.id)
                        if "batch" in toks and ("global" in toks or "total" in toks):
                            return True
    return False
