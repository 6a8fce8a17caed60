"""What several rules ask of a module, computed once per file and cached: which expressions are
`tf.data` datasets, which functions JAX compiles, which functions TensorFlow runs on the TPU,
which loops are training loops, and the batch sizes the script fixes."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from . import consts
from .facts import Call, Facts, Scope, tokens

# tf.data.Dataset methods that return a dataset
DATASET_METHODS = frozenset(
    "batch padded_batch map shuffle repeat prefetch interleave filter cache take skip unbatch "
    "flat_map with_options apply shard rebatch ragged_batch bucket_by_sequence_length "
    "concatenate enumerate".split()
)
DATASET_SOURCES = frozenset(
    "from_tensor_slices from_tensors from_generator list_files range zip TFRecordDataset "
    "TextLineDataset FixedLengthRecordDataset Dataset image_dataset_from_directory "
    "text_dataset_from_directory timeseries_dataset_from_array make_csv_dataset "
    "experimental_distribute_dataset distribute_datasets_from_function load".split()
)
_DATASET_NAME_TOKENS = frozenset({"ds", "dataset", "datasets"})
# ops whose output shape depends on the data
JAX_DYNAMIC = frozenset({"nonzero", "argwhere", "flatnonzero", "unique"})
_NOT_TENSOR_CALLS = frozenset(
    "len range int float str bool round min max abs enumerate zip sum list tuple dict set sorted "
    "time perf_counter monotonic isinstance format print item tolist numel size dim".split()
)
_PER_CORE_TOKENS = frozenset({"core", "replica", "device", "chip", "local", "shard"})
_NOT_A_BATCH_TOKENS = frozenset(
    "num n steps step batches idx index count norm first shape dims dim id ids i".split()
)


@dataclass(frozen=True)
class BatchValue:
    value: int
    per_core: bool
    line: int
    col: int
    name: str | None  # the constant's name, when the value comes from a named definition
    origin: str  # "definition" (a batch-named constant) or what used the literal (".batch()")


class Analysis:
    def __init__(self, facts: Facts) -> None:
        self.f = facts

    # -- tf.data -------------------------------------------------------------------------------

    def is_dataset(self, expr: ast.expr | None, scope: Scope, depth: int = 0) -> bool:
        if expr is None or depth > 12:
            return False
        if isinstance(expr, ast.Call):
            func = expr.func
            if isinstance(func, ast.Attribute):
                if func.attr in DATASET_SOURCES:
                    d = self.f.dotted(func) or ""
                    return func.attr != "load" or d.startswith("tensorflow_datasets.")
                if func.attr in DATASET_METHODS:
                    return self.is_dataset(func.value, scope, depth + 1)
                return False
            if isinstance(func, ast.Name):
                d = self.f.aliases.get(func.id, func.id)
                return func.id in DATASET_SOURCES and d != "range" and func.id != "zip"
            return False
        if isinstance(expr, ast.Name):
            if not _DATASET_NAME_TOKENS.isdisjoint(tokens(expr.id)) and self.f.tensorflow:
                return True
            found = consts.lookup(expr.id, scope)
            if found is None:
                return False
            where, assigned = found
            return any(self.is_dataset(e, where, depth + 1) for e in assigned if e is not None)
        return False

    def dataset_calls(self, *attrs: str) -> Iterator[Call]:
        for c in self.f.calls_named(*attrs):
            if isinstance(c.node.func, ast.Attribute) and self.is_dataset(c.receiver, c.scope):
                yield c

    @cached_property
    def uses_tf_data(self) -> bool:
        if not self.f.tensorflow:
            return False
        for c in self.f.calls:
            if (c.attr in DATASET_SOURCES or c.attr in DATASET_METHODS) and self.is_dataset(
                c.node, c.scope
            ):
                return True
        return False

    # -- TPU strategy ----------------------------------------------------------------------------

    @cached_property
    def tf_tpu(self) -> bool:
        """A TensorFlow/Keras script that shows a TPU (strategy, resolver, flag…)."""
        return self.f.tensorflow and bool(self.f.tpu_evidence)

    def strategy_runs(self) -> Iterator[Call]:
        for c in self.f.calls_named("run", "experimental_run_v2", "experimental_run"):
            recv = c.receiver
            name = self.f.dotted(recv) if recv is not None else None
            if recv is not None and (
                (name and "strategy" in tokens(name.replace(".", "_")))
                or (isinstance(recv, ast.Call) and "strategy" in (self.f.dotted(recv.func) or ""))
            ):
                yield c

    # -- functions by reference ----------------------------------------------------------------

    def functions_referenced(self, expr: ast.expr | None, scope: Scope) -> list[Scope]:
        """The defs a name refers to from `scope` (nearest enclosing definition wins), or the
        lambda itself."""
        if isinstance(expr, ast.Lambda):
            s = self.f.scopes_by_node.get(id(expr))
            return [s] if s else []
        if isinstance(expr, ast.Name):
            for s in scope.chain():
                local = [c for c in s.children if c.kind == "function" and c.name == expr.id]
                if local:
                    return local
            return list(self.f.functions.get(expr.id, []))
        if (
            isinstance(expr, ast.Attribute)
            and isinstance(expr.value, ast.Name)
            and expr.value.id == "self"
        ):  # self.train_step: a method of some class here
            return list(self.f.functions.get(expr.attr, []))
        return []

    def closure(self, roots: list[Scope]) -> set[int]:
        """`roots` and every function they contain, call or pass by name (the code that runs
        when they run): ids of scopes."""
        seen: set[int] = set()
        todo = list(roots)
        while todo:
            s = todo.pop()
            if id(s) in seen:
                continue
            seen.add(id(s))
            calls = self.f.calls_in(s)  # walks a skipped body first
            todo.extend(s.children)
            for c in calls:
                refs = [c.node.func, *c.node.args, *(k.value for k in c.node.keywords)]
                for r in refs:
                    todo.extend(self.functions_referenced(r, s))
        return seen

    def inside(self, scope: Scope, ids: set[int]) -> bool:
        return any(id(s) in ids for s in scope.chain())

    # -- JAX -------------------------------------------------------------------------------------

    def is_jit(self, expr: ast.expr) -> bool:
        d = self.f.dotted(expr) or ""
        last = d.rsplit(".", 1)[-1]
        if last in ("jit", "pjit", "pmap", "filter_jit", "filter_pmap", "xmap", "shard_map"):
            return d.startswith(("jax", "equinox", "flax")) or d in ("jit", "pjit", "pmap")
        return False

    def jit_decorated(self, s: Scope) -> bool:
        """Whether the function `s` is decorated with `jax.jit` (or `pmap`, …), called or not,
        directly or through `functools.partial(jax.jit, …)`."""
        for dec in s.decorators:
            target = dec.func if isinstance(dec, ast.Call) else dec
            if self.is_jit(target) or (
                isinstance(dec, ast.Call)
                and (self.f.dotted(dec.func) or "").endswith("partial")
                and dec.args
                and self.is_jit(dec.args[0])
            ):
                return True
        return False

    @cached_property
    def jit_scopes(self) -> set[int]:
        if not self.f.jax:
            return set()
        roots = [s for s in self.f.all_functions() if self.jit_decorated(s)]
        for c in self.f.calls:
            if self.is_jit(c.node.func) and c.node.args:
                roots.extend(self.functions_referenced(c.node.args[0], c.scope))
        return self.closure(roots)

    # -- TensorFlow code that runs on the TPU ----------------------------------------------------

    @cached_property
    def tpu_run_scopes(self) -> set[int]:
        """Functions handed to `strategy.run`, Keras `train_step`/`test_step`/`predict_step`/`call`
        of model and layer classes, and `Lambda` layer functions — in a TF script on a TPU."""
        if not self.tf_tpu:
            return set()
        roots: list[Scope] = []
        for c in self.strategy_runs():
            if c.node.args:
                roots.extend(self.functions_referenced(c.node.args[0], c.scope))
        for c in self.f.calls_named("Lambda"):
            if c.node.args:
                roots.extend(self.functions_referenced(c.node.args[0], c.scope))
        for s in self.f.all_functions():
            p = s.parent
            if (
                p is not None
                and p.kind == "class"
                and s.name in ("train_step", "test_step", "predict_step", "call")
                and any(b.endswith(("Model", "Layer")) for b in p.bases)
            ):
                roots.append(s)
        return self.closure(roots)

    # -- PyTorch/XLA training loops --------------------------------------------------------------

    @cached_property
    def training_loops(self) -> set[int]:
        """Innermost loops around `loss.backward()` / `optimizer.step()` / `xm.optimizer_step`."""
        if not self.f.torch_xla:
            return set()
        loops: set[int] = set()
        for c in self.f.calls:
            if c.in_lambda or not c.loops:
                continue
            recv = c.receiver
            rname = (self.f.dotted(recv) or "") if recv is not None else ""
            if (
                c.attr == "backward"
                or (c.attr == "optimizer_step" and "xla" in (c.dotted or ""))
                or (c.attr == "step" and "optim" in rname.lower())
            ):
                loops.add(id(c.loops[-1]))
        return loops

    def in_training_loop(self, c: Call) -> bool:
        return not c.in_lambda and any(id(loop) in self.training_loops for loop in c.loops)

    @cached_property
    def training_iterables(self) -> list[tuple[ast.expr, Scope]]:
        """What each PyTorch/XLA training `for` loop iterates (inside `enumerate(...)`,
        `tqdm(...)`: `iterated`), with the scope of the loop."""
        seen: dict[int, tuple[ast.expr, Scope]] = {}
        for c in self.f.calls:
            if not self.in_training_loop(c):
                continue
            for lp in c.loops:
                if id(lp) in self.training_loops and isinstance(lp, (ast.For, ast.AsyncFor)):
                    seen.setdefault(id(lp), (self.iterated(lp.iter), c.scope))
        return list(seen.values())

    def iterated(self, expr: ast.expr) -> ast.expr:
        """What a `for` loop iterates under the wrappers that only pass it on: `enumerate(loader)`,
        `tqdm(loader)` (a progress bar), `iter(loader)`, nested."""
        while (
            isinstance(expr, ast.Call) and expr.args and _called_name(self.f, expr) in _PASS_THROUGH
        ):
            expr = expr.args[0]
        return expr

    def dataloaders(
        self, expr: ast.expr, scope: Scope, through_device_loader: bool, depth: int = 0
    ) -> list[ast.Call] | None:
        """The `DataLoader(...)` calls `expr` is, followed through names the script assigns
        (every assignment must be one) and, with `through_device_loader`, through
        `MpDeviceLoader(loader, …)` / `ParallelLoader(…).per_device_loader(…)`. None when it is
        anything else or the script does not fix it (a parameter)."""
        if depth > 8:
            return None
        if isinstance(expr, ast.Call):
            name = _called_name(self.f, expr)
            if name == "DataLoader":
                return [expr]
            if not through_device_loader:
                return None
            if name in ("MpDeviceLoader", "ParallelLoader") and expr.args:
                return self.dataloaders(expr.args[0], scope, True, depth + 1)
            if name == "per_device_loader" and isinstance(expr.func, ast.Attribute):
                return self.dataloaders(expr.func.value, scope, True, depth + 1)
            return None
        if isinstance(expr, ast.Name):
            found = consts.lookup(expr.id, scope)
            if found is None:
                return None
            where, assigned = found
            out: list[ast.Call] = []
            for e in assigned:
                got = (
                    None
                    if e is None
                    else self.dataloaders(e, where, through_device_loader, depth + 1)
                )
                if got is None:
                    return None
                out += got
            return out or None
        return None

    def tensor_names(self, loop: ast.For | ast.While | ast.AsyncFor, scope: Scope) -> set[str]:
        """Names that hold tensors in a training loop: the batch it iterates over and what
        calls inside it return (model outputs, losses), transitively through arithmetic."""
        names: set[str] = set()
        if isinstance(loop, (ast.For, ast.AsyncFor)):
            targets: list[ast.expr] = [loop.target]
            it = loop.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name):
                if it.func.id == "range":
                    targets = []
                elif it.func.id == "enumerate" and isinstance(loop.target, (ast.Tuple, ast.List)):
                    targets = list(loop.target.elts[1:])
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        assigns: list[tuple[list[str], ast.expr]] = []
        for node in ast.walk(loop):
            if isinstance(node, ast.Assign):
                bound = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
                assigns.append((bound, node.value))
        for _ in range(3):
            for bound, value in assigns:
                if self._tensorish(value, names):
                    names.update(bound)
        return names

    def _tensorish(self, value: ast.expr, names: set[str]) -> bool:
        if isinstance(value, ast.Name):
            return value.id in names
        if isinstance(value, ast.Call):
            f = value.func
            last = (
                f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            )
            d = self.f.dotted(f) or ""
            if last in _NOT_TENSOR_CALLS or d.startswith(("time.", "math.", "os.", "datetime.")):
                return False
            return True
        if isinstance(value, ast.BinOp):
            return self._tensorish(value.left, names) or self._tensorish(value.right, names)
        if isinstance(value, ast.Subscript):
            return self._tensorish(value.value, names)
        return False

    # -- batch sizes -----------------------------------------------------------------------------

    @cached_property
    def batch_values(self) -> list[BatchValue]:
        """Batch sizes the script fixes: batch-named constants (at their definition) and literal
        values passed to `.batch()`, `batch_size=` and PyTorch `DataLoader`s."""
        out: list[BatchValue] = []
        loader_names = self._dataloader_batch_names()
        defined: set[str] = set()
        definitions = list(self._batch_definitions())
        defined |= {name for _, name, _ in definitions}
        for scope, name, expr in definitions:
            v = consts.integer(expr, scope)
            if v is None or v <= 0 or (isinstance(expr, ast.Name) and expr.id in defined):
                continue  # unknown, or an alias of a batch reported where it is defined
            toks = tokens(name)
            per_core = (not _PER_CORE_TOKENS.isdisjoint(toks)) or (
                self.f.torch_xla and name in loader_names
            )
            if "global" in toks:
                per_core = False
            out.append(
                BatchValue(v, per_core, expr.lineno, expr.col_offset + 1, name, "definition")
            )
        for c in self.f.calls:
            arg: ast.expr | None = None
            per_core = False
            origin = ""
            if c.attr in ("batch", "padded_batch") and isinstance(c.node.func, ast.Attribute):
                if self.is_dataset(c.receiver, c.scope):
                    arg = (
                        c.node.args[0]
                        if c.node.args
                        else getattr(c.kw("batch_size"), "value", None)
                    )
                    origin = f".{c.attr}()"
            else:
                k = c.kw("batch_size") or c.kw("global_batch_size")
                if k is not None:
                    arg = k.value
                    origin = f"{c.attr}(batch_size=)" if c.attr else "batch_size="
                    per_core = c.attr == "DataLoader" and self.f.torch_xla
                elif c.attr == "DataLoader" and len(c.node.args) >= 2 and self.f.torch:
                    arg = c.node.args[1]
                    origin = "DataLoader()"
                    per_core = self.f.torch_xla
            if arg is None:
                continue
            if (isinstance(arg, ast.Name) and arg.id in defined) or (
                isinstance(arg, ast.Attribute) and f"--{arg.attr}" in defined
            ):
                continue  # reported where the constant or the flag is defined
            v = consts.integer(arg, c.scope)
            if v is None or v <= 0:
                continue
            out.append(BatchValue(v, per_core, arg.lineno, arg.col_offset + 1, None, origin))
        return out

    def _batch_definitions(self) -> Iterator[tuple[Scope, str, ast.expr]]:
        stack = [self.f.module]
        while stack:
            s = stack.pop()
            stack.extend(s.children)
            for name, assigned in s.assigns.items():
                if name in s.params or not is_batch_name(name):
                    continue
                exprs = [e for e in assigned if e is not None]
                if len(exprs) != len(assigned) or not exprs:
                    continue
                yield s, name, exprs[0]
        module = self.f.module
        for dest, defaults in module.cli_defaults.items():
            if is_batch_name(dest) and len(defaults) == 1 and dest not in module.assigned_attrs:
                expr, scope = defaults[0]
                yield scope, f"--{dest}", expr

    def _dataloader_batch_names(self) -> set[str]:
        names: set[str] = set()
        for c in self.f.calls_named("DataLoader"):
            k = c.kw("batch_size")
            arg = k.value if k is not None else (c.node.args[1] if len(c.node.args) > 1 else None)
            if isinstance(arg, ast.Name):
                names.add(arg.id)
            elif isinstance(arg, ast.Attribute):
                names.add(f"--{arg.attr}")
        return names

    def distinct(self, per_core: bool) -> int | None:
        """The one batch size of that kind the script fixes, or None (none, or several)."""
        vals = {b.value for b in self.batch_values if b.per_core == per_core}
        return vals.pop() if len(vals) == 1 else None

    @property
    def core_count(self) -> int | None:
        """Cores when the script names a v2/v3 accelerator type (`v3-8`: 8 cores)."""
        found = self.f.accelerator_cores
        return next(iter(found)) if len(found) == 1 else None


def is_batch_name(name: str) -> bool:
    """`BATCH_SIZE`, `global_batch`, `bs`, `PER_CORE_BATCH` — and `PER_CORE` / `per_replica`
    alone, the usual names of a per-core batch (`GLOBAL = PER_CORE * 8`)."""
    toks = tokens(name)
    if "batch" not in toks and "bs" not in toks:
        return "per" in toks and set(toks) <= {"per", *_PER_CORE_TOKENS}
    return _NOT_A_BATCH_TOKENS.isdisjoint(toks)


# Calls a loop iterates through that hand on what they are given, item by item.
_PASS_THROUGH = frozenset({"enumerate", "tqdm", "iter"})


def _called_name(f: Facts, call: ast.Call) -> str:
    """The last name of what `call` calls: `DataLoader` for `torch.utils.data.DataLoader(…)`,
    for an imported alias, or for `anything.DataLoader(…)`."""
    dotted = f.dotted(call.func)
    if dotted:
        return dotted.rsplit(".", 1)[-1]
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""
