"""The query path never imports torch (issue 12): `ask` on a described symptom (the dense channel
runs), `ask --jsonl` and the interactive assistant each answer with the index's ONNX model, and
`-X importtime` / `sys.modules` show that torch, transformers and sentence-transformers were never
imported — only onnxruntime and tokenizers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("torch", "transformers", "sentence_transformers")
SYMPTOM = "my training on the TPU got slow and the profiler shows low MXU utilization"
_IMPORT_LINE = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)\s*$")


def _imported(stderr: str) -> set[str]:
    return {m.group(1) for line in stderr.splitlines() if (m := _IMPORT_LINE.match(line))}


def _forbidden(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)


def _run(args: list[str], env: dict, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "assistant", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def test_ask_on_a_symptom_never_imports_torch(cli_env):
    r = _run(["ask", "--json", SYMPTOM], cli_env)
    assert r.returncode == 0, r.stderr[-2000:]
    answer = json.loads(r.stdout)
    assert answer["results"][0]["id"] == "low-mxu"
    assert not any("signatures alone" in n for n in answer["notes"])  # the dense channel ran
    modules = _imported(r.stderr)
    assert "onnxruntime" in modules and "tokenizers" in modules, "the dense channel did not run"
    assert _forbidden(modules) == []
    assert "note:" not in r.stderr  # no fallback


def test_ask_on_a_decisive_signature_loads_no_model_at_all(cli_env):
    """The one-shot signature path: no torch, and no onnxruntime, tokenizers or FAISS either."""
    exact = (
        "NotFoundError: No registered 'StringSplitV2' OpKernel for XLA_TPU_JIT devices "
        "compatible with node"
    )
    r = _run(["ask", "--json", exact], cli_env)
    assert r.returncode == 0, r.stderr[-2000:]
    answer = json.loads(r.stdout)
    assert answer["results"][0]["id"] == "op-unavailable"
    assert any("signatures alone" in n for n in answer["notes"])
    modules = _imported(r.stderr)
    loaded = sorted(m for m in modules if m.split(".")[0] in {*FORBIDDEN, "onnxruntime", "faiss"})
    assert loaded == [] and "tokenizers" not in modules


def test_the_cli_runs_numpy_with_one_blas_thread():
    """NumPy's OpenBLAS threads spin after import (CPU taken from the answer): the CLI asks for
    one before numpy is imported, and leaves a person's own setting alone."""
    probe = (
        "import os, sys; from assistant.cli.main import one_blas_thread; one_blas_thread(); "
        "import numpy; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    for given, want in ((None, "1"), ("2", "2")):
        e = env if given is None else {**env, "OPENBLAS_NUM_THREADS": given}
        r = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=e, cwd=ROOT
        )
        assert r.returncode == 0 and r.stdout.strip() == want, r.stderr
    late = "import numpy, os; from assistant.cli.main import one_blas_thread; one_blas_thread()"
    late += "; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    r = subprocess.run(
        [sys.executable, "-c", late], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert r.stdout.strip() == "None"  # too late to matter: numpy's threads already run


def test_ask_jsonl_never_imports_torch(cli_env):
    lines = "\n".join(
        json.dumps({"id": n, "query": q})
        for n, q in enumerate(
            [SYMPTOM, "minha TPU ficou sem memória HBM quando aumentei o batch", "ssh caiu"]
        )
    )
    r = _run(["ask", "--jsonl"], cli_env, stdin=lines + "\n")
    assert r.returncode == 0, r.stderr[-2000:]
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["id"] for o in out] == [0, 1, 2]
    modules = _imported(r.stderr)
    assert "onnxruntime" in modules and _forbidden(modules) == []


TUI_PROBE = """
import asyncio, json, sys
from assistant.tui.app import make_app

async def main():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(1200):  # the model loads in a worker; at most 60 s
            engine = app.engine
            if engine is not None and engine.embedder.loaded:
                break
            await asyncio.sleep(0.05)
        app.screen.prompt.focus()
        app.screen.prompt.insert("the profiler shows low MXU utilization")
        await pilot.press("enter")
        for _ in range(1200):
            turn = app.screen.turn
            if turn is not None and turn.answer is not None:
                break
            await asyncio.sleep(0.05)
        answer = app.screen.turn.answer
        print(json.dumps({
            "backend": app.engine.embedder.backend,
            "top": answer.results[0].id if answer.results else None,
            "modules": sorted(m for m in sys.modules if m.split(".")[0] in
                              ("torch", "transformers", "sentence_transformers", "onnxruntime")),
        }))

asyncio.run(main())
"""


@pytest.mark.timeout(300)
def test_the_interactive_assistant_never_imports_torch(cli_env, tmp_path):
    pytest.importorskip("textual")
    env = {**cli_env, "TPU_ASSIST_DATA_DIR": str(tmp_path)}
    r = subprocess.run(
        [sys.executable, "-c", TUI_PROBE],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["backend"] == "onnx" and got["top"] == "low-mxu"
    assert "onnxruntime" in got["modules"]
    assert _forbidden(set(got["modules"])) == []
