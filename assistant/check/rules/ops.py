"""TPU5xx — ops the TPU does not have (entry `op-unavailable`): Python callbacks and string
processing have no TPU kernel; inside code the TPU runs they fail to compile ("No registered
'OpName' OpKernel for XLA_TPU_JIT") and belong in the `tf.data` input pipeline on the host."""

from __future__ import annotations

from collections.abc import Iterator

from ..model import Finding, Rule
from .base import Context

RULES = [
    Rule("TPU501", "op-unavailable", "python-function-on-tpu", tpu_only=True),
    Rule("TPU502", "op-unavailable", "string-op-on-tpu", tpu_only=True),
]

_PY = {"py_function": "EagerPyFunc", "numpy_function": "PyFunc", "py_func": "PyFunc"}
# tf.strings.* / tf.io.* functions and the op they create (only where it is unambiguous)
_STRING_OPS = {
    "as_string": "AsString",
    "to_number": "StringToNumber",
    "split": "StringSplitV2",
    "join": "StringJoin",
    "lower": "StringLower",
    "upper": "StringUpper",
    "length": "StringLength",
    "substr": "Substr",
    "format": "StringFormat",
    "strip": "StringStrip",
    "reduce_join": "ReduceJoin",
    "to_hash_bucket_fast": "StringToHashBucketFast",
    "regex_full_match": "RegexFullMatch",
    "decode_csv": "DecodeCSV",
    "decode_jpeg": "DecodeJpeg",
    "decode_png": "DecodePng",
    "decode_raw": "DecodeRaw",
    "read_file": "ReadFile",
}
_IO_STRING = frozenset(
    "decode_csv decode_jpeg decode_png decode_image decode_raw decode_json_example read_file "
    "parse_example parse_single_example parse_tensor".split()
)


def check(ctx: Context) -> Iterator[Finding]:
    an = ctx.an
    run = an.tpu_run_scopes
    if not run:
        return
    for c in ctx.facts.calls:
        d = c.dotted or ""
        if not d.startswith("tensorflow.") or not an.inside(c.scope, run):
            continue
        line, col = c.position()
        if c.attr in _PY:
            yield ctx.finding(
                "TPU501",
                line,
                col,
                args={"fn": f"tf.{c.attr}"},
                values={"op_name": _PY[c.attr]},
                answers={"framework": "tensorflow", "kind": "python-or-text"},
            )
            continue
        string_op = (
            d.startswith("tensorflow.strings.")
            or d == "tensorflow.as_string"
            or (d.startswith("tensorflow.io.") and c.attr in _IO_STRING)
        )
        if string_op:
            op = _STRING_OPS.get(c.attr)
            yield ctx.finding(
                "TPU502",
                line,
                col,
                args={"fn": d.replace("tensorflow.", "tf.", 1)},
                values={"op_name": op},
                answers={"framework": "tensorflow", "kind": "python-or-text"},
            )
