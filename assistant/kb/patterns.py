"""RE2 compilation of the knowledge base's patterns (signatures and excludes).

Shared by the linter (E030: a pattern RE2 cannot compile) and the signature channel
(`retrieval/signatures.py`), so both judge a pattern the same way. RE2 (google-re2) is a
linear-time engine: no pattern from a knowledge file and no pasted input can make matching
backtrack catastrophically. It is imported on first use.
"""

from __future__ import annotations

import re
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


# -- a prefilter: literal text every match must contain ----------------------------------------

_FLAGS_PREFIX = re.compile(r"^\(\?[imsU]+\)")  # RE2's leading inline flags (not (?x), see below)
_QUANTIFIERS = frozenset("?*+{")
_BREAKS = frozenset(".^$")
MIN_LITERAL = 3  # shorter runs are in almost every text: not worth a test


def required_literals(kind: str, pattern: str) -> tuple[str, ...]:
    """Case-folded strings that every text a pattern matches contains, read conservatively:
    runs of plain characters at the top level of a regex with no top-level alternation (what is
    inside groups and classes, and a character a quantifier makes optional, is left out). An
    empty tuple means "no prefilter", never "cannot match"; a text that lacks one of them cannot
    match, whatever the case (folding both sides keeps a substring a substring)."""
    if kind == "literal":
        return (pattern.casefold(),) if len(pattern) >= MIN_LITERAL else ()
    src = _FLAGS_PREFIX.sub("", pattern, count=1)
    if "(?x" in src or "\\Q" in src:  # verbose mode or quoting: spaces or escapes mean otherwise
        return ()
    runs: list[str] = []
    run: list[str] = []
    depth, i, n = 0, 0, len(src)

    def end(drop_last: bool = False) -> None:
        if drop_last and run:
            run.pop()
        if len(run) >= MIN_LITERAL:
            runs.append("".join(run))
        run.clear()

    while i < n:
        c = src[i]
        if c == "\\":
            nxt = src[i + 1 : i + 2]
            if depth == 0 and nxt and not nxt.isalnum() and nxt != "\n":
                run.append(nxt)  # an escaped punctuation character is itself
            else:
                end()  # \s \d \w \b \x41 …: a class or an assertion
            i += 2
            continue
        if c == "[":  # a class: skip to its end (a leading ] or ^] is part of the class)
            end()
            j = i + 1
            if src[j : j + 1] == "^":
                j += 1
            if src[j : j + 1] == "]":
                j += 1
            while j < n and src[j] != "]":
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if c == "(":
            end()
            depth += 1
        elif c == ")":
            end()
            depth = max(0, depth - 1)
        elif c == "|":
            if depth == 0:
                return ()  # top-level alternation: no string is required
            end()
        elif depth > 0:
            pass
        elif c in _QUANTIFIERS:
            end(drop_last=True)
            if c == "{":  # a counted repetition: skip its bounds
                close = src.find("}", i)
                i = n if close < 0 else close
        elif c in _BREAKS:
            end()
        else:
            run.append(c)
        i += 1
    end()
    return tuple(r.casefold() for r in runs)
