"""Jupyter notebooks (`.ipynb`, the form Colab and Kaggle keep TPU code in) as one Python source.

The code cells are joined in order, one line of the source for each line of a cell, so a finding
on a line of the joined source is a line of a cell (`Notebook.place`). What is not Python is
replaced, never dropped, so the numbering holds: a line IPython runs itself (`!pip install`,
`%env`, `files = !ls`, `model?`) becomes `pass` at its indentation, and a cell whose first line is
a cell magic that runs another language or writes a file (`%%bash`, `%%writefile`) becomes blank
lines. A cell magic that runs the cell as Python and only times or captures it (`%%time`,
`%%capture`) blanks its own line only. Findings name the cell as ruff does:
`train.ipynb:cell 3:2:5`, cells counted among the code cells. A notebook whose kernel is another
language (R, Julia) has no Python to read: no cells are taken from it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..text.normalize import strip_ansi

# Cell magics whose body is still Python (the magic line alone is blanked)
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})

# A line IPython runs itself: `!cmd`, `%magic`, `x = !cmd`, `x = %magic`, and help: `?obj`, `obj?`
_IPYTHON_LINE = re.compile(r"^\s*(?:[!%]|[\w.]+\s*=\s*[!%])")
_HELP_LINE = re.compile(r"^\s*\?|\?\s*$")


class NotANotebook(ValueError):
    """The file is not a notebook this reader understands (not JSON, or no list of cells)."""


@dataclass(frozen=True)
class Notebook:
    source: str  # the code cells joined, line for line
    cells: tuple[tuple[int, int], ...]  # per line of `source`: (code cell, 1-based; its line)

    def place(self, line: int) -> tuple[int, int]:
        """The (code cell, line in that cell) of a 1-based line of `source`."""
        if not self.cells:
            return 1, line
        return self.cells[min(max(line, 1), len(self.cells)) - 1]


def read(data: bytes | str) -> Notebook:
    """The notebook's code cells as one source. Raises NotANotebook."""
    lines: list[str] = []
    places: list[tuple[int, int]] = []
    for number, text in enumerate(_code_cells(data), start=1):
        for n, line in enumerate(_python_lines(text), start=1):
            lines.append(line)
            places.append((number, n))
    return Notebook("\n".join(lines) + "\n", tuple(places)) if places else Notebook("", ())


def code_text(data: bytes | str) -> str:
    """The notebook's code cells as the person wrote them, one after another (IPython's own lines
    kept: `python_source` sets them aside where the code is checked, line for line); "" for a
    notebook in another language or without code. Raises NotANotebook."""
    return "\n".join(text.rstrip("\n") for text in _code_cells(data))


def error_text(data: bytes | str) -> str:
    """The errors a notebook saved in its outputs, as the person saw them: each error output's
    traceback (Jupyter keeps it with the terminal's colours, taken out here), or its `ename:
    evalue` where it kept no traceback, one after another; "" when no cell failed. What a person
    who downloads a failed Colab notebook wants answered. Raises NotANotebook."""
    parts: list[str] = []
    for cell in _document(data)[1]:
        outputs = cell.get("outputs") if cell.get("cell_type") == "code" else None
        for out in outputs if isinstance(outputs, list) else []:
            if not isinstance(out, dict) or out.get("output_type") != "error":
                continue
            trace = out.get("traceback")
            lines = [x for x in trace if isinstance(x, str)] if isinstance(trace, list) else []
            if not lines:
                lines = [f"{out.get('ename', 'Error')}: {out.get('evalue', '')}"]
            parts.append(strip_ansi("\n".join(lines)).strip("\n"))
    return "\n\n".join(parts)


def _document(data: bytes | str) -> tuple[dict[str, object], list[dict[str, object]]]:
    """The notebook as JSON and its cells (the dicts among them). Raises NotANotebook."""
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise NotANotebook(f"not a notebook: the file is not JSON ({exc})") from None
    cells = doc.get("cells") if isinstance(doc, dict) else None
    if not isinstance(cells, list):
        raise NotANotebook("not a notebook: no list of cells")
    return doc, [cell for cell in cells if isinstance(cell, dict)]


def _code_cells(data: bytes | str) -> list[str]:
    """The texts of the code cells of a Python notebook ([] for another kernel's language)."""
    doc, cells = _document(data)
    if _language(doc) not in ("", "python"):
        return []
    return [_text(cell.get("source")) for cell in cells if cell.get("cell_type") == "code"]


def _language(doc: dict[str, object]) -> str:
    """The kernel's language as the notebook records it (`kernelspec.language`, else
    `language_info.name`; "" when it says neither: Colab often writes only a kernel name)."""
    meta = doc.get("metadata")
    if not isinstance(meta, dict):
        return ""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        part = meta.get(key)
        name = part.get(field) if isinstance(part, dict) else None
        if isinstance(name, str) and name:
            return name.lower()
    return ""


def python_source(text: str, help_lines: bool = True) -> str:
    """One cell's text (or code pasted from one) with IPython's own lines set aside as in `read`:
    the same lines, each where it was. `help_lines=False` keeps lines that end in `?`: in a paste
    that may be a question with code below it, that line is the person's, not IPython's help."""
    return "\n".join(_python_lines(text, help_lines)) + "\n"


def _text(source: object) -> str:
    """A cell's source as nbformat stores it: one string, or a list of lines with their ends."""
    if isinstance(source, str):
        return source
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return ""


def _python_lines(text: str, help_lines: bool = True) -> list[str]:
    lines = text.split("\n")
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the end of the last line, not a line of its own (nbformat keeps the "\n")
    first = lines[0].strip()
    if first.startswith("%%"):
        magic = first[2:].split(maxsplit=1)[0] if first[2:].strip() else ""
        if magic not in PYTHON_CELL_MAGICS:
            return ["" for _ in lines]  # %%bash, %%writefile …: not Python
        lines[0] = ""
    return [
        _pass(line)
        if _IPYTHON_LINE.match(line) or (help_lines and _HELP_LINE.search(line))
        else line
        for line in lines
    ]


def _pass(line: str) -> str:
    """A line IPython runs as `pass` at its indentation: a block that held only `!pip install`
    stays valid Python."""
    return line[: len(line) - len(line.lstrip())] + "pass"
