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

# Built, then run headless until the first screen is up and has taken a key — with the engine's
# load worker (which imports the engine and the knowledge on purpose) replaced by nothing.
PROBE = """
import asyncio, json, sys
from assistant.tui.app import make_app
from assistant.tui.screens.main import MainScreen
app = make_app()
built = sorted(sys.modules)
MainScreen.load_engine = lambda self: None
async def main():
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        assert app.screen.query_one("#prompt").text == "x"
asyncio.run(main())
print(json.dumps({"built": built, "drawn": sorted(sys.modules)}))
"""


def _heavy(modules: list[str]) -> list[str]:
    return sorted(
        m for m in modules for name in NOT_AT_START if m == name or m.startswith(name + ".")
    )


def test_neither_building_the_app_nor_its_first_frame_imports_what_they_do_not_need():
    r = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert r.returncode == 0, r.stderr[-2000:]
    modules = json.loads(r.stdout)
    assert {"textual.app", "assistant.tui.screens.main"} <= set(modules["built"])
    assert "assistant.tui.widgets.prompt" in modules["drawn"]
    assert _heavy(modules["built"]) == [], "imported by building the app"
    assert _heavy(modules["drawn"]) == [], "imported by the first frame"
