"""TPU4xx — loop overhead (entry `steps-per-execution`): under a TPU strategy every Keras
step is a round trip from the host unless `compile()` runs several steps per call; a JAX loop that
reads its jitted step's result back every step waits for every step, and so does a PyTorch/XLA
training loop that reads a tensor's value (`.item()`) or prints a tensor."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .. import consts
from ..facts import call_position
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU401", "steps-per-execution", "compile-without-steps-per-execution", True),
    Rule("TPU402", "steps-per-execution", "jax-read-back-every-step", tpu_only=False),
    Rule("TPU403", "steps-per-execution", "xla-item-in-loop", tpu_only=True),
    Rule("TPU404", "steps-per-execution", "xla-print-tensor-in-loop", tpu_only=True),
]

_NOT_KERAS = frozenset({"re", "regex", "torch", "jax", "tf", "tensorflow", "xla", "numba"})
_KERAS_KWARGS = frozenset({"optimizer", "loss", "metrics", "jit_compile", "loss_weights"})
_SPE = ("steps_per_execution", "experimental_steps_per_execution")


def check(ctx: Context) -> Iterator[Finding]:
    yield from _keras(ctx)
    yield from _jax_read_back(ctx)
    yield from _torch_xla_reads(ctx)


def _keras(ctx: Context) -> Iterator[Finding]:
    if not ctx.an.tf_tpu:
        return
    for c in ctx.facts.calls_named("compile"):
        recv = c.receiver
        if recv is None or c.has_star_kwargs:
            continue
        root = recv
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in _NOT_KERAS:
            continue
        kwargs = {k.arg for k in c.node.keywords}
        named_model = isinstance(recv, ast.Name) and "model" in recv.id.lower()
        if not (kwargs & _KERAS_KWARGS or named_model or kwargs & set(_SPE)):
            continue
        kw = c.kw(_SPE[0]) or c.kw(_SPE[1])
        steps: int | None = 1
        if kw is not None:
            steps = consts.integer(kw.value, c.scope)
            if steps is None or steps > 1:
                continue
        line, col = c.position()
        yield ctx.finding(
            "TPU401",
            line,
            col,
            args={"steps": steps},
            values={"execution_steps": steps},
            answers={"loop": "keras"},
        )


# Calls that copy a device array to the host (and so wait for the step that computes it).
_TO_HOST_METHODS = frozenset({"item", "tolist"})
_TO_HOST_BUILTINS = frozenset({"float", "int", "print"})
_TO_HOST_FUNCTIONS = ("jax.device_get", "numpy.asarray", "numpy.array")
SHOWN_CALL = 40  # a read shown as written up to this length (`float(metrics['loss'])`), else named


def _jax_read_back(ctx: Context) -> Iterator[Finding]:
    """TPU402: a loop that calls a jitted step and, on every iteration (not under an `if`),
    reads the step's result back to the host: `float(loss)`, `loss.item()`,
    `jax.device_get(metrics)`, `np.asarray(…)`, `print(loss)`. JAX dispatches steps
    asynchronously; the read makes the host wait for each one, so the next step's dispatch and
    input preparation no longer overlap the device's work. The first read of each loop is
    reported, where it is. A compiled function is one decorated with `jax.jit` (or `pmap`, or
    through `partial`: `Analysis.jit_decorated`) or a name assigned `jax.jit(f)`."""
    f, an = ctx.facts, ctx.an
    if not f.jax:
        return
    # one walk of the tree: the loops, and the names assigned a compiled function (`jax.jit(f)`)
    loops: list[ast.For | ast.AsyncFor | ast.While] = []
    jitted = {s.name for s in f.all_functions() if an.jit_decorated(s)}
    for node in ast.walk(f.tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            loops.append(node)
        elif (assigned := _assignment(node)) is not None:
            value, targets = assigned
            if an.is_jit(value.func) or (
                isinstance(value.func, ast.Call) and an.is_jit(value.func.func)
            ):
                jitted |= {d for t in targets if (d := f.dotted(t))}
    if not jitted:
        return
    for loop in loops:
        body = list(_every_iteration(loop.body))
        outputs: set[str] = set()
        for st in body:
            assigned = _assignment(st)
            if assigned is not None and (f.dotted(assigned[0].func) or "") in jitted:
                outputs |= {
                    n.id for t in assigned[1] for n in ast.walk(t) if isinstance(n, ast.Name)
                }
        if not outputs:
            continue
        for st in body:
            read = _read_back(st, outputs, ctx)
            if read is not None:
                call, what = read
                shown = ast.unparse(call)
                what = shown if len(shown) <= SHOWN_CALL else what
                line, col = call_position(call)
                yield ctx.finding("TPU402", line, col, args={"read": what}, answers={"loop": "jax"})
                break


def _torch_xla_reads(ctx: Context) -> Iterator[Finding]:
    """TPU403/404: `.item()`, or `print` of a tensor, in a PyTorch/XLA training loop. XLA's
    tensors are lazy: a read runs the pending graph and copies the value to the host, so every
    step waits for the TPU, which idles while the host traces the next one."""
    an = ctx.an
    if not an.training_loops:
        return
    tensors: dict[int, set[str]] = {}
    for c in ctx.facts.calls:
        if not an.in_training_loop(c):
            continue
        line, col = c.position()
        if c.attr == "item" and not c.node.args and isinstance(c.node.func, ast.Attribute):
            yield ctx.finding("TPU403", line, col, answers={"loop": "pytorch"})
        elif c.attr in ("print", "master_print") and (
            c.attr == "print" or "xla" in (c.dotted or "")
        ):
            loop = next(lp for lp in reversed(c.loops) if id(lp) in an.training_loops)
            names = tensors.setdefault(id(loop), an.tensor_names(loop, c.scope))
            shown = _printed_tensor(c.node, names)
            if shown:
                yield ctx.finding(
                    "TPU404", line, col, args={"name": shown}, answers={"loop": "pytorch"}
                )


def _printed_tensor(call: ast.Call, names: set[str]) -> str | None:
    for arg in call.args:
        parts = [arg]
        if isinstance(arg, ast.JoinedStr):
            parts = [v.value for v in arg.values if isinstance(v, ast.FormattedValue)]
        for p in parts:
            if isinstance(p, ast.Name) and p.id in names:
                return p.id
    return None


def _assignment(node: ast.AST) -> tuple[ast.Call, list[ast.expr]] | None:
    """A call's result assigned (`a, b = f(x)`, `a: T = f(x)`): the call and the targets."""
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
        return node.value, node.targets
    if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Call):
        return node.value, [node.target]
    return None


