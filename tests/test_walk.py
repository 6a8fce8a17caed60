"""Decision trees: every path of every entry ends in an actionable fix; answers, numbers, advice."""

from __future__ import annotations

import pytest

from assistant.advice import batch_size, feature_size, layer_size
from assistant.errors import WalkError
from assistant.kb import load_knowledge
from assistant.strings import t
from assistant.walk import all_paths, walk

KB = load_knowledge(user_dirs=[])


@pytest.mark.parametrize("entry_id", KB.ids())
def test_every_path_ends_in_a_fix_with_an_action(entry_id):
    entry = KB.get(entry_id)
    paths = all_paths(entry)
    assert paths
    for answers in paths:
        for lang in ("en", "pt"):
            w = walk(
                entry,
                answers,
                overrides={"tpu_name": "my-tpu", "zone": "us-central1-b", "project": "my-project"},
            )
            assert w.kind == "fix", (entry_id, answers)
            d = w.to_dict(lang)
            assert any(s["kind"] in ("command", "code") for s in d["steps"])
            assert d["check"] and d["title"]


def test_number_answers_are_validated():
    entry = KB.get("hbm-oom")
    with pytest.raises(WalkError, match="not a number"):
        walk(entry, {"generation": "v3", "batch": "many"})
    with pytest.raises(WalkError, match="whole number"):
        walk(entry, {"generation": "v3", "batch": "64.5"})
    with pytest.raises(WalkError, match="below the minimum"):
        walk(entry, {"generation": "v3", "batch": "0"})
    # the message is the catalogue's, in either language; str() is the English one
    with pytest.raises(WalkError) as caught:
        walk(entry, {"generation": "v3", "batch": "0"})
    assert caught.value.key == "error.walk.below"
    assert (
        caught.value.message("pt")
        == "'0' está abaixo do mínimo 1"
        == t("pt", caught.value.key, raw="0", limit="1")
    )
    assert str(caught.value) == caught.value.message("en") == "'0' is below the minimum 1"


def test_choice_by_number_key():
    w = walk(KB.get("hbm-oom"), {"generation": "2"})
    assert w.path == [("generation", "v3")]


def test_branch_conditions_route_numbers():
    entry = KB.get("hbm-oom")
    assert walk(entry, {"generation": "v2", "batch": "64"}).node_id == "shrink-model"
    assert walk(entry, {"generation": "v2", "batch": "65"}).node_id == "padding"


def test_batch_advice():
    a = batch_size(100, {"tpu_generation": "v3"})
    assert a.values["lower_batch"] == "64" and a.values["upper_batch"] == "128"
    assert "64 or 128" in a.en[0] and "8 / 16 per core" in a.en[0]
    # Without the TPU, no per-core figure is made up (there is no fixed 8 cores any more).
    unknown = batch_size(100, {})
    assert "64 or 128" in unknown.en[0] and "per core" not in unknown.en[0]
    assert "per_core_batch" not in unknown.values
    a = batch_size(1000, {"hbm_used": "9.82G", "hbm_limit": "7.48G"})
    assert a.values["fit_batch"] == "704"  # 1000 * 7.48/9.82 = 761 -> multiple of 64 below
    assert batch_size(1024, {}).en[0].startswith("Batch 1024 is a multiple of 64")


def test_feature_and_layer_advice():
    f = feature_size(300, {})
    assert f.values["padded_dim"] == "384" and f.values["waste_pct"] == "21.9"
    assert feature_size(300, {"batch_size": "1024"}).values["padded_dim"] == "304"
    assert layer_size(64, {}).values["suggested_units"] == "512"


def test_advisors_set_only_their_declared_outputs():
    from assistant.advice import ADVISOR_OUTPUTS, ADVISORS

    assert set(ADVISORS) == set(ADVISOR_OUTPUTS)
    for name, fn in ADVISORS.items():
        for value in (1, 64, 100, 300, 1024):
            out = fn(
                value,
                {"tpu_generation": "v3", "hbm_used": "9G", "hbm_limit": "7G", "batch_size": "1024"},
            )
            assert set(out.values) <= ADVISOR_OUTPUTS[name], name


def test_branch_bounds_may_name_computed_variables():
    from assistant.kb.schema import Condition

    c = Condition(multiple_of="batch_step", lt="ideal_batch")
    assert c.variables() == ["batch_step", "ideal_batch"]
    assert c.holds(128, {"batch_step": "64", "ideal_batch": "1024"})
    assert not c.holds(100, {"batch_step": "64", "ideal_batch": "1024"})
    assert not c.holds(2048, {"batch_step": "64", "ideal_batch": "1024"})
    assert not c.holds(128, {})  # a bound without a number never holds
    assert Condition(le=64).holds(64) and not Condition(le=64).holds(65)


