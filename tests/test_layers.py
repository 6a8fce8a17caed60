"""The package's architecture, checked: layers point one way, textual stays in the TUI, and the
model stack is never imported when a module is.

Layers, lowest first. A module may import from its own layer and the layers below, never above.
Every import counts — at module level, inside a function, under `if TYPE_CHECKING:` — since a
lazy import is still a dependency. Every module of `assistant/` must be placed in LAYERS (a new
module fails this test until someone decides where it belongs):

  0 base       paths (where things live), fsutil (durable file writes), named_file (a message
               that is only a file's path), strings (the catalogue
               of user-facing strings, both languages): no domain knowledge
  1 text       text/* (normalize, parse, tokens, markdown, ids), placeholders (what a value may
               hold: the parser validates the values it extracts), redact (text -> text),
               check/* (`tpu-assist check`: rules over a script's syntax tree; findings name
               entries by id only)
  2 kb         kb/* (schema, loader, linter, RE2 pattern compilation), advice (the registry of
               advisors a tree may name: the linter checks names and outputs against it),
               tpu_generations (what each TPU generation and accelerator type has: the
               advisors compute with it, the linter knows the figures it derives)
  3 retrieval  retrieval/* (chunks, signatures, lexical, dense, fusion), store (the index on disk),
               calibration (typed fusion/decision parameters, read by the channels)
  4 engine     engine, decide, evaluation (scores an engine's answers), answer (result types),
               explain (why an entry was ranked, in words)
  5 walk       walk, render (fix steps), history (saved sessions), export (a session as Markdown),
               calibrate (fitting the parameters with the engine), check/prefill (a walk
               started pre-answered from a finding's values), machine (the values the TPU VM it
               runs on gives a walk)
  6 ui         cli/*, tui/*, __main__
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "assistant"

BASE, TEXT, KB, RETRIEVAL, ENGINE, WALK, UI = range(7)
NAMES = ["base", "text", "kb", "retrieval", "engine", "walk", "ui"]

# Exact modules first, then packages (a prefix ending in ".").
LAYERS: dict[str, int] = {
    "assistant": BASE,
    "assistant.paths": BASE,
    "assistant.fsutil": BASE,
    "assistant.named_file": BASE,
    "assistant.strings": BASE,
    "assistant.errors": BASE,
    "assistant.text.": TEXT,
    "assistant.placeholders": TEXT,
    "assistant.redact": TEXT,
    "assistant.check.": TEXT,
    "assistant.kb.": KB,
    "assistant.advice": KB,
    "assistant.tpu_generations": KB,
    "assistant.retrieval.": RETRIEVAL,
    "assistant.store": RETRIEVAL,
    "assistant.calibration": RETRIEVAL,
    "assistant.engine": ENGINE,
    "assistant.decide": ENGINE,
    "assistant.evaluation": ENGINE,
    "assistant.answer": ENGINE,
    "assistant.explain": ENGINE,
    "assistant.walk": WALK,
    "assistant.machine": WALK,
    "assistant.render": WALK,
    "assistant.history": WALK,
    "assistant.export": WALK,
    "assistant.calibrate": WALK,
    "assistant.calibrate.": WALK,
    "assistant.check.prefill": WALK,
    "assistant.cli.": UI,
    "assistant.tui.": UI,
    "assistant.__main__": UI,
}

# The model stack, and the ONNX runtime that replaces it on the query path (issue 12): each is
# imported only by the function that needs it (tests/test_no_torch.py checks the query path).
HEAVY = (
    "torch",
    "sentence_transformers",
    "transformers",
    "faiss",
    "onnxruntime",
    "tokenizers",
    "onnx",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "_knowledge" not in p.parts}


def layer_of(module: str) -> int | None:
    if module in LAYERS:
        return LAYERS[module]
    best = None
    for prefix, layer in LAYERS.items():
        if (
            prefix.endswith(".")
            and module.startswith(prefix)
            and (best is None or len(prefix) > len(best[0]))
        ):
            best = (prefix, layer)
    if best is None and module + "." in LAYERS:  # a package's own __init__
        return LAYERS[module + "."]
    return best[1] if best else None


def _is_package(module: str) -> bool:
    return MODULES.get(module, Path()).name == "__init__.py"


def imports(module: str) -> list[tuple[int, str, bool]]:
    """(line, imported module, at module level) for every import in `module`.

    `from X import name` counts as importing `X.name` when that is a module of the package
    (`from .. import placeholders`), else as importing `X`.
    """
    path = MODULES[module]
    tree = ast.parse(path.read_text(), str(path))
    package = module if _is_package(module) else module.rpartition(".")[0]
    top_level = _module_level_nodes(tree)
    out: list[tuple[int, str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, node in top_level) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.append((node.lineno, sub if sub in MODULES else target, node in top_level))
    return out


def _module_level_nodes(tree: ast.Module) -> set[ast.AST]:
    """Statements run when the module is imported: the body, class bodies, `if`/`try`/`with`
    blocks — not function bodies, and not `if TYPE_CHECKING:` blocks."""
    found: set[ast.AST] = set()

    def visit(stmts: list[ast.stmt]) -> None:
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(st, ast.If) and "TYPE_CHECKING" in ast.unparse(st.test):
                visit(st.orelse)
                continue
            found.add(st)
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(st, field, None)
                if isinstance(block, list):
                    visit(
                        [s for s in block if isinstance(s, ast.stmt)]
                        if field != "handlers"
                        else [s for h in block for s in h.body]
                    )

    visit(tree.body)
    return found


def test_the_map_is_sound():
    assert len(MODULES) > 30  # the walk found the package
    assert layer_of("assistant.text.parse") == TEXT and layer_of("assistant.tui.app") == UI
    assert layer_of("assistant.kb") == KB  # a package's __init__ belongs to its package
    found = imports("assistant.text.parse")
    assert any(target == "assistant.placeholders" for _, target, _ in found)


def test_every_module_is_placed_in_a_layer():
    unplaced = [m for m in MODULES if layer_of(m) is None]
    assert not unplaced, f"place these modules in LAYERS (tests/test_layers.py): {unplaced}"


def test_no_module_imports_from_a_layer_above_it():
    violations: set[str] = set()
    for module in MODULES:
        own = layer_of(module)
        if own is None:
            continue
        for line, target, _ in imports(module):
            if not target.startswith("assistant"):
                continue
            other = layer_of(target)
            if other is not None and other > own:
                violations.add(
                    f"{MODULES[module].relative_to(ROOT)}:{line}: {module} "
                    f"({NAMES[own]}) imports {target} ({NAMES[other]})"
                )
    assert not violations, "imports pointing up a layer:\n" + "\n".join(sorted(violations))


def test_only_the_tui_imports_textual():
    offenders = [
        f"{MODULES[m].relative_to(ROOT)}:{line}"
        for m in MODULES
        if not m.startswith("assistant.tui")
        for line, target, _ in imports(m)
        if target.split(".")[0] == "textual"
    ]
    assert not offenders, f"textual imported outside assistant/tui: {offenders}"


def test_model_stack_is_never_imported_at_module_level():
    offenders = [
        f"{MODULES[m].relative_to(ROOT)}:{line}: {target}"
        for m in MODULES
        for line, target, top in imports(m)
        if top and target.split(".")[0] in HEAVY
    ]
    assert not offenders, f"import these lazily, inside the function that needs them: {offenders}"


@pytest.mark.timeout(120)
def test_importing_the_query_path_loads_no_model_stack():
    """The same, at run time: importing the CLI, the engine and the store pulls in none of it
    (an indirect import through a third-party package would escape the static check above)."""
    code = (
        "import sys, assistant.cli.main, assistant.cli.output, assistant.engine,"
        " assistant.store, assistant.walk, assistant.export, assistant.history\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
