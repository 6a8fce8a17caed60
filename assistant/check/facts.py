"""One pass over a module's syntax tree, collecting what the rules look at: imports and their
aliases, scopes with their simple assignments, every call with the scope and loops around it,
subscripts, and the evidence that the script targets a TPU.

The tree is walked once: statements recursively (Python's parser caps block nesting at 100
levels), expressions with an explicit stack (an expression nested thousands deep cannot exhaust
the interpreter's recursion limit). The code is never imported or run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

Value = int | float | bool | str
Loops = tuple[ast.For | ast.While | ast.AsyncFor, ...]

_TOKEN = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_TPU_TOKENS = frozenset({"tpu", "tpus"})


def tokens(identifier: str) -> list[str]:
    """`GLOBAL_BATCH_SIZE` -> [global, batch, size]; `TPUStrategy` -> [tpu, strategy]."""
    return [m.lower() for m in _TOKEN.findall(identifier)]


def mentions_tpu(identifier: str) -> bool:
    """Whether a name or short string names a TPU as a word (`use_tpu`, `TPUStrategy`, `"tpu"`),
    not as letters inside another word (`output`)."""
    if "pu" not in identifier and "PU" not in identifier:  # the fast path: most names
        return False
    return not _TPU_TOKENS.isdisjoint(tokens(identifier))


@dataclass(eq=False)
class Scope:
    kind: str  # module | function | class | lambda
    name: str
    node: ast.AST | None
    parent: Scope | None
    assigns: dict[str, list[ast.expr | None]] = field(default_factory=dict)  # None: unknown value
    params: set[str] = field(default_factory=set)
    bases: list[str] = field(default_factory=list)  # a class's base classes, dotted
    decorators: list[ast.expr] = field(default_factory=list)
    children: list[Scope] = field(default_factory=list)
    pending: list[ast.stmt] | None = None  # a body not walked yet (see `Facts.expand`)
    # the module's command-line flags: dest -> default expressions (argparse `add_argument`,
    # absl `flags.DEFINE_*`), so `args.batch_size` has the value the script runs with by default
    cli_defaults: dict[str, list[tuple[ast.expr, Scope]]] = field(default_factory=dict)
    assigned_attrs: set[str] = field(default_factory=set)  # `x.name = …` anywhere: name

    def assign(self, name: str, value: ast.expr | None) -> None:
        self.assigns.setdefault(name, []).append(value)

    def chain(self) -> Iterator[Scope]:
        s: Scope | None = self
        while s is not None:
            yield s
            s = s.parent

    def within(self, other: Scope) -> bool:
        return any(s is other for s in self.chain())


# PyTorch/XLA's launchers of one process per TPU device
XLA_LAUNCHERS = frozenset({"torch_xla.distributed.xla_multiprocessing.spawn", "torch_xla.launch"})


@dataclass(eq=False)
class Call:
    node: ast.Call
    dotted: str | None  # resolved through the imports: "tensorflow.data.Dataset.from_tensor_slices"
    attr: str  # the last name: "from_tensor_slices", "batch" (also for `expr.batch(...)`)
    scope: Scope
    loops: Loops  # enclosing loops, outermost first
    in_lambda: bool  # inside a lambda within `scope` (a deferred closure)

    @property
    def receiver(self) -> ast.expr | None:
        f = self.node.func
        return f.value if isinstance(f, ast.Attribute) else None

    def kw(self, name: str) -> ast.keyword | None:
        for k in self.node.keywords:
            if k.arg == name:
                return k
        return None

    @property
    def has_star_kwargs(self) -> bool:
        return any(k.arg is None for k in self.node.keywords)

    def position(self) -> tuple[int, int]:
        return call_position(self.node)


def call_position(node: ast.Call) -> tuple[int, int]:
    """Where ruff would point: at the called name (`ds.batch(...)` -> at `batch`)."""
    f = node.func
    if isinstance(f, ast.Attribute) and f.end_lineno is not None and f.end_col_offset:
        return f.end_lineno, f.end_col_offset - len(f.attr) + 1
    return node.lineno, node.col_offset + 1


@dataclass(eq=False)
class Subscript:
    node: ast.Subscript
    scope: Scope
    in_lambda: bool


@dataclass(eq=False)
class Facts:
    tree: ast.Module
    module: Scope
    aliases: dict[str, str] = field(default_factory=dict)  # local name -> dotted origin
    imported: set[str] = field(default_factory=set)  # top-level packages imported
    # names a relative import (`from .utils import train_step`) binds: the person's own code
    relative: set[str] = field(default_factory=set)
    calls: list[Call] = field(default_factory=list)
    calls_by_scope: dict[int, list[Call]] = field(default_factory=dict)  # id(scope) -> calls
    subscripts: list[Subscript] = field(default_factory=list)
    functions: dict[str, list[Scope]] = field(default_factory=dict)  # def name -> scopes
    scopes_by_node: dict[int, Scope] = field(default_factory=dict)  # id(def/lambda node) -> scope
    names_used: set[str] = field(default_factory=set)
    attrs_used: set[str] = field(default_factory=set)  # every `.name` read or called
    tpu_evidence: list[tuple[int, str]] = field(default_factory=list)  # (line, what)
    _collector: _Collector | None = None
    accelerator_cores: set[int] = field(default_factory=set)  # "v3-8" in a string: {8}

    # -- what the script is ------------------------------------------------------------------

    @property
    def tensorflow(self) -> bool:
        return bool(self.imported & {"tensorflow", "keras", "tf_keras"})

    @property
    def jax(self) -> bool:
        return bool(self.imported & {"jax", "flax", "optax", "equinox"})

    @property
    def torch_xla(self) -> bool:
        return "torch_xla" in self.imported

    @property
    def torch(self) -> bool:
        return "torch" in self.imported or self.torch_xla

    @property
    def tpu(self) -> bool:
        """Any sign the script runs on a TPU: a TPU name, strategy, resolver, flag or device
        string, or PyTorch/XLA."""
        return self.torch_xla or bool(self.tpu_evidence)

    # -- names ---------------------------------------------------------------------------------

    def dotted(self, expr: ast.expr) -> str | None:
        """`tf.keras.layers.Dense` -> "tensorflow.keras.layers.Dense" (aliases resolved);
        None when the expression is not a plain dotted name."""
        parts: list[str] = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        parts.append(self.aliases.get(expr.id, expr.id))
        return ".".join(reversed(parts))

    def expand(self, scope: Scope) -> None:
        """Walk a function body that was skipped for naming nothing a rule looks for, now that
        an analysis needs it (a helper called from a jit-compiled function, say)."""
        if scope.pending is None or self._collector is None:
            return
        body, scope.pending = scope.pending, None
        self._collector.block(body, scope, ())
        self.calls.sort(key=_position)

    def release(self) -> None:
        """Break the reference cycles (scope <-> parent, facts <-> collector) so that the tree
        and everything found in it are freed at once, without the cyclic collector."""
        stack = [self.module]
        while stack:
            s = stack.pop()
            stack.extend(s.children)
            s.children = []
            s.parent = None
        self._collector = None

    def calls_in(self, scope: Scope) -> list[Call]:
        self.expand(scope)
        return self.calls_by_scope.get(id(scope), [])

    def mentions(self, name: str) -> bool:
        """Whether the walked code uses `name` as a name or an attribute (called or not)."""
        return name in self.names_used or name in self.attrs_used

    def all_functions(self) -> Iterator[Scope]:
        """Every function the script defines (`def`), at any depth."""
        for scopes in self.functions.values():
            yield from scopes

    def calls_named(self, *attrs: str) -> Iterator[Call]:
        wanted = set(attrs)
        return (c for c in self.calls if c.attr in wanted)


_MAX_INDEX_STRING = 80


class _Collector:
    """Fills a `Facts` in one walk of the tree."""

    def __init__(self, tree: ast.Module, lines: list[str] | None) -> None:
        module = Scope("module", "<module>", tree, None)
        self.facts = Facts(tree=tree, module=module)
        self.facts._collector = self
        self.lines = lines

    def relevant(self, st: ast.stmt) -> bool:
        """Whether a function's source names anything a rule looks for. A body that does not
        is walked only if an analysis reaches it (`Facts.expand`): most helpers of a long
        script never are."""
        if self.lines is None or st.end_lineno is None:
            return True
        segment = "\n".join(self.lines[st.lineno - 1 : st.end_lineno])
        return _RELEVANT.search(segment) is not None

    # statements ---------------------------------------------------------------------------------

    def block(self, stmts: list[ast.stmt], scope: Scope, loops: Loops) -> None:
        for st in stmts:
            self.stmt(st, scope, loops)

    def stmt(self, st: ast.stmt, scope: Scope, loops: Loops) -> None:
        f = self.facts
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in st.decorator_list:
                self.expr(d, scope, loops)
            self.arguments(st.args, scope, loops)
            if st.returns is not None:
                self.expr(st.returns, scope, loops)
            inner = self.new_scope("function", st.name, st, scope)
            inner.decorators = list(st.decorator_list)
            inner.params = _param_names(st.args)
            for p in inner.params:
                inner.assign(p, None)
            scope.assign(st.name, None)
            f.functions.setdefault(st.name, []).append(inner)
            if self.relevant(st):
                self.block(st.body, inner, ())
            else:
                inner.pending = list(st.body)
            return
        if isinstance(st, ast.ClassDef):
            for e in [*st.decorator_list, *st.bases, *(k.value for k in st.keywords)]:
                self.expr(e, scope, loops)
            inner = self.new_scope("class", st.name, st, scope)
            inner.bases = [b for b in (f.dotted(x) for x in st.bases) if b]
            scope.assign(st.name, None)
            self.block(st.body, inner, loops)
            return
        if isinstance(st, ast.Assign):
            self.expr(st.value, scope, loops)
            for target in st.targets:
                self.target(target, st.value, scope, loops)
            return
        if isinstance(st, ast.AnnAssign):
            if st.value is not None:
                self.expr(st.value, scope, loops)
            self.expr(st.annotation, scope, loops)
            self.target(st.target, st.value, scope, loops, annotated_only=st.value is None)
            return
        if isinstance(st, ast.AugAssign):
            self.expr(st.value, scope, loops)
            self.target(st.target, None, scope, loops)
            return
        if isinstance(st, (ast.For, ast.AsyncFor)):
            self.expr(st.iter, scope, loops)
            self.target(st.target, None, scope, loops)
            inner_loops = (*loops, st)
            self.block(st.body, scope, inner_loops)
            self.block(st.orelse, scope, loops)
            return
        if isinstance(st, ast.While):
            self.expr(st.test, scope, loops)
            self.block(st.body, scope, (*loops, st))
            self.block(st.orelse, scope, loops)
            return
        if isinstance(st, (ast.Import, ast.ImportFrom)):
            self.imports(st, scope)
            return
        if isinstance(st, (ast.With, ast.AsyncWith)):
            for item in st.items:
                self.expr(item.context_expr, scope, loops)
                if item.optional_vars is not None:
                    self.target(item.optional_vars, None, scope, loops)
            self.block(st.body, scope, loops)
            return
        if isinstance(st, ast.Try) or type(st).__name__ == "TryStar":
            for name in ("body", "orelse", "finalbody"):
                self.block(getattr(st, name), scope, loops)
            for h in getattr(st, "handlers", []):
                if h.type is not None:
                    self.expr(h.type, scope, loops)
                if h.name:
                    scope.assign(h.name, None)
                self.block(h.body, scope, loops)
            return
        if isinstance(st, ast.If):
            self.expr(st.test, scope, loops)
            self.block(st.body, scope, loops)
            self.block(st.orelse, scope, loops)
            return
        if isinstance(st, ast.Match):
            self.expr(st.subject, scope, loops)
            for case in st.cases:
                if case.guard is not None:
                    self.expr(case.guard, scope, loops)
                for node in ast.walk(case.pattern):
                    bound = getattr(node, "name", None)
                    if isinstance(bound, str):
                        scope.assign(bound, None)
                self.block(case.body, scope, loops)
            return
        if isinstance(st, (ast.Global, ast.Nonlocal)):
            return
        # Expr, Return, Delete, Raise, Assert, Pass, Break, Continue, ...
        for child in ast.iter_child_nodes(st):
            if isinstance(child, ast.expr):
                self.expr(child, scope, loops)

    def new_scope(self, kind: str, name: str, node: ast.AST, parent: Scope) -> Scope:
        s = Scope(kind, name, node, parent)
        parent.children.append(s)
        self.facts.scopes_by_node[id(node)] = s
        return s

    def arguments(self, args: ast.arguments, scope: Scope, loops: Loops) -> None:
        for d in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
            self.expr(d, scope, loops)

    def target(
        self,
        target: ast.expr,
        value: ast.expr | None,
        scope: Scope,
        loops: Loops,
        annotated_only: bool = False,
    ) -> None:
        if isinstance(target, ast.Name):
            if not annotated_only:
                scope.assign(target.id, value)
            self.evidence_name(target.id, target.lineno)
        elif isinstance(target, (ast.Tuple, ast.List)):
            values: list[ast.expr | None]
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                values = list(value.elts)
            else:
                values = [None] * len(target.elts)
            for t_, v in zip(target.elts, values, strict=True):
                self.target(t_, v, scope, loops)
        elif isinstance(target, ast.Starred):
            self.target(target.value, None, scope, loops)
        else:  # attribute or subscript: its parts are read
            if isinstance(target, ast.Attribute):
                self.facts.module.assigned_attrs.add(target.attr)
            self.expr(target, scope, loops)

    def imports(self, st: ast.Import | ast.ImportFrom, scope: Scope) -> None:
        f = self.facts
        if isinstance(st, ast.Import):
            for a in st.names:
                f.imported.add(a.name.split(".")[0])
                if a.asname:
                    f.aliases[a.asname] = a.name
                    scope.assign(a.asname, None)
                else:
                    top = a.name.split(".")[0]
                    f.aliases.setdefault(top, top)
                    scope.assign(top, None)
                if mentions_tpu(a.name):
                    f.tpu_evidence.append((st.lineno, a.name))
            return
        if st.level:
            f.relative.update(a.asname or a.name for a in st.names if a.name != "*")
            return
        if not st.module:
            return
        f.imported.add(st.module.split(".")[0])
        if mentions_tpu(st.module):
            f.tpu_evidence.append((st.lineno, st.module))
        for a in st.names:
            if a.name == "*":
                continue
            local = a.asname or a.name
            f.aliases[local] = f"{st.module}.{a.name}"
            scope.assign(local, None)
            self.evidence_name(a.name, st.lineno)

    # expressions --------------------------------------------------------------------------------

    def evidence_name(self, name: str, line: int) -> None:
        if mentions_tpu(name):
            self.facts.tpu_evidence.append((line, name))

    def expr(self, root: ast.expr, scope: Scope, loops: Loops, in_lambda: bool = False) -> None:
        """Every node of one expression, with an explicit stack (types compared by identity:
        this loop sees every expression node of the file)."""
        f = self.facts
        calls, by_scope = f.calls, f.calls_by_scope.setdefault(id(scope), [])
        names, attrs = f.names_used, f.attrs_used
        fields_of = _FIELDS_CACHE
        stack: list[ast.AST | None] = [root]
        pop, push, extend = stack.pop, stack.append, stack.extend
        while stack:
            node = pop()
            if node is None:
                continue
            t = type(node)
            if t is ast.Name:
                name = node.id  # type: ignore[attr-defined]
                names.add(name)
                if "pu" in name or "PU" in name:
                    self.evidence_name(name, node.lineno)  # type: ignore[attr-defined]
                continue
            if t is ast.Constant:
                v = node.value  # type: ignore[attr-defined]
                if type(v) is str and len(v) <= _MAX_INDEX_STRING:
                    self.constant(v, node.lineno)  # type: ignore[attr-defined]
                continue
            if t is ast.Call:
                assert isinstance(node, ast.Call)
                func = node.func
                ft = type(func)
                if ft is ast.Attribute:
                    attr = func.attr  # type: ignore[attr-defined]
                elif ft is ast.Name:
                    attr = func.id  # type: ignore[attr-defined]
                else:
                    attr = ""
                call = Call(node, f.dotted(func), attr, scope, loops, in_lambda)
                calls.append(call)
                by_scope.append(call)
                if attr == "add_argument" or attr.startswith("DEFINE_"):
                    self.cli_flag(node, attr, scope)
                for k in node.keywords:
                    if k.arg and ("pu" in k.arg or "PU" in k.arg):
                        self.evidence_name(k.arg, node.lineno)
            elif t is ast.Attribute:
                name = node.attr  # type: ignore[attr-defined]
                attrs.add(name)
                if "pu" in name or "PU" in name:
                    self.evidence_name(name, node.lineno)  # type: ignore[attr-defined]
            elif t is ast.Subscript:
                assert isinstance(node, ast.Subscript)
                f.subscripts.append(Subscript(node, scope, in_lambda))
            elif t is ast.Lambda:
                assert isinstance(node, ast.Lambda)
                inner = self.new_scope("lambda", "<lambda>", node, scope)
                inner.params = _param_names(node.args)
                for p in inner.params:
                    inner.assign(p, None)
                extend(node.args.defaults)
                extend(node.args.kw_defaults)
                self.expr(node.body, inner, loops, in_lambda=True)
                continue
            elif t is ast.NamedExpr:
                assert isinstance(node, ast.NamedExpr)
                scope.assign(node.target.id, node.value)
            elif t in _COMPREHENSIONS:
                for gen in node.generators:  # type: ignore[attr-defined]
                    for n in ast.walk(gen.target):
                        if isinstance(n, ast.Name):
                            scope.assign(n.id, None)
            fields = fields_of.get(t)
            if fields is None:
                fields = _fields(t)
            for name in fields:
                child = getattr(node, name, None)
                if type(child) is list:
                    extend(child)
                elif child is not None and not isinstance(child, (str, int, float, bytes)):
                    push(child)

    def cli_flag(self, node: ast.Call, attr: str, scope: Scope) -> None:
        """`parser.add_argument("--batch-size", type=int, default=100)` or
        `flags.DEFINE_integer("batch_size", 100, "…")`: remember the default under its dest."""
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        names = [
            a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
        default: ast.expr | None = kw.get("default")
        if attr == "add_argument":
            longs = [n for n in names if n.startswith("--")]
            dest_node = kw.get("dest")
            if isinstance(dest_node, ast.Constant) and isinstance(dest_node.value, str):
                dest = dest_node.value
            elif longs:
                dest = longs[0][2:].replace("-", "_")
            elif names and not names[0].startswith("-"):
                dest = names[0]
            else:
                return
        else:
            name_node = node.args[0] if node.args else kw.get("name")
            if not (isinstance(name_node, ast.Constant) and isinstance(name_node.value, str)):
                return
            dest = name_node.value
            if default is None and len(node.args) > 1:
                default = node.args[1]
        if default is not None and dest.isidentifier():
            self.facts.module.cli_defaults.setdefault(dest, []).append((default, scope))

    def constant(self, v: str, line: int) -> None:
        if ("pu" in v or "PU" in v) and mentions_tpu(v) and not any(c.isspace() for c in v):
            self.facts.tpu_evidence.append((line, repr(v)))  # "tpu", "--tpu", "TPU:0"
        if v[:3] in ("v2-", "v3-") and v[3:].isdigit() and len(v) <= 8:
            self.facts.accelerator_cores.add(int(v[3:]))


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


# Fields that hold sub-expressions, per node type: `ctx` (Load/Store) and operators are AST
# nodes too, but carry nothing a rule reads, and skipping them halves the nodes visited.
_SKIP_FIELDS = frozenset({"ctx", "op", "ops"})
_FIELDS_CACHE: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    fields = _FIELDS_CACHE.get(cls)
    if fields is None:
        fields = tuple(f for f in getattr(cls, "_fields", ()) if f not in _SKIP_FIELDS)
        _FIELDS_CACHE[cls] = fields
    return fields


def _param_names(args: ast.arguments) -> set[str]:
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    if args.vararg:
        names.add(args.vararg.arg)
    if args.kwarg:
        names.add(args.kwarg.arg)
    return names


def _position(c: Call) -> tuple[int, int]:
    return c.node.lineno, c.node.col_offset


# What a function's source must name for its body to be walked at once: what the rules look for
# in the code they read directly (frameworks, layers, dataset methods, batch, TPU, a training
# step…). Helpers that name none of it (a metric logger, a learning-rate schedule) are walked
# only if an analysis reaches them: a jit-compiled or TPU function that calls them. A false hit
# costs only time.
_RELEVANT = re.compile(
    "|".join(
        re.escape(w)
        for w in """tf. tensorflow keras jax jnp flax torch xm. xla XLA tpu TPU batch BATCH Batch
        Dense Conv Linear Sequential BatchNorm .compile( py_function numpy_function py_func
        strings .map( prefetch backward optimizer_step .step( zero_grad DataLoader Lambda .to(
        .parameters(
        reduction Reduction TFRecord list_files dataset Dataset PER_ per_ replica jit pmap
        strategy experimental_run""".split()
    )
)


def collect(tree: ast.Module, text: str | None = None) -> Facts:
    """The facts of a module. With its `text`, function bodies that name nothing a rule looks
    for are left for `Facts.expand` (walked only if an analysis reaches them)."""
    c = _Collector(tree, text.splitlines() if text is not None else None)
    c.block(tree.body, c.facts.module, ())
    c.facts.calls.sort(key=_position)
    return c.facts
