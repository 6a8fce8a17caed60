"""RE2 compilation of the knowledge base's patterns (signatures and excludes).

Shared by the linter (E030: a pattern RE2 cannot compile) and the signature channel
(`retrieval/signatures.py`), so both judge a pattern the same way. RE2 (google-re2) is a
linear-time engine: no pattern from a knowledge file and no pasted input can make matching
backtrack catastrophically. It is imported on first use.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .schema import Signature

MAX_MEM = 8 << 20  # RE2's memory budget for one compiled pattern


class SignatureError(ValueError):
    """A pattern RE2 cannot compile; the message is RE2's reason."""


def re2_options(ignore_case: bool, max_mem: int = MAX_MEM) -> Any:
    """RE2 options: case sensitivity, no error logging on stderr, a bounded memory budget."""
    import re2

    opts = re2.Options()
    opts.case_sensitive = not ignore_case
    opts.log_errors = False
    opts.max_mem = max_mem
    return opts


def pattern_source(kind: str, pattern: str) -> str:
    """The RE2 source of a signature: a literal is escaped, a regex is used as written."""
    import re2

    return str(re2.escape(pattern)) if kind == "literal" else pattern


@lru_cache(maxsize=4096)
def compile_pattern(kind: str, pattern: str, ignore_case: bool) -> Any:
    """Compile one pattern (`kind` "literal" or "regex") or raise SignatureError."""
    import re2

    try:
        return re2.compile(pattern_source(kind, pattern), re2_options(ignore_case))
    except Exception as exc:  # re2.error carries bytes; make it readable
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        raise SignatureError(str(detail)) from None


def compile_signature(sig: Signature) -> Any:
    """Compile one signature or raise SignatureError with RE2's reason."""
    return compile_pattern(sig.kind, sig.pattern, sig.ignore_case)
