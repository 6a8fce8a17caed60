"""Route by the profile figures a report pastes (see `text/profile.py`).

The guide separates slow-training problems by where the step time goes:

- the TPU waits for data (high TPU idle time, or much of the step waiting for input) → the input
  pipeline (`input-bottleneck`);
- the TPU is busy but its matrix units are not (low MXU utilization, little idle time) → the work
  is not matrix multiplication, or it is too small to fill the units (`low-mxu`, then
  `small-batch` / `small-layers` in its tree);
- a small per-core batch (below 8, the TPU's tile along the batch dimension) → `small-batch`;
- a PyTorch/XLA metrics report with many compilations (CompileTime samples): after warm-up a
  training loop should only execute graphs it already compiled, so 10 or more compilations, and
  more than one for every 20 executions, mean that shapes keep changing (`dynamic-shape`).

Each rule adds supporting evidence (a weight below 1.0: it never decides alone) that shows in the
answer's *why* with the figures that triggered it. The thresholds are the guide's rules of thumb,
not fitted values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..text.profile import ProfileFigures

WEIGHT = 0.6
RECOMPILES = 10  # compilations in one metrics report that mean shapes keep changing


@dataclass(frozen=True)
class ProfileRule:
    id: str
    entry_id: str
    applies: Callable[[ProfileFigures], bool]
    reason: Callable[[ProfileFigures], str]


def _figures(**named: float | None) -> str:
    """ "MXU utilization 3%, TPU idle 1%" from the figures that are known."""
    return ", ".join(
        f"{name.replace('_', ' ')} {value:g}%" for name, value in named.items() if value is not None
    )


RULES: tuple[ProfileRule, ...] = (
    ProfileRule(
        "input-bound",
        "input-bottleneck",
        lambda p: (
            (p.input_wait is not None and p.input_wait >= 20)
            or (p.tpu_idle is not None and p.tpu_idle >= 30)
        ),
        lambda p: _figures(waiting_for_input=p.input_wait, TPU_idle=p.tpu_idle),
    ),
    ProfileRule(
        "busy-but-low-mxu",
        "low-mxu",
        lambda p: (
            p.mxu_utilization is not None
            and p.mxu_utilization < 30
            and not ((p.input_wait or 0) >= 20 or (p.tpu_idle or 0) >= 30)
        ),
        lambda p: _figures(MXU_utilization=p.mxu_utilization, TPU_idle=p.tpu_idle),
    ),
    ProfileRule(
        "recompiling",
        "dynamic-shape",
        lambda p: (
            p.compile_count is not None
            and p.compile_count >= RECOMPILES
            and (p.execute_count is None or p.compile_count * 20 > p.execute_count)
        ),
        lambda p: (
            f"{p.compile_count} XLA compilations"
            + (f" for {p.execute_count} executions" if p.execute_count is not None else "")
        ),
    ),
    ProfileRule(
        "tiny-per-core-batch",
        "small-batch",
        lambda p: p.per_core_batch is not None and p.per_core_batch < 8,
        lambda p: f"per-core batch {p.per_core_batch}",
    ),
)


@dataclass(frozen=True)
class ProfileHit:
    """Shaped like a signature hit, so the answer's *why* shows it the same way."""

    entry_id: str
    signature_id: str
    weight: float
    line_no: int
    line: str
    matched: str
    captures: dict[str, str]


def route(figures: ProfileFigures) -> list[ProfileHit]:
    if not figures:
        return []
    return [
        ProfileHit(r.entry_id, f"profile:{r.id}", WEIGHT, 0, "", r.reason(figures), {})
        for r in RULES
        if r.applies(figures)
    ]
