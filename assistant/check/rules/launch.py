"""TPU8xx — launching processes (outside the guide: no knowledge entry). PyTorch/XLA's
`xmp.spawn` and `torch_xla.launch` start one process per device with the `spawn` start method,
and each new process imports the main module again; a launch that runs at import time (no
`if __name__ == "__main__":` guard) makes every worker try to launch its own, and Python stops
them with "An attempt has been made to start a new process before the current process has
finished its bootstrapping phase"."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..facts import XLA_LAUNCHERS, Call
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU801", None, "xla-launch-at-import", tpu_only=True),
]


def check(ctx: Context) -> Iterator[Finding]:
    yield from _launch_at_import(ctx)


def _launch_at_import(ctx: Context) -> Iterator[Finding]:
    """The module's own calls, those under an `if __name__ == "__main__":` guard left out (its
    `else` runs on import): a launcher, or a module-level function that calls one
    (`def main(): xmp.spawn(…)` then a bare `main()`). `start_method="fork"` (the notebook way)
    starts no new interpreter and is fine."""
    f = ctx.facts
    if not f.torch_xla:
        return
    launching = {  # module-level functions that call a launcher
        scope.name
        for scope in f.module.children
        if scope.kind == "function" and any(_launches(c) for c in f.calls_in(scope))
    }
    guarded = [  # the lines of each guard's body
        (st.body[0].lineno, st.body[-1].end_lineno or st.body[-1].lineno)
        for st in f.tree.body
        if isinstance(st, ast.If) and _main_guard(st)
    ]
    for c in f.calls_in(f.module):
        if c.in_lambda or any(lo <= c.node.lineno <= hi for lo, hi in guarded):
            continue
        if _launches(c):
            shown = _short(c.dotted or "")
        elif isinstance(c.node.func, ast.Name) and c.node.func.id in launching:
            shown = f"{c.node.func.id}()"
        else:
            continue
        line, col = c.position()
        yield ctx.finding("TPU801", line, col, args={"call": shown})


def _launches(c: Call) -> bool:
    return c.dotted in XLA_LAUNCHERS and not _forks(c)


def _forks(c: Call) -> bool:
    k = c.kw("start_method")
    return k is not None and isinstance(k.value, ast.Constant) and k.value.value == "fork"


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
