"""Findings as ruff prints them (`path:line:col: CODE message [entry]` and a summary line),
as JSON, as GitHub Actions annotations, and read back from that text (a pasted `tpu-assist
check` output)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from ..strings import t
from .model import Finding

LINE = re.compile(
    r"^(?P<path>.+?)(?::cell (?P<cell>[0-9]+))?:(?P<line>[0-9]+):(?P<col>[0-9]+): "
    r"(?P<code>TPU[0-9]{3}) (?P<message>.*?)(?: \[(?P<entry>[a-z0-9][a-z0-9-]*)\])?\s*$"
)


def text_line(f: Finding, lang: str = "en") -> str:
    entry = f" [{f.entry}]" if f.entry else ""
    return f"{f.where}: {f.code} {f.message(lang)}{entry}"


def _escape_data(text: str) -> str:
    """A GitHub Actions workflow command's message, escaped as the runner reads it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(f: Finding, lang: str = "en") -> str:
    """The finding as a GitHub Actions annotation (`::warning file=…,line=…,col=…,title=…::…`),
    as ruff's `--output-format github` writes them: shown on the line of the pull request's diff.
    A file that cannot be parsed or read (TPU0xx) is an error, a finding a warning. A notebook's
    line numbers count within its cells, not the `.ipynb` file's JSON: the annotation names the
    file alone and the message says where."""
    level = "error" if f.code.startswith("TPU0") else "warning"
    props = [f"file={_escape_property(f.path)}"]
    if f.cell is None:
        props += [f"line={f.line}", f"col={f.col}"]
    entry = f" [{f.entry}]" if f.entry else ""
    props.append(f"title={_escape_property(f'tpu-assist {f.code}{entry}')}")
    where = f"cell {f.cell}, line {f.line}, col {f.col}: " if f.cell is not None else ""
    return f"::{level} {','.join(props)}::{_escape_data(where + f.message(lang))}"


def summary(findings: list[Finding], files: int, lang: str = "en") -> str:
    if findings:
        return t(lang, "check.summary.found", n=len(findings), files=files)
    return t(lang, "check.summary.clean", files=files)


def as_json(findings: Iterable[Finding], lang: str = "en") -> str:
    return json.dumps([f.to_dict(lang) for f in findings], ensure_ascii=False)


def parse_output(text: str) -> list[Finding]:
    """Findings from `tpu-assist check` output, text or `--json` (values and answers come
    back only from JSON; a text line carries where, which rule and which entry)."""
    s = text.strip()
    if s.startswith("["):
        try:
            data = json.loads(s)
        except ValueError:
            data = None
        if isinstance(data, list):
            return [f for f in (_from_dict(d) for d in data) if f is not None]
    out: list[Finding] = []
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if m:
            out.append(
                Finding(
                    m["path"],
                    int(m["line"]),
                    int(m["col"]),
                    m["code"],
                    m["entry"],
                    args={"_text": m["message"]},
                    cell=int(m["cell"]) if m["cell"] else None,
                )
            )
    return out


_AROUND = re.compile(
    r"^(Found [0-9]+ problem|All checks passed|[0-9]+ problema|Todas as verifica|"
    r"tpu-assist walk |\$ tpu-assist check|tpu-assist check )"
)


def looks_like_output(text: str) -> bool:
    """Whether `text` is `tpu-assist check` output: finding lines, with nothing else but its
    summary lines, `--walk` hints and the command that printed it."""
    s = text.strip()
    if not s:
        return False
    if s.startswith("[") and parse_output(s):
        return True
    head = s[:4096].split("\n", 1)[0].strip()
    if not (LINE.match(head) or _AROUND.match(head)):
        return False  # the usual case, decided on the first line
    hits = 0
    for line in s.splitlines():
        line = line.strip()
        if not line:
            continue
        if LINE.match(line):
            hits += 1
        elif not _AROUND.match(line):
            return False
    return hits > 0


def _from_dict(d: Any) -> Finding | None:
    if not isinstance(d, dict):
        return None
    try:
        f = Finding(
            str(d["path"]),
            int(d["line"]),
            int(d["col"]),
            str(d["code"]),
            str(d["entry"]) if d.get("entry") else None,
            args={"_text": str(d.get("message", ""))},
            values={str(k): str(v) for k, v in (d.get("values") or {}).items()},
            answers={str(k): str(v) for k, v in (d.get("answers") or {}).items()},
            cell=int(d["cell"]) if d.get("cell") is not None else None,
        )
    except (KeyError, TypeError, ValueError):
        return None
    return f if re.fullmatch(r"TPU[0-9]{3}", f.code) else None
