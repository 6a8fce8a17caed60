"""Jupyter notebooks as the tests build them: cells as nbformat stores them, a whole notebook's
bytes, and a Colab run that failed and was downloaded with its error saved in the outputs."""

from __future__ import annotations

import json


def cell(source: str, kind: str = "code") -> dict:
    lines = source.splitlines(keepends=True)  # as nbformat stores a cell: lines with their ends
    extra = {"outputs": [], "execution_count": None} if kind == "code" else {}
    return {"cell_type": kind, "metadata": {}, "source": lines, **extra}


def notebook_bytes(*cells: dict) -> bytes:
    doc = {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(doc).encode()


# A Colab run that failed, downloaded: the error saved in the cell's outputs, with its colours
FAILED_TRACEBACK = [
    "\x1b[0;31m-----------------------------------------------------------------\x1b[0m",
    "\x1b[0;31mResourceExhaustedError\x1b[0m          Traceback (most recent call last)",
    "\x1b[0;32m<ipython-input-5-abc>\x1b[0m in \x1b[0;36m<cell line: 1>\x1b[0;34m()\x1b[0m",
    "\x1b[0;31mResourceExhaustedError\x1b[0m: Ran out of memory in memory space hbm; used: "
    "9.82G; limit: 7.48G.",
]


def failed_notebook(traceback: list[str] | None = FAILED_TRACEBACK) -> bytes:
    error = {"output_type": "error", "ename": "ResourceExhaustedError", "evalue": "Ran out"}
    if traceback is not None:
        error["traceback"] = traceback
    run = cell("model.fit(ds)\n")
    run["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["Epoch 1/10\n"]}, error]
    return notebook_bytes(cell("import tensorflow as tf\n"), run)
