"""What a long real report is searched by: its title and error lines, its profile figures, and the
context (another device, another service) that decides whether a TPU entry can be the answer."""

from __future__ import annotations

import pytest

from assistant.answer import context_hint
from assistant.evaluation import (
    BASELINES,
    OOS,
    Outcome,
    Query,
    also_ids,
    baseline_ranking,
    metrics,
)
from assistant.explain import explain_context
from assistant.retrieval.fusion import Evidence
from assistant.retrieval.profile_rules import AGREEING, MEASURED, route
from assistant.text.domain import names_a_tpu_run, read_context, tpu_host_only, xla_elsewhere
from assistant.text.normalize import normalize
from assistant.text.parse import error_lines, parse, query_views, title_line
from assistant.text.profile import names_a_figure, read_profile

REPORT = """Training hangs forever after upgrading the runtime

We run a small model on a pod slice and since yesterday nothing happens after start-up.
I tried three different images and two zones, it is always the same, really annoying.
Here is what the log says before it stops printing anything:

2026-01-04 10:11:12.000 I transport.py:157] Attempting refresh to obtain initial access_token
RuntimeError: Cannot initialize the TPU system: DEADLINE_EXCEEDED: barrier timed out
Any idea what else to try? Thanks a lot for reading.
"""


def _routed(text, shows_error=False):
    """The entries the profile rules route `text` to (counter-evidence left out), sorted."""
    hits = route(read_profile(text), shows_error)
    return sorted(h.entry_id for h in hits if not h.rules_out)


def _reads_and_routes(text, flag, entries):
    """`text` sets the profile's word-read `flag` (1) and routes to `entries`."""
    assert getattr(read_profile(text), flag) == 1, text
    assert _routed(text) == entries, text


def test_title_and_error_lines_are_their_own_views():
    norm = normalize(REPORT)
    facts = parse(norm)
    views = query_views(norm, facts)
    assert views["head"] == "Training hangs forever after upgrading the runtime"
    assert views["err"] == (
        "RuntimeError: Cannot initialize the TPU system: DEADLINE_EXCEEDED: barrier timed out"
    )
    assert "Training hangs forever" in views["all"]


def test_a_short_input_is_searched_the_same_by_every_view():
    norm = normalize("ValueError: must be a compile-time constant")
    views = query_views(norm, parse(norm))
    assert views["head"] == views["err"] == views["all"]


def test_title_is_kept_among_the_key_lines_of_a_long_log():
    log = "Slow input pipeline on my v4-8\n" + "\n".join(
        f"RuntimeError: failure number {i} in the worker" for i in range(40)
    )
    facts = parse(log)
    assert facts.key_lines[0] == {"line": 1, "text": "Slow input pipeline on my v4-8"}
    assert len(facts.key_lines) == 12


def test_title_line_refuses_logs_and_frames():
    assert title_line(["Traceback (most recent call last):", "a", "b"]) is None
    assert title_line(['File "x.py", line 3, in <module>', "a", "b"]) is None
    assert title_line(["one line"]) is None


def test_error_lines_keep_the_last_exceptions_once():
    lines = ["ValueError: first", "noise", "ValueError: first", "KeyError: last"]
    assert error_lines(lines) == ["ValueError: first", "KeyError: last"]


def test_profile_overview_figures_are_read_in_both_languages():
    p = read_profile(
        "Host idle time (lower is better): 33.0%\nTPU idle time (lower is better): 0.0%\n"
        "Utilization of TPU Matrix Units (higher is better): 0.6%\n"
        "Average step time: 231.5 ms"
    )
    assert p.to_dict() == {
        "mxu_utilization": 0.6,
        "tpu_idle": 0.0,
        "host_idle": 33.0,
        "step_time_ms": 231.5,
    }
    p = read_profile(
        "a utilização da MXU está em 3% e a TPU fica ociosa 2% do tempo; lote por núcleo de 4"
    )
    assert p.to_dict() == {"mxu_utilization": 3.0, "tpu_idle": 2.0, "per_core_batch": 4}
    # the idle figure said in a sentence, before or after the word
    assert read_profile("the profile says the TPU is idle 60% of the time").tpu_idle == 60.0
    assert read_profile("TPU v4 lenta e o perfil mostra 70% do tempo ocioso").tpu_idle == 70.0
    assert read_profile("on the TPU v3 I see 45% of the step time idle").tpu_idle == 45.0
    # ... but a host figure is not the TPU's
    assert read_profile("TPU run is slow, the host is 80% idle").tpu_idle is None
    # ... nor another measure's figure just before the word
    terse = read_profile("my tpu is slow, mxu 12% idle 3%, per-core batch 128")
    assert terse.mxu_utilization == 12.0 and terse.tpu_idle != 12.0
    p = read_profile(
        "Your program is HIGHLY input-bound because 71.3% of the total step time "
        "sampled is waiting for input."
    )
    assert p.input_wait == 71.3


def test_unrelated_percentages_are_not_profile_figures():
    assert not read_profile("accuracy went from 91% to 85%, loss 0.3, GPU memory 80%")
    assert not read_profile("download 45% complete")


def test_profile_figures_route_between_look_alike_slowdowns():
    # an idle TPU alone waits either for data or for the host between steps (the guide's input
    # bottleneck and steps_per_execution): both get the evidence, the words decide
    assert _routed("TPU idle time: 62%, MXU utilization 4%") == [
        "input-bottleneck",
        "steps-per-execution",
    ]
    # ... and the input figure tells them apart
    assert _routed("TPU idle time: 62%, 48.2% of the total step time is waiting for input") == [
        "input-bottleneck"
    ]
    assert _routed("TPU idle time: 62%, 0.7% of the total step time is waiting for input") == [
        "steps-per-execution"
    ]
    # ... unless the code already runs many steps per call to the TPU: its fix is in place
    spe = "model.compile(..., steps_per_execution=32)\nTPU idle 62%, input 0.7% of step time"
    assert read_profile(spe).steps_per_execution == 32
    assert _routed(spe) == []
    assert read_profile("iterations_per_loop: 100").steps_per_execution == 100
    assert read_profile("steps_per_execution 1 -> 64").steps_per_execution == 64
    one = "compile(steps_per_execution=1)\nTPU idle 62%, input 0.7% of step time"
    assert _routed(one) == ["steps-per-execution"]
    # ... and with the input ruled out too, the TPU's own work is what is left to read
    mlp = "Dense(64), Dense(32), Dense(1); steps_per_execution=32\nFLOPS utilization 0.4%, duty cycle 61%, input 3%"
    assert _routed(mlp) == ["small-layers"]
    assert _routed("MXU utilization: 4%, TPU idle time: 1%") == ["low-mxu"]
    assert _routed("per-core batch size: 2") == ["small-batch"]
    assert _routed("MXU utilization: 71%, TPU idle time: 3%") == []
    assert all(h.weight < 1.0 for h in route(read_profile("TPU idle 90%")))  # never decisive


def test_the_profilers_not_input_bound_figure_speaks_against_the_input_pipeline():
    def against(text):
        return [h.entry_id for h in route(read_profile(text)) if h.rules_out]

    assert against("Your program is NOT input-bound because only 0.7% of the total step time") == [
        "input-bottleneck"
    ]
    assert read_profile("Input time: 0.3 ms").input_wait is None  # no step time to compare
    assert read_profile("Average Step Time: 37.6 ms\n  Input:  0.3 ms").input_wait == 0.8
    assert against("Input time: 12%") == []  # "moderately input-bound": not ruled out
    assert against("o analyzer diz que o tempo esperando input é ~1%") == ["input-bottleneck"]


def test_a_tpu_idle_most_of_the_step_speaks_against_low_mxu(engine):
    def against(text):
        return [h.entry_id for h in route(read_profile(text)) if h.rules_out]

    # the matrix units are empty because the TPU is: what keeps it waiting comes first
    assert "low-mxu" in against("MXU utilization: 3%, TPU idle time: 81%")
    assert "low-mxu" in against(
        "MXU utilization: 6%, 64.0% of the total step time is waiting for input"
    )
    # idle for a third of the step: the busy part's low MXU figure still counts
    assert "low-mxu" not in against("MXU utilization: 3%, TPU idle time: 35%")
    assert against("MXU utilization: 71%, TPU idle time: 81%") == []  # a good MXU figure
    report = (
        "Keras on a v3-8 with TPUStrategy, a small MLP, dataset cached in memory.\n"
        "Overview page: step time 11 ms, TPU idle time 74.5%, MXU utilization 2.7%.\n"
        "Your program is NOT input-bound because only 0.3% of the total step time sampled is "
        "waiting for input.\nWhy is it slower than my laptop GPU?"
    )
    a = engine.decide(engine.retrieve(report))
    assert a.results[0].id == "steps-per-execution"
    low = next(r for r in a.results if r.id == "low-mxu")
    assert any("TPU idle 74.5%" in w for w in low.why)


def test_this_versions_readings_of_a_pasted_run():
    # the overview's breakdown of a step in milliseconds, the input's part called Infeed
    p = read_profile("Average step time: 300.0 ms\n  Compute: 70.0 ms\n  Infeed: 225.0 ms")
    assert p.input_wait == 75.0
    assert _routed("Average step time: 300.0 ms\n  Infeed: 225.0 ms") == ["input-bottleneck"]
    # the memory viewer's buffer, its shape and label between the two sizes
    viewer = "Size: 2.00G\n  Shape: f32[256,256,256,2]{3,2,1,0:T(8,128)}\n  Unpadded size: 128.00M"
    assert read_profile(viewer).padding_expansion == 16.0
    # faster on synthetic data than on the real input: the input is what the TPU waits for
    faster = "2.8 steps/s with dummy data, 1.1 steps/s with the real tf.data pipeline"
    assert read_profile(faster).synthetic_faster == 1
    assert _routed(faster) == ["input-bottleneck"]
    assert read_profile("synthetic data gives the same step time").synthetic_faster is None
    assert read_profile("com dados sintéticos fica bem mais rápido").synthetic_faster == 1
    # a config's flag for it, then the step time it measured
    maxtext = "4.8 s/step on C4; with dataset_type=synthetic I got 1.25 s/step (~43% MFU)"
    assert read_profile(maxtext).synthetic_faster == 1
    same = "TPU idle 40%; with dataset_type=synthetic I got 1.25 s/step, the same as the real run"
    assert read_profile(same).synthetic_faster is None
    # the fake data named by the call that makes it, "a fake dataset" too
    fake = "swapped in a fake one returning torch.randn tensors -> 9.8 it/s"
    assert read_profile(fake).synthetic_faster == 1
    assert read_profile("with a fake dataset it goes faster").synthetic_faster == 1
    # ... which agrees with a host busy producing the input: both findings weigh more together
    both = fake + "\n8 python processes at ~100% each, the other 88 vCPUs basically idle"
    (hit,) = route(read_profile(both))
    assert hit.entry_id == "input-bottleneck" and hit.weight == AGREEING
    # one jitted function compiled again: a new input shape
    log = "\n".join(
        f"WARNING:absl:Finished XLA compilation of jit(train_step) in {s}s" for s in (40.1, 38.7)
    )
    assert read_profile(log).jit_recompiles == 2
    assert _routed(log) == ["dynamic-shape"]
    once = "Finished XLA compilation of jit(train_step) in 40.1s\nFinished XLA compilation of jit(eval_step) in 9.0s"
    assert read_profile(once).jit_recompiles is None  # two functions, once each
    # ... compiled again for the very same input shapes: the cache key changed (a static argument
    # with a new value, a function jitted anew), not a shape; dynamic-shape is ruled out
    compiled = (
        "WARNING:jax._src.interpreters.pxla:Compiling train_step for with global shapes and types "
    )
    same = "\n".join(
        [
            compiled
            + "[ShapedArray(float32[64,128]), ShapedArray(int32[64])]. Argument mapping: (x,)."
        ]
        * 3
    )
    assert read_profile(same).jit_same_shapes == 1 and read_profile(same).jit_recompiles == 3
    assert {(h.entry_id, h.rules_out) for h in route(read_profile(same))} == {
        ("dynamic-shape", True)
    }
    grown = "\n".join(
        compiled + f"[ShapedArray(int32[64,{n}])]. Argument mapping: (x,)." for n in (87, 112)
    )
    assert read_profile(grown).jit_same_shapes is None and _routed(grown) == ["dynamic-shape"]
    # ... and the new shapes, shown by the log, are the problem measured; counted compilations
    # that show no shapes are evidence only
    assert read_profile(grown).jit_new_shapes == 1
    assert [h.weight for h in route(read_profile(grown))] == [0.8]
    # JAX logs its compilations on a GPU too: no evidence of a TPU
    assert not any(h.tpu_evidence for h in route(read_profile(grown)))
    assert read_profile(log).jit_new_shapes is None
    assert [h.weight for h in route(read_profile(log))] == [0.6]
    # a model dimension changed off the 128 tile and measured: padding, not the matrix units
    changed = read_profile("mudei o d_model de 512 pra 520 e ficou mais lento")
    assert (changed.previous_width, changed.model_width) == (512, 520)
    hits = {(h.entry_id, h.rules_out): h.weight for h in route(changed)}
    assert hits == {("tensor-padding", False): 0.8, ("low-mxu", True): 0.5}
    assert read_profile("Hidden size 128 -> 130 makes it 40% slower").model_width == 130
    assert read_profile("d_model from 1000 to 1024").previous_width == 1000
    # a figure given as a change: the run's figure now is the one it changed to
    assert read_profile("MXU utilization went from 48% to 29%").mxu_utilization == 29.0
    assert read_profile("a utilização da MXU caiu de 48% pra 29%").mxu_utilization == 29.0
    assert read_profile("TPU idle 62%, 48.2% of the step waiting for input").tpu_idle == 62.0


