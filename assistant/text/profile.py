"""Figures people paste from a TPU profile's overview page, read as numbers.

The profiler's overview (TensorBoard / XProf "overview_page", `capture_tpu_profile`, the PyTorch/XLA
metrics) states where step time goes: how busy the matrix units are, how long the TPU sits idle, how
much of a step waits for input, how many graphs XLA compiled. Those numbers tell apart problems
whose descriptions sound alike ("training is slow"): see `retrieval/profile_rules.py`, which routes
by them. Every figure is optional; a figure is read only next to the words that name it, in English
or Portuguese, so an unrelated percentage is never taken for one.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

_NUM = r"(\d{1,3}(?:[.,]\d+)?)\s*%"
_SEP = r"[^\d\n%]{0,60}?"  # words between the name and its value: "(higher is better):", " is "

_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    "mxu_utilization": [
        re.compile(r"(?:\bMXU\b|matrix[- ]units?|unidades? de matriz)" + _SEP + _NUM, re.I),
        re.compile(
            _NUM
            + r"\s*(?:of\s+)?(?:the\s+)?(?:\bMXU\b|matrix[- ]units?)"
            + r"\s*(?:utili[sz]ation|usage|util)",
            re.I,
        ),
    ],
    "tpu_idle": [
        re.compile(
            r"\bTPU\s+(?:is\s+|was\s+|sits\s+|stays\s+|fica\s+|est[aá]\s+|ficou\s+)?"
            r"(?:idle|ociosa|ocioso)(?:\s+time)?" + _SEP + _NUM,
            re.I,
        ),
        # the figure before the word, with the TPU named earlier on the line and no host between:
        # "the TPU v4 profile shows 70% of the time idle", "a TPU passa 70% do tempo ociosa"
        re.compile(
            r"\bTPU\b(?:(?!\bhost\b)[^\n%]){0,60}?"
            + _NUM
            + r"\s*(?:of\s+(?:the\s+)?(?:step\s+)?time\s+|do\s+tempo\s+)?(?:idle|ociosa|ocioso)",
            re.I,
        ),
        re.compile(
            r"(?:idle|ociosidade)\s+(?:time\s+)?(?:of|on|da|na)\s+(?:the\s+)?TPU" + _SEP + _NUM,
            re.I,
        ),
        re.compile(r"tempo ocioso da TPU" + _SEP + _NUM, re.I),
    ],
    "host_idle": [
        re.compile(r"\bhost\s+(?:idle|ocioso)(?:\s+time)?" + _SEP + _NUM, re.I),
        re.compile(r"tempo ocioso do host" + _SEP + _NUM, re.I),
    ],
    "input_wait": [
        re.compile(
            r"\b"
            + _NUM
            + r"\s+of\s+the\s+total\s+step\s+time\s+(?:sampled\s+)?is\s+waiting\s+for\s+input",
            re.I,
        ),
        re.compile(
            r"(?:waiting\s+for\s+input|input[- ]bound|infeed|esperando\s+(?:a\s+)?entrada"
            r"|tempo\s+de\s+entrada)" + _SEP + _NUM,
            re.I,
        ),
        re.compile(
            _NUM
            + r"\s+(?:of\s+)?(?:step\s+time\s+)?"
            + r"(?:waiting\s+for\s+input|in\s+infeed|esperando\s+(?:a\s+)?entrada)",
            re.I,
        ),
    ],
}
_STEP_TIME = re.compile(
    r"(?:average\s+)?step[- ]time(?:\s+average)?|tempo\s+(?:m[eé]dio\s+)?(?:de|do|por)\s+passo",
    re.I,
)
_STEP_VALUE = re.compile(r"[^\d\n]{0,30}?(\d+(?:[.,]\d+)?)\s*(ms|s|sec|seconds|segundos)\b", re.I)
_PER_CORE_BATCH = re.compile(
    r"(?:per[- ](?:core|device|replica)\s+batch(?:[- ]size)?"
    r"|batch(?:[- ]size)?\s+per\s+(?:core|device|replica)"
    r"|lote\s+por\s+(?:n[uú]cleo|core|dispositivo))\D{0,15}(\d{1,6})\b",
    re.I,
)

# The PyTorch/XLA metrics report (`met.metrics_report()`, PT_XLA_DEBUG): how many graphs were
# compiled and how many executed. A healthy run compiles a few graphs and then only executes.
_METRIC_SAMPLES = {
    "compile_count": re.compile(r"Metric:\s*CompileTime\s+TotalSamples:\s*(\d+)", re.I),
    "execute_count": re.compile(r"Metric:\s*ExecuteTime\s+TotalSamples:\s*(\d+)", re.I),
}


@dataclass(frozen=True)
class ProfileFigures:
    """Percentages are 0..100; step time in milliseconds; None where the text does not say."""

    mxu_utilization: float | None = None
    tpu_idle: float | None = None
    host_idle: float | None = None
    input_wait: float | None = None
    step_time_ms: float | None = None
    per_core_batch: int | None = None
    compile_count: int | None = None  # PyTorch/XLA metrics: graphs compiled (CompileTime samples)
    execute_count: int | None = None  # ... and graphs executed (ExecuteTime samples)

    def to_dict(self) -> dict[str, float | int]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    def __bool__(self) -> bool:
        return bool(self.to_dict())


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def read_profile(text: str) -> ProfileFigures:
    """The overview figures found in `text` (the first mention of each wins)."""
    found: dict[str, float | int] = {}
    for name, patterns in _PATTERNS.items():
        for rx in patterns:
            m = rx.search(text)
            if m:
                value = _number(m.group(1))
                if 0.0 <= value <= 100.0:
                    found[name] = value
                break
    for m in _STEP_TIME.finditer(text):
        v = _STEP_VALUE.match(text, m.end())
        if v:
            unit = v.group(2).lower()
            found["step_time_ms"] = _number(v.group(1)) * (1.0 if unit == "ms" else 1000.0)
            break
    m = _PER_CORE_BATCH.search(text)
    if m:
        found["per_core_batch"] = int(m.group(1))
    for name, rx in _METRIC_SAMPLES.items():
        m = rx.search(text)
        if m:
            found[name] = int(m.group(1))
    return ProfileFigures(**found)  # type: ignore[arg-type]
