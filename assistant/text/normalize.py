"""Raw pasted text -> clean lines: no ANSI escapes, control characters, timestamps or log prefixes.

The original line number of every kept line is remembered, so evidence can point at the line the
person pasted. Inputs past a documented size are cut (see `MAX_CHARS`, `MAX_LINE`) and flagged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CHARS = 2_000_000  # beyond this only the head and tail are read (errors live at the end)
MAX_LINE = 2_000  # a longer line is cut; stack traces rarely need more
MAX_LINES = 20_000  # more lines than this: keep the head and the tail

# CSI (colours, cursor), OSC (titles, hyperlinks, terminated by BEL or ST), and other ESC sequences.
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[@-Z\\-_]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

# Log prefixes, tried in order at the start of a line (each may be followed by more of them).
_PREFIXES = [
    # glog / absl: I0302 11:04:12.118123 12345 file.cc:123]   or  E0000 00:00:1796 2176 re2.cc:242]
    re.compile(r"^(?P<severity>[IWEF])\d{4}\s+\d{2}:\d{2}:[\d.]+\s+\d+\s+[\w./-]+:\d+\]\s*"),
    # 2026-03-02 11:04:12.118 W tensorflow/core/framework/op_kernel.cc:1830]
    re.compile(
        r"^\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?"
        r"(?:\s*:)?\s*(?:(?P<severity>[IWEF])\s+[\w./-]+:\d+\]\s*)?"
    ),
    # Python logging: "INFO:root:", "WARNING:tensorflow:", "ERROR:absl:"
    re.compile(r"^(?P<severity>DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL):[\w.]*:\s*"),
    # [12:04:05] or 12:04:05.123 at the start
    re.compile(r"^\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s+"),
    # syslog: "Mar  2 11:04:12 host prog[123]: "
    re.compile(r"^[A-Z][a-z]{2}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\S+\s+[\w./-]+(?:\[\d+\])?:\s*"),
    # a chat message's time and author: "[10:30] ola: ", "[9:05 AM] bruno.s: " (Slack, IRC, a
    # Discord export), not a log's severity ("[10:30] ERROR: …" keeps its word)
    re.compile(
        r"^\[\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?\]\s*"
        r"(?!(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b)[\w.-]{1,30}:\s+"
    ),
    # shell prompts: "(vm)$ ", "user@host:~$ ", "$ "
    re.compile(r"^(?:\([\w-]+\)\s*)?(?:[\w.-]+@[\w.-]+:[^$#\s]*)?[$#]\s+"),
]


# The severities of a log prefix (`severity` in `_PREFIXES`) that say the process died on that line
# (glog / absl `F0727 …]`, TensorFlow's `2022-07-27 22:22:08.203925: F ./tensorflow/…:100]`,
# Python logging's `FATAL:` / `CRITICAL:`): the report's decisive line even when its words are not
# error words ("TpuEmbeddingEngine_CollateMemory not available in this library").
FATAL_SEVERITIES = frozenset({"F", "FATAL", "CRITICAL"})


@dataclass(frozen=True)
class Normalized:
    lines: list[str]  # cleaned, non-empty lines
    line_numbers: list[int]  # 1-based line numbers in the original input
    truncated: bool  # the input was longer than the documented limits
    fatal: frozenset[int] = frozenset()  # indices into `lines` of lines logged as FATAL
    logged: frozenset[int] = frozenset()  # indices into `lines` of lines that had a log prefix
    # each line's indentation in the input (spaces before it, a tab counted as one): which lines
    # of pasted code belong to a block (`text.outside.read_code`)
    indents: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def to_text(raw: str | bytes) -> str:
    """Bytes from stdin or a file -> str; invalid UTF-8 is replaced, never an exception."""
    if isinstance(raw, bytes):
        return raw.decode("utf-8", errors="replace")
    return raw


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def split_prefixes(line: str) -> tuple[str, set[str]]:
    """The line without its log prefixes, and the severities those prefixes named."""
    severities: set[str] = set()
    changed = True
    while changed and line:
        changed = False
        for rx in _PREFIXES:
            m = rx.match(line)
            if m and m.end() > 0:
                line = line[m.end() :]
                if m.groupdict().get("severity"):
                    severities.add(m.group("severity"))
                changed = True
    return line, severities


def _clean_lines(text: str, first: int = 1) -> list[tuple[int, str]]:
    """The text's lines, without escapes and control characters, numbered from `first`."""
    text = strip_ansi(text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    return list(enumerate(_CONTROL.sub("", text).split("\n"), start=first))


def _line_breaks(text: str) -> int:
    """How many line breaks `text` holds, counted as `_clean_lines` splits lines."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def normalize(raw: str | bytes) -> Normalized:
    text = to_text(raw)
    truncated = False
    if len(text) > MAX_CHARS:
        # the head and the tail, the tail's lines numbered where they are in the whole input
        cut = len(text) - MAX_CHARS * 3 // 4
        numbered = _clean_lines(text[: MAX_CHARS // 4])
        numbered += _clean_lines(text[cut:], first=_line_breaks(text[:cut]) + 1)
        truncated = True
    else:
        numbered = _clean_lines(text)
    if len(numbered) > MAX_LINES:
        numbered = numbered[: MAX_LINES // 4] + numbered[-(MAX_LINES * 3 // 4) :]
        truncated = True
    lines: list[str] = []
    numbers: list[int] = []
    fatal: set[int] = set()
    logged: set[int] = set()
    indents: list[int] = []
    for no, line in numbered:
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE]
            truncated = True
        indent = len(line) - len(line.lstrip())
        whole = line.strip()
        line, severities = split_prefixes(whole)
        prefixed = len(line) < len(whole)
        line = re.sub(r"\s{2,}", " ", line.strip())
        if line:
            if severities & FATAL_SEVERITIES:
                fatal.add(len(lines))
            if prefixed:
                logged.add(len(lines))
            lines.append(line)
            numbers.append(no)
            indents.append(indent)
    return Normalized(
        lines, numbers, truncated, frozenset(fatal), frozenset(logged), tuple(indents)
    )
