"""TPU6xx — input pipeline (entry `input-bottleneck`): the TPU waits for data when the
pipeline does not prefetch, maps on one thread, reads many small files one by one, or (PyTorch/XLA)
copies each batch to the device in the training loop instead of ahead of it."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .. import consts
from ..facts import Scope
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU601", "input-bottleneck", "dataset-without-prefetch", tpu_only=False),
    Rule("TPU602", "input-bottleneck", "map-without-num-parallel-calls", tpu_only=False),
    Rule("TPU603", "input-bottleneck", "small-files-without-tfrecord", tpu_only=True),
    Rule("TPU604", "input-bottleneck", "xla-loop-over-plain-dataloader", tpu_only=True),
]

_SMALL_FILES = frozenset(
    {"list_files", "read_file", "image_dataset_from_directory", "text_dataset_from_directory"}
)


def check(ctx: Context) -> Iterator[Finding]:
    yield from _tf_data(ctx)
    yield from _torch_loader(ctx)


def _tf_data(ctx: Context) -> Iterator[Finding]:
    an, f = ctx.an, ctx.facts
    if not an.uses_tf_data:
        return
    tfrecord = f.mentions("TFRecordDataset")
    known = {"loader": "tfrecord"} if tfrecord else {}
    if not any(c.attr == "prefetch" for c in f.calls):
        batches = list(an.dataset_calls("batch", "padded_batch"))
        if batches:
            line, col = batches[-1].position()
            yield ctx.finding("TPU601", line, col, answers=known)
    for c in an.dataset_calls("map"):
        if c.kw("num_parallel_calls") or len(c.node.args) > 1 or c.has_star_kwargs:
            continue
        if any(isinstance(a, ast.Starred) for a in c.node.args):
            continue
        line, col = c.position()
        yield ctx.finding("TPU602", line, col, answers=known)
    if f.tpu and not tfrecord:
        # where the files are listed, else where one is read
        calls = [c for c in f.calls if c.attr in _SMALL_FILES]
        calls.sort(key=lambda c: (c.attr == "read_file", c.node.lineno, c.node.col_offset))
        for c in calls:
            if (c.dotted or "").startswith(("tensorflow.", "keras.")):
                line, col = c.position()
                yield ctx.finding(
                    "TPU603", line, col, args={"fn": c.attr}, answers={"loader": "raw-files"}
                )
                break


def _torch_loader(ctx: Context) -> Iterator[Finding]:
    """A PyTorch/XLA training loop iterating a `torch.utils.data.DataLoader` itself: each batch
    is copied to the TPU inside the step, which waits for it. `MpDeviceLoader` (or
    `ParallelLoader`) copies the next batches while the current step runs."""
    an, f = ctx.an, ctx.facts
    loops: dict[int, tuple[ast.For | ast.AsyncFor, Scope]] = {}
    for c in f.calls:
        if an.in_training_loop(c):
            for lp in c.loops:
                if id(lp) in an.training_loops and isinstance(lp, (ast.For, ast.AsyncFor)):
                    loops.setdefault(id(lp), (lp, c.scope))
    for lp, scope in loops.values():
        it = lp.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate":
            it = it.args[0] if it.args else it
        if _plain_dataloader(it, scope, ctx):
            yield ctx.finding(
                "TPU604",
                it.lineno,
                it.col_offset + 1,
                answers={"loader": "torch-dataloader"},
            )


def _plain_dataloader(expr: ast.expr, scope: Scope, ctx: Context, depth: int = 0) -> bool:
    """True when `expr` is a `DataLoader(...)` call, or a name every assignment of which is one;
    a name the script does not fix (a parameter) is not."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Call):
        return (ctx.facts.dotted(expr.func) or "").endswith("utils.data.DataLoader") or (
            isinstance(expr.func, ast.Name) and expr.func.id == "DataLoader"
        )
    if isinstance(expr, ast.Name):
        found = consts.lookup(expr.id, scope)
        if found is None:
            return False
        where, assigned = found
        return bool(assigned) and all(
            e is not None and _plain_dataloader(e, where, ctx, depth + 1) for e in assigned
        )
    return False
