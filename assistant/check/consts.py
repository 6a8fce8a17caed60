"""Constants followed through simple assignments: `BATCH = 100 … .batch(BATCH)`,
`GLOBAL = PER_CORE * 8`. A name assigned more than once to different values, a parameter, or
anything computed at run time has no value here: the rules stay silent rather than guess."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable

from .facts import Scope, Value

_MAX_DEPTH = 24
_MAX_MAGNITUDE = 10**12

_BINOPS: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}


def lookup(name: str, scope: Scope) -> tuple[Scope, list[ast.expr | None]] | None:
    """The nearest scope that assigns `name`, with its assignments (class bodies are not
    visible from their methods, as in Python)."""
    for i, s in enumerate(scope.chain()):
        if s.kind == "class" and i > 0:
            continue
        if name in s.assigns:
            return s, s.assigns[name]
    return None


def value(expr: ast.expr | None, scope: Scope, depth: int = 0) -> Value | None:
    """The value of `expr` if the script fixes it, else None."""
    if expr is None or depth > _MAX_DEPTH:
        return None
    if isinstance(expr, ast.Constant):
        v = expr.value
        return v if isinstance(v, (bool, int, float, str)) else None
    if isinstance(expr, ast.Name):
        found = lookup(expr.id, scope)
        if found is None:
            return None
        where, assigned = found
        values = {value(e, where, depth + 1) for e in assigned}
        if len(values) != 1:
            return None
        (only,) = values
        return only
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return _flag_default(expr, scope, depth)
    if isinstance(expr, ast.UnaryOp):
        v = value(expr.operand, scope, depth + 1)
        if isinstance(expr.op, ast.Not):
            return None if v is None else not v
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if isinstance(expr.op, ast.USub):
                return -v
            if isinstance(expr.op, ast.UAdd):
                return v
        return None
    if isinstance(expr, ast.BinOp):
        fn = _BINOPS.get(type(expr.op))
        if fn is None:
            return None
        a = value(expr.left, scope, depth + 1)
        b = value(expr.right, scope, depth + 1)
        if not _number(a) or not _number(b):
            return None
        assert isinstance(a, (int, float))
        assert isinstance(b, (int, float))
        if isinstance(expr.op, ast.Pow) and (abs(b) > 64 or abs(a) > _MAX_MAGNITUDE):
            return None
        try:
            out = fn(a, b)
        except (ArithmeticError, ValueError):
            return None
        if not isinstance(out, (int, float)) or abs(out) > _MAX_MAGNITUDE:
            return None
        return out
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "int"
        and len(expr.args) == 1
        and not expr.keywords
    ):
        v = value(expr.args[0], scope, depth + 1)
        if _number(v):
            assert isinstance(v, (int, float))
            return int(v)
    return None


# Names that hold parsed command-line flags when they are a function's parameter (`def main(args)`)
_FLAG_HOLDERS = frozenset({"args", "flags", "FLAGS", "opts", "opt", "options", "hparams"})


def _flag_default(expr: ast.Attribute, scope: Scope, depth: int) -> Value | None:
    """`args.batch_size` / `FLAGS.batch_size`: the flag's default, when `args` holds what
    `parse_args()` returned (or is absl's `FLAGS`, or a parameter named like it)."""
    assert isinstance(expr.value, ast.Name)
    holder = expr.value.id
    module = list(scope.chain())[-1]
    defaults = module.cli_defaults.get(expr.attr)
    if not defaults or expr.attr in module.assigned_attrs:
        return None  # no such flag, or the script sets it itself (`args.batch_size = …`)
    found = lookup(holder, scope)
    if found is None:
        parsed = holder == "FLAGS"
    else:
        where, assigned = found
        parsed = any(_is_parse_result(e) for e in assigned) or (
            holder in where.params and holder in _FLAG_HOLDERS
        )
    if not parsed:
        return None
    values = {value(e, s, depth + 1) for e, s in defaults}
    if len(values) != 1:
        return None
    (only,) = values
    return only


def _is_parse_result(e: ast.expr | None) -> bool:
    if isinstance(e, ast.Subscript):  # parser.parse_known_args()[0]
        e = e.value
    if isinstance(e, ast.Attribute) and e.attr == "FLAGS":  # absl: FLAGS = flags.FLAGS
        return True
    return (
        isinstance(e, ast.Call)
        and isinstance(e.func, ast.Attribute)
        and e.func.attr in ("parse_args", "parse_known_args", "parse_intermixed_args")
    )


def _number(v: Value | None) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def integer(expr: ast.expr | None, scope: Scope) -> int | None:
    """The value of `expr` when it is a whole number (`100`, `800 // 8`, `12.0 * 8`)."""
    v = value(expr, scope)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    if isinstance(v, float):
        return int(v) if v.is_integer() else None
    return v


def truth(expr: ast.expr | None, scope: Scope) -> bool | None:
    """True/False when the script fixes a boolean (`True`, `DROP = True … drop_remainder=DROP`)."""
    v = value(expr, scope)
    return v if isinstance(v, bool) else None
