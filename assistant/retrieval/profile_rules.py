"""Route by the profile figures a report pastes (see `text/profile.py`).

The guide separates slow-training problems by where the step time goes:

- the TPU waits for data (much of the step waiting for input) → the input pipeline
  (`input-bottleneck`);
- almost none of the step waiting for input (under 5%: the profiler's "NOT input-bound") rules
  the input pipeline out, whatever the words say about the dataset: it lowers `input-bottleneck`;
- the TPU sits idle and the input is not what it waits for (a low input figure) → the host
  between steps: callbacks and a round trip for every step (`steps-per-execution`, which the guide
  diagnoses by "frequent host callbacks between the TPU's steps" in the profile). A high idle time
  with no input figure fits both, and routes to both: the report's words decide;
- idle time or gaps with the input said to be ready before the steps (the data in memory or
  already on the device, synthetic data that changes nothing, the analyzer's "NOT input-bound" in
  words) → the host between steps (`steps-per-execution`) alone, and `input-bottleneck` lowered, as
  with a low input figure;
- the code already running many steps per call to the TPU (`steps_per_execution=32` in Keras's
  compile(), `iterations_per_loop`): the host's round trip is then paid once for all of them, so
  idle time does not point at `steps-per-execution`, whose fix is that setting (over the labelled
  and written sets, 2 of the 40 reports with such a setting of 2 or more were that entry's); with
  the input ruled out as well, the idle time has no cause to fix first, and the rules that read
  the TPU's own work (narrow layers, a low MXU figure) apply as on a busy TPU. The code set to one
  step per call (`iterations_per_loop=1`) beside the idle time is the reverse: two findings that
  agree on `steps-per-execution`; set so in a slow run with no idle figure and nothing said of the
  input, it is that entry's setting on its own (every one of the 5 labelled and written reports
  so set was that entry's);
- the host described busy producing the next batch (its trace lane inside the data iterator, or a
  few processes pegged at 100% while the rest of the VM's cores idle) → the input pipeline, which
  is then what the TPU's idle gaps wait for: `input-bottleneck`, weighing more beside an idle
  figure, gaps or a faster run on synthetic data (two findings that agree), and the gaps no
  longer point at `steps-per-execution`;
- the run measured faster on synthetic data than on the real input: the model keeps up, so the
  input is what the TPU waits for (`input-bottleneck`; idle time beside it is the input's, not the
  host's between steps);
- the TPU is busy but its matrix units are not (low MXU utilization, little idle time) → the work
  is not matrix multiplication, or it is too small to fill the units (`low-mxu`, then
  `small-batch` / `small-layers` in its tree);
- a low MXU figure beside a TPU idle (or waiting for input) for most of the step (half or more):
  the units are empty because the TPU is, and what keeps it waiting is the problem to fix first.
  The figures speak against `low-mxu`, whose own signature reads the MXU figure alone;
- the model's code shows every layer narrower than 128 (the MXU's width), and the TPU is not idle:
  the guide names two costs of such layers, the MXU left mostly unused (`small-layers`) and every
  dimension padded up to 128 (`tensor-padding`); the second gets the evidence only where the
  report names padding (`padding_named`), and then the words decide. A low MXU figure as well is
  explained by the narrow layers, and tips it to `small-layers`; a measured padding figure
  (below) explains them, and leaves them to `tensor-padding`;
- a transformer's model dimension (d_model) narrower than 128 counts as narrow layers; one of 128
  or more that is not a multiple of 128 (200, padded to 256) → `tensor-padding`, the guide's
  "feature dimensions a multiple of 128", where the padding adds a tenth or more; a width the
  report changed to such a value and measured (512 → 520, then slower) weighs as a measurement;
- a buffer that padding makes twice its size or more (the memory viewer's padded against unpadded
  sizes) → `tensor-padding`, whose look-alike patterns (a conv layer's `padding="same"`) it
  outweighs: they guard against words, and this is a measurement;
- most of the device's memory left free (under 25% in use) and the input not to blame: the
  guide's "slow throughput and low memory use", a batch too small for the TPU → `small-batch`,
  unless the per-core batch is already at the guide's ideal (128) or above. A low MXU figure as
  well is what such a batch leaves (the units are not filled), and tips it to `small-batch` the
  way narrow layers tip it to `small-layers`;
- a small per-core batch (below 8, the TPU's tile along the batch dimension; not one of sequences
  that bring it to 4,096 tokens or more, whose matmuls run over every token) → `small-batch`; a
  low MXU figure as well is what such a batch leaves, and tips it to `small-batch` rather than
  `low-mxu` (as narrow layers tip it to `small-layers`); where the report names memory as what
  limits it (out of memory, a model that does not fit), the batch is what was left once it had
  been lowered to fit → `batch-or-model-too-large`, the guide's "the model is too large" (over
  the labelled and written sets, 9 of the 10 reports with a per-core batch under 8 were about
  memory, and the one about speed named none);
- batch normalization named beside a per-core batch under 32, in a report about the accuracy
  (or mIoU, a loss that plateaus) the model reaches: the guide's "batch norm runs on each core's
  batch separately", which lowers accuracy on so few examples → `accuracy-drop`, and the batch no
  longer reads as too small to keep the TPU busy or as lowered to fit (the complaint is not speed
  or memory);
- a PyTorch/XLA metrics report with many compilations (CompileTime samples): after warm-up a
  training loop should only execute graphs it already compiled, so 10 or more compilations, and
  more than one for every 20 executions, mean that shapes keep changing (`dynamic-shape`); one
  for every other execution or more is that problem measured, and weighs as a signature;
- a PyTorch/XLA metrics report whose host read a value back (`aten::_local_scalar_dense`:
  `.item()`, a tensor printed) at least once for every graph executed: the loop stops for the
  device at every step, the round trip the guide's `steps-per-execution` removes;
- JAX's compile log (`jax_log_compiles`) showing one jitted function compiled twice or more: it
  compiles once per input shape, so again means a new shape (`dynamic-shape`); where the log
  writes the input shapes and they differ, the problem is measured.

Each rule adds supporting evidence (a weight below 1.0: it never decides alone) that shows in the
answer's *why* with the figures that triggered it. The thresholds are the guide's rules of thumb,
not fitted values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..strings import t
from ..text.profile import IDLE, ProfileFigures

WEIGHT = 0.6
# Two figures that agree (narrow layers and a low MXU figure) weigh more than a profile's MXU figure
# alone, which the low-mxu entry's own signature reads at 0.8: the narrow layers explain it.
AGREEING = 0.9
# A figure that measures the entry's own problem (padding's share of a buffer) weighs as much as a
# signature quoting it, and more than a layer width read from code, which only suggests it.
MEASURED = 0.8
RECOMPILES = 10  # compilations in one metrics report that mean shapes keep changing
READS_BACK = 10  # values read back to Python in one metrics report: a loop's worth, not a print
INPUT_BOUND = 20  # % of the step waiting for input: the profiler's "HIGHLY input-bound"
NOT_INPUT_BOUND = 5  # ... under this, its verdict is "NOT input-bound"
RULED_OUT = 0.5
MOSTLY_IDLE = 50  # % of the step idle or waiting for input: what the step is mostly spent on
STOPPED = 100  # % of the time idle: no step runs at all (a duty cycle of 0%)
LOW_MXU = 30  # % MXU utilization
NARROW = 128  # layer width: the MXU's dimension
TILE_BATCH = 8  # per-core batch: the TPU pads the batch dimension up to this
# tokens per core (a per-core batch of sequences times their length) from which the matrix units'
# rows are full whatever the count of sequences: a model's matmuls run over every token of the
# batch, so 4 sequences of 8,192 tokens are 32,768 rows. Over the labelled and written sets, of the
# reports with a per-core batch under 8 and a sequence length, the 4 about that batch had 512 to
# 1,024 tokens per core; none of the 15 with 4,096 or more was (memory 11, the input, profiling,
# two outside the guide)
FULL_ROWS = 4096
NORM_BATCH = 32  # per-core batch under which the guide finds batch norm lowering accuracy
IDEAL_BATCH = 128  # per-core batch the guide calls ideal ("1024, 128 per TPU core")
MOSTLY_FREE = 25  # % of the device's memory in use
OFF_TILE = 1.1  # a model dimension padded up to the next multiple of 128 by a tenth or more
PADDED = 2.0  # a buffer padded to this many times its size (the tensor-padding signature's figure)


@dataclass(frozen=True)
class ProfileRule:
    id: str
    entry_id: str
    applies: Callable[[ProfileFigures], bool]
    # the figures that triggered it, by name (those not read are left out)
    figures: Callable[[ProfileFigures], dict[str, float]]
    weight: Callable[[ProfileFigures], float] = lambda p: WEIGHT
    # the situation the figures show, as a signature's `sets` (kb.schema.Signature): values that
    # answer the entry's questions taking them (`answer_from`)
    sets: Callable[[ProfileFigures], dict[str, str]] = lambda p: {}
    # A slowdown's rule, left out when the report shows an error: an error report often carries a
    # minimal reproduction with a toy model, or a memory figure beside the failure, that say
    # nothing about how fast it trains.
    slowdown_only: bool = False
    # counter-evidence: the figures contradict the entry, whose score is scaled down by the weight
    # (as a matched look-alike pattern's is)
    rules_out: bool = False
    # a measurement of the entry's own problem: it outweighs the entry's look-alike patterns, which
    # guard against words that only sound like it (a conv layer's padding="same" beside a buffer
    # measured at 20x its unpadded size)
    measures: bool = False
    # the finding is one only a TPU's profile or tools give (an MXU figure, the memory viewer's
    # padded sizes): a specific one then shows a TPU, as a signature does (`decide.tpu_evidence`).
    # A host busy with the input, idle gaps between steps, look the same on a GPU.
    tpu_evidence: bool = True


def _profiler_waits(p: ProfileFigures) -> bool:
    """The profiler's input-wait figure says the step waits for input."""
    return p.input_wait is not None and p.input_wait >= INPUT_BOUND


