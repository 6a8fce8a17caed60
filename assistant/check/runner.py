"""Check sources and paths: parse (never import or run), collect facts once, run every rule,
drop what `# noqa` or the selection silences. A file that does not parse or cannot be read is a
finding (TPU001, TPU002), never an exception."""

from __future__ import annotations

import ast
import gc
import io
import os
import tokenize
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import noqa
from . import notebook as nb
from .facts import collect
from .model import Finding, Rule
from .rules import ALL, CHECKS, REDIRECTS, Context
from .selection import Selection

RULES: dict[str, Rule] = ALL
# Directories never searched when a directory is given (a file named explicitly is checked).
EXCLUDED_DIRS = frozenset(
    ".git .hg .svn .venv venv .tox .nox .mypy_cache .ruff_cache .pytest_cache __pycache__ "
    "__pypackages__ node_modules site-packages build dist .eggs .ipynb_checkpoints".split()
)


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0  # files checked

    def extend(self, other: Report) -> None:
        self.findings.extend(other.findings)
        self.files += other.files


def decode(data: bytes) -> str:
    """Source bytes as text, honouring a coding cookie; undecodable bytes become U+FFFD."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except (SyntaxError, LookupError):
        encoding = "utf-8"
    try:
        return data.decode(encoding, errors="replace")
    except LookupError:
        return data.decode("utf-8", errors="replace")


def check_source(
    source: str | bytes, path: str = "-", selection: Selection | None = None
) -> list[Finding]:
    """Findings for one module's source, sorted by position."""
    text = decode(source) if isinstance(source, bytes) else source
    selection = selection or Selection()
    # The cyclic garbage collector is paused for the whole file: a syntax tree holds no cycles,
    # and the collector, set off again and again by its thousands of new nodes, would only
    # cost time. The few cycles the facts make (scopes and their parents) are broken by hand
    # at the end, so everything is freed by reference counting as soon as the file is done.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _check(source, text, path, selection)
    finally:
        if collecting:
            gc.enable()


def _check(source: str | bytes, text: str, path: str, selection: Selection) -> list[Finding]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes: not ours to report
            tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        return [_syntax_finding(path, exc)]
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        error = f"{type(exc).__name__}: {exc}"
        return [Finding(path, 1, 1, "TPU001", None, args={"error": error})]
    facts = collect(tree, text)
    try:
        ctx = Context(facts, RULES)
        directives = noqa.directives(text, REDIRECTS)
        found: dict[tuple[int, int, str], Finding] = {}
        for rule_check in CHECKS:
            for f in rule_check(ctx):
                if not selection.allows(f.code) or noqa.silenced(directives.get(f.line), f.code):
                    continue
                f.path = path
                found.setdefault((f.line, f.col, f.code), f)
        return sorted(found.values(), key=lambda f: f.sort_key)
    finally:
        facts.release()


def _syntax_finding(path: str, exc: SyntaxError) -> Finding:
    line = exc.lineno or 1
    col = exc.offset or 1
    msg = exc.msg or "invalid syntax"
    return Finding(path, max(1, line), max(1, col), "TPU001", None, args={"error": msg})


CHECKED_SUFFIXES = (".py", ".ipynb")  # what a directory given is searched for


def iter_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files to check: each file given, and every script and notebook under each directory
    given (sorted, excluded directories skipped, symlinked directories not followed)."""
    for p in paths:
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(
                    d for d in dirs if d not in EXCLUDED_DIRS and not d.startswith(".")
                )
                for name in sorted(files):
                    path = Path(root, name)
                    if name.endswith(CHECKED_SUFFIXES) and path.is_file():  # not a pipe
                        yield path
        else:
            yield p


def check_file(path: Path, selection: Selection | None = None, shown: str | None = None) -> Report:
    name = shown if shown is not None else str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        err = exc.strerror or type(exc).__name__
        return Report([Finding(name, 1, 1, "TPU002", None, args={"error": err})], 1)
    if path.suffix == ".ipynb":
        return Report(check_notebook(data, name, selection), 1)
    return Report(check_source(data, name, selection), 1)


def check_snippet(
    source: str | bytes, path: str = "-", selection: Selection | None = None
) -> list[Finding]:
    """Findings for code piped or pasted rather than saved as a script: often a notebook cell,
    so IPython's own lines (`!pip install …`, `%env …`) are read as in a notebook
    (`notebook.python_source`), not as a syntax error on line 1."""
    text = decode(source) if isinstance(source, bytes) else source
    return check_source(nb.python_source(text), path, selection)


def check_notebook(data: bytes, path: str, selection: Selection | None = None) -> list[Finding]:
    """Findings for a notebook's code cells, each placed in its cell (`notebook.read`). One that
    cannot be read as a notebook is TPU002."""
    try:
        book = nb.read(data)
    except nb.NotANotebook as exc:
        return [Finding(path, 1, 1, "TPU002", None, args={"error": str(exc)})]
    findings = check_source(book.source, path, selection)
    for f in findings:
        f.cell, f.line = book.place(f.line)
    return sorted(findings, key=lambda f: f.sort_key)


PARALLEL_FROM = 64  # files: below this, worker processes cost more than they save


def check_paths(
    paths: Iterable[Path], selection: Selection | None = None, jobs: int | None = None
) -> Report:
    """Check every file under `paths`. Many files are shared out to `jobs` worker processes
    (default: one per CPU); the report lists findings in file order either way."""
    files = list(iter_files(paths))
    if jobs is None:
        jobs = min(os.cpu_count() or 1, 8) if len(files) >= PARALLEL_FROM else 1
    if jobs > 1 and len(files) > 1:
        report = _parallel(files, selection, jobs)
        if report is not None:
            return report
    report = Report()
    for p in files:
        report.extend(check_file(p, selection))
    return report


def _check_chunk(files: list[Path], selection: Selection | None) -> Report:
    report = Report()
    for p in files:
        report.extend(check_file(p, selection))
    return report


def _parallel(files: list[Path], selection: Selection | None, jobs: int) -> Report | None:
    """None when worker processes cannot be started here (the caller then checks in-process)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(8, len(files) // (jobs * 4))
    chunks = [files[i : i + size] for i in range(0, len(files), size)]
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            parts = list(pool.map(_check_chunk, chunks, [selection] * len(chunks)))
    except (OSError, RuntimeError, ImportError):
        return None
    report = Report()
    for part in parts:
        report.extend(part)
    return report