def test_overview_duty_cycle_and_breakdown_are_read():
    assert read_profile("TPU Duty Cycle: 7.8%").tpu_idle == 92.2
    assert read_profile("duty cycle ~35%, input time 1.1%").to_dict() == {
        "tpu_idle": 65.0,
        "input_wait": 1.1,
    }
    # a duty cycle named in a sentence does not own a figure further on
    assert not read_profile("The duty cycle is low and memory is like 4%.")
    # an explicit TPU idle figure wins over one derived from the duty cycle
    assert read_profile("TPU idle time: 40%, TPU Duty Cycle: 90%").tpu_idle == 40.0
    # said in a sentence, with a verb and an adverb between the name and its value
    for text in (
        "TPU duty cycle is only 20% in tpu-info",
        "the duty cycle stays around 20% the whole epoch",
        "o duty cycle fica em 20%",
        "duty cycle de apenas 20%",
    ):
        assert read_profile(text).tpu_idle == 80.0, text
    # the breakdown as copied, a duration and then its share of the step in brackets
    assert read_profile("TPU idle: 225.9 ms (92.2%)").tpu_idle == 92.2
    assert read_profile("Host idle time: 3.1 ms (4%)").host_idle == 4.0
    assert read_profile("TPU idle: 225.9 ms").tpu_idle is None  # a duration is no share
    assert read_profile("MFU is about 12% on the v5e").mfu == 12.0
    assert not read_profile("the duty cycle page took 100% of my attention")


def test_device_memory_in_use_is_read_against_its_capacity():
    for text, used in [
        ("xm.get_memory_info per device: about 1.1 GB used out of ~15.7 GB", 7.0),
        # the capacity without its unit, per chip: the used size's unit
        ("xm.get_memory_info says roughly 3 GB used of 16 per chip", 18.8),
        ("TPU memory usage: ~1.1 GiB / 16 GiB per core", 6.9),
        ("HBM usage: 1.9 GiB of 32 GiB per chip", 5.9),
        ("uso de memória 1,1 GB de 16 GB", 6.9),
        ("HBM utilization: 7%", 7.0),
        ("the memory profile shows peak ~2 GB used per core out of 16 GB", 12.5),
    ]:
        assert read_profile(text).memory_used == used, text
    # an out-of-memory error's figures are over capacity: not a share of memory in use
    assert (
        read_profile("Ran out of memory in memory space hbm. Used 17.31G of 15.48G hbm").memory_used
        is None
    )
    assert read_profile("batch size is 8 per device").per_core_batch == 8
    assert read_profile("batch_size=16 per device, bf16").per_core_batch == 16
    # a change of it: the number it went to
    assert read_profile("so it went from 16 per chip to 4 per chip").per_core_batch == 4
    # a fraction of an example per device (MaxText shares one among devices) is no batch of 0
    assert read_profile("per_device_batch_size=0.25 with fsdp").per_core_batch is None
    assert (
        read_profile("per_device_batch_size=0.5, later per_device_batch_size=2").per_core_batch == 2
    )
    assert read_profile("per-chip batch\n256").per_core_batch == 256  # a table's column
    # in brackets after the global batch
    assert read_profile("Global batch 16 (2 per chip) because").per_core_batch == 2
    assert read_profile("batch 256 (32/core), bf16").per_core_batch == 32
    # the rows themselves per device; a throughput per device is no batch
    # the overview's step-time breakdown as columns: the input's share of the step
    breakdown = "Average step time   412.6 ms\n  Compilation   0.0 ms\n  Input      318.9 ms\n"
    assert read_profile(breakdown).input_wait == 77.3
    assert read_profile("global batch 16, so 2 images per core").per_core_batch == 2
    assert read_profile("lote global 64, ou seja 8 imagens por núcleo").per_core_batch == 8
    assert read_profile("about 420 images per second per core").per_core_batch is None
    assert read_profile("lote global de 64 (8 por chip)").per_core_batch == 8
    assert read_profile("batch 64 (see above) per chip").per_core_batch is None
    # a question about the batch, whose next sentence starts with a number, states no batch
    assert (
        read_profile("Which per-device batch is sane? 2 ideas come to mind").per_core_batch is None
    )


# `tpu-info` on a v6e-4 TPU VM during a run (the layout of the tool's current release)
TPU_INFO = """TPU Chips
┏━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━┓
┃ Chip         ┃ Type         ┃ Devices ┃ PID    ┃
┡━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━┩
│ /dev/vfio/0  │ TPU v6e chip │ 1       │ 2311   │
│ /dev/vfio/1  │ TPU v6e chip │ 1       │ 2311   │
└──────────────┴──────────────┴─────────┴────────┘
TPU Runtime Utilization
┏━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┓
┃ Chip   ┃ HBM usage            ┃ Duty cycle ┃
┡━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━┩
│ 0      │ 2.10 GiB / 31.25 GiB │     21.40% │
│ 1      │ 2.10 GiB / 31.25 GiB │     20.60% │
└────────┴──────────────────────┴────────────┘
TensorCore Utilization
┏━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Core ID ┃ TensorCore Utilization ┃
┡━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━┩
│ 0       │                  6.10% │
│ 1       │                  5.90% │
└─────────┴────────────────────────┘
"""


def test_tpu_info_tables_are_read_per_chip():
    # the duty cycle is the busy share (idle is the rest), the HBM usage a share of capacity;
    # each the mean over the chips; the TensorCore table and the PIDs are not those figures
    assert read_profile(TPU_INFO).to_dict() == {"tpu_idle": 79.0, "memory_used": 6.7}
    # an older release names the column "Memory usage"; a plain-text paste has no rules
    plain = (
        "Device  Memory usage          Duty cycle\n0       30.1 GiB / 31.25 GiB  97.5%\n"
        "TensorCore Utilization\nCore ID  TensorCore Utilization\n0        3.0%\n"
    )
    assert read_profile(plain).to_dict() == {"tpu_idle": 2.5, "memory_used": 96.3}
    # a figure said in words is not overridden by the table
    assert read_profile("TPU idle time: 40%\n" + TPU_INFO).tpu_idle == 40.0
    # a table without those columns gives nothing
    assert not read_profile(TPU_INFO.split("TPU Runtime")[0])


def test_a_pasted_tpu_info_is_a_slow_run_not_an_out_of_memory_error(engine):
    answer = engine.ask(TPU_INFO)
    assert answer.lang == "en"  # the "e" of "v6e" is not Portuguese
    assert answer.facts.profile == {"tpu_idle": 79.0, "memory_used": 6.7}
    # the answer points at the table that holds the figures
    why = " ".join(answer.results[0].why)
    assert "(line 10)" in why or "(linha 10)" in why, why
    top = [r.id for r in answer.results[:2]]
    assert "hbm-oom" not in top and set(top) <= {"small-batch", "input-bottleneck"}


def test_low_memory_use_routes_to_a_small_batch_unless_the_input_waits():
    assert _routed("HBM usage: 1.9 GiB of 32 GiB, input time 2%") == ["small-batch"]
    assert _routed("HBM usage: 1.9 GiB of 32 GiB, input time 45%") == ["input-bottleneck"]
    assert _routed("HBM usage: 9 GiB of 16 GiB") == []
    assert _routed("HBM usage: 1.9 GiB of 32 GiB", shows_error=True) == []
    # ... with "the" before the capacity
    assert (
        read_profile("the memory profile shows ~3.5 GiB used of the 32 GiB per chip").memory_used
        == 10.9
    )


def test_a_low_mxu_figure_beside_mostly_free_memory_tips_it_to_a_small_batch(engine):
    # the batch leaves the matrix units unfilled: the memory figure explains the MXU figure, and
    # outweighs the low-mxu entry's own reading of it (a signature of weight 0.8)
    text = "TPU v4 profile: HBM usage 3 GB of 32 GB, MXU utilization 9%, step time 20 ms"
    weights = {h.entry_id: h.weight for h in route(read_profile(text))}
    assert weights == {"small-batch": 0.9, "low-mxu": 0.6}
    assert {h.entry_id: h.weight for h in route(read_profile("HBM usage 3 GB of 32 GB"))} == {
        "small-batch": 0.6
    }
    answer = engine.ask(text + " with a per-core batch of 8. Should I change something?")
    assert not answer.abstained and answer.results[0].id == "small-batch"


def test_narrow_layers_are_evidence_of_padding_only_where_the_report_names_padding():
    narrow = "MLP: 40 input features -> 64 -> 32 -> 16 -> 1, batch 4096 per core, slower than CPU"
    assert _routed(narrow) == ["small-layers"]
    assert read_profile(narrow).padding_named is None
    padded = narrow + "; is the padding of those widths to 128 what costs the time?"
    assert read_profile(padded).padding_named == 1
    assert _routed(padded) == ["small-layers", "tensor-padding"]
    # padding named with no widths read is no figure
    assert read_profile("the memory viewer shows padding").padding_named is None


def test_mostly_free_memory_beside_a_per_core_batch_at_the_guides_ideal_is_no_small_batch():
    # 128 per core is the guide's ideal: with that batch, free memory does not say it is small
    assert _routed("HBM usage: 1.9 GiB of 32 GiB, batch 4096 per chip") == []
    assert _routed("HBM usage: 1.9 GiB of 32 GiB, batch 64 per chip") == ["small-batch"]
    # in Portuguese word order, the FLOPS figure is read too
    assert read_profile("a utilização de FLOPS fica em 2%").flops_utilization == 2.0


def test_a_low_mxu_figure_beside_a_tiny_per_core_batch_tips_it_to_a_small_batch():
    # a few rows per core cannot fill the matrix units: the batch explains the figure, as narrow
    # layers do, and low-mxu's rule of a busy TPU steps aside
    text = "global batch 32 (4 per chip), FLOPS utilization about 5%, step time 45 ms"
    assert {h.entry_id: h.weight for h in route(read_profile(text))} == {"small-batch": 0.9}
    assert {h.entry_id: h.weight for h in route(read_profile("per-core batch 4"))} == {
        "small-batch": 0.6
    }
    # a batch lowered to fit in memory is not the cause of the low figure
    lowered = "per-core batch 2 or it runs out of memory; MXU utilization 6%"
    weights = {h.entry_id: h.weight for h in route(read_profile(lowered))}
    assert "small-batch" not in weights and weights["low-mxu"] == 0.6


NARROW_MLP = """
x = layers.Dense(48, activation="relu")(x)
x = layers.Dense(24, activation="relu")(x)
out = layers.Dense(1, activation="sigmoid")(x)
"""


def test_narrow_layers_in_the_code_route_to_small_layers_and_padding():
    def _routed(text, shows_error=False):
        return {h.entry_id: h.weight for h in route(read_profile(text), shows_error)}

    assert read_profile(NARROW_MLP).widest_layer == 48
    assert read_profile("nn.Linear(40, 64), nn.Linear(64, 32)").widest_layer == 64
    # a CNN's blocks as filter counts in words; an image's shape or kernel sizes are not widths
    assert read_profile("conv blocks with 16, 32, 32 and 64 filters").widest_layer == 64
    assert read_profile("4 blocos conv com 16, 32, 32, 64 filtros").widest_layer == 64
    assert read_profile("São 6 conv1d com 32 e 48 canais (kernel 3)").widest_layer == 48
    assert read_profile("two conv layers with 32 and 64 filters").widest_layer == 64
    assert read_profile("resized to 224, 224 and 3 channels").widest_layer is None
    assert read_profile("we tried 3, 5 filters").widest_layer is None
    assert read_profile("h = nn.Dense(features=32)(x); y = nn.Dense(16)(h)").widest_layer == 32
    # Flax's tabulate() table, a row per layer: the kernels' output features
    table = "│ Dense_0 │ kernel: float32[40,32] │\n│ Dense_1 │ kernel: float32[32,64] │"
    assert read_profile(table).widest_layer == 64
    assert (
        read_profile("│ Conv_0 │ kernel: bfloat16[3,3,3,96] │\n│ kernel: f32[96,10]").widest_layer
        == 96
    )
    # the MXU's width is not narrow; one layer alone (a classifier head) does not show the model
    assert read_profile("Dense(512), Dense(10)").widest_layer == 512
    assert read_profile("model.add(Dense(10))").widest_layer is None
    # an MLP's hidden width said in words
    for text in (
        "RL value net: MLP with 4 layers, hidden 64, input 48, output 1",
        "a 3-layer MLP, hidden_dim=64",
        "two layers of 64 hidden units",
        "um MLP com 3 camadas ocultas de 64",
        "embeddings of dim 32, concatenated, then 6 Dense layers of width 64 with ReLU",
        "hidden layers of size 64",
    ):
        assert read_profile(text).widest_layer == 64, text
    # a transformer's hidden_size is its model width, and "hidden" alone is no width
    assert read_profile("12 layers, hidden_size 768").widest_layer is None
    assert read_profile("I have 64 hidden states").widest_layer is None
    assert _routed(NARROW_MLP) == {"small-layers": 0.6}
    # ... and padding's cost where the report names it
    padded = NARROW_MLP + "Does padding these widths to 128 waste memory?"
    assert _routed(padded) == {"small-layers": 0.6, "tensor-padding": 0.6}
    # a low MXU figure as well is explained by the narrow layers: small-layers, not low-mxu
    both = _routed(padded + "MXU utilization: 3%, TPU idle time 2%")
    assert both["small-layers"] > both["tensor-padding"] and "low-mxu" not in both
    # an idle TPU is not held back by its layers; a toy model beside an error says nothing
    assert "small-layers" not in _routed(NARROW_MLP + "TPU idle time: 70%")
    assert _routed(NARROW_MLP, shows_error=True) == {}


