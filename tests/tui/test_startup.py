"""Issue 12: the TUI is usable quickly because what the first frame does not need is not imported
before it. The knowledge and walk modules (pydantic, YAML), the engine and its model (NumPy,
onnxruntime, FAISS), Textual's Markdown widget (markdown-it) and the `check` package load later:
in the engine's load worker, or where an answer, a help screen or a pasted script needs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Top-level packages and project modules that must not be in sys.modules once the app is built.
NOT_AT_START = (
    "pydantic",
    "pydantic_core",
    "yaml",
    "markdown_it",
    "numpy",
    "onnxruntime",
    "tokenizers",
    "faiss",
    "torch",
    "assistant.kb",
    "assistant.walk",
    "assistant.check",
    "assistant.engine",
    "assistant.export",
)

PROBE = """
import json, sys
from assistant.tui.app import make_app
app = make_app()
print(json.dumps(sorted(sys.modules)))
"""


def test_building_the_app_imports_nothing_the_first_frame_does_not_need():
    r = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert r.returncode == 0, r.stderr[-2000:]
    modules = set(json.loads(r.stdout))
    assert "textual.app" in modules and "assistant.tui.screens.main" in modules
    loaded = sorted(
        m for m in modules for name in NOT_AT_START if m == name or m.startswith(name + ".")
    )
    assert loaded == [], f"imported before the first frame: {loaded}"