def _loop_waits(p: ProfileFigures) -> bool:
    """The training loop's own timers say the step waits for its batch."""
    return p.data_wait is not None and p.data_wait >= INPUT_BOUND


def _waits_for_input(p: ProfileFigures) -> bool:
    return _profiler_waits(p) or _loop_waits(p)


def _tiny_batch(p: ProfileFigures) -> bool:
    """A per-core batch under the TPU's tile along the batch dimension."""
    return p.per_core_batch is not None and p.per_core_batch < TILE_BATCH


def _normalizes_few(p: ProfileFigures) -> bool:
    """Batch norm over a per-core batch under the guide's 32, in a report about what the model
    reaches: the statistics of so few examples are what lowers its accuracy."""
    return bool(p.batch_norm) and p.per_core_batch is not None and p.per_core_batch < NORM_BATCH


def _few(p: ProfileFigures) -> bool:
    """A tiny per-core batch chosen, not one lowered to fit in memory: too few rows to fill the
    MXU, `small-batch`'s own problem. Not where the complaint is the accuracy that batch norm
    over so few rows reaches: that is the batch's other cost."""
    return (
        _tiny_batch(p)
        and not _long_sequences(p)
        and not _memory_limits(p)
        and not _normalizes_few(p)
    )


def _memory_limits(p: ProfileFigures) -> bool:
    """Memory named as what limits the batch (`memory_bound`), and not measured mostly free: a
    batch lowered after an out-of-memory elsewhere (a GPU run's) that leaves three quarters of
    the TPU's memory unused is a batch too small, not one the TPU's memory holds down."""
    return bool(p.memory_bound) and not _mostly_free(p)