METRICS_REPORT = """Metric: CompileTime
  TotalSamples: {compiles}
  Accumulator: 16s842ms200.190us
  ValueRate: 752ms322.271us / second
Metric: ExecuteTime
  TotalSamples: {executes}
  Accumulator: 03m21s"""


def test_pytorch_xla_metrics_report_routes_recompilation_to_dynamic_shapes():
    def _routed(compiles, executes):
        text = METRICS_REPORT.format(compiles=compiles, executes=executes)
        return [(h.entry_id, h.matched) for h in route(read_profile(text))]

    figures = read_profile(METRICS_REPORT.format(compiles=112, executes=760))
    assert (figures.compile_count, figures.execute_count) == (112, 760)
    assert _routed(112, 760) == [("dynamic-shape", "112 XLA compilations for 760 executions")]
    # A handful of graphs compiled once, then executed thousands of times: healthy.
    assert _routed(4, 5000) == []
    # Many compilations, but a tiny share of a very long run: not the shapes changing every step.
    assert _routed(12, 100_000) == []
    # a compilation for nearly every execution: the problem measured, as strong as a signature
    (hit,) = route(read_profile(METRICS_REPORT.format(compiles=57, executes=61)))
    assert hit.entry_id == "dynamic-shape" and hit.weight == MEASURED
    (hit,) = route(read_profile(METRICS_REPORT.format(compiles=112, executes=760)))
    assert hit.weight < MEASURED


def test_most_of_the_step_waiting_for_input_is_the_input_bottleneck_measured():
    # the profiler's own figure for half the step or more weighs as much as a signature; a
    # smaller share still names the entry, at the weight of a figure that suggests it
    (hit,) = [
        h
        for h in route(read_profile("waiting for input: 93.9%"))
        if h.signature_id == "profile:input-bound"
    ]
    assert hit.entry_id == "input-bottleneck" and hit.weight == MEASURED
    (hit,) = [
        h
        for h in route(read_profile("waiting for input: 31%"))
        if h.signature_id == "profile:input-bound"
    ]
    assert hit.weight < MEASURED
    # the line the answer shows is the metric's name, its count being on the next line
    assert names_a_figure("Metric: CompileTime") and names_a_figure("Metric: ExecuteReplicatedTime")
    assert not names_a_figure("  TotalSamples: 57")


def test_pytorch_xla_metrics_report_routes_a_value_read_every_step_to_the_host_round_trip():
    def _routed(reads, executes=3451, metric="ExecuteReplicatedTime"):
        text = METRICS_REPORT.format(compiles=3, executes=executes).replace("ExecuteTime", metric)
        text += f"\nCounter: aten::_local_scalar_dense\n  Value: {reads}"
        return [(h.entry_id, h.matched) for h in route(read_profile(text))]

    # `.item()` twice a step: the loop waits for the device at every step
    assert _routed(6902) == [
        ("steps-per-execution", "6902 values read back to Python for 3451 graph executions")
    ]
    assert _routed(6902, metric="ExecuteTime")[0][0] == "steps-per-execution"
    # a loss logged every 100 steps is not a loop that waits every step
    assert _routed(35) == []


def test_profile_figures_show_in_facts_and_why(engine):
    a = engine.ask(
        "training on my v3-8 is slow; the overview page says Utilization of TPU Matrix "
        "Units: 2.1% and TPU idle time: 0.4%"
    )
    assert a.facts.profile == {"mxu_utilization": 2.1, "tpu_idle": 0.4}
    assert a.best.id == "low-mxu"
    assert any("MXU utilization 2.1%" in w for w in a.best.why)
    # ... and in the answer's language
    pt = engine.ask(
        "o treino na minha v3-8 está lento; a página de visão geral diz utilização da MXU: 2,1% "
        "e tempo ocioso da TPU: 0,4%",
        lang="pt",
    )
    assert any("utilização da MXU 2.1%" in w and "TPU ociosa 0.4%" in w for w in pt.best.why)


def test_title_names_the_subject_device():
    """A report whose heading names another device and no TPU is about that device, whatever its
    body says of TPUs; a comparison, a log's first record or a lead-in line is no heading."""
    body = "\n\nThe same script runs under torch_xla on our TPU v3-8; here it fails:\n" + (
        "RuntimeError: lowering for aten::grid_sampler_2d_backward is missing\n"
    )
    on_gpu = parse("grid_sampler backward falls back to the CPU on the GPU" + body).context
    assert on_gpu["subject"] == ["gpu"] and on_gpu["tpu"] and on_gpu["gate"] == "device"
    assert explain_context(on_gpu, "en") == [
        "context: the title is about another device (gpu) and names no TPU — confidence lowered"
    ]
    for not_a_subject in (
        "grid_sampler backward is 5x slower on the v3-8 than on a T4" + body,  # names the TPU
        "Slower on one chip than on an RTX 3090" + body,  # a comparison
        "Same model, 4x A100 run:\nstep 100 loss 2.1\nTPUStrategy on a v3-8:\nstep 100 loss 2.4",
        "W0105 12:00:01.000 cuda_dnn.cc:9261] Unable to register cuDNN factory\n\nthen on the "
        "TPU VM:\nRuntimeError: lowering for aten::grid_sampler_2d_backward is missing",
        "2025-01-05 12:00:01.000: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8310] "
        "Unable to register cuDNN factory\n\nRuntimeError: torch_xla lowering is missing",
        "No registered 'Empty' OpKernel for XLA_CPU_JIT devices" + body,  # a TPU job's host side
    ):
        context = parse(not_a_subject).context
        assert context["subject"] == [] and context["gate"] is None, not_a_subject


def test_a_report_about_another_device_is_refused_with_its_heading_as_the_reason(engine):
    report = (
        "Pytorch-xla crashes on my A100 GPU\n\nThe same script ran under torch_xla on a TPU v3-8 "
        "last month. Now with PJRT_DEVICE=CUDA:\nRuntimeError: torch_xla/csrc/aten_xla_bridge.cpp"
        ":110 : Check failed: xtensor\n"
    )
    answer = engine.ask(report)
    assert answer.abstained and answer.facts.context["subject"] == ["a100", "gpu"]
    hint = context_hint(answer.facts, "en")
    assert hint and hint.startswith("Its first line is about another device (a100, gpu)")
    assert context_hint(answer.facts, "pt").startswith("A primeira linha fala de outro dispositivo")


def test_a_refusal_naming_a_tpu_and_another_device_asks_which_run_it_is():
    both = parse(
        "torch_xla ran on the v3-8 last month; on the A100 box now: CUDA error: out of memory"
    )
    hint = context_hint(both, "en")
    assert hint and hint.startswith("It shows signs of a TPU (torch_xla, v3-8)")
    assert "another device (a100, cuda)" in hint
    assert context_hint(both, "pt").startswith("Tem sinais de TPU")
    # XLA's host CPU device beside a TPU is the TPU job's own host: no question to ask
    host = parse("No registered 'PyFunc' OpKernel for XLA_CPU_JIT devices on the v3-8 TPU")
    assert context_hint(host, "en") is None


def test_context_gate():
    assert read_context("No registered 'PyFunc' OpKernel for XLA_GPU_JIT devices").gate == "device"
    assert read_context("CUDA out of memory on my A100").gate == "device"
    for card in ("GTX 1080 (8GiB)", "a GeForce card", "Tesla P100-PCIE-16GB", "a Radeon VII"):
        assert read_context(f"Failed to allocate request for 128.00MiB on {card}").gate == "device"
    assert (
        read_context("CUDA out of memory, but the same model OOMs on the v3-8 TPU too").gate is None
    )
    assert read_context("the Edge TPU compiler maps fewer ops").gate == "device"
    # beside an Edge TPU or a phone's TPU, a bare "TPU" is that chip; a Cloud TPU's names count
    for edge in (
        "edgetpu_compiler: 9 ops will run on CPU. Why doesn't the TPU support RESIZE_BILINEAR?",
        "How do I run my TFLite model on the Pixel's TPU? NNAPI is as slow as the CPU",
        "o modelo roda na CPU e não na TPU do Pixel 8, mesmo com o delegate NNAPI",
    ):
        assert read_context(edge).gate == "device", edge
    assert "v4-8" in read_context("trained on a v4-8, now the Coral TPU rejects ops").tpu
    # a TPU only likened to this GPU run is not the run
    likened = "NCCL watchdog timeout on 8 H100s; is this the same kind of thing as the TPU hangs?"
    assert read_context(likened).gate == "device"
    # ... nor the TPU other people use
    for others in (
        "ssh to our lab box with two RTX 4090s drops every night; the folks who use the TPU see it too",
        "o servidor com as A100 derruba o ssh; o pessoal que usa a TPU falou que acontece igual",
    ):
        assert read_context(others).gate == "device", others
    # ... nor the TPU a person says is nowhere
    assert read_context("two RTX 3090s, no TPU anywhere, torch_xla pinned").tpu == ["torch_xla"]

    # ... nor a TPU generation still to come
    planned = "PJRT_DEVICE=CPU on my laptop before moving to v5e: each step takes 14 s on the TPU?"
    assert read_context("Antes de subir pra v5e, testei com PJRT_DEVICE=CPU").gate == "device"
    later = "tokenizo numa n2-standard-16 pra depois treinar no MaxText numa v5p-128; o ssh cai"
    assert read_context(later).tpu == [] and read_context(later).gate == "service"
    assert read_context(planned).gate == "device"
    assert (
        read_context("NCCL timeout on my H100s, and the same job on a v4-8 hangs too").gate is None
    )
    # other accelerators with an XLA or PyTorch stack of their own
    for other in (
        "jax-metal on a MacBook: UNIMPLEMENTED on the METAL device",
        "torch_npu on an Ascend 910B runs out of memory",
        "neuronx-cc fails to compile the graph on trn1",
        "the model is too large for tile memory on a Graphcore Bow (poplar error)",
        "Gaudi2 in lazy mode: graph compilations keep growing in PT_HPU_METRICS_FILE",
        "habana_frameworks.torch.core.mark_step() hangs after the first epoch",
        "torch.xpu.device_count() is 0 on my Intel Arc A770 (ipex 2.1)",
        "neuron-top shows the NeuronCores at 5% while training",
        "the loss plateaus on mps with my M2 Max but not on the cpu",
    ):
        assert read_context(other).gate == "device", other
    # a run said to be on the CPU alone, the TPU still a plan
    for cpu in (
        "DataLoader hangs on my CPU-only VM; I'll move the job to a TPU later",
        "Before launching on our TPU VM I do a CPU debug run: it never reaches step 1",
        "rodando no meu note (cpu mesmo) antes de subir pra TPU, o treino trava na época 2",
        "JAX no notebook (só CPU, ainda não subi pra TPU) recompila a cada passo",
        "jax na minha RTX 4090 (cuda12) pra testar antes de ir pra TPU: o trace mostra 22% em GEMM",
        "stuck at the first batch on a CPU-only VM. Will this problem also happen with "
        "MpDeviceLoader on TPU?",
        "tf.function retraces on every call on my CPU-only laptop; we'll move to TPU next month",
        "jit_compile=True is slow on my CPU-only laptop, I wanted to try XLA before renting one of "
        "the TPUs",
        "meu PC com a CPU só (cpu mesmo) trava no DataLoader, antes de pagar TPU no GCP quero "
        "resolver isso",
        "a CPU-only preprocessing job that writes shards for a later TPU run dies overnight",
        "the TPU wasn't available so I ran the notebook on the T4; the epoch never ends",
        "a TPU não tava disponível então tô na GPU do Colab, e a época 1 não termina",
        "vale a pena migrar meu treino de 4x A100 pra TPU? o código é PyTorch puro com DDP",
    ):
        assert read_context(cpu).gate == "device", cpu
    # the host CPU of a TPU run is no other device
    assert read_context("TPU v4-8 idle, the host CPU at 100% in the input pipeline").gate is None
    assert read_context("the CPU-only run works, on the v4-8 it hangs at step 0").gate is None
    assert (
        read_context("Request had insufficient authentication scopes from aiplatform.init()").gate
        == "service"
    )
    assert (
        read_context("ERROR: (gcloud.compute.ssh) Could not SSH into the instance").gate
        == "service"
    )
    assert read_context("gcloud compute tpus tpu-vm ssh my-tpu failed").gate is None
    # a plain VM named in words, not only by its gcloud command
    for vm in (
        "my Compute Engine instance",
        "a GCE VM in us-central1",
        "compute engine virtual machine",
        "a VM do Compute Engine",
        "uma instância do GCE",
    ):
        assert read_context(f"ssh to {vm} times out on port 22").gate == "service", vm
    assert read_context("ssh to the TPU VM, not my Compute Engine instance, times out").gate is None
    # a GeForce card by its number alone, Compute Engine's GPU machine types
    assert read_context("torch.compile on my 4090 recompiles every batch").gate == "device"
    assert read_context("4 x a3-highgpu-8g nodes with jax.distributed").gate == "device"
    assert read_context("the server listens on port 4090").gate is None
    # a TPU "not available" with no other device to go to is one that cannot be reached
    assert read_context("TPU is not available, jax.devices() lists only the CPU").tpu == ["tpu"]
    assert (
        read_context("a Cloud Run job that shards CSVs before the TPU training kicks off").tpu == []
    )
    # a Cloud Workstation is a development machine, not a TPU VM
    assert read_context("my Cloud Workstation drops the terminal after an hour").gate == "service"


