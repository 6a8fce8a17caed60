"""Per-device numbers for every current generation: the accelerator type (from the paste or
`--set accelerator_type=…`) answers the generation question and gives the device count and HBM."""

from __future__ import annotations

import pytest

from assistant import tpu_generations
from assistant.advice import batch_size, feature_size, hbm
from assistant.kb import load_knowledge
from assistant.walk import walk

KB = load_knowledge(user_dirs=[])

# accelerator type: (generation, chips, devices, HBM GiB per device, per-device unit)
SLICES = {
    "v2-8": ("v2", 4, 8, "8", "core"),
    "v3-8": ("v3", 4, 8, "16", "core"),
    "v4-8": ("v4", 4, 4, "32", "chip"),
    "v5litepod-8": ("v5e", 8, 8, "16", "chip"),
    "v5p-8": ("v5p", 4, 4, "95", "chip"),
    "v6e-8": ("v6e", 8, 8, "32", "chip"),
}


@pytest.mark.parametrize("acc", SLICES)
def test_accelerator_type_is_worked_out(acc):
    gen, chips, devices, gib, _ = SLICES[acc]
    s = tpu_generations.parse_type(acc)
    assert s is not None
    assert (s.gen.name, s.chips, s.devices, f"{s.hbm_gib_per_device:g}") == (
        gen,
        chips,
        devices,
        gib,
    )
    assert s.hosts == 1


def test_larger_slices_and_aliases():
    v4 = tpu_generations.parse_type("v4-32")
    assert v4 and (v4.chips, v4.devices, v4.hosts, v4.devices_per_host) == (16, 16, 4, 4)
    v5e = tpu_generations.parse_type("v5litepod-16")
    assert v5e and (v5e.chips, v5e.hosts) == (16, 4)
    assert tpu_generations.generation("v5litepod").name == "v5e"
    assert tpu_generations.parse_type("v3-7") is None  # not a whole number of chips
    assert tpu_generations.parse_type("v9-8") is None and tpu_generations.parse_type("x") is None
    assert tpu_generations.GENERATIONS["v6e"].mxu == 256
    assert tpu_generations.GENERATIONS["v5p"].mxu == 128


@pytest.mark.parametrize("acc", SLICES)
def test_hbm_oom_walk_per_device(acc):
    gen, _, devices, gib, unit = SLICES[acc]
    w = walk(
        KB.get("hbm-oom"), {"batch": "100", "padding": "yes"}, overrides={"accelerator_type": acc}
    )
    assert w.auto == ["generation"] and w.path[0] == ("generation", gen)
    assert w.values["device_count"] == str(devices) and w.values["hbm_gib"] == gib
    d = w.to_dict("en")
    assert d["auto_answered"] == ["generation"]
    per = f"{64 // devices} / {128 // devices} per {unit}"
    assert any("use 64 or 128" in line and per in line for line in d["advice"]), d["advice"]
    assert any(f"has {gib} GiB of HBM" in line for line in d["advice"])
    note = next(s for s in d["steps"] if s["kind"] == "note")
    assert f"{devices} devices with {gib} GiB of HBM each" in note["text"]


@pytest.mark.parametrize("acc", SLICES)
def test_hbm_oom_shrink_model_names_the_device_hbm(acc):
    _, _, _, gib, _ = SLICES[acc]
    w = walk(KB.get("hbm-oom"), {"batch": "32"}, overrides={"accelerator_type": acc})
    assert w.node_id == "shrink-model"
    texts = " ".join(s.get("text", "") for s in w.to_dict("en")["steps"])
    assert f"the {gib} GiB of HBM one device has" in texts


def test_other_generation_fills_no_placeholder():
    w = walk(KB.get("hbm-oom"), {"generation": "other", "batch": "32"})
    d = w.to_dict("en")
    assert "{hbm_gib}" not in str(d) and "hbm_gib" not in d["missing"]
    assert any("8 GiB per v2 core" in s.get("text", "") for s in d["steps"])
    assert any("give the accelerator type" in line for line in d["advice"])


@pytest.mark.parametrize("acc", SLICES)
def test_batch_or_model_too_large_per_device(acc):
    _, _, devices, gib, _ = SLICES[acc]
    w = walk(
        KB.get("batch-or-model-too-large"), {"batch": "1000"}, overrides={"accelerator_type": acc}
    )
    assert w.node_id == "fix-step-down"
    d = w.to_dict("en")
    code = next(s for s in d["steps"] if s["kind"] == "code")
    assert "GLOBAL_BATCH_SIZE = 960" in code["after"]
    note = d["steps"][1]["text"]
    assert f"On your {devices} devices: 1000 is {1000 / devices:g} per device" in note
    assert f"960 is {960 / devices:g} per device, for {gib} GiB of HBM each" in note


