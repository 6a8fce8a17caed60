"""TPU7xx — accuracy after the move (entry `accuracy-drop`): batch norm computes its
statistics over one core's slice of the batch, a loss summed per replica in a custom loop is
scaled by the number of replicas, and a PyTorch/XLA optimizer built before its model moved to
the XLA device updates parameters the model no longer has."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .. import consts
from ..facts import XLA_LAUNCHERS, Call, Scope, tokens
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU701", "accuracy-drop", "batch-norm-small-per-core-batch", tpu_only=True),
    Rule("TPU702", "accuracy-drop", "sum-loss-without-average", tpu_only=False),
    Rule("TPU703", "accuracy-drop", "optimizer-before-model-to-xla", tpu_only=True),
    Rule("TPU704", "accuracy-drop", "step-without-gradient-all-reduce", tpu_only=True),
]

_BATCH_NORM = frozenset(
    {"BatchNormalization", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "BatchNorm"}
)
MIN_PER_CORE = 32


def check(ctx: Context) -> Iterator[Finding]:
    yield from _batch_norm(ctx)
    yield from _sum_loss(ctx)
    yield from _optimizer_before_move(ctx)
    yield from _step_without_all_reduce(ctx)


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


# -- TPU703: the optimizer built before the model moved ---------------------------------------

# What returns PyTorch/XLA's device besides a `….xla_device()` (`xm.xla_device()`)
_XLA_DEVICE_CALLS = frozenset({"torch_xla.device"})
# An optimizer's class or factory, by a word of its name (`torch.optim.*` aside): `AdamW`,
# `AdamW8bit`, `Lion`, `get_optimizer`… — not any call over `parameters()` (an EMA, a gradient
# clip, a parameter count)
_OPTIMIZER_WORDS = frozenset(
    "optimizer optim adam adamw adamax nadam radam sgd lion lamb lars rmsprop adagrad adadelta "
    "adafactor shampoo sophia prodigy".split()
)


def _optimizer_before_move(ctx: Context) -> Iterator[Finding]:
    """An optimizer built over `model.parameters()` before `model.to(<XLA device>)` in the same
    function (or module body). Moving to a CUDA device keeps a module's parameter objects;
    moving to an XLA device replaces them, so the optimizer goes on updating the old CPU
    tensors: no error, and a loss that does not move (pytorch/xla#1623). Reported at the
    optimizer, with the line of the move."""
    f = ctx.facts
    if not f.torch_xla:
        return
    moves: dict[tuple[int, str], list[int]] = {}  # (id(scope), model name) -> lines of its moves
    for c in f.calls_named("to"):
        name = _moved_model(c) if not c.in_lambda else None
        if name is not None and _xla_device(ctx, _device_arg(c), c.scope):
            moves.setdefault((id(c.scope), name), []).append(c.node.lineno)
    if not moves:
        return
    for c in f.calls:
        if c.in_lambda:
            continue
        model = _optimized_model(c)
        if model is None:
            continue
        lines = moves.get((id(c.scope), model), [])
        line, col = c.position()
        if lines and min(lines) > c.node.lineno:
            yield ctx.finding(
                "TPU703",
                line,
                col,
                args={"optimizer": c.attr, "model": model, "move_line": min(lines)},
                answers={"single-core": "flat"},
            )


def _moved_model(c: Call) -> str | None:
    """The model a `.to(…)` call moves: `model.to(d)` or `model = Net().to(d)`."""
    receiver = c.receiver
    if isinstance(receiver, ast.Name):
        return receiver.id
    for name, values in c.scope.assigns.items():
        if any(v is c.node for v in values):
            return name
    return None


def _device_arg(c: Call) -> ast.expr | None:
    k = c.kw("device")
    if k is not None:
        return k.value
    return c.node.args[0] if c.node.args else None


def _xla_device(ctx: Context, expr: ast.expr | None, scope: Scope, depth: int = 0) -> bool:
    """Whether `expr` is PyTorch/XLA's device: a call that returns it, the string "xla", a name
    assigned one of these (either branch of a conditional), or, in a PyTorch/XLA script, a
    parameter or unknown name called device."""
    if expr is None or depth > 4:
        return False
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, str) and expr.value.split(":")[0] == "xla"
    if isinstance(expr, ast.IfExp):
        return any(_xla_device(ctx, e, scope, depth + 1) for e in (expr.body, expr.orelse))
    if isinstance(expr, ast.Call):
        d = ctx.facts.dotted(expr.func) or ""
        if d in _XLA_DEVICE_CALLS or d.endswith(".xla_device"):
            return True
        if d in ("torch.device", "torch.cuda.device") and expr.args:
            return _xla_device(ctx, expr.args[0], scope, depth + 1)
        return False
    if isinstance(expr, ast.Name):
        found = consts.lookup(expr.id, scope)
        values = [v for v in found[1] if v is not None] if found else []
        if found and values:
            return any(_xla_device(ctx, v, found[0], depth + 1) for v in values)
        return "device" in tokens(expr.id)  # a parameter, or a name the script never assigns
    return False


def _optimized_model(c: Call) -> str | None:
    """The model whose `parameters()` an optimizer is built over: `optim.AdamW(model.parameters(),
    …)`, `params=model.parameters()`, or inside a filter or a list of parameter groups."""
    words = {c.attr.lower(), *tokens(c.attr)}
    if not ((c.dotted or "").startswith("torch.optim.") or words & _OPTIMIZER_WORDS):
        return None
    k = c.kw("params")
    first = k.value if k is not None else (c.node.args[0] if c.node.args else None)
    if first is None:
        return None
    for node in ast.walk(first):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("parameters", "named_parameters")
            and isinstance(node.func.value, ast.Name)
        ):
            return node.func.value.id
    return None


# -- TPU704: one process per device, and gradients never averaged ------------------------------

# What averages the gradients of the processes (or makes one program of them): PyTorch/XLA's own
# step and reductions, DDP and FSDP wrappers, SPMD sharding
_GRADIENTS_AVERAGED = frozenset(
    {
        "optimizer_step",
        "reduce_gradients",
        "all_reduce",
        "DistributedDataParallel",
        "FullyShardedDataParallel",
        "XlaFullyShardedDataParallel",
        "SpmdFullyShardedDataParallel",
        "mark_sharding",
        "use_spmd",
    }
)


def _step_without_all_reduce(ctx: Context) -> Iterator[Finding]:
    """`optimizer.step()` in the code a PyTorch/XLA launcher runs in one process per device
    (`xmp.spawn(fn)`, `torch_xla.launch(fn)`), where nothing averages the processes' gradients
    (`xm.optimizer_step`, `xm.reduce_gradients`, an all-reduce, DDP, FSDP or SPMD): each
    process then trains its own copy of the model on its share of the data, and the copies
    drift apart. Reported at the step; a launch with `nprocs=1` is one process."""
    f, an = ctx.facts, ctx.an
    if not f.torch_xla or any(f.mentions(name) for name in _GRADIENTS_AVERAGED):
        return
    if any(origin.rsplit(".", 1)[-1] in _GRADIENTS_AVERAGED for origin in f.aliases.values()):
        return  # imported under another name (`DistributedDataParallel as DDP`)
    roots: list[Scope] = []
    for c in f.calls:
        if c.dotted in XLA_LAUNCHERS and c.node.args and not _one_process(c):
            roots += an.functions_referenced(c.node.args[0], c.scope)
    if not roots:
        return
    run = an.closure(roots)
    for c in f.calls_named("step"):
        receiver = c.receiver
        if (
            isinstance(receiver, ast.Name)
            and {"opt", "optim", "optimizer"} & set(tokens(receiver.id))
            and an.inside(c.scope, run)
            and not c.node.args
        ):
            line, col = c.position()
            yield ctx.finding(
                "TPU704",
                line,
                col,
                args={"optimizer": receiver.id},
                answers={
                    "single-core": "same",
                    "same-init": "yes",
                    "batchnorm": "no",
                    "batch-loss": "no",
                },
            )


def _one_process(c: Call) -> bool:
    k = c.kw("nprocs")
    return k is not None and isinstance(k.value, ast.Constant) and k.value.value == 1