def _about_another_device(text):
    """`text` shows no TPU, and the other device it names gates it."""
    context = read_context(text)
    assert context.tpu == [], text
    assert context.gate == "device", text


def test_a_tpu_that_runs_no_step_at_all_is_not_slow_between_steps():
    # a duty cycle of 0% is a TPU hung, stopped or not started: no input or host-loop reading
    assert read_profile("duty cycle at 0% for 7 hours").tpu_idle == 100.0
    assert _routed("TPU duty cycle at 0% for 7 hours, processes still alive") == []
    assert _routed("TPU idle 80% between steps") == ["input-bottleneck", "steps-per-execution"]


def test_a_tpu_left_for_a_gpu_is_not_the_run():
    ported = "we ported our JAX model from v5p to a3-highgpu-8g. On TPU we used the op profile"
    assert read_context(ported).tpu == [] and read_context(ported).gate == "device"
    assert read_context("migramos da TPU pra GPU H100 e o profiler não mostra as ops").tpu == []
    # a move from one TPU to another is still a TPU run
    assert read_context("we moved from a v3-8 to a v4-8 and the step got slower").tpu == [
        "v3-8",
        "v4-8",
    ]


def test_pytorch_xla_named_in_a_title_is_tpu_evidence():
    title = "Why did dynamic padding make my PyTorch/XLA run so much slower? On GPU it was a win."
    assert "pytorch/xla" in read_context(title).tpu
    # ... unless PyTorch/XLA is said to run on another device
    assert read_context("PyTorch/XLA with PJRT_DEVICE=CUDA on our A100s").tpu == []


def test_a_run_on_a_tpu_is_told_by_what_only_a_tpu_has():
    # compared with another device, a TPU named by what only a TPU has is still where it ran
    compared = read_context("84% on the Kaggle P100, 71% with TPUStrategy on the TPU VM v3-8")
    assert names_a_tpu_run(compared.to_dict()) and not tpu_host_only(compared.to_dict())
    # the bare word, or PyTorch/XLA installed on a GPU machine, is not
    for other in ("is the TPU the same as my RTX 4090?", "torch_xla pinned on our A100 box"):
        assert not names_a_tpu_run(read_context(other).to_dict()), other


def test_a_tpu_the_person_does_not_use_is_no_evidence():
    # the person says the report is not about a TPU: the word names the TPU it is not about
    for disowned in (
        "TrainingArguments raises the XLA error though I am not using TPU. I am working on GPU only",
        "I don't have a TPU; the CUDA run fails with this",
        "we're not on TPU, this is a single V100",
        "the same script on GPU, without a TPU, crashes",
        "não estou usando TPU, só a GPU do Colab",
        "rodando sem TPU na minha GPU dá o mesmo erro",
        "my GPU desktop doesn't have anything to do with TPUs, yet TensorFlow prints this",
        "minha máquina com GPU não tem nada a ver com TPU e mostra esse aviso",
        "a VM com a T4 (não é TPU, é a de pré-processamento) trava no ssh",
        "não é TPU mas é o mesmo projeto: a VM e2-medium com a T4 trava no ssh",
        "Not the TPU itself. The n1 VM with a T4 next to it drops the ssh session",
    ):
        _about_another_device(disowned)
    # failures to reach a TPU are TPU evidence; so is a TPU named elsewhere in the input
    for failing in (
        "could not run on TPU because roi_align has no XLA kernel",
        "RuntimeError: No TPU devices were found",
        "TPU not found on the Colab runtime",
        "the run without a TPU (on my GPU) works, on the v3-8 it hangs",
    ):
        assert read_context(failing).tpu, failing
    assert read_context("the Gemini API returns 403 PERMISSION_DENIED for my key").gate == "service"
    drive = "HttpError 403 when requesting https://www.googleapis.com/drive/v3/files returned"
    assert read_context(drive).gate == "service"
    # Lightning's start-up summary on a GPU run names the TPU only to say it is absent
    lightning = "GPU available: True, used: True\nTPU available: False, using: 0 TPU cores"
    assert read_context(lightning).gate == "device"
    assert read_context("TPU available: True, using: 8 TPU cores").tpu
    # JAX's fallback warning on a CPU-only machine says neither a TPU nor a GPU is there
    fallback = "WARNING:jax._src.lib.xla_bridge:No GPU/TPU found, falling back to CPU."
    assert not read_context(fallback).tpu and not read_context(fallback).device
    assert read_context(f"jax on my Colab TPU runtime only sees the CPU\n{fallback}").tpu
    # PyTorch/XLA's words mean a TPU, unless the report runs PyTorch/XLA on a GPU
    assert read_context("import torch_xla.core.xla_model as xm; xm.xla_device()").tpu
    # ... and so does its metrics report, pasted alone
    assert read_context("Counter: aten::upsample_nearest2d\n  Value: 88").tpu
    assert read_context("Metric: CompileTime\n  TotalSamples: 3").tpu
    assert not read_context("aten::mm took 3 ms on cuda:0 in the PyTorch profiler").tpu
    # APIs that exist only for TPUs
    for api in (
        "what does iterations_per_loop=100 in RunConfig change?",
        "does CrossShardOptimizer(opt) average the gradients or sum them?",
        "python xla_spawn.py --num_cores 8 run_glue.py hangs",
    ):
        assert read_context(api).tpu, api
    # the generations whose bare names mean nothing else; a bare v2, v3 or v4 can be a version
    named_tpu = ("my flax model does worse on v5e than on my A100", "a v6e slice", "Trillium")
    for named in (*named_tpu, "a queued resource fails with 403 from a Compute Engine VM"):
        assert read_context(named).tpu and read_context(named).gate is None, named
    for version in ("YOLO v4 training is slow", "TF v2 API", "the v3 model card"):
        assert not read_context(version).tpu, version
    on_gpu = (
        "GPU_NUM_DEVICES=1 python test_train_mp_mnist.py is slower with torch_xla than with cuda",
        "PJRT_DEVICE=CUDA python train.py; device = xm.xla_device() on my RTX 4090",
        "torch_xla on one V100, image gcr.io/tpu-pytorch/xla:nightly_3.8_cuda_11.8",
        # PyTorch/XLA on the laptop's CPU, the TPU only a plan
        "PJRT_DEVICE=CPU python train.py takes 9 s a step on my laptop, before moving to the TPU",
        # PyTorch/XLA said to be left out of the run
        "torch.compile with inductor on my RTX 4090 (no torch_xla involved in this run) recompiles",
    )
    for text in on_gpu:
        assert read_context(text).gate == "device", text
    # a TPU VM's debug run on the CPU keeps the TPU it names
    assert read_context("on the v4-8 I set PJRT_DEVICE=CPU to debug a shape").gate is None
    # the issue template's prompt names the TPU; the answer after it is what counts
    template = "- Reproducible on XLA backend [CPU/TPU]: Tesla T4 GPU\n- torch version: 2.1"
    assert read_context(template).gate == "device"
    assert read_context("- Reproducible on XLA backend [CPU/TPU]: TPU v3-8").gate is None
    # TensorFlow's and TF Addons' templates ask about the GPU of every reporter, TPU users too
    tf_template = "- CUDA/cuDNN version: N/A\n- GPU model and memory: N/A\n"
    assert read_context(tf_template + "- Is GPU used? (yes/no): TPU used").device == []
    assert read_context("**GPU model and memory**: Tesla V100 16GB").device == ["v100"]
    assert read_context("- CUDA/cuDNN version: CUDA 11.2, cuDNN 8").gate == "device"
    assert read_context("- Is GPU used? (yes/no): yes").gate == "device"
    assert read_context("jax on 8x A800 80GB runs out of memory").gate == "device"
    # a TPU named only among accelerator kinds is not one the report ran on ...
    for kinds in (
        "jnp.dot is slower on my GPU than on the CPU; NumPy uses no GPU or TPU acceleration",
        "the same NaN shows up on CPU/GPU/TPU alike, here on a GTX 1080",
        "does this layer support GPUs and TPUs? On my T4 it fails",
    ):
        assert read_context(kinds).gate == "device", kinds
    # ... a TPU named on its own still is, and so is a list of kinds with no other device named
    assert read_context("fine on GPU or CPU, but on the v3-8 TPU it fails").gate is None
    assert read_context("it fails on the TPU, and on GPU or TPU alike in Colab").gate is None
    assert read_context("should this run on TPU or CPU?").tpu
    assert read_context("my model trains slowly").gate is None
    # identifiers that carry TPU: JAX's device list, TensorFlow's TPU ops and layers
    assert read_context("jax.devices(): [TpuDevice(id=0, process_index=0)]").tpu == ["tpudevice"]
    assert read_context("TPUPartitionedCall and TPUEmbedding on a GPU box, CUDA").gate is None
    assert read_context("EdgeTpuDelegate failed to prepare").gate == "device"


def test_xla_cpu_device_on_a_tpu_host_is_not_a_look_alike():
    """XLA_CPU_JIT is what the host side of a TPU job compiles for: where the report names a TPU and
    no other hardware, the look-alike pattern naming it is lifted (`tpu_host_device`); where it
    names a GPU or CPU run, or no TPU, it stays."""
    op = "No registered 'DenseBincount' OpKernel for XLA_CPU_JIT devices"
    on_tpu = read_context(f"TPUEstimator on a v2-8 fails: {op}").to_dict()
    assert tpu_host_only(on_tpu)
    assert not tpu_host_only(read_context(op).to_dict())
    assert not tpu_host_only(read_context(f"fine on the TPU, on my RTX 3090: {op}").to_dict())
    assert not tpu_host_only(
        read_context("fine on the TPU; XLA_GPU_JIT fails with jit_compile").to_dict()
    )


def test_xla_first_stack_counts_half_as_tpu_evidence():
    """A JAX or bfloat16 report that names no device is likelier on a TPU than one naming nothing;
    one that names a GPU is not, and a TPU named counts in full (`decide.tpu_evidence`)."""
    from assistant.decide import STACK_EVIDENCE, tpu_evidence
    from assistant.retrieval.fusion import Evidence, Scored

    plain = Scored("steps-per-execution", 0.3, Evidence())
    jax_only = read_context("what do the jax.lax.scan substeps in the Flax train loop do?")
    assert jax_only.stack and not jax_only.tpu
    assert tpu_evidence(plain, jax_only.to_dict()) == STACK_EVIDENCE == 0.5
    on_gpu = read_context("bfloat16 weights make the JAX loss diverge on my A100")
    assert tpu_evidence(plain, on_gpu.to_dict()) == 0.0
    assert tpu_evidence(plain, read_context("the loss diverges after a while").to_dict()) == 0.0
    assert tpu_evidence(plain, read_context("jax on a v4-8 is slow").to_dict()) == 1.0
    # torch_xla is TPU evidence on its own; "xla" inside an identifier is not the stack's word
    assert not read_context("XLA_GPU_JIT fails").stack


def test_a_message_any_machine_prints_settles_its_entry_but_shows_no_tpu(engine):
    """ssh's "client_loop: send disconnect" names ssh-disconnect's problem on any server: its
    match settles the entry (`decide.settled`) but is no TPU evidence (`tpu_evidence: false` in
    the YAML), while a TPU-only message is (`decide.tpu_evidence`)."""
    from assistant.decide import settled, tpu_evidence
    from assistant.retrieval.fusion import fuse

    def best(text):
        r = engine.retrieve(text)
        return fuse(r.evidence, engine.params)[0], r.facts.context

    drop = "I got client_loop: send disconnect: Broken pipe after a few hours of running"
    top, context = best("Lost my session to the course server.\n" + drop)
    assert top.entry_id == "ssh-disconnect" and settled(top)
    assert tpu_evidence(top, context) == 0.0
    top, context = best("Lost my session to the TPU VM.\n" + drop)
    assert tpu_evidence(top, context) == 1.0  # the words name the TPU
    top, context = best(
        "RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm. Used 17G of 15G hbm"
    )
    assert top.entry_id == "hbm-oom" and not context["tpu"] and tpu_evidence(top, context) == 1.0
    plain = engine.ask("Lost my session to the course server.\n" + drop)
    on_tpu = engine.ask("Lost my session to the TPU VM.\n" + drop)
    assert plain.best.id == on_tpu.best.id == "ssh-disconnect"
    assert plain.best.confidence < on_tpu.best.confidence