def _every_iteration(stmts: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements a loop body runs on every iteration: not those under an `if` (a read
    every N steps), in a nested loop or function; `with` and `try` bodies are run."""
    for st in stmts:
        yield st
        if isinstance(st, (ast.With, ast.AsyncWith)):
            yield from _every_iteration(st.body)
        elif isinstance(st, ast.Try):
            yield from _every_iteration(st.body + st.finalbody)


def _rooted(expr: ast.expr, names: set[str]) -> bool:
    """`loss`, `metrics["loss"]`, `out.loss[0]`, `out.mean()` for a name in `names` (what a
    device array's methods return is on the device too)."""
    while isinstance(expr, (ast.Subscript, ast.Attribute, ast.Call)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return isinstance(expr, ast.Name) and expr.id in names


def _read_back(st: ast.stmt, outputs: set[str], ctx: Context) -> tuple[ast.Call, str] | None:
    if isinstance(st, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)):
        return None  # compound statements: their bodies are read one by one, or not at all
    if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return None
    for node in ast.walk(st):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        args = [*node.args, *(k.value for k in node.keywords)]
        if isinstance(func, ast.Attribute) and func.attr in _TO_HOST_METHODS:
            if _rooted(func.value, outputs):
                return node, f".{func.attr}()"
            continue
        name = ctx.facts.dotted(func) or ""
        if name in _TO_HOST_BUILTINS:
            shown = [
                v.value
                for a in args
                if isinstance(a, ast.JoinedStr)
                for v in a.values
                if isinstance(v, ast.FormattedValue)
            ]
            if any(_rooted(a, outputs) for a in [*args, *shown]):
                return node, f"{name}()"
        elif name in _TO_HOST_FUNCTIONS and any(_rooted(a, outputs) for a in args):
            return node, f"{name.replace('numpy.', 'np.')}()"
    return None