def _mostly_free(p: ProfileFigures) -> bool:
    """The device's memory measured mostly unused (under MOSTLY_FREE % in use)."""
    return p.memory_used is not None and p.memory_used < MOSTLY_FREE


def _ample_batch(p: ProfileFigures) -> bool:
    """A per-core batch at the guide's ideal or above: whatever leaves the memory free, it is not
    a batch too small."""
    return p.per_core_batch is not None and p.per_core_batch >= IDEAL_BATCH


def _long_sequences(p: ProfileFigures) -> bool:
    """The per-core batch counts sequences long enough that its tokens fill the rows anyway."""
    return (
        p.per_core_batch is not None
        and p.sequence_length is not None
        and p.per_core_batch * p.sequence_length >= FULL_ROWS
    )


def _rules_input_out(p: ProfileFigures) -> bool:
    """The profiler's "NOT input-bound": almost none of the step waits for input, by its figure,
    by the loop's own timers, or in the analyzer's words beside an idle TPU (`input_ready`)."""
    figures = (p.input_wait, p.data_wait)
    return any(f is not None and f < NOT_INPUT_BOUND for f in figures) or bool(p.input_ready)


def _stopped(p: ProfileFigures) -> bool:
    """The TPU idle all the time (a duty cycle of 0%): no step runs at all, so it is hung, stopped
    or not started, not slow between its steps. Over the labelled and written sets, the 3 reports
    with such a figure were 2 hangs after an error and an out-of-memory."""
    return p.tpu_idle is not None and p.tpu_idle >= STOPPED


