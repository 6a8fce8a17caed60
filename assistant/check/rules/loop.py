"""TPU4xx — loop overhead (entry `steps-per-execution`): under a TPU strategy every Keras
step is a round trip from the host unless `compile()` runs several steps per call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .. import consts
from ..model import Finding, Rule
from .base import Context

RULES = [Rule("TPU401", "steps-per-execution", "compile-without-steps-per-execution", True)]

_NOT_KERAS = frozenset({"re", "regex", "torch", "jax", "tf", "tensorflow", "xla", "numba"})
_KERAS_KWARGS = frozenset({"optimizer", "loss", "metrics", "jit_compile", "loss_weights"})
_SPE = ("steps_per_execution", "experimental_steps_per_execution")


def check(ctx: Context) -> Iterator[Finding]:
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
