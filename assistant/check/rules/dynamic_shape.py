"""TPU1xx — dynamic shapes (entry `dynamic-shape`): XLA compiles for fixed shapes, so a last
partial batch, a data-dependent op inside `jit` or a PyTorch/XLA training loop, or a graph that is
never cut recompiles or fails. (TPU104 and TPU105, a host read in a PyTorch/XLA loop, moved to
TPU403 and TPU404: the knowledge base answers them with steps-per-execution.)"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator

from .. import consts
from ..analysis import JAX_DYNAMIC
from ..facts import Call, Facts, Scope, call_position
from ..model import Finding, Rule
from .base import Context

ENTRY = "dynamic-shape"
RULES = [
    Rule("TPU101", ENTRY, "batch-without-drop-remainder", tpu_only=True),
    Rule("TPU102", ENTRY, "jax-dynamic-shape-op", tpu_only=False),
    Rule("TPU103", ENTRY, "jax-boolean-mask", tpu_only=False),
    Rule("TPU106", ENTRY, "xla-nonzero-in-loop", tpu_only=True),
    Rule("TPU107", ENTRY, "pad-to-longest", tpu_only=True),
    Rule("TPU108", ENTRY, "xla-dataloader-without-drop-last", tpu_only=True),
    Rule("TPU109", ENTRY, "xla-loop-never-cuts-graph", tpu_only=True),
    Rule("TPU110", ENTRY, "jax-jit-of-new-function-in-loop", tpu_only=False),
]

_DROP_POSITION = {"batch": 1, "padded_batch": 3}
_MASK_CALLS = frozenset(
    "isnan isinf isfinite logical_and logical_or logical_not logical_xor greater less equal "
    "not_equal greater_equal less_equal".split()
)


def check(ctx: Context) -> Iterator[Finding]:
    yield from _drop_remainder(ctx)
    yield from _jax(ctx)
    yield from _torch_xla(ctx)
    yield from _pad_to_longest(ctx)
    yield from _drop_last(ctx)
    yield from _graph_never_cut(ctx)
    yield from _jit_in_loop(ctx)


def _drop_last(ctx: Context) -> Iterator[Finding]:
    """The `DataLoader` a PyTorch/XLA training loop reads (itself or through `MpDeviceLoader`)
    keeping a short last batch: one more shape, compiled at the end of every epoch. A loader
    that batches by other means (`batch_sampler`, `batch_size=None`) is left alone."""
    an = ctx.an
    flagged: set[int] = set()
    for it, scope in an.training_iterables:
        for call in an.dataloaders(it, scope, through_device_loader=True) or []:
            if id(call) in flagged or any(k.arg is None for k in call.keywords):
                continue
            kws = {k.arg: k.value for k in call.keywords}
            size = kws.get("batch_size")
            if "batch_sampler" in kws or (isinstance(size, ast.Constant) and size.value is None):
                continue
            drop = kws.get("drop_last")
            if drop is not None and consts.truth(drop, scope) is not False:
                continue  # True, or a value only the run knows
            flagged.add(id(call))
            line, col = call_position(call)
            yield ctx.finding("TPU108", line, col, answers={"framework": "pytorch"})


def _graph_never_cut(ctx: Context) -> Iterator[Finding]:
    """TPU109: a PyTorch/XLA training loop that never cuts the lazy graph. Operations are
    recorded and run only where the graph is cut (`xm.mark_step()`, `torch_xla.sync()`,
    `torch_xla.step()`, `xm.optimizer_step(..., barrier=True)`, or an `MpDeviceLoader` /
    `ParallelLoader`, which cut at every batch); without a cut the graph grows with every step,
    each step compiles a longer one, and memory climbs until it runs out. Reported only where the
    loop's iterable is known not to be a device loader (a plain `DataLoader`, `range(...)`) or the
    loop is a `while`, and where neither the loop nor the functions it calls cut the graph (a
    function imported from the person's own package is out of sight: the loop is left alone)."""
    an, f = ctx.an, ctx.facts
    if not an.training_loops or _no_lazy_graph(f):
        return
    loops: dict[int, tuple[ast.For | ast.While | ast.AsyncFor, Scope]] = {}
    inside: dict[int, list[Call]] = {}
    for c in f.calls:
        if c.in_lambda:
            continue
        for lp in c.loops:
            if id(lp) in an.training_loops:
                loops.setdefault(id(lp), (lp, c.scope))
                inside.setdefault(id(lp), []).append(c)
    for key, (loop, scope) in loops.items():
        if not _plain_iteration(ctx, loop, scope):
            continue
        calls = inside[key]
        called: list[Scope] = []
        for c in calls:  # what the loop calls, and methods by name (`trainer.train_step(…)`)
            called += an.functions_referenced(c.node.func, c.scope)
            if isinstance(c.node.func, ast.Attribute):
                called += f.functions.get(c.attr, [])
        closure = an.closure(called)
        reached = [x for s in f.all_functions() if id(s) in closure for x in f.calls_in(s)]
        if any(_cuts(x) for x in [*calls, *reached]) or any(_opaque(c, f) for c in calls):
            continue
        yield ctx.finding(
            "TPU109", loop.lineno, loop.col_offset + 1, answers={"framework": "pytorch"}
        )


# Libraries whose functions a training loop calls and that never cut PyTorch/XLA's graph for it
# (the standard library aside); a function imported from any other package (the person's own
# `trainer_utils.train_step`) may, and the rule cannot see inside it.
_KNOWN_LIBRARIES = frozenset(
    "torch torch_xla torchvision torchaudio transformers datasets evaluate tqdm numpy wandb timm "
    "einops sklearn scipy PIL tensorboardX absl yaml pandas".split()
)


def _opaque(c: Call, f: Facts) -> bool:
    """A call the loop makes into an imported package that is neither a known library nor the
    standard library, or into a relative import: what it does is out of sight, so the loop is not
    reported."""
    top = (c.dotted or "").split(".", 1)[0]
    if top in f.relative:  # `from .utils import train_step`: the person's own package
        return True
    return top in f.imported and top not in _KNOWN_LIBRARIES and top not in sys.stdlib_module_names


def _no_lazy_graph(f: Facts) -> bool:
    """A script that compiles its step (`torch.compile`, `torch_xla.compile`) or turns on eager
    mode: no graph grows across its steps."""
    if f.mentions("eager_mode"):
        return True
    named = [c.dotted or "" for c in f.calls]
    for s in f.all_functions():
        named += [f.dotted(d.func if isinstance(d, ast.Call) else d) or "" for d in s.decorators]
    return any(n.startswith("torch") and n.endswith(".compile") for n in named)


def _cuts(c: Call) -> bool:
    """Whether `c` cuts PyTorch/XLA's lazy graph (runs what was recorded and starts a new one): the
    step marker under its names old and new, and the optimizer step when asked for a barrier."""
    d = c.dotted or ""
    if c.attr == "mark_step" or (c.attr == "sync" and "xla" in d):
        return True
    if c.attr == "step" and d.startswith("torch_xla"):
        return True  # `with torch_xla.step():`
    if c.attr == "optimizer_step":
        barrier = c.kw("barrier")
        return barrier is not None and consts.truth(barrier.value, c.scope) is not False
    return False


def _plain_iteration(ctx: Context, loop: ast.For | ast.While | ast.AsyncFor, scope: Scope) -> bool:
    """Whether the loop's iterable is known not to cut the graph itself: a `while` loop, a
    `range(...)`, or a plain `DataLoader` (not an `MpDeviceLoader`, and not a parameter, which
    could be one)."""
    if isinstance(loop, ast.While):
        return True
    it = ctx.an.iterated(loop.iter)
    if isinstance(it, ast.Call) and (ctx.facts.dotted(it.func) or "") == "range":
        return True
    return bool(ctx.an.dataloaders(it, scope, through_device_loader=False))


# Padding each batch to its own longest sequence: Hugging Face tokenizers and collators
# (`padding=True` is "longest"); these collators pad so by default (the language-modelling one is
# left out: its usual input is text grouped into blocks of one length). Only `True` itself and the
# string count: `Conv2d(..., padding=1)` is a convolution's padding (and `1 == True`).
_COLLATORS = frozenset(
    {"DataCollatorWithPadding", "DataCollatorForSeq2Seq", "DataCollatorForTokenClassification"}
)


def _longest(padding: object) -> bool:
    return padding is True or padding == "longest"


def _pad_to_longest(ctx: Context) -> Iterator[Finding]:
    """A tokenizer or collator padding every batch to its longest sequence: each new length is
    a new shape, compiled anew (PyTorch/XLA, JAX) or refused (TPUStrategy). A bound on the
    number of lengths (`pad_to_multiple_of`) is left alone."""
    f = ctx.facts
    if not f.tpu:
        return
    answers = _walk_start(f)
    for c in f.calls:
        if c.has_star_kwargs:
            continue
        multiple = c.kw("pad_to_multiple_of")
        if multiple is not None and consts.value(multiple.value, c.scope) is not None:
            continue
        kw = c.kw("padding")
        if kw is None and c.attr not in _COLLATORS:
            continue
        padding = True if kw is None else consts.value(kw.value, c.scope)  # a collator's default
        if not _longest(padding):
            continue
        line, col = c.position()
        yield ctx.finding("TPU107", line, col, args={"padding": repr(padding)}, answers=answers)


def _walk_start(f: Facts) -> dict[str, str]:
    """The dynamic-shape walk's first answers for this script's framework."""
    if f.torch_xla or (f.torch and not f.jax and not f.tensorflow):
        return {"framework": "pytorch"}
    if f.jax:
        return {"framework": "jax", "jax-symptom": "recompiles"}
    return {"framework": "tensorflow", "source": "length"}


def _drop_remainder(ctx: Context) -> Iterator[Finding]:
    an = ctx.an
    if not an.tf_tpu:
        return
    for c in an.dataset_calls("batch", "padded_batch"):
        kw = c.kw("drop_remainder")
        pos = _DROP_POSITION[c.attr]
        if kw is not None:
            drop = consts.truth(kw.value, c.scope)
            if drop is None or drop:
                continue  # True, or a value only the run knows
        elif len(c.node.args) > pos:
            drop = consts.truth(c.node.args[pos], c.scope)
            if drop is None or drop:
                continue
        elif c.has_star_kwargs or any(isinstance(a, ast.Starred) for a in c.node.args):
            continue
        line, col = c.position()
        yield ctx.finding("TPU101", line, col, args={"call": c.attr}, answers={"source": "batch"})


def _jax(ctx: Context) -> Iterator[Finding]:
    an, f = ctx.an, ctx.facts
    jit = an.jit_scopes
    if not jit:
        return
    for c in f.calls:
        if c.attr not in JAX_DYNAMIC and c.attr != "where":
            continue
        d = c.dotted or ""
        if not d.startswith("jax.numpy.") or not an.inside(c.scope, jit):
            continue
        if c.kw("size") is not None or c.has_star_kwargs:
            continue
        if c.attr == "where" and (len(c.node.args) != 1 or c.kw("x") or c.kw("y")):
            continue  # the three-argument where keeps the shape
        line, col = c.position()
        yield ctx.finding(
            "TPU102", line, col, args={"fn": f"jnp.{c.attr}"}, answers={"source": "op"}
        )
    for sub in f.subscripts:
        node = sub.node
        if not isinstance(node.ctx, ast.Load) or not an.inside(sub.scope, jit):
            continue
        if isinstance(node.value, ast.Attribute) and node.value.attr == "at":
            continue  # x.at[...] updates: not a boolean gather
        if _is_mask(node.slice, sub.scope, ctx):
            yield ctx.finding(
                "TPU103",
                node.slice.lineno,
                node.slice.col_offset + 1,
                answers={"source": "op"},
            )


def _is_mask(expr: ast.expr, scope: Scope, ctx: Context, depth: int = 0) -> bool:
    if depth > 6:
        return False
    if isinstance(expr, ast.Compare):
        return True
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Invert):
        return _is_mask(expr.operand, scope, ctx, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.BitAnd, ast.BitOr)):
        return _is_mask(expr.left, scope, ctx, depth + 1) or _is_mask(
            expr.right, scope, ctx, depth + 1
        )
    if isinstance(expr, ast.Call):
        d = ctx.facts.dotted(expr.func) or ""
        return d.startswith("jax.numpy.") and d.rsplit(".", 1)[-1] in _MASK_CALLS
    if isinstance(expr, ast.Name):
        found = consts.lookup(expr.id, scope)
        if found is None:
            return False
        where, assigned = found
        return bool(assigned) and all(
            e is not None and _is_mask(e, where, ctx, depth + 1) for e in assigned
        )
    return False