@pytest.mark.parametrize("acc", SLICES)
def test_small_batch_per_device(acc):
    _, _, devices, _, _ = SLICES[acc]
    w = walk(KB.get("small-batch"), {"batch": "8"}, overrides={"accelerator_type": acc})
    assert w.node_id == "fix-raise"
    d = w.to_dict("en")
    assert "GLOBAL_BATCH_SIZE = 1024" in d["steps"][0]["after"]
    note = next(s for s in d["steps"] if s["kind"] == "note")["text"]
    assert f"On your {devices} devices 1024 is {1024 // devices} per device" in note
    round_ = walk(KB.get("small-batch"), {"batch": "1100"}, overrides={"accelerator_type": acc})
    assert round_.node_id == "fix-round"
    text = " ".join(s.get("text", "") for s in round_.to_dict("en")["steps"])
    assert f"1152 is {1152 // devices} per device" in text


@pytest.mark.parametrize("acc", SLICES)
def test_tensor_padding_per_device(acc):
    _, _, devices, _, _ = SLICES[acc]
    w = walk(KB.get("tensor-padding"), {"batch": "100"}, overrides={"accelerator_type": acc})
    assert w.node_id == "fix-batch"
    text = " ".join(s.get("text", "") for s in w.to_dict("en")["steps"])
    assert f"128 is {128 // devices} per device and 64 is {64 // devices}" in text
    f = walk(
        KB.get("tensor-padding"),
        {"batch": "512", "feature": "300"},
        overrides={"accelerator_type": acc},
    )
    assert f.node_id == "fix-feature" and f.values["padded_dim"] == "384"
    fill = "512" if acc == "v6e-8" else "384"
    assert f.values["suggested_dim"] == fill


def test_larger_slice_moves_the_thresholds():
    """On a v4-32 (16 megacore devices) the batch step is 256 and the ideal batch 4096."""
    w = walk(KB.get("small-batch"), {"batch": "1024"}, overrides={"accelerator_type": "v4-32"})
    assert w.values["batch_step"] == "256" and w.values["ideal_batch"] == "4096"
    assert w.node_id == "fix-raise"
    d = w.to_dict("en")
    assert "GLOBAL_BATCH_SIZE = 4096" in d["steps"][0]["after"]
    assert any("4 hosts of 4 devices" in line for line in d["advice"])


def test_explicit_answer_beats_the_pasted_type():
    w = walk(
        KB.get("hbm-oom"), {"generation": "v3", "batch": "100"}, values={"accelerator_type": "v4-8"}
    )
    assert w.auto == [] and w.values["tpu_generation"] == "v3" and w.values["hbm_gib"] == "16"


def test_parser_generation_names_are_understood():
    """The parser says `tpu_generation: v5litepod` for a v5litepod-8: the walk knows it is v5e."""
    w = walk(
        KB.get("hbm-oom"),
        {},
        values={"accelerator_type": "v5litepod-8", "tpu_generation": "v5litepod"},
    )
    assert w.path == [("generation", "v5e")] and w.values["hbm_gib"] == "16"


def test_advisors_use_the_real_device_count():
    assert (
        "8 / 16 per core on the 8 cores of a v3-8"
        in batch_size(100, {"accelerator_type": "v3-8"}).en[0]
    )
    assert (
        "16 / 32 per chip on the 4 chips of a v4-8"
        in batch_size(100, {"accelerator_type": "v4-8"}).en[0]
    )
    assert hbm(1, {"accelerator_type": "v5p-8"}).values["hbm_gib"] == "95"
    assert feature_size(300, {"accelerator_type": "v6e-8"}).values["suggested_dim"] == "512"


def test_accelerator_type_in_a_paste_reaches_the_walk():
    """End to end through the parser: a trace naming a v5litepod-8 needs no generation answer."""
    from assistant.text.parse import parse

    trace = (
        "$ gcloud compute tpus tpu-vm create my-tpu --zone=us-west4-a "
        "--accelerator-type=v5litepod-8\n"
        "ResourceExhaustedError: Ran out of memory in memory space hbm; used: 17.2G; limit: 15.75G."
    )
    values = parse(trace).values()
    assert values["accelerator_type"] == "v5litepod-8"
    w = walk(KB.get("hbm-oom"), {"batch": "512", "padding": "yes"}, values=values)
    assert w.path[0] == ("generation", "v5e") and w.auto == ["generation"]
    assert w.values["device_count"] == "8" and w.values["hbm_gib"] == "16"
    assert any("64 per chip on the 8 chips of a v5litepod-8" in a for a in w.advice.en)