def _idle(p: ProfileFigures) -> bool:
    """The TPU idle much of the step: the figure, or the trace described with gaps between steps;
    not a TPU that runs no step at all (`_stopped`)."""
    if _stopped(p):
        return False
    return (p.tpu_idle is not None and p.tpu_idle >= IDLE) or bool(p.idle_gaps)


def _many_steps_per_call(p: ProfileFigures) -> bool:
    """The code already runs several steps per call to the TPU (`steps_per_execution=32`): the
    host's round trip between steps, which idle time would otherwise point at, is already paid once
    for many steps, and the idle time is something else's."""
    return p.steps_per_execution is not None and p.steps_per_execution >= 2


def _idle_to_fix(p: ProfileFigures) -> bool:
    """The TPU idle much of the step for a reason to fix first: the input, or the host between
    steps. Not so where the input is ruled out and the code already runs many steps per call:
    then what the step does on the TPU (narrow layers, little matrix work) is what is left."""
    return _idle(p) and not (_rules_input_out(p) and _many_steps_per_call(p))


def _compiles_every_other_step(p: ProfileFigures) -> bool:
    """Graphs compiled for half the graphs executed or more (57 for 61): nearly every step sees a
    new shape. Over every labelled and written set, the 17 metrics reports like this were all
    about shapes that change."""
    return (
        p.compile_count is not None
        and p.execute_count is not None
        and p.compile_count * 2 >= p.execute_count
    )


def _idle_shares(p: ProfileFigures) -> dict[str, float]:
    """The TPU's idle and input-wait figures of half the step or more (figures, not words)."""
    shares = {"tpu_idle": p.tpu_idle, "input_wait": p.input_wait}
    return {k: v for k, v in shares.items() if v is not None and v >= MOSTLY_IDLE}


def _low_mxu(p: ProfileFigures) -> bool:
    """A low MXU figure; where none is given, a low FLOPS utilization or MFU (the share of the
    chips' peak compute the model uses, which the MXU's figure bounds)."""
    figures = (p.mxu_utilization, p.flops_utilization, p.mfu)
    share = next((f for f in figures if f is not None), None)
    return share is not None and share < LOW_MXU


def _compute_use(p: ProfileFigures) -> dict[str, float | None]:
    """The MXU, FLOPS and MFU figures, as the report gave them."""
    return {
        "mxu_utilization": p.mxu_utilization,
        "flops_utilization": p.flops_utilization,
        "mfu": p.mfu,
    }


def _narrow(p: ProfileFigures) -> bool:
    """Every layer narrower than the MXU: the widest layer in the code, or a transformer's model
    dimension, which every one of its projections reads or writes."""
    widths = (p.widest_layer, p.model_width)
    return any(w is not None and w < NARROW for w in widths)


