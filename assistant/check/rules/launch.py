"""TPU8xx — launching processes (outside the guide: no knowledge entry). PyTorch/XLA's
`xmp.spawn` and `torch_xla.launch` start one process per device with the `spawn` start method,
and each new process imports the main module again; a launch that runs at import time (no
`if __name__ == "__main__":` guard) makes every worker try to launch its own, and Python stops
them with "An attempt has been made to start a new process before the current process has
finished its bootstrapping phase"."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..facts import call_position
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU801", None, "xla-launch-at-import", tpu_only=True),
]

_LAUNCHERS = frozenset({"torch_xla.distributed.xla_multiprocessing.spawn", "torch_xla.launch"})


def check(ctx: Context) -> Iterator[Finding]:
    yield from _launch_at_import(ctx)


def _launch_at_import(ctx: Context) -> Iterator[Finding]:
    """The module's own statements, guarded ones left out: a launcher called there, or a
    module-level function that calls one (`def main(): xmp.spawn(…)` then a bare `main()`).
    `start_method="fork"` (the notebook way) starts no new interpreter and is fine."""
    f = ctx.facts
    if not f.torch_xla:
        return
    launching = {  # module-level functions that call a launcher
        st.name
        for st in f.tree.body
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))
        and next(_launches(ctx, st.body), None) is not None
    }
    run: list[ast.stmt] = []  # what runs when a worker imports the module
    for st in f.tree.body:
        if isinstance(st, ast.If) and _main_guard(st):
            run += st.orelse
        elif not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            run.append(st)
    for st in run:
        for node in _calls(st):
            name = f.dotted(node.func) or ""
            if name in _LAUNCHERS and not _forks(node):
                shown = _short(name)
            elif isinstance(node.func, ast.Name) and node.func.id in launching:
                shown = f"{node.func.id}()"
            else:
                continue
            line, col = call_position(node)
            yield ctx.finding("TPU801", line, col, args={"call": shown})


def _launches(ctx: Context, body: list[ast.stmt]) -> Iterator[ast.Call]:
    for st in body:
        for node in _calls(st):
            if (ctx.facts.dotted(node.func) or "") in _LAUNCHERS and not _forks(node):
                yield node


def _calls(st: ast.stmt) -> Iterator[ast.Call]:
    """The calls a statement makes when it runs: not those in the functions, classes or lambdas
    it defines."""
    todo: list[ast.AST] = [st]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Call):
            yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
            ):
                todo.append(child)


def _forks(call: ast.Call) -> bool:
    return any(
        k.arg == "start_method" and isinstance(k.value, ast.Constant) and k.value.value == "fork"
        for k in call.keywords
    )


def _main_guard(st: ast.If) -> bool:
    """`if __name__ == "__main__":`, either way round."""
    if not isinstance(st.test, ast.Compare):
        return False
    test = st.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides
    )


def _short(name: str) -> str:
    return name.replace("torch_xla.distributed.xla_multiprocessing.", "xmp.")
