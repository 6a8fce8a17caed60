"""TPU6xx — input pipeline (entry `input-bottleneck`): the TPU waits for data when the
pipeline does not prefetch, maps on one thread, reads many small files one by one, or (PyTorch/XLA)
copies each batch to the device in the training loop instead of ahead of it."""

from __future__ import annotations

import ast
from collections.abc import Iterator

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
    an = ctx.an
    for it, scope in an.training_iterables:
        if an.dataloaders(it, scope, through_device_loader=False):
            yield ctx.finding(
                "TPU604", it.lineno, it.col_offset + 1, answers={"loader": "torch-dataloader"}
            )
