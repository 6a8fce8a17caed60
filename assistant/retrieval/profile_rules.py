"""Route by the profile figures a report pastes (see `text/profile.py`).

The guide separates slow-training problems by where the step time goes:

- the TPU waits for data (much of the step waiting for input) → the input pipeline
  (`input-bottleneck`);
- the TPU sits idle and the input is not what it waits for (a low input figure) → the host
  between steps: callbacks and a round trip for every step (`steps-per-execution`, which the guide
  diagnoses by "frequent host callbacks between the TPU's steps" in the profile). A high idle time
  with no input figure fits both, and routes to both: the report's words decide;
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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..strings import t
from ..text.profile import ProfileFigures

WEIGHT = 0.6
RECOMPILES = 10  # compilations in one metrics report that mean shapes keep changing
INPUT_BOUND = 20  # % of the step waiting for input
IDLE = 30  # % of the step the TPU sits idle


@dataclass(frozen=True)
class ProfileRule:
    id: str
    entry_id: str
    applies: Callable[[ProfileFigures], bool]
    # the figures that triggered it, by name (those not read are left out)
    figures: Callable[[ProfileFigures], dict[str, float]]


def _waits_for_input(p: ProfileFigures) -> bool:
    return p.input_wait is not None and p.input_wait >= INPUT_BOUND


def _idle(p: ProfileFigures) -> bool:
    return p.tpu_idle is not None and p.tpu_idle >= IDLE


def _known(**named: float | int | None) -> dict[str, float]:
    return {name: float(value) for name, value in named.items() if value is not None}


def describe(figures: Mapping[str, float], lang: str) -> str:
    """The figures behind a rule as the answer's *why* shows them, in `lang`: "MXU utilization
    3%, TPU idle 1%", "112 XLA compilations for 760 executions"."""
    if "compile_count" in figures:
        counts = {k: f"{figures[k]:g}" for k in ("compile_count", "execute_count") if k in figures}
        key = "profile.compiles_for" if "execute_count" in counts else "profile.compiles"
        return t(lang, key, **counts)
    return ", ".join(t(lang, f"profile.{name}", value=f"{v:g}") for name, v in figures.items())


RULES: tuple[ProfileRule, ...] = (
    ProfileRule(
        "input-bound",
        "input-bottleneck",
        lambda p: _waits_for_input(p) or (_idle(p) and p.input_wait is None),
        lambda p: _known(input_wait=p.input_wait, tpu_idle=p.tpu_idle),
    ),
    ProfileRule(
        "idle-between-steps",
        "steps-per-execution",
        lambda p: _idle(p) and not _waits_for_input(p),
        lambda p: _known(tpu_idle=p.tpu_idle, input_wait=p.input_wait),
    ),
    ProfileRule(
        "busy-but-low-mxu",
        "low-mxu",
        lambda p: (
            p.mxu_utilization is not None
            and p.mxu_utilization < 30
            and not (_waits_for_input(p) or _idle(p))
        ),
        lambda p: _known(mxu_utilization=p.mxu_utilization, tpu_idle=p.tpu_idle),
    ),
    ProfileRule(
        "recompiling",
        "dynamic-shape",
        lambda p: (
            p.compile_count is not None
            and p.compile_count >= RECOMPILES
            and (p.execute_count is None or p.compile_count * 20 > p.execute_count)
        ),
        lambda p: _known(compile_count=p.compile_count, execute_count=p.execute_count),
    ),
    ProfileRule(
        "tiny-per-core-batch",
        "small-batch",
        lambda p: p.per_core_batch is not None and p.per_core_batch < 8,
        lambda p: _known(per_core_batch=p.per_core_batch),
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
    matched: str  # the figures in English (`describe`)
    captures: dict[str, str]
    figures: dict[str, float] = field(default_factory=dict)  # shown in the answer's language


def route(figures: ProfileFigures) -> list[ProfileHit]:
    if not figures:
        return []
    hits = []
    for r in RULES:
        if r.applies(figures):
            named = r.figures(figures)
            hits.append(
                ProfileHit(
                    r.entry_id, f"profile:{r.id}", WEIGHT, 0, "", describe(named, "en"), {}, named
                )
            )
    return hits