def _torch_xla(ctx: Context) -> Iterator[Finding]:
    an, f = ctx.an, ctx.facts
    if not an.training_loops:
        return
    for c in f.calls:
        if not an.in_training_loop(c):
            continue
        d = c.dotted or ""
        if (c.attr == "nonzero" and isinstance(c.node.func, ast.Attribute)) or (
            d.startswith("torch.")
            and (
                c.attr in ("argwhere", "masked_select")
                or (c.attr == "where" and len(c.node.args) == 1)
            )
        ):
            line, col = c.position()
            yield ctx.finding("TPU106", line, col, args={"fn": c.attr}, answers={"source": "op"})


def _jit_in_loop(ctx: Context) -> Iterator[Finding]:
    """`jax.jit(lambda …)(…)` or `jax.jit(partial(f, …))(…)` inside a loop: the function handed
    to jit is a new object on every pass, and jit's cache is keyed on it, so every pass traces
    and compiles again, whatever the shapes. Reported at `jit`."""
    an, f = ctx.an, ctx.facts
    if not f.jax:
        return
    for c in f.calls:
        inner = c.node.func
        if (
            c.loops
            and isinstance(inner, ast.Call)
            and an.is_jit(inner.func)
            and inner.args
            and _new_function(f, inner.args[0])
        ):
            line, col = call_position(inner)
            kind = "lambda" if isinstance(inner.args[0], ast.Lambda) else "partial"
            yield ctx.finding(
                "TPU110",
                line,
                col,
                args={"fn": kind},
                answers={"framework": "jax", "jax-symptom": "rejit"},
            )


def _new_function(f: Facts, expr: ast.expr) -> bool:
    """A function object made where it is written: a lambda, or `functools.partial(…)`."""
    if isinstance(expr, ast.Lambda):
        return True
    return isinstance(expr, ast.Call) and (f.dotted(expr.func) or "").endswith("partial")