def test_steps_shown_only_when_their_condition_holds():
    from assistant.kb.schema import StepWhen

    assert StepWhen(known=["hbm_gib"]).holds({"hbm_gib": "16"})
    assert not StepWhen(known=["hbm_gib"]).holds({})
    assert StepWhen(unknown=["hbm_gib"]).holds({"hbm_gib": ""})
    assert not StepWhen(unknown=["hbm_gib"]).holds({"hbm_gib": "16"})
    known = walk(KB.get("hbm-oom"), {"generation": "v3", "batch": "32"}).to_dict("en")
    unknown = walk(KB.get("hbm-oom"), {"generation": "other", "batch": "32"}).to_dict("en")
    # the same steps but the last: the HBM figure where the generation gives it, else the
    # command that looks the accelerator type up
    known_kinds = [s["kind"] for s in known["steps"]]
    unknown_kinds = [s["kind"] for s in unknown["steps"]]
    assert known_kinds[:-1] == unknown_kinds[:-1] and "code" in known_kinds
    assert (known_kinds[-1], unknown_kinds[-1]) == ("note", "command")


def test_an_explicit_answer_wins_over_answer_from():
    entry = KB.get("hbm-oom")
    auto = walk(entry, {}, overrides={"accelerator_type": "v6e-8"})
    assert auto.path == [("generation", "v6e")] and auto.auto == ["generation"]
    chosen = walk(entry, {"generation": "v2"}, overrides={"accelerator_type": "v6e-8"})
    assert chosen.path == [("generation", "v2")] and chosen.auto == []
    assert chosen.values["hbm_gib"] == "8"  # the answer, not the pasted type


def test_a_question_answered_by_several_variables_takes_the_first_that_names_an_option():
    """steps-per-execution's loop question takes the message's situation first, then the
    framework: JAX and PyTorch/XLA name their own loop; TensorFlow (Keras or a custom loop?) does
    not name an option, so the question stays."""
    entry = KB.get("steps-per-execution")
    assert entry.tree.nodes["loop"].answered_by == ["training_loop", "framework"]
    for framework in ("jax", "pytorch"):
        w = walk(entry, values={"framework": framework})
        assert w.path[0] == ("loop", framework) and w.auto == ["loop"]
    asked = walk(entry, values={"framework": "tensorflow"})
    assert asked.kind == "question" and asked.node_id == "loop"
    both = walk(entry, values={"framework": "jax", "training_loop": "compile-error"})
    assert both.path[0] == ("loop", "compile-error")


@pytest.mark.parametrize(
    ("entry_id", "before"),
    # op-profiling first asks whether the person wants a profile or a live view of the chips
    [("dynamic-shape", {}), ("op-profiling", {"goal": "profile"})],
)
def test_the_framework_a_report_names_answers_the_framework_question(entry_id, before):
    from assistant.text.parse import parse

    jax_log = (
        "jax.errors.ConcretizationTypeError: Abstract tracer value encountered\n(flax on v4-8)"
    )
    values = parse(jax_log).values()
    assert values["framework"] == "jax"
    w = walk(KB.get(entry_id), before, overrides=values)
    assert w.auto == ["framework"] and w.path[len(before)] == ("framework", "jax")
    # two frameworks named (a torch_xla log quoting tensorflow/compiler paths): the person is asked
    both = parse("torch_xla ... tensorflow/compiler/xla/xla_client/computation_client.cc:280")
    assert "framework" not in both.values()
    assert walk(KB.get(entry_id), before, overrides=both.values()).auto == []


def test_a_live_view_of_the_chips_ends_in_tpu_info():
    w = walk(KB.get("op-profiling"), {"goal": "live"})
    assert w.path == [("goal", "live")] and w.node_id == "watch-live"
    commands = [step.command for step in w.node.steps if step.kind == "command"]
    assert commands == ["pip install -U tpu-info", "watch -n 5 tpu-info"]


@pytest.mark.parametrize(
    ("report", "fix"),
    [
        ("jnp.dot on the TPU differs from numpy after the third decimal", "jax-precision"),
        ("torch_xla: model output on xm.xla_device() differs from the CPU", "torch-precision"),
        ("tf.keras model.predict on TPUStrategy differs from the CPU", "op-mismatch"),
    ],
)
def test_an_output_mismatch_is_checked_in_the_reports_framework(report, fix):
    """accuracy-drop, "one core already differs": JAX and PyTorch/XLA first rule out their
    reduced-precision matrix products; the framework comes from the report's own words."""
    from assistant.text.parse import parse

    w = walk(KB.get("accuracy-drop"), {"single-core": "differs"}, overrides=parse(report).values())
    assert w.auto == ["mismatch-framework"] and w.node_id == fix


def test_a_question_names_the_persons_own_zone_and_project():
    """A command inside a question is filled in like a fix's commands (lint E047 keeps the
    knowledge base from spelling `--zone=ZONE`); a value not known yet stays a visible `{zone}`."""
    entry = KB.get("tpu-connection")
    answers = {"waited": "over-5", "architecture": "tpu-vm"}
    known = walk(entry, answers, overrides={"zone": "us-central2-b", "project": "my-project"})
    assert known.node_id == "status"
    for lang in ("en", "pt"):
        prompt = known.to_dict(lang)["prompt"]
        assert "--zone=us-central2-b --project=my-project`" in prompt, prompt
    unknown = walk(entry, answers).to_dict("en")["prompt"]
    assert "--zone={zone} --project={project}`" in unknown