def _off_tile(p: ProfileFigures) -> bool:
    """A model dimension of 128 or more that is not a multiple of 128, padded up by a tenth or more
    (200 → 256; 1000 → 1024 is a rounding)."""
    w = p.model_width
    return w is not None and w >= NARROW and -(-w // NARROW) * NARROW >= OFF_TILE * w


def _widths(p: ProfileFigures) -> dict[str, float]:
    return _known(widest_layer=p.widest_layer, model_width=p.model_width)


def _width_change(p: ProfileFigures) -> dict[str, float]:
    """The model dimension, and the one before where the report changed it."""
    return _known(previous_width=p.previous_width, model_width=p.model_width)


def _padded(p: ProfileFigures) -> bool:
    return p.padding_expansion is not None and p.padding_expansion >= PADDED


def _known(**named: float | int | None) -> dict[str, float]:
    return {name: float(value) for name, value in named.items() if value is not None}


# A metrics report's count stated against the graphs executed: the count's name, and the strings
# for it with and without the executions beside it
_COUNTS_FOR = {
    "compile_count": ("profile.compiles_for", "profile.compiles"),
    "scalar_reads": ("profile.reads_for", "profile.reads_for"),
}


def describe(figures: Mapping[str, float], lang: str) -> str:
    """The figures behind a rule as the answer's *why* shows them, in `lang`: "MXU utilization
    3%, TPU idle 1%", "112 XLA compilations for 760 executions"."""
    for name, (with_executions, alone) in _COUNTS_FOR.items():
        if name in figures:
            counts = {k: f"{figures[k]:g}" for k in (name, "execute_count") if k in figures}
            return t(lang, with_executions if "execute_count" in counts else alone, **counts)
    return ", ".join(t(lang, f"profile.{name}", value=f"{v:g}") for name, v in figures.items())


RULES: tuple[ProfileRule, ...] = (
    ProfileRule(
        "input-bound",
        "input-bottleneck",
        lambda p: (
            _profiler_waits(p)
            or (_idle(p) and p.input_wait is None and p.data_wait is None and not p.input_ready)
        ),
        lambda p: _known(input_wait=p.input_wait, tpu_idle=p.tpu_idle, idle_gaps=p.idle_gaps),
        # most of the step waiting for input, by the profiler's own figure, is the entry's problem
        # measured (as the loop's own timers are, below): it outweighs a slow Keras callback's
        # warning beside it
        lambda p: MEASURED if (p.input_wait or 0) >= MOSTLY_IDLE else WEIGHT,
        # the share of the step waiting for input is the analyzer's verdict; idle time alone is not
        sets=lambda p: {"input_analyzer": "input-bound"} if _profiler_waits(p) else {},
        # TensorBoard's profiler gives the same verdict for a GPU's run: a TPU is shown by the
        # report's other words ("TPU idle"), not by this figure
        tpu_evidence=False,
    ),
    ProfileRule(
        # the loop's own timers, which a GPU's loop prints the same way
        "loop-waits-for-data",
        "input-bottleneck",
        _loop_waits,
        lambda p: _known(data_wait=p.data_wait, tpu_idle=p.tpu_idle),
        # most of every step spent waiting for the batch is the entry's problem measured
        lambda p: MEASURED if (p.data_wait or 0) >= MOSTLY_IDLE else WEIGHT,
        sets=lambda p: {"input_analyzer": "input-bound"},
        tpu_evidence=False,
    ),
    ProfileRule(
        "input-not-bound",
        "input-bottleneck",
        _rules_input_out,
        lambda p: _known(input_wait=p.input_wait, data_wait=p.data_wait, input_ready=p.input_ready),
        lambda p: RULED_OUT,
        rules_out=True,
        sets=lambda p: {"input_analyzer": "not-input-bound"},
    ),
    ProfileRule(
        "host-feeding",
        "input-bottleneck",
        lambda p: bool(p.host_feeding) and not _rules_input_out(p),
        lambda p: _known(
            tpu_idle=p.tpu_idle,
            idle_gaps=p.idle_gaps,
            host_feeding=p.host_feeding,
            synthetic_faster=p.synthetic_faster,
        ),
        # beside an idle TPU, or a run faster on synthetic data: two findings that agree
        lambda p: AGREEING if _idle(p) or p.synthetic_faster else WEIGHT,
        slowdown_only=True,
        tpu_evidence=False,
    ),
    ProfileRule(
        "synthetic-data-faster",
        "input-bottleneck",
        lambda p: bool(p.synthetic_faster) and not _rules_input_out(p),
        lambda p: _known(synthetic_faster=p.synthetic_faster, tpu_idle=p.tpu_idle),
        # a measured speed, so it stands beside an error the report mentions in passing
        tpu_evidence=False,
    ),
    ProfileRule(
        "idle-between-steps",
        "steps-per-execution",
        lambda p: (
            _idle(p)
            and not (_waits_for_input(p) or p.host_feeding or p.synthetic_faster)
            and not _many_steps_per_call(p)
        ),
        lambda p: _known(
            steps_per_execution=p.steps_per_execution,
            tpu_idle=p.tpu_idle,
            idle_gaps=p.idle_gaps,
            input_wait=p.input_wait,
            input_ready=p.input_ready,
        ),
        # the code set to one step per call (`iterations_per_loop=1`): the round trip every step
        # that the idle time shows, the setting this entry's fix raises (two findings that agree)
        lambda p: AGREEING if p.steps_per_execution == 1 else WEIGHT,
    ),
    ProfileRule(
        # one step per call to the TPU (`iterations_per_loop=1`, `steps_per_execution=1`) in a
        # slow run: the setting this entry's fix raises, where no figure says where the time goes
        "one-step-per-call",
        "steps-per-execution",
        lambda p: (
            p.steps_per_execution == 1
            and not _idle(p)
            and not (_waits_for_input(p) or p.host_feeding or p.synthetic_faster)
        ),
        lambda p: _known(steps_per_execution=p.steps_per_execution),
        slowdown_only=True,
        tpu_evidence=False,
    ),
    ProfileRule(
        "busy-but-low-mxu",
        "low-mxu",
        lambda p: (
            _low_mxu(p) and not (_waits_for_input(p) or _idle_to_fix(p) or _narrow(p) or _few(p))
        ),
        lambda p: _known(**_compute_use(p), tpu_idle=p.tpu_idle),
    ),
    ProfileRule(
        "idle-empties-mxu",
        "low-mxu",
        lambda p: _low_mxu(p) and bool(_idle_shares(p)),
        lambda p: _known(**_compute_use(p), **_idle_shares(p)),
        lambda p: RULED_OUT,
        rules_out=True,
    ),
    ProfileRule(
        "narrow-layers",
        "small-layers",
        lambda p: _narrow(p) and not (_waits_for_input(p) or _idle_to_fix(p) or _padded(p)),
        lambda p: {**_widths(p), **_known(**_compute_use(p))},
        lambda p: AGREEING if _low_mxu(p) else WEIGHT,
        slowdown_only=True,
    ),
    ProfileRule(
        "narrow-layers-padded",
        "tensor-padding",
        lambda p: (
            _narrow(p) and bool(p.padding_named) and not (_waits_for_input(p) or _idle_to_fix(p))
        ),
        lambda p: {**_widths(p), **_known(padding_named=p.padding_named)},
        slowdown_only=True,
    ),
    ProfileRule(
        "width-off-tile",
        "tensor-padding",
        lambda p: _off_tile(p) and not (_waits_for_input(p) or _idle_to_fix(p)),
        _width_change,
        # a width the report changed and measured (slower, more memory) is a measurement
        lambda p: MEASURED if p.previous_width is not None else WEIGHT,
    ),
    ProfileRule(
        # ... which also explains the matrix units' lower figure after the change: the padded
        # rows and columns are work the MXU does for nothing
        "changed-width-empties-mxu",
        "low-mxu",
        lambda p: _off_tile(p) and p.previous_width is not None,
        _width_change,
        lambda p: RULED_OUT,
        rules_out=True,
    ),
    ProfileRule(
        "padding-expands",
        "tensor-padding",
        _padded,
        lambda p: _known(padding_expansion=p.padding_expansion),
        lambda p: MEASURED,
        measures=True,
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
        # a compilation for every other execution or more: the entry's problem measured
        lambda p: MEASURED if _compiles_every_other_step(p) else WEIGHT,
    ),
    ProfileRule(
        # the host reading a value back (`.item()`) at every execution: the loop waits for the
        # device each step, the round trip steps-per-execution removes
        "reads-back-every-step",
        "steps-per-execution",
        lambda p: (
            p.scalar_reads is not None
            and p.scalar_reads >= READS_BACK
            and p.execute_count is not None
            and p.scalar_reads >= p.execute_count
        ),
        lambda p: _known(scalar_reads=p.scalar_reads, execute_count=p.execute_count),
    ),
    ProfileRule(
        "jit-recompiled",
        "dynamic-shape",
        lambda p: p.jit_recompiles is not None and not p.jit_same_shapes,
        lambda p: _known(jit_recompiles=p.jit_recompiles, jit_new_shapes=p.jit_new_shapes),
        # the log itself shows the function compiled for new shapes: the entry's problem measured
        lambda p: MEASURED if p.jit_new_shapes else WEIGHT,
        # JAX logs its compilations on any device: a GPU run's log says nothing of a TPU
        tpu_evidence=False,
    ),
    ProfileRule(
        # ... for the same input shapes each time: the cache key changes without them (a static
        # argument, a function jitted anew in the loop), the person's code, not varying shapes
        "jit-recompiled-same-shapes",
        "dynamic-shape",
        lambda p: bool(p.jit_same_shapes),
        lambda p: _known(jit_recompiles=p.jit_recompiles, jit_same_shapes=p.jit_same_shapes),
        # the log itself shows the shapes did not change: a measurement, not a guess
        lambda p: MEASURED,
        rules_out=True,
        tpu_evidence=False,
    ),
    ProfileRule(
        "memory-mostly-free",
        "small-batch",
        lambda p: (
            _mostly_free(p)
            # a host busy producing the input explains the low throughput, as does a run that
            # speeds up on synthetic data: the batch may be fine; a per-core batch at the guide's
            # ideal already is
            and not (
                _waits_for_input(p)
                or _narrow(p)
                or p.host_feeding
                or p.synthetic_faster
                or _ample_batch(p)
            )
        ),
        lambda p: _known(
            memory_used=p.memory_used, per_core_batch=p.per_core_batch, **_compute_use(p)
        ),
        lambda p: AGREEING if _low_mxu(p) else WEIGHT,
        slowdown_only=True,
    ),
    ProfileRule(
        "tiny-per-core-batch",
        "small-batch",
        _few,
        lambda p: _known(per_core_batch=p.per_core_batch, **_compute_use(p)),
        lambda p: AGREEING if _low_mxu(p) else WEIGHT,
    ),
    ProfileRule(
        "batch-lowered-to-fit",
        "batch-or-model-too-large",
        lambda p: _tiny_batch(p) and _memory_limits(p) and not _normalizes_few(p),
        lambda p: _known(per_core_batch=p.per_core_batch, memory_bound=p.memory_bound),
    ),
    ProfileRule(
        # batch norm over a few examples per core, and the accuracy it reaches: two findings that
        # agree on the guide's first cause of lower accuracy, whether the batch was lowered to
        # fit in memory or not
        "batch-norm-per-core",
        "accuracy-drop",
        _normalizes_few,
        lambda p: _known(per_core_batch=p.per_core_batch, batch_norm=p.batch_norm),
        lambda p: AGREEING,
        tpu_evidence=False,
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
    rules_out: bool = False  # counter-evidence (see ProfileRule.rules_out)
    measures: bool = False  # outweighs look-alike patterns (see ProfileRule.measures)
    tpu_evidence: bool = True  # see ProfileRule.tpu_evidence
    sets: dict[str, str] = field(default_factory=dict)  # as SignatureHit's (ProfileRule.sets)


def route(figures: ProfileFigures, shows_error: bool = False) -> list[ProfileHit]:
    """The rules that `figures` trigger; a slowdown's rules are left out when the report shows an
    error (`shows_error`)."""
    if not figures:
        return []
    hits = []
    for r in RULES:
        if r.slowdown_only and shows_error:
            continue
        if r.applies(figures):
            named = r.figures(figures)
            hits.append(
                ProfileHit(
                    entry_id=r.entry_id,
                    signature_id=f"profile:{r.id}",
                    weight=r.weight(figures),
                    line_no=0,
                    line="",
                    matched=describe(named, "en"),
                    captures={},
                    figures=named,
                    rules_out=r.rules_out,
                    measures=r.measures,
                    tpu_evidence=r.tpu_evidence,
                    sets=r.sets(figures),
                )
            )
    return [h for h in hits if not any(_restates(h, other) for other in hits)]


def _restates(hit: ProfileHit, other: ProfileHit) -> bool:
    """Whether `other` says all that `hit` says of the same entry, and more (the host-feeding rule
    beside the input-bound one, on the same gaps): the answer's *why* shows the fuller one once."""
    return (
        other is not hit
        and other.entry_id == hit.entry_id
        and other.rules_out == hit.rules_out
        and other.weight >= hit.weight
        and other.measures >= hit.measures
        and hit.figures.items() < other.figures.items()
    )