def test_pytorch_xla_messages_from_another_xla_device_show_no_tpu(engine):
    """PyTorch/XLA's metrics report runs on AWS's Trainium (torch-neuronx) and on GPUs too: where
    the input names such a device and no TPU, its aten:: counters settle op-unavailable but show
    no TPU (`domain.xla_elsewhere`), and the answer is refused; on a TPU they are answered."""
    from assistant.decide import settled, tpu_evidence
    from assistant.retrieval.fusion import fuse

    counters = (
        "Counter: aten::_ctc_loss\n  Value: 400\nCounter: aten::_ctc_loss_backward\n  Value: 400"
    )
    for where in (
        "trn1.32xlarge with torch-neuronx, 400 steps in, the metrics report says:",
        "PJRT_DEVICE=CUDA on our A100 box, and met.metrics_report() after 400 steps:",
    ):
        r = engine.retrieve(f"{where}\n{counters}")
        top = fuse(r.evidence, engine.params)[0]
        assert top.entry_id == "op-unavailable" and settled(top), where
        assert xla_elsewhere(r.facts.context) and tpu_evidence(top, r.facts.context) == 0.0
        assert engine.ask(f"{where}\n{counters}").abstained, where
    on_tpu = engine.ask(f"v4-8 with torch_xla 2.4, the metrics report says:\n{counters}")
    assert not on_tpu.abstained and on_tpu.best.id == "op-unavailable"


def test_an_accelerator_left_unticked_in_a_template_checklist_names_no_device():
    """JAX's bug template asks "Which accelerator(s) are you using?" with a checklist: the items
    left unticked are devices the reporter did not use, the ticked ones are what they ran on."""
    template = (
        "### Which accelerator(s) are you using?\n\n- [X] CPU\n- [{gpu}] GPU\n- [{tpu}] TPU\n"
    )
    on_gpu = read_context("jaxlib built from source fails\n" + template.format(gpu="X", tpu=" "))
    assert on_gpu.tpu == [] and on_gpu.device == ["gpu"] and on_gpu.gate == "device"
    on_tpu = read_context("the step hangs\n" + template.format(gpu=" ", tpu="x"))
    assert on_tpu.tpu == ["tpu"] and on_tpu.device == [] and on_tpu.gate is None
    # a TPU named in the report itself still counts, whatever the checklist says
    assert read_context("on my v4-8 it hangs\n" + template.format(gpu="X", tpu=" ")).tpu
    # a box in the middle of prose is not a template item
    assert read_context("the form showed [ ] TPU, which I had not ticked").tpu


def test_probes_of_absent_backends_are_not_tpu_evidence():
    # JAX on a GPU box logs every backend it did not find; those lines name tpu_driver and tpu.
    gpu_box = (
        "W1103 08:12:44.120 xla_bridge.py:352] Unable to initialize backend 'tpu_driver': "
        "NOT_FOUND: Unable to find driver in registry given worker: local://\n"
        "W1103 08:12:44.300 xla_bridge.py:352] Unable to initialize backend 'tpu': "
        "INVALID_ARGUMENT: TpuPlatform is not available.\n"
        "I1103 08:12:44.310 xla_bridge.py:352] Unable to initialize backend 'rocm': NOT_FOUND: "
        'Could not find registered platform with name: "rocm". Available platform names are: '
        "Interpreter CUDA Host\n"
        "why does tpu_driver fail at start-up?"
    )
    ctx = read_context(gpu_box)
    assert ctx.tpu == [] and ctx.device == ["cuda"] and ctx.gate == "device"
    # A probe that reached a TPU and failed is evidence of one.
    busy = (
        "Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by process with "
        "pid 4120. Not attempting to load libtpu.so in this process."
    )
    assert "tpu" in read_context(busy).tpu
    # Other TPU evidence in the same log still counts.
    assert read_context(gpu_box + "\nnow on the v4-8 the step fails too").gate is None
    # An install with no TPU client at all: libtpu.so cannot be opened, or the jaxlib lacks one.
    for no_client in (
        "xla_bridge.py:889] Unable to initialize backend 'tpu': INTERNAL: Failed to open "
        "libtpu.so: libtpu.so: cannot open shared object file: No such file or directory\n"
        "running on an RTX 3090",
        "Unable to initialize backend 'tpu': module 'jaxlib.xla_extension' has no attribute "
        "'get_tpu_client'\nCUDA 11.7 on Ubuntu",
    ):
        ctx = read_context(no_client)
        assert ctx.tpu == [] and ctx.gate == "device", ctx
    # A TPU job's own log probing for the GPU backends, which the jaxlib cannot load, names no GPU
    tpu_job = (
        "I0612 21:02:10.114903 xla_bridge.py:660] Unable to initialize backend 'cuda': module "
        "'jaxlib.xla_extension' has no attribute 'GpuAllocatorConfig'\n"
        "I0612 21:02:13.880562 train.py:77] process 0/4 on the v4-32, local devices 4"
    )
    ctx = read_context(tpu_job)
    assert ctx.device == [] and ctx.tpu == ["v4-32"], ctx
    # Old jaxlib spelled the status codes out ("Not found:", "Invalid argument:") and logged the
    # local driver's start before finding none; on its own that start line still names a TPU.
    old_jaxlib = (
        "I0718 14:02:57.560250 139800994285376 tpu_client.py:54] Starting the local TPU driver.\n"
        "I0718 14:02:57.560675 139800994285376 xla_bridge.py:231] Unable to initialize backend "
        "'tpu_driver': Not found: Unable to find driver in registry given worker: local://\n"
        "I0718 14:02:57.776700 139800994285376 xla_bridge.py:231] Unable to initialize backend "
        "'tpu': Invalid argument: TpuPlatform is not available."
    )
    assert read_context(old_jaxlib).tpu == []
    assert read_context("tpu_client.py:54] Starting the local TPU driver.").tpu
    # TensorFlow's platform probe (old jaxlib prints it too) on a machine without a TPU
    probe = (
        "I external/org_tensorflow/tensorflow/stream_executor/tpu/tpu_platform_interface.cc:74] "
        "No TPU platform found.\nWARNING:absl:No GPU/TPU found, falling back to CPU."
    )
    assert read_context(probe).tpu == []
    assert read_context(f"on my v3-8 TPU VM jax only sees the CPU:\n{probe}").tpu
    # Today's stacks name the TPU without the word: PyTorch/XLA, identifiers, jax[tpu].
    for text in (
        "MpDeviceLoader is 15x slower than DataLoader",
        "xm.mark_step() after every batch",
        "_device=/job:tpu_worker/task:0/device:CPU:0",
        "pip install 'jax[tpu]'",
    ):
        assert read_context(text).tpu, text


def test_the_answer_says_which_context_lowered_confidence(engine):
    a = engine.ask(
        "InvalidArgumentError: Detected unsupported operations when trying to compile "
        "graph on XLA_GPU_JIT: EagerPyFunc (No registered 'EagerPyFunc' OpKernel for "
        "XLA_GPU_JIT devices compatible with node {{node EagerPyFunc}})"
    )
    assert a.facts.context["gate"] == "device"
    assert any(w.startswith("context:") for w in a.best.why)
    assert a.abstained


def test_the_answer_says_when_only_the_stack_named_the_hardware(engine):
    a = engine.ask(
        "Our Flax model trains with jax.lax.scan over 8 substeps per jitted call.\n"
        "The loss curve is fine but each call takes as long as 8 separate steps did.\n"
        "Does scanning several train steps inside one jit call save anything?"
    )
    assert a.facts.context["stack"] and not a.facts.context["tpu"]
    assert any("XLA-first" in w for w in a.results[0].why)
    pt = engine.ask("o treino em JAX com bfloat16 converge pior que em float32", lang="pt")
    assert any("pilha feita para o XLA" in w for w in pt.results[0].why)


def test_bfloat16_alone_is_no_sign_of_a_tpu():
    """Every current GPU trains in bfloat16: a report that names it and no TPU, no XLA stack and
    no device has no TPU evidence at all, not half of it."""
    context = read_context(
        "I switched the model's parameters to bf16 (bfloat16) and it converges much worse than "
        "in fp32 with the same settings."
    )
    assert not context.stack and not context.tpu
    assert read_context("the same model in bfloat16 under jax.jit converges worse").stack == ["jax"]


@pytest.mark.parametrize(
    "text",
    [
        # written for this test: one-liners that name another service or a plain VM, no TPU
        "gcloud compute ssh build-box --zone=us-east1-c: port 22: Connection timed out",
        "HttpError 403 insufficient authentication scopes from the Google Drive API in my notebook",
    ],
)
def test_a_one_line_report_about_another_service_is_refused(engine, text):
    """A short input gives little context by its length, but one that names a plain VM or another
    Google API and no TPU does: its missing TPU evidence counts in full, so the SSH-key and 403
    entries whose words it shares are not answered (they were, at 93% for the ssh line)."""
    a = engine.ask(text)
    assert a.facts.context["gate"] == "service"
    assert a.abstained and a.best.confidence < 0.1, (a.best.id, a.best.confidence)


def test_also_in_a_note_names_a_second_right_entry():
    assert also_ids("HBM OOM on v2; also: hbm-oom") == ("hbm-oom",)
    assert also_ids("also: low-mxu (0.6% shown)") == ("low-mxu",)
    assert also_ids("may also be an XLA lowering bug") == ()
    assert also_ids("Fixed with bf16. Also: hbm-oom.") == ("hbm-oom",)
    q = Query("x", "text", "batch-or-model-too-large", also=("hbm-oom",))
    assert Outcome(q, ["hbm-oom", "small-batch"], False, 0.9).rank == 1


def test_metrics_count_confusions_between_entries():
    qs = [Query("a", "t", "hbm-oom"), Query("b", "t", "hbm-oom"), Query("c", "t", OOS)]
    m = metrics(
        [
            Outcome(qs[0], ["small-batch"], False, 0.9),
            Outcome(qs[1], ["hbm-oom"], False, 0.9),
            Outcome(qs[2], ["tpu-connection"], False, 0.9),
        ]
    )
    assert m.confusion == {"hbm-oom -> small-batch": 1, "out-of-scope -> tpu-connection": 1}
    assert [x["id"] for x in m.misses] == ["a", "c"]


def test_metrics_say_how_far_the_confidence_can_be_trusted():
    """The confidence's AUC (right first answers against wrong ones and look-alikes, ties half)
    and, per band of given answers, the share right; the baselines, with no confidence, have
    neither."""
    right = Query("r", "t", "hbm-oom")
    oos = Query("o", "t", OOS)
    outcomes = [
        Outcome(right, ["hbm-oom"], False, 0.95),
        Outcome(right, ["hbm-oom"], True, 0.40),  # right first but refused: still a right one
        Outcome(right, ["small-batch"], False, 0.92),  # wrong first
        Outcome(oos, ["tpu-connection"], False, 0.55),
        Outcome(oos, ["tpu-connection"], True, 0.40),
    ]
    quality = metrics(outcomes).confidence
    # right 0.95 beats all three wrong ones; right 0.40 beats none and ties one
    assert quality["auc"] == round((3 + 0.5) / 6, 4)
    bands = {(b["from"], b["to"]): (b["n"], b["right"]) for b in quality["bands"]}
    assert bands[(0.9, 1.0)] == (2, 0.5)
    assert bands[(0.5, 0.6)] == (1, 0.0)
    assert bands[(0.7, 0.8)] == (0, None)
    assert metrics([Outcome(right, ["hbm-oom"], False, 0.0)]).confidence == {}
    assert metrics([Outcome(right, ["hbm-oom"], False, 0.9)]).confidence["auc"] is None


def test_a_baseline_ranks_what_its_channel_found_best_first():
    """BM25 alone and dense alone (the figures' baselines) rank by their raw score, ties by id,
    and leave out entries the channel did not find."""
    evidence = {
        "small-batch": Evidence(lex_raw=2.0, dense=0.5),
        "hbm-oom": Evidence(lex_raw=2.0, dense=0.7),
        "low-mxu": Evidence(lex_raw=0.0, dense=0.6),
    }
    assert baseline_ranking(evidence, BASELINES["bm25"]) == ["hbm-oom", "small-batch"]
    assert baseline_ranking(evidence, BASELINES["dense"]) == ["hbm-oom", "low-mxu", "small-batch"]


