"""`tpu-assist check` on Jupyter notebooks: the code cells checked as one script, IPython's own
lines set aside, each finding placed in its cell as ruff places them (`nb.ipynb:cell 2:3:5`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.check import notebook
from assistant.check.report import parse_output, text_line
from assistant.check.runner import check_notebook, check_paths, check_snippet, check_source
from notebooks import cell, failed_notebook, notebook_bytes

from .test_cli_check import run

# A Colab notebook as people write them: shell and line magics, a %%bash cell, markdown between
COLAB = notebook_bytes(
    cell("!pip install -q torch_xla[tpu]\n%env PJRT_DEVICE=TPU\n"),
    cell("# Training on the TPU\nSome words about the run.", kind="markdown"),
    cell(
        "import torch\n"
        "import torch_xla.core.xla_model as xm\n"
        "from torch.utils.data import DataLoader\n"
        "loader = DataLoader(dataset, batch_size=64)\n"
    ),
    cell("%%bash\nnvidia-smi || echo no gpu\nls /dev/accel*\n"),
    cell(
        "%%time\n"
        "device = xm.xla_device()\n"
        "for x, y in loader:\n"
        "    if x is None:\n"
        "        !echo empty batch\n"
        "    loss = model(x.to(device)).sum()\n"
        "    loss.backward()\n"
        "    print(loss.item())\n"
        "    xm.mark_step()\n"
    ),
)


def test_findings_are_placed_in_their_code_cell_and_line():
    found = check_notebook(COLAB, "train.ipynb")
    where = {(f.code, f.cell, f.line) for f in found}
    # cells counted among the code cells (the markdown one is not): the DataLoader is in cell 2,
    # the loop in cell 4 (after the %%bash cell), its `.item()` on the cell's 8th line
    assert ("TPU108", 2, 4) in where
    assert ("TPU604", 4, 3) in where
    assert ("TPU403", 4, 8) in where
    assert not any(f.code == "TPU001" for f in found)  # IPython's lines are not Python errors
    assert text_line(next(f for f in found if f.code == "TPU403")).startswith(
        "train.ipynb:cell 4:8:"
    )


def test_ipython_lines_become_pass_and_foreign_cell_magics_blank():
    book = notebook.read(COLAB)
    lines = book.source.split("\n")
    assert lines[0] == "pass" and lines[1] == "pass"  # !pip, %env
    bash = [n for n, (c, _) in enumerate(book.cells) if c == 3]
    assert all(lines[n] == "" for n in bash)  # %%bash: not Python
    assert "        pass" in lines  # the indented shell line keeps its block valid
    assert book.place(len(lines) - 1) == (4, 9)  # the last line: xm.mark_step()


def test_a_syntax_error_is_reported_in_its_cell():
    found = check_notebook(
        notebook_bytes(cell("import jax\n"), cell("x = 1\ndef f(:\n")), "b.ipynb"
    )
    assert [(f.code, f.cell, f.line) for f in found] == [("TPU001", 2, 2)]


def test_noqa_works_in_a_cell():
    book = notebook_bytes(
        cell(
            "import torch_xla.core.xla_model as xm\n"
            "from torch.utils.data import DataLoader\n"
            "loader = DataLoader(ds, batch_size=64)  # noqa: TPU108\n"
            "for x in loader:\n"
            "    model(x.to(xm.xla_device())).sum().backward()\n"
            "    xm.mark_step()\n"
        )
    )
    codes = {f.code for f in check_notebook(book, "n.ipynb")}
    assert "TPU108" not in codes and "TPU604" in codes


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"print('a script saved as .ipynb')\n", "not JSON"),
        (b'{"worksheets": []}', "no list of cells"),
        (b"[1, 2]", "no list of cells"),
    ],
)
def test_a_file_that_is_no_notebook_is_tpu002_not_a_pass(data, says):
    (f,) = check_notebook(data, "x.ipynb")
    assert f.code == "TPU002" and says in f.message()


def test_a_directory_is_searched_for_notebooks_too(tmp_path: Path):
    (tmp_path / "train.ipynb").write_bytes(COLAB)
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "train-checkpoint.ipynb").write_bytes(COLAB)
    report = check_paths([tmp_path])
    assert report.files == 1
    assert {f.path for f in report.findings} == {str(tmp_path / "train.ipynb")}


def test_cli_text_and_json_name_the_cell_and_read_back(capsys, tmp_path: Path):
    path = tmp_path / "train.ipynb"
    path.write_bytes(COLAB)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1 and f"{path}:cell 4:8:" in out
    back = parse_output(out)
    assert {(f.code, f.cell, f.line) for f in back} >= {("TPU403", 4, 8), ("TPU108", 2, 4)}
    assert all(f.path == str(path) for f in back)
    _, js, _ = run(capsys, "check", "--json", str(path))
    data = json.loads(js)
    assert {d["cell"] for d in data} == {2, 4}
    assert {(f.code, f.cell) for f in parse_output(js)} == {(d["code"], d["cell"]) for d in data}


def test_a_notebooks_saved_errors_are_read_without_their_colours():
    text = notebook.error_text(failed_notebook())
    assert "\x1b" not in text and "Epoch 1/10" not in text  # the error, not other output
    assert text.splitlines()[-1].startswith("ResourceExhaustedError: Ran out of memory")
    assert notebook.error_text(failed_notebook(traceback=None)) == "ResourceExhaustedError: Ran out"
    assert notebook.error_text(COLAB) == ""  # no cell failed
    with pytest.raises(notebook.NotANotebook):
        notebook.error_text(b"print(1)")


def test_github_format_names_a_notebook_and_says_the_cell_in_the_message(capsys, tmp_path):
    """A cell's line is not a line of the .ipynb file's JSON: the annotation is on the file."""
    path = tmp_path / "train.ipynb"
    path.write_bytes(COLAB)
    _, out, _ = run(capsys, "check", "--format", "github", str(path))
    item = next(line for line in out.splitlines() if "TPU403" in line)
    title = "title=tpu-assist TPU403 [steps-per-execution]::"
    assert item.startswith(f"::warning file={path},{title}")
    assert "::cell 4, line 8, col " in item and ",line=" not in item


def test_code_piped_or_pasted_reads_a_cells_ipython_lines(capsys):
    """`check -` and the TUI take code pasted from a notebook cell: `!pip install` on line 1 is
    not a syntax error, and the lines keep their numbers."""
    cell_text = (
        "!pip install -q torch_xla\n"
        "import torch_xla.core.xla_model as xm\n"
        "from torch.utils.data import DataLoader\n"
        "loader = DataLoader(ds, batch_size=64)\n"
        "for x in loader:\n"
        "    model(x.to(xm.xla_device())).sum().backward()\n"
        "    xm.mark_step()\n"
    )
    code, out, _ = run(capsys, "check", "-", stdin=cell_text.encode())
    assert code == 1 and "TPU001" not in out and "-:4:" in out
    assert {f.code for f in check_snippet(cell_text)} >= {"TPU108"}
    # a script saved as .py is held to Python: the same line there does not parse
    assert [f.code for f in check_source(cell_text, "cell.py")] == ["TPU001"]


def test_a_notebook_in_another_language_has_nothing_to_check():
    doc = {
        "cells": [cell("library(keras)\nmodel <- keras_model_sequential()\n")],
        "metadata": {"kernelspec": {"name": "ir", "language": "R"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    assert check_notebook(json.dumps(doc).encode(), "r.ipynb") == []
    colab = {**doc, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}}
    assert notebook.read(json.dumps(colab)).source.startswith("library(keras)")
