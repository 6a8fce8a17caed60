"""Is a pasted text Python code (to check) or `tpu-assist check` output (to open), rather than
an error, a log or a question (to search)? Used by the TUI to route a message; conservative: a
traceback, a log or a sentence is never taken for code."""

from __future__ import annotations

import ast
import re
import textwrap
import warnings

from .notebook import python_source
from .report import looks_like_output

MAX_CODE_CHARS = 2_000_000
# Above this a paste is judged by its head, not parsed whole: the TUI decides on its UI thread,
# and parsing 1.9 MB of Python took 1.8 s there (a few hundred kB, a few tenths of a second).
# The check itself parses it afterwards, in a worker.
PARSE_LIMIT = 200_000
_CODE_LINE = re.compile(r"^\s*(import\s+\w|from\s+[\w.]+\s+import\s|def\s+\w+\s*\(|class\s+\w+)")
_CODE_START = re.compile(r"^\s*(?:#|@|import\s|from\s|def\s|class\s|[\w.]+\s*(?:=|\())")
_NOT_CODE = ("Traceback (most recent call last)", "\nTraceback ")


def looks_like_code(text: str) -> bool:
    """Python a person pasted to check: it parses (or has several import/def/class lines and
    would be reported as not parsing), holds more than one statement, and imports, defines
    or builds something — a lone expression or `Error: message` line is not code."""
    s = text.strip()
    if not s or len(s) > MAX_CODE_CHARS or any(m in text for m in _NOT_CODE):
        return False
    # a notebook cell's `!pip install` does not make it prose; a line ending in "?" may
    tree = _parse(python_source(text, help_lines=False)) if len(s) <= PARSE_LIMIT else None
    if tree is None:  # code that does not parse (or is not parsed) opens with imports and defs
        head = s[:20_000].splitlines()[:200]
        return _opens_as_code(head) and sum(1 for line in head if _CODE_LINE.match(line)) >= 2
    body = tree.body
    if len(body) < 2 and not any(isinstance(b, (ast.FunctionDef, ast.ClassDef)) for b in body):
        return False
    return any(
        isinstance(b, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.With))
        for b in body
    )


def _opens_as_code(lines: list[str]) -> bool:
    """A file, not a report quoting one: its first line is code (an issue opens with a title and
    prose), and no Markdown fence sits inside it (a report fences the code it quotes; a pasted
    snippet may be wrapped in one fence, which is allowed)."""
    if lines and lines[0].lstrip().startswith("```"):
        lines = lines[1:]
    if lines and lines[-1].strip() == "```":
        lines = lines[:-1]
    first = next((line for line in lines if line.strip()), "")
    return (
        bool(_CODE_START.match(first))
        and not _title_like_import(first)
        and not any(line.lstrip().startswith("```") for line in lines)
    )


_IMPORT_START = re.compile(r"^\s*(?:import|from)\s")


def _title_like_import(line: str) -> bool:
    """An issue title that begins with the word "import" ("import torch_xla error", "from jax
    import fails on v4"): an import line is one whole statement, and this one does not parse,
    even closed by the parenthesis a `from x import (a,` continues with."""
    if not _IMPORT_START.match(line):
        return False
    text = line.strip()
    return _parse(text) is None and _parse(text + ")") is None


def kind(text: str) -> str:
    """What to do with a message: "output" (findings to open), "code" (to check) or "query"
    (to search). Costs nothing on a huge paste (a 10 MB log goes straight to the search)."""
    if len(text) > MAX_CODE_CHARS:
        return "query"
    if looks_like_output(text):
        return "output"
    if looks_like_code(text):
        return "code"
    return "query"


def _parse(text: str) -> ast.Module | None:
    indented = text.lstrip("\n")[:1] in (" ", "\t")  # pasted from inside a block
    for candidate in (text, textwrap.dedent(text)) if indented else (text,):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return ast.parse(candidate)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return None