def test_padding_that_inflates_a_buffer_routes_to_tensor_padding():
    def routed(text):
        return [h.entry_id for h in route(read_profile(text)) if not h.rules_out]

    # the memory viewer's padded and unpadded sizes, in the orders tools print them
    viewer = "  1. fusion.412   f32[100,126,38,24]   Size: 246.1M   Unpadded size: 43.8M"
    assert read_profile(viewer).padding_expansion == 5.6
    assert (
        read_profile("f32[64,2048,3]  unpadded 1.5 MiB   padded 64.0 MiB").padding_expansion == 42.7
    )
    # ... or the person's own reckoning beside the size the tools show, on one line
    reckoned = "by my math the input is ~12 MB, but the memory viewer shows a 768 MiB buffer for it"
    assert read_profile(reckoned).padding_expansion == 64.0
    assert "tensor-padding" in routed(reckoned)
    conta = "o tensor aparece com 48 MiB no memory viewer, pela minha conta seria ~3 MiB"
    assert read_profile(conta).padding_expansion == 16.0
    # a few times, or a peak further on the line, is not padding read
    assert (
        read_profile("activations should be 2 GB, memory viewer peak 5 GB").padding_expansion
        is None
    )
    further = "the tensor should be ~4.9 MiB and shows as 9 MiB; peak 6.1 GiB of 8 GiB"
    assert read_profile(further).padding_expansion is None
    oom = "     Size: 16.00G\n     Unpadded size: 512.00M\n     Extra memory due to padding: 15.50G (32.0x expansion)"
    assert read_profile(oom).padding_expansion == 32.0
    assert routed(viewer) == ["tensor-padding"]
    # an out-of-memory report's buffers that padding barely changes point at the memory itself
    assert routed("     Size: 2.00G\n     Unpadded size: 2.00G") == []
    assert routed("Extra memory due to padding: 288.00M (1.3x expansion)") == []
    # narrow layers beside a measured padding figure are what the padding is made of
    narrow_padded = routed(NARROW_MLP + "\n" + viewer)
    assert "small-layers" not in narrow_padded and "tensor-padding" in narrow_padded


def test_a_trace_described_with_gaps_between_steps_counts_as_an_idle_tpu():
    for text in [
        "in the trace there are ~130 ms gaps between my train_step executions",
        "each step is 2 ms on the TPU lanes, then nothing on the device until the next one",
        "the trace shows the TPU busy only a sliver of each step",
        "no trace viewer a TPU fica parada entre um step e outro",
        "in my setup the TPU is idle while the host VM prepares the input, ~2 s per step",
        "a TPU fica ociosa enquanto a CPU monta o próximo lote",
        "entre um step e outro ficam uns 90 ms sem nada rodando em nenhum dos 8 chips",
        "the trace viewer shows the TPU busy in little slivers, ~5ms of work",
        "about 5 ms of device work and then a big gap before the next step",
        "entre um e outro tem um buraco enorme no trace",
        "no trace tem uns intervalos grandes onde a TPU não faz nada",
    ]:
        assert read_profile(text).idle_gaps == 1, text
        assert _routed(text) == ["input-bottleneck", "steps-per-execution"], text
    # ... and the input figure still tells the two apart
    assert _routed("gaps between steps in the trace; input time 0.5%") == ["steps-per-execution"]
    assert not read_profile("the gap between GPU and TPU prices")
    for said in (
        "the TPU does ~4-5 ms of work and then sits idle for ~60 ms, then another 4 ms",
        "in the trace there is a gap before every single step",
        "every step the TPU is busy for maybe 3 ms and then does nothing for ~20 ms",
        "the device does nothing for ~20 ms until the next step starts",
        "each step is a 2 ms block, then a gap of roughly 12-15 ms before the next one starts",
        "the steps sit roughly 55-60 ms apart, with long empty stretches on the TPU rows between",
    ):
        assert read_profile(said).idle_gaps == 1, said
    assert not read_profile("a gap before the next release of jax")
    assert not read_profile("the team was busy in bursts all week").idle_gaps
    assert not read_profile("the TPU was idle for a week while I was on holiday").idle_gaps
    assert not read_profile("busy for 3 days with the paper, the job did nothing useful").idle_gaps
    assert not read_profile("it does nothing until the next release fixes it").idle_gaps
    assert not read_profile("the two releases came 3 months apart").idle_gaps
    # ... nor a trace said to show none
    for ruled_out in (
        "input is pre-loaded on device, trace shows no gaps between steps",
        "no input wait, no idle gaps between steps",
        "the trace does not show any gaps between steps",
        "no trace não tem buraco entre um passo e outro",
    ):
        assert not read_profile(ruled_out).idle_gaps, ruled_out
    assert read_profile("no trace tem buracos entre os passos").idle_gaps == 1
    for said in (
        "entre um passo e outro o TPU fica parado uns 8 ms",
        "between one step and the next the TPU sits idle for ~8 ms",
    ):
        assert read_profile(said).idle_gaps == 1, said


def test_a_host_busy_producing_batches_sends_the_gaps_to_the_input_pipeline():
    for text in [
        "between the steps the host timeline is stuck in `__next__` of our loader",
        "host lane: most of the gap is a Python region inside my make_batches() generator",
        "2 python processes sit at ~100% each while the other 94 vCPUs stay idle",
        "one cpu core at 100% and all the other cores doing nothing",
        "top mostra dois processos python a 100% e o resto dos núcleos parado",
        "htop: a handful of python processes pinned\nat 100% and the other vCPUs basically idle",
        "`top` shows each training process at 100% of one CPU core",
        "no htop, cada processo a 100% de um núcleo",
        "top shows the 64 vCPUs mostly idle except for eight python processes at 100%",
    ]:
        assert read_profile(text).host_feeding == 1, text
        assert _routed(text) == ["input-bottleneck"], text
    # a busy host beside a mostly free memory: the host explains the slowness, not the batch
    fed = "HBM 5 GB of 32 GB used; each python process at 100% on its core, the TPU duty cycle 4%"
    assert read_profile(fed).memory_used is not None
    assert "small-batch" not in _routed(fed) and "input-bottleneck" in _routed(fed)
    # with gaps in the trace, the gaps are what the input makes the TPU wait for
    gaps = "the TPU lanes show 30 ms of work, then gaps between steps; the host is in `__next__`"
    (hit,) = route(read_profile(gaps))  # said once, with both findings
    assert hit.entry_id == "input-bottleneck" and hit.weight == AGREEING  # two findings agree
    assert hit.matched == "the TPU idle in gaps between steps, the host busy producing the input"
    assert not hit.tpu_evidence  # a GPU's trace and host look the same: no TPU shown by them
    for text in [
        # a traceback through the iterator, a hang's busy processes, a core busy compiling
        'File "torch/utils/data/dataloader.py", line 630, in __next__',
        'input_lib.py", line 264, in `__next__`',
        "the other three workers sit at 100% CPU forever and ignore Ctrl+C",
        "two workers at 100%.\n\nThe rest of the code is idle most of the time",  # a new paragraph
        "the host CPU is busy during the slow steps (one core at 100%), the TPU is idle",
    ]:
        assert not read_profile(text).host_feeding, text
    # a pasted `top`: python processes pegged at a core each, the rest of the VM idle
    top = (
        "%Cpu(s):  2.3 us,  0.4 sy,  0.0 ni, 97.2 id,  0.0 wa,  0.0 hi,  0.1 si,  0.0 st\n"
        "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n"
        "  11803 ana       20   0   48.1g   7.2g 402316 R 100.0   1.0  41:12.88 python3\n"
        "  11802 ana       20   0   48.3g   7.4g 405112 R  99.7   1.0  41:10.03 python3\n"
    )
    assert read_profile(top).host_feeding == 1
    one = top.rsplit("\n  11802", 1)[0]  # one process alone: XLA compiling looks the same
    assert not read_profile(one).host_feeding
    busy = top.replace("97.2 id", "12.0 id")  # every core busy: not a few pegged among idle ones
    assert not read_profile(busy).host_feeding
    # a report that shows an error is not a slowdown: the rule stays out
    assert route(read_profile(gaps), shows_error=True)[0].signature_id == "profile:input-bound"
    # the profiler's "NOT input-bound" outweighs a description of the host
    assert _routed("host in `__next__` most of the time; Input time: 0.4%") == []


def test_a_trace_whose_gaps_the_host_spends_on_input_is_answered_input_bottleneck(engine):
    report = (
        "Flax ViT on a v4-8 spends 300 ms per step but the jitted step is 60 ms\n"
        "I took a trace with jax.profiler.trace around steps 50-60. Each train_step on the TPU "
        "lanes is ~60 ms, then there are ~240 ms gaps between the executions. On the host side "
        "that time is one python region inside my load_batches() generator, which decodes JPEGs "
        "with PIL one by one. Is this async dispatch latency? Should I raise steps per call?\n"
    )
    a = engine.ask(report)
    assert a.best.id == "input-bottleneck" and not a.abstained
    assert any("the host busy producing the input" in w for w in a.best.why)
    assert a.facts.profile["host_feeding"] == 1


def test_a_transformers_model_dimension_is_read_from_its_config():
    for text, width in [
        ("cfg = dict(vocab=512, d_model=96, n_heads=4, mlp_dim=384)", 96),
        ('{"n_embd": 768, "n_layer": 12}', 768),
        ("hidden_size: 1000", 1000),
        ("an encoder with d_model 320 and 10 heads", 320),
    ]:
        assert read_profile(text).model_width == width, text
    # the heads' and the MLP's sizes are not the model's width; nor is a name in capitals
    assert read_profile("head_dim=16, mlp_dim=64, D_MODEL = 48").model_width is None
    # narrower than the MXU: the narrow-layer rules, as a dense layer's width would be
    assert _routed("d_model=96, 8 layers, step time flat in the batch") == ["small-layers"]
    assert _routed("d_model=96, 8 layers, padded to 128 in the memory viewer") == [
        "small-layers",
        "tensor-padding",
    ]
    # a multiple of 128, or a rounding, says nothing; 320 is padded to 384 (a fifth more)
    assert _routed("d_model 1024, 24 layers") == _routed("hidden_size=1000") == []
    (hit,) = route(read_profile("d_model 320, 10 heads"))
    assert hit.entry_id == "tensor-padding" and hit.matched == "model dimension (d_model) 320"
    # a TPU idle between steps is not explained by the width
    assert _routed("d_model 320; TPU idle 60%") == ["input-bottleneck", "steps-per-execution"]


def test_layer_widths_said_in_words():
    assert read_profile("rede pequena (camadas densas de 48 unidades)").widest_layer == 48
    assert read_profile("an MLP whose hidden layers of 64 units are all ReLU").widest_layer == 64
    assert read_profile("three 32-unit dense layers").widest_layer == 32
    assert read_profile("a dense layer of 10 units on top").widest_layer is None  # one layer


def test_flops_utilization_stands_for_the_mxu_figure_under_its_own_name():
    p = read_profile("op profile: TPU FLOPS utilization: 0.9%, TPU idle time 2%")
    assert (p.flops_utilization, p.mxu_utilization) == (0.9, None)
    hits = route(p)
    assert [h.entry_id for h in hits] == ["low-mxu"]
    assert hits[0].matched == "FLOPS utilization 0.9%, TPU idle 2%"  # what the report said


def test_mfu_stands_for_the_mxu_figure_under_its_own_name():
    # MFU (model FLOPs utilization), as MaxText and hand-written JAX / PyTorch/XLA loops print it
    assert read_profile("step 1200 | loss 2.87 | MFU 17.4%").mfu == 17.4
    assert read_profile("we only reach 21% MFU on v5p-128").mfu == 21.0
    assert read_profile("model FLOPs utilization: 9%").flops_utilization == 9.0
    # an MFU with no percentage, or a percentage that is not the MFU's, is not read
    assert read_profile("the MFU estimate looks wrong, loss 12%").mfu is None
    assert read_profile("mfu=0.35").mfu is None
    hits = route(read_profile("MFU 14%, TPU idle 3%"))
    assert [h.entry_id for h in hits] == ["low-mxu"]
    assert hits[0].matched == "MFU 14%, TPU idle 3%"  # what the report said
    assert route(read_profile("MFU 52%, TPU idle 3%")) == []  # a good MFU says nothing
    # further on, led to its value by a word, in either language
    assert read_profile("MFU printed by the trainer hovers around 12%").mfu == 12.0
    assert read_profile("o MFU que a gente calcula dá uns 9%").mfu == 9.0
    assert read_profile("MFU no dashboard não passa de 11%").mfu == 11.0


def test_gaps_and_an_input_ruled_out_in_other_words():
    gap = "every step there is a gap where the TPU does nothing before the next one starts"
    assert read_profile(gap).idle_gaps == 1
    same = "feeding the same cached batch over and over gives the same 40 ms per step; TPU idle 45%"
    assert read_profile(same).input_ready == 1
    assert (
        read_profile("usando sempre o mesmo lote dá o mesmo tempo; TPU ociosa 45%").input_ready == 1
    )
    # random arrays named by numpy's module alone are synthetic data
    faster = "a tf.data of np.random arrays of the same size runs 20x faster"
    assert read_profile(faster).synthetic_faster == 1


