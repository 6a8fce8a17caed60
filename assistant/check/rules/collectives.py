"""TPU802 — a collective reached by only some of the processes (outside the guide: no knowledge
entry). In a run of many processes (one per TPU device or host), a collective returns only when
every process has called it. `xm.save` is one: it ends in a rendezvous of all processes and
writes from the master alone by itself. So are `xm.rendezvous`, `xm.mesh_reduce`, the
`xm.all_*` family, `torch.distributed`'s barrier and collectives, JAX's `multihost_utils`, an
Orbax checkpoint manager's `save` and Accelerate's `wait_for_everyone`. Put under
`if xm.is_master_ordinal():` (or `rank == 0`, `jax.process_index() == 0`,
`accelerator.is_main_process`), the master waits for processes that never come, and the run hangs
with no error. (`ask` reads the same mistake in pasted code: `text.outside.read_code`.)"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .. import consts
from ..facts import XLA_LAUNCHERS, Facts, Scope, call_position
from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU802", None, "collective-on-some-processes", tpu_only=True),
]

_XM = "torch_xla.core.xla_model."
_DIST = "torch.distributed."
# Calls every process must make, by dotted name.
COLLECTIVES = frozenset(
    [
        *(
            _XM + n
            for n in """save rendezvous mesh_reduce all_reduce all_gather all_to_all reduce_scatter
            collective_permute optimizer_step reduce_gradients""".split()
        ),
        *(
            _DIST + n
            for n in """barrier all_reduce all_gather all_gather_object all_gather_into_tensor
            broadcast broadcast_object_list reduce reduce_scatter reduce_scatter_tensor gather
            gather_object scatter all_to_all monitored_barrier""".split()
        ),
        _DIST + "checkpoint.save",
        _DIST + "checkpoint.save_state_dict",
        *(
            "jax.experimental.multihost_utils." + n
            for n in "sync_global_devices process_allgather broadcast_one_to_all".split()
        ),
    ]
)
# Methods that are collective on the objects that some libraries build: Orbax's checkpointers
# and checkpoint managers save together; Hugging Face Accelerate's `Accelerator` waits for every
# process at `wait_for_everyone` (a barrier).
_COLLECTIVE_METHODS = {"save": "orbax.checkpoint.", "wait_for_everyone": "accelerate."}
# What tells one process from another on such an object: `accelerator.is_main_process`.
_MAIN_PROCESS_ATTRS = frozenset({"is_main_process", "is_local_main_process"})
# What tells one process from another.
ORDINALS = frozenset(
    [
        *(_XM + n for n in "is_master_ordinal get_ordinal get_local_ordinal".split()),
        *(
            "torch_xla.runtime." + n
            for n in "global_ordinal local_ordinal host_index process_index".split()
        ),
        "jax.process_index",
        "jax.host_id",
        _DIST + "get_rank",
    ]
)
_EXITS = (ast.Return, ast.Continue, ast.Break, ast.Raise)
_MAX_DEPTH = 4


def check(ctx: Context) -> Iterator[Finding]:
    f = ctx.facts
    if not f.tpu or not (f.torch or f.jax):
        return
    spawn_indices = _spawn_indices(f)
    if not spawn_indices and not _names_an_ordinal(f.tree):
        return  # nothing tells the processes apart
    reporter = _Reporter(ctx, spawn_indices)
    reporter.block(f.tree.body, f.module)
    yield from reporter.found


class _Reporter:
    """Walks the statements, scope by scope, and reports each collective that sits under a
    condition on the process (or after such a condition's early exit) with no twin in the
    other branch."""

    def __init__(self, ctx: Context, spawn_indices: dict[str, str]) -> None:
        self.ctx = ctx
        self.f = ctx.facts
        self.spawn_indices = spawn_indices  # function name -> its process-index parameter
        self.found: list[Finding] = []
        self.seen: set[int] = set()

    def block(self, stmts: list[ast.stmt], scope: Scope) -> None:
        for i, st in enumerate(stmts):
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = self.f.scopes_by_node.get(id(st))
                if inner is not None:
                    self.f.expand(inner)
                    self.block(st.body, inner)
                continue
            if isinstance(st, ast.ClassDef):
                self.block(st.body, scope)
                continue
            if isinstance(st, ast.If) and self.on_some(st.test, scope):
                body, other = self.collectives(st.body, scope), self.collectives(st.orelse, scope)
                self.report(body, other, st.test)
                self.report(other, body, _negated(st.test))
                if _exits(st.body) and not st.orelse:  # `if not master: return`, then …
                    rest = self.collectives(stmts[i + 1 :], scope)
                    self.report(rest, {}, _negated(st.test))
            for child in _child_blocks(st):
                self.block(child, scope)

    def report(
        self, calls: dict[str, list[ast.Call]], other: dict[str, list[ast.Call]], test: ast.expr
    ) -> None:
        for name, nodes in calls.items():
            if name in other:
                continue
            for node in nodes:
                if id(node) in self.seen:
                    continue
                self.seen.add(id(node))
                line, col = call_position(node)
                self.found.append(
                    self.ctx.finding(
                        "TPU802", line, col, args={"call": _short(name), "cond": _cond(test)}
                    )
                )

    def collectives(self, stmts: list[ast.stmt], scope: Scope) -> dict[str, list[ast.Call]]:
        """The collective calls in these statements (not in functions they define), by name."""
        out: dict[str, list[ast.Call]] = {}
        for node in _walk(stmts):
            if isinstance(node, ast.Call):
                name = self.collective(node, scope)
                if name:
                    out.setdefault(name, []).append(node)
        return out

    def collective(self, call: ast.Call, scope: Scope) -> str | None:
        dotted = self.f.dotted(call.func)
        if dotted in COLLECTIVES:
            return dotted
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _COLLECTIVE_METHODS:
            maker = self.maker(func.value, scope)
            if maker and maker.startswith(_COLLECTIVE_METHODS[func.attr]):
                return f"{maker.rsplit('.', 1)[-1]}.{func.attr}"
        return None

    def maker(self, expr: ast.expr, scope: Scope) -> str | None:
        """What built the object a name holds: `mngr = ocp.CheckpointManager(…)` ->
        "orbax.checkpoint.CheckpointManager"."""
        if not isinstance(expr, ast.Name):
            return None
        found = consts.lookup(expr.id, scope)
        for value in found[1] if found else []:
            if isinstance(value, ast.Call):
                d = self.f.dotted(value.func)
                if d:
                    return d
        return None

    def on_some(self, test: ast.expr, scope: Scope, depth: int = 0) -> bool:
        """Whether a condition tells the processes apart: it calls `xm.is_master_ordinal()`,
        `jax.process_index()`…, reads a name assigned from one, or the process index a launcher
        hands its function (`def _mp_fn(index):` … `if index == 0:`)."""
        if depth > _MAX_DEPTH:
            return False
        index = self.spawn_indices.get(scope.name) if scope.kind == "function" else None
        for node in ast.walk(test):
            if isinstance(node, ast.Call) and self.f.dotted(node.func) in ORDINALS:
                return True
            if isinstance(node, ast.Attribute) and node.attr in _MAIN_PROCESS_ATTRS:
                return True
            if not isinstance(node, ast.Name):
                continue
            if node.id == index:
                return True
            found = consts.lookup(node.id, scope)
            if found and any(
                v is not None and self.on_some(v, found[0], depth + 1) for v in found[1]
            ):
                return True
        return False


def _spawn_indices(f: Facts) -> dict[str, str]:
    """The functions handed to `xmp.spawn` / `torch_xla.launch`, with the name of their first
    parameter: the index of the process running it."""
    out: dict[str, str] = {}
    for c in f.calls:
        if c.dotted not in XLA_LAUNCHERS or not c.node.args:
            continue
        fn = c.node.args[0]
        if not isinstance(fn, ast.Name):
            continue
        for s in f.functions.get(fn.id, []):
            node = s.node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args:
                out[fn.id] = node.args.args[0].arg
    return out


_ORDINAL_NAMES = frozenset(o.rsplit(".", 1)[1] for o in ORDINALS) | _MAIN_PROCESS_ATTRS


def _names_an_ordinal(tree: ast.Module) -> bool:
    """Whether the script names any of `ORDINALS` (`xm.get_ordinal`, a bare imported
    `process_index`…), anywhere: a cheap look before the statements are walked."""
    for node in ast.walk(tree):
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
        if name in _ORDINAL_NAMES:
            return True
    return False


def _walk(stmts: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of these statements, functions, lambdas and classes they define left out."""
    stack: list[ast.AST] = list(reversed(stmts))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _child_blocks(st: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists nested in a compound statement."""
    out = [getattr(st, name) for name in ("body", "orelse", "finalbody") if hasattr(st, name)]
    out += [h.body for h in getattr(st, "handlers", [])]
    out += [c.body for c in getattr(st, "cases", [])]
    return [b for b in out if isinstance(b, list) and b and isinstance(b[0], ast.stmt)]


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], _EXITS)


_OPPOSITE: dict[type, type] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


def _negated(test: ast.expr) -> ast.expr:
    """The condition the other branch runs under: `rank != 0` -> `rank == 0`, `not m` -> `m`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPPOSITE:
        return ast.Compare(test.left, [_OPPOSITE[type(test.ops[0])]()], test.comparators)
    return ast.UnaryOp(ast.Not(), test)


def _cond(test: ast.expr) -> str:
    text = ast.unparse(test)
    return text if len(text) <= 40 else text[:39] + "…"


def _short(name: str) -> str:
    return (
        name.replace(_XM, "xm.")
        .replace(_DIST, "dist.")
        .replace("jax.experimental.multihost_utils.", "multihost_utils.")
    )
