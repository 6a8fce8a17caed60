"""TPU3xx — layer widths (entries `tensor-padding`, `small-layers`): the matrix unit works on
128-wide tiles, so a hidden width that is not a multiple of 128 is padded, and one below 128
leaves most of the unit idle.

Only hidden widths are judged, not the data's or the task's: a model's first layer reads the
data's features (PyTorch's `in_features` of the first layer) and its last layer writes the task's
outputs (Keras `units` / Flax `features` / PyTorch `out_features` of the last layer). The first
layer's own output width is hidden (`Dense(300, input_shape=(784,))` pads 300 to 384), except in a
convolution stem: its contraction depth is kernel area × image channels (27 for a 3×3 RGB
stem), so the image, not the stem's filter count, sets how much of the unit it uses. A hidden
width that joins two PyTorch layers is reported once, where it is produced."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from .. import consts
from ..facts import Call, Scope
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU301", "tensor-padding", "width-not-multiple-of-128", tpu_only=True),
    Rule("TPU302", "small-layers", "width-below-128", tpu_only=True),
]

# layer -> (kind, keyword of the width, its position)
_KERAS = {
    "Dense": ("dense", "units", 0),
    "Conv1D": ("conv", "filters", 0),
    "Conv2D": ("conv", "filters", 0),
    "Conv3D": ("conv", "filters", 0),
    "Conv2DTranspose": ("conv", "filters", 0),
    "Conv3DTranspose": ("conv", "filters", 0),
    "SeparableConv2D": ("conv", "filters", 0),
}
_FLAX = {"Dense": ("dense", "features", 0), "Conv": ("conv", "features", 0)}
_TORCH = {
    "Linear": ("dense", "out_features", 1),
    "Conv1d": ("conv", "out_channels", 1),
    "Conv2d": ("conv", "out_channels", 1),
    "Conv3d": ("conv", "out_channels", 1),
}
_TORCH_IN = {
    "Linear": "in_features",
    "Conv1d": "in_channels",
    "Conv2d": "in_channels",
    "Conv3d": "in_channels",
}
_SEQUENTIAL = frozenset({"Sequential"})


@dataclass
class Layer:
    call: Call
    kind: str
    width: ast.expr | None
    width_in: ast.expr | None  # PyTorch: the input width, also a hidden size in the middle


def _layer(ctx: Context, c: Call) -> Layer | None:
    d = c.dotted or c.attr
    if d.startswith("torch.") or (d == c.attr and ctx.facts.torch and c.attr in _TORCH):
        spec = _TORCH.get(c.attr)
        framework = "torch"
    elif d.startswith("flax."):
        spec = _FLAX.get(c.attr)
        framework = "flax"
    elif "keras" in d or (d == c.attr and ctx.facts.tensorflow):
        spec = _KERAS.get(c.attr)
        framework = "keras"
    else:
        return None
    if spec is None:
        return None
    kind, kw, pos = spec
    k = c.kw(kw)
    width = k.value if k is not None else (c.node.args[pos] if len(c.node.args) > pos else None)
    width_in = None
    if framework == "torch":
        name_in = _TORCH_IN[c.attr]
        k_in = c.kw(name_in)
        width_in = k_in.value if k_in is not None else (c.node.args[0] if c.node.args else None)
    return Layer(c, kind, width, width_in)


def _stacks(ctx: Context) -> list[list[Layer]]:
    """Layers grouped as the model is built: the items of one `Sequential(...)`, else the layers
    a function, class or module body creates, in source order."""
    sequential: dict[int, list[Layer]] = {}
    seq_of: dict[int, int] = {}  # id(layer call) -> id(its Sequential call)
    for c in ctx.facts.calls_named(*_SEQUENTIAL):
        items = list(c.node.args)
        if len(items) == 1 and isinstance(items[0], (ast.List, ast.Tuple)):
            items = list(items[0].elts)
        sequential[id(c.node)] = []
        for it in items:
            seq_of[id(it)] = id(c.node)
    by_scope: dict[int, list[Layer]] = {}
    for c in ctx.facts.calls:
        if c.attr not in _KERAS and c.attr not in _TORCH and c.attr not in _FLAX:
            continue
        layer = _layer(ctx, c)
        if layer is None:
            continue
        if id(c.node) in seq_of:
            sequential[seq_of[id(c.node)]].append(layer)
        else:
            by_scope.setdefault(id(_model_scope(c.scope)), []).append(layer)
    return [s for s in [*sequential.values(), *by_scope.values()] if s]


def _model_scope(scope: Scope) -> Scope:
    """A class's methods build one model: group their layers by class."""
    if scope.kind == "function" and scope.parent is not None and scope.parent.kind == "class":
        return scope.parent
    return scope


def check(ctx: Context) -> Iterator[Finding]:
    if not ctx.facts.tpu:
        return
    batch = ctx.an.distinct(per_core=False)
    for stack in _stacks(ctx):
        produced: int | None = None  # the previous layer's output width, when known
        for i, layer in enumerate(stack):
            first, last = i == 0, i == len(stack) - 1
            widths: list[ast.expr | None] = []
            n_in = consts.integer(layer.width_in, layer.call.scope)
            if layer.width_in is not None and not first and n_in != produced:
                widths.append(layer.width_in)
            if not last and not (first and layer.kind == "conv"):
                widths.append(layer.width)
            produced = consts.integer(layer.width, layer.call.scope)
            reported: set[int] = set()
            for expr in widths:
                n = consts.integer(expr, layer.call.scope)
                if expr is None or n is None or n <= 0 or n in reported:
                    continue
                reported.add(n)
                line, col = expr.lineno, expr.col_offset + 1
                args = {"n": n, "layer": layer.call.attr}
                if n < 128:
                    var = "layer_units" if layer.kind == "dense" else "channel_count"
                    yield ctx.finding(
                        "TPU302",
                        line,
                        col,
                        args=args,
                        values={var: n},
                        answers={"layer-kind": layer.kind},
                    )
                elif n % 128:
                    yield ctx.finding(
                        "TPU301",
                        line,
                        col,
                        args=args,
                        values={"feature_dim": n, "batch_size": batch},
                    )