def test_measured_padding_outweighs_the_conv_padding_look_alike(engine):
    report = (
        "Audio CNN on a v3-8 uses far more HBM than my estimate\n"
        'layers.Conv1D(16, 5, padding="same"), layers.Conv1D(16, 5, padding="same")\n'
        "memory viewer, largest buffers:\n"
        "  fusion.21   f32[128,4000,16]   Size: 250.0M   Unpadded size: 31.3M\n"
        "  fusion.24   f32[128,4000,16]   Size: 250.0M   Unpadded size: 31.3M\n"
    )
    a = engine.ask(report)
    assert a.best.id == "tensor-padding" and not a.abstained
    assert any("8x its unpadded size" in w for w in a.best.why)
    # without the measurement, the same conv code is a look-alike of the entry's words
    question = 'Conv1D(16, 5, padding="same") or padding="valid" for my sensor model on TPU?'
    assert engine.ask(question).best.id != "tensor-padding"


def test_padding_pasted_as_a_table_is_read_in_its_columns_order():
    size_first = (
        "Size        Unpadded   Overhead   Shape\n"
        "93.75 MiB   4.39 MiB   21.3x      f32[64,3000,6]\n"
        "93.75 MiB   8.79 MiB   10.7x      f32[64,3000,12]\n"
    )
    assert read_profile(size_first).padding_expansion == 21.4
    unpadded_first = (
        "Op Name        Shape           Unpadded Size   Padded Size   Extra\n"
        "fusion.118     f32[100,75,6]   175.8 KiB       4.88 MiB      ~28x\n"
    )
    assert read_profile(unpadded_first).padding_expansion == 28.4
    # a sentence that names the columns is not a table
    assert (
        read_profile("it shows unpadded and padded sizes\n1.0 MiB 2.0 MiB").padding_expansion
        is None
    )


def test_the_json_contract_names_every_profile_figure():
    """`facts.profile` in `ask --json` is documented figure by figure in the README's JSON contract:
    a figure added to `ProfileFigures` must be named there too."""
    import dataclasses
    from pathlib import Path

    from assistant.text.profile import ProfileFigures

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    contract = readme.split("### JSON contract", 1)[1].split("\n## ", 1)[0]
    missing = [f.name for f in dataclasses.fields(ProfileFigures) if f"`{f.name}`" not in contract]
    assert missing == []


def test_a_tiny_per_core_batch_beside_memory_words_is_a_batch_lowered_to_fit():
    # memory named as the limit explains the batch: it was lowered until the model fitted
    for text in [
        "per-core batch 1 and it still runs out of memory at the first step",
        "Will a 13B model fit on a v5e-8? I'd use a per-device batch of 1",
        "AdamW, per-core batch 1. It died with a memory error",
        "RESOURCE_EXHAUSTED even with batch size 2 per core",
        "the 7B model only fits with a per-device batch of 2",
        "modelo não cabe na TPU nem com lote por núcleo de 1",
    ]:
        _reads_and_routes(text, "memory_bound", ["batch-or-model-too-large"])
    # a small batch with nothing about memory is the guide's batch too small to fill the TPU
    for text in [
        "step time is flat from per-device batch 2 to 16",
        "per-core batch 4, then model.fit(ds, epochs=3) on the TPU",  # Keras's fit is no memory
        "per-core batch 2; how long until the model is fit to the data?",
    ]:
        assert not read_profile(text).memory_bound, text
        assert _routed(text) == ["small-batch"], text
    # read only beside a per-core batch: an OOM report alone has no such figure
    assert read_profile("RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm").to_dict() == {}


def test_batch_norm_over_a_few_examples_per_core_is_an_accuracy_problem():
    # the guide: batch norm runs on each core's batch, and under 32 examples it can lower accuracy;
    # the batch then explains what the model reaches, not its speed or its memory
    for text in [
        "DeepLabv3+ with BatchNormalization, 2 images per replica on a v3-8, val mIoU 70 vs 78 on "
        "the A100",
        "ResNet with nn.BatchNorm2d, batch 4 per core because of memory; accuracy plateaus at 61%",
        "lote por núcleo de 2, a rede tem batch norm e a acurácia na TPU fica 10 pontos abaixo",
        "per-core batch 16 with BatchNorm layers, and top-1 is two points under the GPU run",
    ]:
        _reads_and_routes(text, "batch_norm", ["accuracy-drop"])
    # batch norm beside a large per-core batch, or a small batch with no accuracy named, is not it
    assert _routed("per-core batch 64 with BatchNorm, top-1 two points lower") == []
    slow = "per-core batch 2 with BatchNorm layers, and the steps are slow"
    assert not read_profile(slow).batch_norm and _routed(slow) == ["small-batch"]
    # read only beside a per-core batch
    assert not read_profile("BatchNorm on the TPU lowers my accuracy").batch_norm


def test_a_planning_question_at_batch_one_is_answered_model_too_large(engine):
    question = (
        "Can a 13B model be fully fine-tuned on a v5e-8?\n\nI plan bf16 weights and AdamW, and "
        "per-device batch 1 with seq len 2048. My guess is that it won't fit in the 16 GB per "
        "chip. Should I shard it, or go to a bigger slice?"
    )
    a = engine.ask(question)
    assert a.best.id == "batch-or-model-too-large" and not a.abstained
    assert a.facts.profile == {"per_core_batch": 1, "memory_bound": 1, "sequence_length": 2048}
    assert any("memory named as the limit" in w for w in a.best.why)


def test_gaps_with_the_input_ready_before_the_steps_are_the_hosts_round_trips():
    # the TPU is not waiting for an input that is in memory or on the device: the gaps are the
    # host's, between steps (steps-per-execution), not the input pipeline's
    for text in [
        "big idle gaps between steps even with data in memory",
        "device is idle between steps; the batch is synthetic and already on device",
        "TPU idle time 60%. Data loader is not the issue (tested with synthetic data, same numbers)",
        "o dataset tá todo em memória e a TPU fica parada entre um step e outro",
        "tpu idle uns 55% entre os steps, e com dado sintético fica igual",
        "gaps entre todo step no profile; synthetic dá a mesma coisa",
        "a gap of ~30 ms between every two steps; I cached the dataset in RAM, no change",
        "fed a constant synthetic tensor: same gap of 35 ms before each step",
        # the analyzer's verdict quoted without its figure
        "TPU idle time 86.9%, and the analyzer says: Your program is NOT input-bound",
        "a TPU fica ociosa entre os steps e o profiler diz que não está input-bound",
        "all in host RAM so the input should not be the problem, yet gaps between steps",
        # the measure before its verdict; the dataset described before where it is
        "intervalos em branco entre os passos; com dados sintéticos a velocidade foi a mesma",
        "o dataset é pequeno e está todo em memória, mas a TPU fica ociosa entre os passos",
        "o dataset tá todo em memória e o TPU fica a maior parte do tempo parado entre os steps",
        "gaps between steps in the trace; with synthetic data the step time was the same",
    ]:
        _reads_and_routes(text, "input_ready", ["steps-per-execution"])
    # the same gaps with nothing said of the input fit both, and the words decide
    assert _routed("big idle gaps between steps") == ["input-bottleneck", "steps-per-execution"]
    # random tensors that run faster show a slow input: no such word
    faster = "gaps between steps; with random tensors instead of the dataset I get 3x the speed"
    assert not read_profile(faster).input_ready
    # read only beside idle time or gaps: the input in memory alone is no figure
    assert read_profile("my dataset is in memory, why is the TPU slow?").to_dict() == {}


def test_text_padded_to_each_batchs_longest_example_is_a_shape_that_keeps_changing(engine):
    report = (
        "BERT fine-tune on a v4-8 with the HF Trainer is 30 s/it and never gets faster\n\n"
        "I tokenize with truncation only and DataCollatorWithPadding pads each batch. Once in a "
        "while a step takes 0.2 s, then the next ones are slow again. One CPU core sits at 100%."
    )
    a = engine.ask(report)
    assert a.best.id == "dynamic-shape" and not a.abstained
    assert any("padded-to-longest" in w for w in a.best.why)
    # one fixed length is the fix, not the problem
    fixed = engine.retrieve('tokenizer(texts, padding="max_length", max_length=128)')
    assert not any(
        h.signature_id == "padded-to-longest"
        for ev in fixed.evidence.values()
        for h, _ in ev.signature_hits
    )


def test_the_loops_own_timers_give_the_share_of_the_step_spent_waiting_for_data():
    # a step's wait for its batch beside the whole step, or beside the device's own computation
    for text, share in [
        ("[train] it 300/9000 data_time 0.92s batch_time 1.15s loss 2.71", 80.0),
        ("Epoch: [3][ 40/1251]\tTime  0.620 ( 0.640)\tData  0.590 ( 0.600)\tLoss 4.1", 95.2),
        ("step 88: wait_for_batch=0.31s  device_step=0.03s", 91.2),
        ("[step 12] data_wait=900ms  fwd+bwd+opt(mark_step)=100ms", 90.0),
        ("epoch 0 step 40/900 loss 5.2 data 0.30s fwd/bwd 0.10s img/s 990", 75.0),
        ("Data time 0.30s  Batch time 0.40s", 75.0),  # not the "time" inside "Data time"
        ("eta: 2:11:40, time: 0.410, data_time: 0.004, memory: 9120", 1.0),
        # a bare "step" with its unit, shorter than the wait: the device's part (the step count
        # before it has no unit)
        ("[proc 0] step  100 | wait_data 0.300s | step 0.100s | 310 img/s", 75.0),
    ]:
        assert read_profile(text).data_wait == share, text
    # the profiler's "Input time: 2.1%" is a share already, read as the input-wait figure
    assert read_profile("Input time: 2.1% of step, Compute time 40 ms").data_wait is None
    # one timer alone is no share
    assert read_profile("data_time 0.92s, loss 2.71").data_wait is None
    # most of the step waiting is the input pipeline measured; on any device, so no TPU evidence
    hits = route(read_profile("step 88: wait_for_batch=0.31s  device_step=0.03s"))
    assert [(h.entry_id, h.rules_out, h.tpu_evidence) for h in hits] == [
        ("input-bottleneck", False, False)
    ]
    # ... and a loop that hardly waits rules the input out
    ruled = route(read_profile("time: 0.410, data_time: 0.004"))
    assert [(h.entry_id, h.rules_out) for h in ruled] == [("input-bottleneck", True)]


def test_a_layer_chain_gives_its_widest_layer_after_the_input():
    # a chain runs from the input's features through each layer's output: three layers, four
    # numbers
    assert read_profile("flax MLP, 3 Dense layers: 96 -> 48 -> 24 -> 1").widest_layer == 48
    assert read_profile("camadas 64 → 32 → 1, ReLU").widest_layer == 32
    # a tower after wide features is narrow all the same
    assert read_profile("The tower is an MLP 416 -> 64 -> 32 -> 16 -> 1").widest_layer == 64
    assert read_profile("MLP 784 -> 128 -> 10").widest_layer == 128
    # two numbers are a change, not a chain of layers
    assert read_profile("raised the batch 64 -> 128 for the dense model").widest_layer is None


def test_a_layer_chain_from_the_input_features_leaves_the_input_out():
    assert read_profile("an MLP: 24 input features -> 96 -> 48 -> 3").widest_layer == 96
    assert read_profile("MLP com 300 features de entrada → 64 → 32 → 1").widest_layer == 64
    # a chain beside layers in the code keeps the code's widths
    both = "nn.Linear(784, 512), nn.Linear(512, 256); the small variant: layers 64 -> 32 -> 10"
    assert read_profile(both).widest_layer == 512


def test_a_loop_that_builds_a_layer_per_width_gives_its_widest():
    flax = "for units in (96, 64, 32):\n    h = nn.relu(nn.Dense(units)(h))"
    assert read_profile(flax).widest_layer == 96
    torch = "for w in [40, 80]:\n    blocks.append(nn.Linear(prev, w)); prev = w"
    assert read_profile(torch).widest_layer == 80
    # a loop over other numbers (epochs, seeds) builds no layer
    assert read_profile("for seed in (0, 1, 2):\n    run(seed)").widest_layer is None


def test_a_per_core_batch_of_long_sequences_is_not_a_small_batch():
    """A transformer's matmuls run over every token of the batch: 4 sequences of 8,192 tokens per
    core are 32,768 rows, not the 4 rows a tiny batch of images would give the MXU."""
    long = "per_device_batch_size=4, max_target_length=8192; MFU ~40%"
    figures = read_profile(long)
    assert (figures.per_core_batch, figures.sequence_length) == (4, 8192)
    assert "small-batch" not in _routed(long)
    short = "per_device_batch_size=1, max_target_length=512; MFU 9%"
    assert "small-batch" in _routed(short)
    # the length alone, with no batch beside it, is no figure
    assert read_profile("max_seq_length=2048").to_dict() == {}


def test_a_width_only_considered_is_not_the_models():
    text = "an MLP 40 -> 64 -> 32 -> 16; would going to 512-wide layers cost anything in step time?"
    assert read_profile(text).widest_layer == 64
    assert read_profile("widen them to 256-unit layers?").widest_layer is None
    assert read_profile("three 512-wide layers, MXU at 40%").widest_layer == 512


def test_a_tf_agents_network_gives_its_layers():
    text = "q_net = q_network.QNetwork(obs_spec, action_spec, fc_layer_params=(48, 32))"
    assert read_profile(text).widest_layer == 48


def test_memory_in_use_further_along_a_line_that_names_it():
    line = (
        "memória: get_memory_info('TPU:0') dá {'current': 912343296, 'peak': 1197334784}, "
        "nem 1.2 GB de 8 GB por core"
    )
    assert read_profile(line).memory_used == 15.0


def test_a_tpu_beside_the_runs_own_device_is_no_evidence():
    for text in (
        # a plan, in more words
        "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES on my workstation's 3080; I haven't ported it to "
        "the TPU yet",
        "We're moving to Cloud TPU (v5p) next quarter; for now DDP on eight A100s loses accuracy",
        "the shards come from an n2-standard-16 CPU VM (no accelerator attached) and we'll later "
        "train on them with a v4-16",
        "Keras CNN on a MacBook Pro before we move it to a TPU v5e: logging every batch is slow",
        # disowned: a bare "TPU" elsewhere is not this run's either
        "it runs on our RTX 4090 workstation, not the TPUs; I asked here since the TPU crowd "
        "knows tf.data",
        # a TPU guide is no TPU run
        "o guia de TPU recomenda buckets de tamanho; isso vale na minha RTX A6000 com jax[cuda12]?",
        # the run's own device named twice over, the TPU by its bare name only
        "Colab GPU runtime (T4, nvidia-smi shows CUDA 12.2): jax.devices() lists only the CPU. "
        "Is there a setup cell like the one for TPU?",
        # ... or a device and the Google service it runs in
        "Vertex AI Workbench on a T4 drops the notebook overnight; for TPU people say use tmux",
        # AMD's Instinct chips and their profiler
        "MI250X with rocprof: the matrix cores are 15% busy; on TPU XLA fuses the elementwise ops",
        # a plan: "before sending it to our TPU VM"
        "DataLoader hangs at the first batch on my CPU-only laptop, before sending it to our TPU VM",
        # AWS's Neuron SDK runs PyTorch/XLA too: its xm.mark_step() shows no TPU
        "trn1.32xlarge with neuronx-distributed: xm.mark_step() then Failed to alloc DEVICE "
        "memory, like HBM on TPU?",
    ):
        _about_another_device(text)
    # what only a TPU run shows still counts beside a disowning phrase or a guide
    assert "v4-8" in read_context("Not TPU-related, I thought, but only the v4-8 run hangs").tpu
    assert "v3-8" in read_context("the TPU guide says use big batches, yet on the v3-8 ...").tpu
    # a TPU run compared with one other device named once: the TPU counts
    assert read_context("Na T4 roda a 3 ms por step; na TPU do Colab fica em 25 ms").tpu


def test_a_measure_of_another_device_is_no_input_figure():
    p = read_profile("input-bound I guess: GPU util in nvidia-smi sits around 30%")
    assert p.input_wait is None
    assert read_profile("input-bound: 81.6% of step time").input_wait == 81.6


def test_synthetic_data_that_drops_the_step_time():
    swapped = "troquei o Dataset por torch.randn do mesmo shape e o step caiu pra ~110ms"
    assert read_profile(swapped).synthetic_faster == 1
    epoch = "with fake data (torch.randn) the epoch dropped to 1min 40s"
    assert read_profile(epoch).synthetic_faster == 1
    assert read_profile("com dado fake a época caiu pra ~2min").synthetic_faster == 1
    assert read_profile("troco o lote por torch.randn e o passo vai pra 0.14 s").synthetic_faster
    assert read_profile("with --fake_data the throughput is almost 3x higher").synthetic_faster


def test_one_step_per_call_beside_idle_time_agrees_on_steps_per_execution():
    one = "TPUConfig(iterations_per_loop=1)\ncapture_tpu_profile: TPU idle 68%"
    (hit,) = [h for h in route(read_profile(one)) if h.entry_id == "steps-per-execution"]
    assert hit.weight == AGREEING
    assert "steps_per_execution" in hit.figures
    many = "steps_per_execution=1\nTPU idle 68%, input 0.7% of step time"
    assert _routed(many) == ["steps-per-execution"]


def test_a_tpu_said_idle_as_stopped_in_portuguese():
    p = read_profile("fit na v3-8 com step de 5ms, mas a TPU fica parada ~75% do tempo")
    assert p.tpu_idle == 75.0


def test_a_tpu_named_only_as_a_plan_is_no_evidence():
    for planned in (
        "Keras on my RTX 4090 is slow with the JAX backend; we plan to move to TPU later",
        "CUDA OOM on the T4 while prototyping, before moving the training to a TPU VM. "
        "Will this also happen on the TPU?",
        "treino lento na GPU do Colab, pensei em migrar pra TPU mas não sei se resolve",
        "A100 DataLoader sawtooth, not TPU-related, just asking",
        "iostat shows the T4 VM's disk at 100%; we're evaluating a move to TPU v5e next quarter",
        "client_loop: send disconnect on my V100 VM. We also have TPU quota; would moving there "
        "avoid this?",
        "set jit_compile=True on the RTX 3090 to get the model ready for TPU later",
        "Colab com GPU T4 lento, pensei em trocar o runtime pra TPU",
        'Before moving to our TPU quota I\'m testing in Docker (CPU only, accelerator="cpu")',
    ):
        _about_another_device(planned)
    # a TPU run and a plan for later side by side: the run's TPU counts
    both = "we'll move to a bigger TPU v5p later; today the v4-8 run stalls after the GPU port"
    assert "v4-8" in read_context(both).tpu
    # a TPU the report ran on still counts beside the plan
    ran = "plan to move to a TPU pod later; on our v4-8 the TPUStrategy run already hangs"
    assert {"v4-8", "tpustrategy"} <= set(read_context(ran).tpu)


def test_an_interrupt_inside_the_tpus_start_up_is_a_connection_hang(engine):
    # the KeyboardInterrupt lands in the call that finds the TPU: it hung connecting
    for text in (
        "xm.xla_device() never returns on the v3-8; interrupting gives a KeyboardInterrupt "
        "inside get_xla_supported_devices",
        "na v3-8 o xm.xla_device() nunca volta; interrompi e deu KeyboardInterrupt dentro de "
        "get_xla_supported_devices",
        '  File "tpu_strategy_util.py", line 119, in initialize_tpu_system\n'
        "    output = _tpu_init_fn()\nKeyboardInterrupt",
    ):
        answer = engine.ask(text)
        assert answer.results[0].id == "tpu-connection", text
        assert any("interrupted-at-start-up" in w for w in answer.results[0].why), text
    # ... one inside a training step after an error is not
    step = (
        "v4-8: after a shape error at step 1200 the job sat there; Ctrl+C printed\n"
        '  File "train.py", line 88, in train_step\n    loss = float(metrics["loss"])\n'
        "KeyboardInterrupt"
    )
    assert not any("interrupted-at-start-up" in w for w in engine.ask(step).results[0].why)


def test_ctpu_is_tpu_evidence_and_a_machine_type_names_a_plain_vm():
    ctpu = read_context("ctpu up fails when run from a GCE VM, works from Cloud Shell").to_dict()
    assert "ctpu" in ctpu["tpu"] and ctpu["gate"] is None
    plain = read_context(
        "ssh na VM e2-standard-4 dando timeout. Não é TPU, é uma VM comum do Compute Engine."
    ).to_dict()
    assert plain["gate"] == "service" and "e2-standard-4" in plain["service"]
    assert "rtx 3090s" in read_context("a workstation with two RTX 3090s").to_dict()["device"]


def test_one_step_per_call_in_a_slow_run_is_steps_per_execution():
    slow = read_profile("BERT on a v3-8 with --iterations_per_loop=1, it trains but crawls")
    assert slow.steps_per_execution == 1
    assert [(h.entry_id, h.rules_out) for h in route(slow)] == [("steps-per-execution", False)]
    # beside a host busy with the input, the input is what the run waits for
    fed = read_profile(
        "steps_per_execution=1; top shows each training process at 100% and the rest idle"
    )
    assert "steps-per-execution" not in {h.entry_id for h in route(fed)}


def test_a_fake_batch_of_the_same_shape_that_runs_faster_is_the_input():
    text = "with a torch.randn fake batch of the same shape, step_time drops to 0.11 s"
    p = read_profile(text)
    assert p.synthetic_faster == 1 and p.input_ready is None
    pt = read_profile("trocando por input_ids aleatórios do mesmo shape vai pra 90 batches/s")
    assert pt.synthetic_faster == 1
    # synthetic data that left the figures as they were is still the input ruled out
    assert read_profile("synthetic data gives the same step time; gaps between steps").input_ready


def test_more_ways_to_say_the_host_or_the_gaps_or_the_memory():
    assert read_profile("top shows the 8 python processes each pinned at ~100%").host_feeding
    gaps = "the TPU is busy ~6ms and then there's a ~70ms gap every single step"
    assert read_profile(gaps).idle_gaps == 1
    big = "per_device_batch_size=1 and it still can't even load the weights"
    assert read_profile(big).memory_bound == 1
    pt = read_profile(
        "um bloquinho de ~3ms e depois um buraco de ~20ms sem nada; prefetch tá sempre cheio"
    )
    assert pt.idle_gaps == 1 and pt.input_ready == 1


@pytest.mark.parametrize(
    "report",
    [
        "JobSet on a GKE v4-16 node pool: one pod was OOMKilled at step 9,000 and the other three "
        "pods never noticed; they show Running with the TPU duty cycle at 0 for hours. How do we "
        "make the whole slice stop when one host dies?",
        "v5p-32 started with --worker=all. Worker 2 raised a DataLossError reading a record, and "
        "workers 0, 1, 3 never print another line. Ctrl+C closes ssh but python3 is still running "
        "on every host.",
        "treino com torch_xla num v4-32: o worker 1 morreu (oom-killer, RAM do host). os workers 0, "
        "2 e 3 não morreram: ficaram pendurados sem log nenhum. tem como derrubar todos juntos?",
    ],
)
def test_the_other_hosts_left_waiting_after_one_died_is_hang_on_error(engine, report):
    """The error that killed one host (a host OOM, a bad record) is the trigger; what the person
    asks about is the rest of the slice left waiting: hang-on-error, said in several ways."""
    answer = engine.ask(report)
    assert not answer.abstained and answer.best.id == "hang-on-error", answer.best


def test_a_tpu_busy_computing_is_not_a_tpu_held_by_another_process(engine):
    """'a TPU tá ocupada' ends a sentence when a process holds it; 'tá ocupada o tempo todo' is a
    TPU busy computing, which the said-in-use signature does not read."""
    held = engine.retrieve("o próximo script reclama que a TPU tá ocupada. tenho que dar kill -9")
    busy = engine.retrieve(
        "no Cloud Monitoring a TPU tá ocupada o tempo todo, mas o MFU dá uns 9% e o op profile "
        "mostra fusions de loop e convert"
    )

    def said(r):
        return [h.signature_id for h, _ in r.evidence["hang-on-error"].signature_hits]

    assert "said-in-use" in said(held) and "said-in-use" not in said(busy)


def test_a_sentence_ends_before_a_lower_case_word_in_informal_writing():
    """Informal writing goes on in lower case after a full stop: the statement before it is not
    part of the question after it (`decide._asks`)."""
    from assistant.decide import _SENTENCE_END

    text = "os outros ficaram pendurados. tive q matar na mão. tem como?"
    assert _SENTENCE_END.search(text).start() == text.index(". tive")
    assert _SENTENCE_END.search("see i.e. should work?").group(0) == "?"


def test_a_share_of_the_chips_peak_is_read_as_the_mfu():
    assert read_profile("that's under 10% of the v5p bf16 peak").mfu == 10.0
    assert read_profile("about 35% of peak").mfu == 35.0
    assert read_profile("we sit at 80% of peak memory").mfu is None


def test_a_tiny_batch_after_another_devices_oom_with_memory_mostly_free_is_too_small():
    """A batch lowered because a GPU run ran out of memory, on a TPU whose memory is mostly free:
    what limits it is not the TPU's memory, so it is small-batch's, not batch-lowered-to-fit."""
    text = (
        "my GPU attempt OOMed so on the v5e I use per_device_train_batch_size=1, seq len 1024; "
        "peak HBM 3.8 GiB of 16 GiB per chip"
    )
    figures = read_profile(text)
    assert figures.memory_bound == 1 and figures.sequence_length == 1024
    assert "small-batch" in _routed(text)
    assert "batch-or-model-too-large" not in _routed(text)
    # the memory not measured, the words decide as before
    assert "batch-or-model-too-large" in _routed("it OOMed, so per_device_batch_size=1 now")


def test_synthetic_data_giving_identical_numbers_rules_the_input_out():
    text = "with a pre-generated synthetic batch the numbers are identical; TPU idle 70%"
    assert read_profile(text).input_ready == 1


def test_a_question_in_portuguese_to_turn_libtpus_start_up_lines_off(engine):
    text = (
        "Como eu desligo essas mensagens? O log fica cheio disso (torch_xla, v5litepod-8):\n"
        "I0612 14:02:11.482913   18234 pjrt_api.cc:100] GetPjrtApi was found for tpu at "
        "/usr/local/lib/python3.10/dist-packages/libtpu/libtpu.so\n"
        "I0612 14:02:11.483002   18234 pjrt_api.cc:79] PJRT_Api is set for device type tpu\n"
    )
    answer = engine.ask(text)
    assert not answer.abstained and answer.best.id == "debug-logs"
