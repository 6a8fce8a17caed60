"""Each fix of issue 11, walked and checked on what the person would read or run."""

from __future__ import annotations

import pytest

from assistant import placeholders
from assistant.advice import batch_size, feature_size
from assistant.kb import load_knowledge
from assistant.render import unified_diff
from assistant.walk import all_paths, walk

KB = load_knowledge(user_dirs=[])
VALUES = {"tpu_name": "my-tpu", "zone": "us-central1-b", "project": "my-project"}


def fix(entry_id: str, answers: dict[str, str], lang: str = "en", **values: str) -> dict:
    w = walk(KB.get(entry_id), answers, overrides={**VALUES, **values})
    assert w.kind == "fix", (entry_id, answers, w.node_id)
    return w.to_dict(lang)


def answers_to(entry_id: str, node: str) -> dict[str, str]:
    """The answers of the first path through `entry_id`'s tree that ends at `node`."""
    entry = KB.get(entry_id)
    return next(a for a in all_paths(entry) if walk(entry, a).node_id == node)


def commands(d: dict) -> list[str]:
    return [s["command"] for s in d["steps"] if s["kind"] == "command"]


def texts(d: dict) -> str:
    return " ".join([d["title"], d["check"], *(s.get("text", "") for s in d["steps"])])


# -- memory: rounding up never frees HBM ------------------------------------------------------


def test_hbm_oom_padding_rounds_down_for_memory():
    d = fix("hbm-oom", {"generation": "v3", "batch": "1000", "padding": "no", "feature": "200"})
    assert d["node"] == "fix-padding"
    note, keras, torch, flax, batch = d["steps"][:5]
    assert "accuracy" in note["text"] and "would free nothing" in note["text"]
    assert "Dense(200)" in keras["before"] and "Dense(128)" in keras["after"]
    assert "Linear(in_features, 128)" in torch["after"] and "features=128" in flax["after"]
    # the other way out: keep the layer, lower the batch
    assert "GLOBAL_BATCH_SIZE = 960" in batch["after"]


@pytest.mark.parametrize(
    ("framework", "shown"),
    [("jax", "flax.linen.Dense"), ("pytorch", "torch.nn.Linear"), ("tensorflow", "keras")],
)
def test_a_change_written_for_several_frameworks_shows_the_persons_own(framework, shown):
    """The framework the report names (or the person set) picks its variant of the change; the
    steps for every framework (the batch) and the explanation stay."""
    answers = {"generation": "v3", "batch": "1000", "padding": "no", "feature": "200"}
    d = fix("hbm-oom", answers, framework=framework)
    code = [s for s in d["steps"] if s["kind"] == "code"]
    assert [shown in s["after"] for s in code] == [True, False]
    assert "GLOBAL_BATCH_SIZE" in code[1]["after"]
    assert any("would free nothing" in s.get("text", "") for s in d["steps"])


def test_every_variant_of_a_change_is_shown_when_the_framework_is_unknown():
    d = fix("small-layers", {"layer-kind": "dense", "dense-width": "64"})
    code = [s for s in d["steps"] if s["kind"] == "code"]
    afters = " ".join(s["after"] for s in code)
    assert all(f in afters for f in ("keras.layers.Dense(", "torch.nn.Linear(", "linen.Dense("))
    # `walk --json` says which stack each variant is for: the change, then the benchmark
    assert [s.get("framework") for s in code] == ["tensorflow", "pytorch", "jax"] * 2
    jax = fix("small-layers", {"layer-kind": "dense", "dense-width": "64"}, framework="jax")
    code = [s for s in jax["steps"] if s["kind"] == "code"]
    assert [s.get("framework") for s in code] == ["jax", "jax"]
    assert "jax.block_until_ready" in code[1]["after"]


# What starts each stack's profiler, in the code of a fix that asks for a profile.
PROFILERS = {
    "tensorflow": ("tf.keras.callbacks.TensorBoard", "tf.profiler"),
    "jax": ("jax.profiler",),
    "pytorch": ("torch_xla.debug.profiler",),
}


def _profiles(after: str) -> set[str]:
    return {fw for fw, calls in PROFILERS.items() if any(c in after for c in calls)}


PROFILE_FIXES = [
    (entry.id, node_id)
    for entry in (KB.get(i) for i in KB.ids())
    for node_id, node in entry.tree.nodes.items()
    if node.kind == "fix"
    and sum(1 for s in node.steps if s.kind == "code" and _profiles(s.after)) > 1
]


def test_a_fix_asking_for_a_profile_has_the_profiler_of_every_stack():
    """A fix that starts a profiler in code, reached whatever the person's stack, holds one variant
    per stack, each starting its own profiler (a fix the tree reached by the stack holds one)."""
    assert len(PROFILE_FIXES) >= 6, PROFILE_FIXES
    for entry_id, node_id in PROFILE_FIXES:
        code = [s for s in KB.get(entry_id).tree.nodes[node_id].steps if s.kind == "code"]
        variants = {s.framework: _profiles(s.after) for s in code if _profiles(s.after)}
        assert variants == {fw: {fw} for fw in PROFILERS}, (entry_id, node_id, variants)


@pytest.mark.parametrize(("entry_id", "node_id"), PROFILE_FIXES)
def test_the_persons_stack_picks_its_profiler(entry_id, node_id):
    answers = answers_to(entry_id, node_id)
    for framework in PROFILERS:
        d = fix(entry_id, answers, framework=framework)
        shown = set().union(*(_profiles(s["after"]) for s in d["steps"] if s["kind"] == "code"))
        assert shown == {framework}, (entry_id, node_id, framework, shown)
    unknown = fix(entry_id, answers)
    code = [s for s in unknown["steps"] if s["kind"] == "code" and _profiles(s["after"])]
    assert [s["framework"] for s in code] == list(PROFILERS)  # each says which stack it is for


STACK_FIXES = [
    (entry.id, node_id)
    for entry in (KB.get(i) for i in KB.ids())
    for node_id, node in entry.tree.nodes.items()
    if node.kind == "fix"
    and {s.framework for s in node.steps if s.kind == "code"} >= set(PROFILERS)
]


@pytest.mark.parametrize(("entry_id", "node_id"), STACK_FIXES)
def test_a_fix_written_for_every_stack_shows_each_person_their_own(entry_id, node_id):
    """Where a fix's code is written for each of the three stacks, a person whose stack is known
    sees no code written for another; the steps written for every stack stay."""
    answers = answers_to(entry_id, node_id)
    every = [s for s in fix(entry_id, answers)["steps"] if s.get("framework") is None]
    for framework in PROFILERS:
        d = fix(entry_id, answers, framework=framework)
        stacks = {s.get("framework") for s in d["steps"]} - {None}
        assert stacks == {framework}, (entry_id, node_id, framework, stacks)
        assert [s for s in d["steps"] if s.get("framework") is None] == every


def test_hbm_oom_big_batch_feature_already_unpadded_goes_to_the_batch():
    """Batch 2048, feature 200: with a multiple of 1024 the tile is 8, so 200 is not padded.
    The old fix said "Dense(200) → Dense(200), 0 % padding"."""
    w = walk(
        KB.get("hbm-oom"),
        {
            "generation": "v3",
            "batch": "2048",
            "padding-big-batch": "no",
            "feature-big-batch": "200",
        },
    )
    assert w.node_id == "lower-batch"
    d = w.to_dict("en")
    for s in d["steps"]:
        if s["kind"] == "code":
            assert s["before"] != s["after"]
    assert any("200 is a multiple of 8: no padding" in a for a in d["advice"])


def test_hbm_oom_big_batch_odd_feature_rounds_down_to_a_multiple_of_8():
    d = fix(
        "hbm-oom",
        {
            "generation": "v3",
            "batch": "2048",
            "padding-big-batch": "no",
            "feature-big-batch": "203",
        },
    )
    assert "Dense(200)" in d["steps"][1]["after"]  # after the note on what rounding down saves


def test_feature_below_one_tile_cannot_be_rounded_down():
    w = walk(
        KB.get("hbm-oom"), {"generation": "v3", "batch": "1000", "padding": "no", "feature": "100"}
    )
    assert w.node_id == "lower-batch"
    assert "lower_dim" not in w.values
    assert any("lower the batch instead" in a for a in w.advice.en)


def test_tensor_padding_rounding_up_is_for_speed_and_keeps_hbm():
    d = fix("tensor-padding", {"generation": "v3", "batch": "512", "feature": "300"})
    assert d["node"] == "fix-feature"
    note, keras = d["steps"][:2]
    assert "Dense(384" in keras["after"]
    assert "HBM use drops" not in d["check"] and "stays about the same" in d["check"]
    assert "frees no HBM" in note["text"]
    pt = fix("tensor-padding", {"generation": "v3", "batch": "512", "feature": "300"}, lang="pt")
    assert "o uso de HBM cai" not in pt["check"]


# -- advice: no duplicated alternatives --------------------------------------------------------


@pytest.mark.parametrize("batch", [1, 8, 30, 63])
def test_batch_advice_never_offers_the_same_number_twice(batch):
    for variables in ({}, {"accelerator_type": "v3-8"}, {"accelerator_type": "v4-8"}):
        a = batch_size(batch, variables)
        assert "64 or 64" not in a.en[0] and "64 ou 64" not in a.pt[0]
        assert "8 / 8" not in a.en[0] and "16 / 16" not in a.en[0]
        assert "use 64" in a.en[0]


def test_feature_advice_never_offers_the_same_number_twice():
    for d in (100, 129, 200, 300):
        a = feature_size(d, {})
        joined = " ".join(a.en)
        assert "128 (or 128)" not in joined and "Use 128 (or" not in joined


# -- create-403: the blocked user, and access scopes -------------------------------------------


def test_grant_role_names_the_blocked_user():
    d = fix("create-403-scopes", {"message": "iam"}, user_email="ana@example.com")
    grant = next(c for c in commands(d) if "add-iam-policy-binding" in c)
    assert '--member="user:ana@example.com"' in grant
    assert "gcloud config get-value account" not in " ".join(commands(d))
    unfilled = fix("create-403-scopes", {"message": "iam"})
    assert "user_email" in unfilled["missing"]


def test_vm_access_scopes_are_a_cause():
    d = fix("create-403-scopes", {"message": "scopes", "where": "gce-vm"}, vm_name="dev-vm")
    assert any(
        "--scopes=cloud-platform" in c and "set-service-account dev-vm" in c for c in commands(d)
    )
    assert any(c.startswith("gcloud compute instances stop dev-vm") for c in commands(d))
    assert "access scopes" in KB.get("create-403-scopes").explanation.en


# -- tpu-connection ------------------------------------------------------------------------------


def test_stopped_tpu_is_started_not_stopped():
    d = fix("tpu-connection", {"waited": "over-5", "architecture": "tpu-vm", "status": "stopped"})
    cmds = commands(d)
    assert any("tpu-vm start my-tpu" in c for c in cmds)
    assert not any("tpu-vm stop" in c for c in cmds)


def test_no_fix_chains_stop_and_start():
    for entry in map(KB.get, KB.ids()):
        for node in entry.tree.nodes.values():
            for step in getattr(node, "steps", []):
                cmd = getattr(step, "command", "") or ""
                assert not ("stop" in cmd and "&&" in cmd and "start" in cmd), (entry.id, cmd)


def test_preempted_tpu_is_recreated_or_queued():
    d = fix(
        "tpu-connection",
        {"waited": "over-5", "architecture": "tpu-vm", "status": "preempted"},
        accelerator_type="v5litepod-8",
        runtime_version="v2-alpha-tpuv5-lite",
    )
    cmds = commands(d)
    assert not any("tpu-vm start" in c for c in cmds)  # a preempted Spot TPU does not restart
    assert any("tpu-vm create my-tpu" in c and "--accelerator-type=v5litepod-8" in c for c in cmds)
    assert any("queued-resources create" in c for c in cmds)


READY_BUT_CHECK_FAILS = {"waited": "over-5", "architecture": "tpu-vm", "status": "ready"}


def test_a_container_without_the_tpu_is_run_privileged_on_the_host_network():
    image = "us-central1-docker.pkg.dev/acme/train/trainer:v3"
    d = fix("tpu-connection", {**READY_BUT_CHECK_FAILS, "smoke-test": "container"}, image=image)
    cmds = commands(d)
    assert cmds[0].startswith("ls -l /dev/accel* /dev/vfio")  # looked at inside the container
    run = cmds[1]
    assert run.startswith("sudo docker run ") and run.endswith(f" {image} bash")
    assert "--privileged" in run and "--net=host" in run


# values as the tools that print them spell them: image references as Docker takes them, op
# names as TensorFlow and PyTorch's dispatcher write them
ACCEPTED = [
    ("image", "ubuntu:22.04"),
    ("image", "localhost:5000/trainer"),
    ("image", "us-central1-docker.pkg.dev/tpu-pytorch-releases/docker/xla:r2.6.0_3.10_tpuvm_cxx11"),
    ("image", "gcr.io/acme/jax@sha256:" + "0" * 64),
    ("op_name", "MatMul"),
    ("op_name", "torchvision::nms"),
    ("op_name", "aten::upsample_bilinear2d"),
]
REFUSED = [
    ("image", "Ubuntu:22.04"),
    ("image", "trainer:v3; rm -rf /"),
    ("image", "a b"),
    ("image", "img:"),
    ("op_name", "a;rm -rf"),
    ("op_name", "torchvision::"),
    ("op_name", "::nms"),
    ("op_name", "x y"),
]


@pytest.mark.parametrize(("name", "value"), ACCEPTED)
def test_values_as_their_tools_write_them_are_accepted(name, value):
    assert placeholders.validate_value(name, value) == value


@pytest.mark.parametrize(("name", "value"), REFUSED)
def test_what_is_no_such_value_is_refused(name, value):
    with pytest.raises(placeholders.PlaceholderError):
        placeholders.validate_value(name, value)


@pytest.mark.parametrize(
    ("framework", "version", "install"),
    [
        ("jax", "0.4.30", 'pip install -U "jax[tpu]==0.4.30" -f '),
        ("pytorch", "2.5.1", 'pip install "torch==2.5.1" "torch_xla[tpu]==2.5.1" -f '),
        # PyPI's tensorflow has no TPU support: the TPU build, with the libtpu it pins
        ("tensorflow", "2.18.0", 'pip install "tensorflow-tpu==2.18.0" -f '),
    ],
)
def test_a_device_check_broken_by_an_upgrade_pins_a_matching_pair(framework, version, install):
    """The device check fails right after a nightly or a pip upgrade: the framework and its TPU
    library are out of step, so the fix lists the versions and installs one matching release of
    the person's own stack; nothing restarts the TPU."""
    answers = {**READY_BUT_CHECK_FAILS, "smoke-test": "after-upgrade"}
    for lang in ("en", "pt"):
        d = fix("tpu-connection", answers, lang, framework=framework, framework_version=version)
        assert d["node"] == "versions"
        cmds = commands(d)
        assert cmds[0].startswith("pip list") and "value(runtimeVersion)" in cmds[1]
        installs = [c for c in cmds if c.startswith("pip install")]
        assert len(installs) == 1 and installs[0].startswith(install)
        assert not any(" stop " in c or " start " in c for c in cmds)
    unknown = commands(fix("tpu-connection", answers))
    assert sum(c.startswith("pip install") for c in unknown) == 3  # one per framework
    assert any("tpu-vm versions list" in c for c in unknown)  # TensorFlow: the runtime version


def test_a_framework_version_is_a_release_number_only():
    assert placeholders.validate_value("framework_version", "2.6.0.dev20241107")
    for bad in ("latest", "2.5.1; rm -rf ~", "2.5.1 torchvision==0.20"):
        with pytest.raises(placeholders.PlaceholderError):
            placeholders.validate_value("framework_version", bad)


def test_smoke_test_question_shows_the_device_checks():
    w = walk(
        KB.get("tpu-connection"), {"waited": "over-5", "architecture": "tpu-vm", "status": "ready"}
    )
    for lang in ("en", "pt"):
        prompt = w.to_dict(lang)["prompt"]
        assert "jax.devices()" in prompt and "xla_device()" in prompt
        assert "list_logical_devices('TPU')" in prompt
        assert "next step" not in prompt and "próximo passo" not in prompt


def test_legacy_tpu_node_gets_its_own_commands():
    d = fix("tpu-connection", {"waited": "over-5", "architecture": "tpu-node"})
    cmds = commands(d)
    assert cmds and all("tpu-vm" not in c for c in cmds)
    assert any(c.startswith("gcloud compute tpus list") for c in cmds)
    assert any(c.startswith("gcloud compute tpus start my-tpu") for c in cmds)


def test_debug_on_cpu_for_every_framework():
    d = fix(
        "tpu-connection",
        {"waited": "over-5", "architecture": "tpu-vm", "status": "ready", "smoke-test": "yes"},
        script="train.py",
    )
    cmds = commands(d)
    assert "JAX_PLATFORMS=cpu python3 train.py" in cmds
    assert "PJRT_DEVICE=CPU python3 train.py" in cmds
    assert any("get_strategy()" in s.get("after", "") for s in d["steps"])


def test_multi_host_program_started_on_one_worker_runs_on_all():
    """JAX or PyTorch/XLA started on worker 0 of a multi-host slice waits for the other hosts:
    the fix copies the project to every worker and starts it on all of them, in one folder."""
    answers = {"waited": "over-5", "architecture": "tpu-vm", "status": "ready"}
    smoke = walk(KB.get("tpu-connection"), answers).to_dict("en")
    assert "--worker=all" in smoke["prompt"]
    for lang in ("en", "pt"):
        d = fix("tpu-connection", {**answers, "smoke-test": "one-worker"}, lang, script="train.py")
        assert d["node"] == "all-workers"
        cmds = commands(d)
        copy = next(c for c in cmds if " scp " in c)
        run = next(c for c in cmds if " ssh " in c)
        assert "--worker=all" in copy and "--worker=all" in run
        assert copy.startswith("gcloud compute tpus tpu-vm scp --recurse . my-tpu:~/job")
        assert run.endswith('--command="cd ~/job && python3 train.py"')
        assert "TensorFlow" not in texts(d)  # TensorFlow's pod runtime is driven from one worker


@pytest.mark.parametrize(
    ("entry_id", "answers"),
    [
        (
            "tpu-connection",
            {"waited": "over-5", "architecture": "tpu-vm", "status": "ready", "smoke-test": "busy"},
        ),
        ("hang-on-error", {"situation": "new-error", "in-use": "yes"}),
    ],
)
def test_device_held_by_another_process(entry_id, answers):
    cmds = commands(fix(entry_id, answers))
    assert any(c.startswith("sudo lsof") and "/dev/accel*" in c for c in cmds)
    assert any(c.startswith("sudo fuser -k /dev/accel*") for c in cmds)


# -- values that the shell would not expand -------------------------------------------------------


def test_tilde_in_log_dir_is_refused_with_a_clear_message():
    with pytest.raises(placeholders.PlaceholderError, match=r"literal '~'.*full path"):
        placeholders.validate_value("log_dir", "~/tpu_logs")


def test_tilde_walk_cli(capsys):
    from assistant.cli.main import main

    code = main(["walk", "tensor-padding", "-a", "generation=v3", "--set", "log_dir=~/tpu_logs"])
    err = capsys.readouterr().err
    assert code == 2 and "literal '~'" in err and "Traceback" not in err


# One value per kind of placeholder that looks fine but means something else once shell-quoted:
# a leading `~` (not expanded inside quotes), `$VAR` (not expanded), globs, command substitution.
SHELL_TRAPS = ["~/x", "~", "$HOME/x", "${HOME}", "a*", "x?", "$(id)", "`id`", "~user/x"]


@pytest.mark.parametrize("name", sorted(placeholders.KNOWN))
def test_no_placeholder_kind_accepts_a_value_the_shell_would_take_literally(name):
    for trap in SHELL_TRAPS:
        with pytest.raises(placeholders.PlaceholderError):
            placeholders.validate_value(name, trap)


def test_computed_placeholders_are_numbers_only():
    for name in ("batch_size", "hbm_gib", "device_count", "padded_dim", "per_device_batch"):
        with pytest.raises(placeholders.PlaceholderError):
            placeholders.validate_value(name, "~/8")


# -- learning rate, one-hot, convolutions ------------------------------------------------


def test_small_batch_lr_scaling_is_an_option_with_cap_and_warm_up():
    d = fix("small-batch", {"generation": "v3", "batch": "8"})
    lr = d["steps"][1]
    assert (
        "Optional" in lr["after"]
        and "MAX_LR_SCALE" in lr["after"]
        and "warmup_steps" in lr["after"]
    )
    assert "min(GLOBAL_BATCH_SIZE / 8, MAX_LR_SCALE)" in lr["after"]
    assert "case by case" in d["steps"][0]["text"]
    assert "learning_rate=BASE_LR * GLOBAL_BATCH_SIZE" not in d["steps"][0]["after"]


@pytest.mark.parametrize(
    ("framework", "shown"),
    [("jax", "NamedSharding(mesh"), ("pytorch", "XlaFullyShardedDataParallel")],
)
def test_a_model_copied_on_every_device_is_sharded_before_it_is_recomputed(framework, shown):
    """A model that does not fit even at batch 64 and must keep its architecture: where each device
    holds all of it (plain data parallelism), the fix is to shard weights and optimizer state, with
    the slice's figures; where they are sharded already, recompute activations."""
    answers = {"generation": "v5e", "batch": "32", "keep-architecture": "keep"}
    d = fix(
        "batch-or-model-too-large",
        {**answers, "replicas": "yes"},
        framework=framework,
        accelerator_type="v5litepod-8",
    )
    assert d["node"] == "fix-shard"
    code = [s for s in d["steps"] if s["kind"] == "code"]
    assert len(code) == 1 and shown in code[0]["after"]
    assert "8 devices of 16 GiB each" in texts(d)
    already = fix("batch-or-model-too-large", {**answers, "replicas": "no"})
    assert already["node"] == "fix-remat"


def test_one_hot_only_for_small_vocabularies():
    entry = KB.get("low-mxu")
    to_gather = next(a for a in all_paths(entry) if a.get("which-ops") == "gather")
    answers = {k: v for k, v in to_gather.items() if k != "vocab"}
    small = fix("low-mxu", {**answers, "vocab": "512"})
    big = fix("low-mxu", {**answers, "vocab": "32000"})
    code = [s for s in small["steps"] if s["kind"] == "code"]
    assert small["node"] == "fix-one-hot" and len(code) == 3  # one per stack
    assert all("one_hot" in s["after"] and "einsum" in s["after"] for s in code)
    assert big["node"] == "fix-large-table"
    assert all("one_hot" not in s.get("after", "") for s in big["steps"])
    assert "gigabytes" in texts(big)


def test_widen_conv_says_benchmark_not_same_cost():
    entry = KB.get("small-layers")
    path = next(a for a in all_paths(entry) if "conv-channels" in a)
    d = fix("small-layers", {**path, "conv-channels": "32"})
    assert d["node"] == "widen-conv"
    assert "costs about the same" not in texts(d) and "benchmark" in texts(d).lower()
    assert "barely changes" not in d["check"]
    assert any("perf_counter" in s.get("after", "") for s in d["steps"])


# -- gcloud snap, TFRecord shards, diff labels -------------------------------------------


def test_gcloud_snap_install():
    refresh = fix("gcloud-component-manager", {"method": "snap", "snap-choice": "refresh"})
    assert "sudo snap refresh google-cloud-cli" in commands(refresh)
    replace = fix("gcloud-component-manager", {"method": "snap", "snap-choice": "replace"})
    cmds = commands(replace)
    assert "sudo snap remove google-cloud-cli" in cmds and any("install.sh" in c for c in cmds)


def test_tfrecord_conversion_writes_real_shards():
    code = fix("input-bottleneck", answers_to("input-bottleneck", "fix-tfrecord"))["steps"][0][
        "after"
    ]
    assert "for i in range(NUM_SHARDS)" in code and "n % NUM_SHARDS" in code
    assert '"train-00000-of-00064.tfrecord"' not in code
    assert 'f"train-{i:05d}-of-{NUM_SHARDS:05d}.tfrecord"' in code


def test_code_diffs_are_labelled_like_files():
    for entry in map(KB.get, KB.ids()):
        for answers in all_paths(entry):
            d = walk(entry, answers, overrides=VALUES).to_dict("en")
            for s in d["steps"]:
                if s["kind"] == "code":
                    assert "a/python" not in s["diff"] and "b/python" not in s["diff"]
                    first = s["diff"].splitlines()[0]
                    assert (
                        first.startswith("--- a/") and first.endswith(".py")
                    ) or first.startswith("@@")
    assert unified_diff("a\n", "b\n", None).startswith("@@")
    assert unified_diff("a\n", "b\n", "model.py").startswith("--- a/model.py")


# -- today's frameworks ------------------------------------------------------------------------


def test_dynamic_shape_jax_concretization_ends_in_code():
    d = fix("dynamic-shape", {"framework": "jax", "jax-symptom": "concretization"})
    after = " ".join(s.get("after", "") for s in d["steps"])
    assert "jnp.nonzero(values > 0, size=MAX_SELECTED" in after and "jnp.where(mask" in after
    assert "static_argnames" in texts(d)


def test_dynamic_shape_jax_recompiles_pads_to_buckets():
    d = fix("dynamic-shape", {"framework": "jax", "jax-symptom": "recompiles"}, script="train.py")
    assert "JAX_LOG_COMPILES=1 python3 train.py" in commands(d)
    assert any("BUCKETS" in s.get("after", "") for s in d["steps"])


def test_dynamic_shape_pytorch_xla_recompilation():
    d = fix("dynamic-shape", {"framework": "pytorch"})
    after = " ".join(s.get("after", "") for s in d["steps"])
    assert "met.short_metrics_report()" in after and "CompileTime" in texts(d)
    assert "drop_last=True" in after and "MpDeviceLoader" in after


def test_dynamic_shape_tensorflow_path_is_kept():
    d = fix("dynamic-shape", {"framework": "tensorflow", "source": "batch"})
    assert "drop_remainder=True" in d["steps"][0]["after"]


def test_steps_per_execution_jax_scan():
    d = fix("steps-per-execution", {"loop": "jax"})
    first, scan = d["steps"][0], d["steps"][1]
    # reading back only every N steps first (what check's TPU402 finds), then several per call
    assert "if step % 100 == 0:" in first["after"] and "TPU402" in first["text"]
    assert "jax.lax.scan(train_step, state, stacked)" in scan["after"]
    assert "fori_loop" in texts(d)


def test_steps_per_execution_pytorch_xla_keeps_the_loop_on_the_device():
    d = fix("steps-per-execution", {"loop": "pytorch"})
    step = d["steps"][0]
    assert "loss.item()" in step["before"] and "pl.MpDeviceLoader" in step["after"]
    assert "add_step_closure" in step["after"] and ".item()" in step["text"]


def test_py_function_in_tf_data_works_on_tpu_vms_not_nodes():
    tf = {"framework": "tensorflow", "kind": "python-or-text"}
    vm = fix("op-unavailable", {**tf, "architecture": "tpu-vm"}, op_name="PyFunc")
    assert any("dataset.map(preprocess" in s.get("after", "") for s in vm["steps"])
    node = fix("op-unavailable", {**tf, "architecture": "tpu-node"}, op_name="PyFunc")
    assert node["node"] == "preprocess-offline"
    assert "not on TPU Nodes" in texts(node)
    assert any("TFRecordWriter" in s.get("after", "") for s in node["steps"])


def test_a_missing_op_leads_pytorch_and_jax_to_their_own_fixes():
    """op-unavailable's tree was TensorFlow's alone: a PyTorch/XLA report of aten:: ops run on
    the CPU, or a JAX op only the CPU implements, got `tf.tpu.outside_compilation`."""
    # PyTorch/XLA: does the run stop (no XLA kernel at all) or go on slowly? Asked unless the
    # dispatcher's error answered it (see test_an_op_with_no_xla_kernel_is_moved_to_the_cpu…)
    asked = walk(KB.get("op-unavailable"), {}, overrides={**VALUES, "framework": "pytorch"})
    assert asked.node_id == "torch-how"
    torch = fix("op-unavailable", {"torch-how": "slow"}, framework="pytorch")
    assert torch["node"] == "torch-fallback"
    assert "met.counter_names()" in torch["steps"][0]["after"]
    assert "tf." not in " ".join(s.get("after", "") for s in torch["steps"])
    jax = fix("op-unavailable", {}, framework="jax")
    assert jax["node"] == "jax-cpu-op" and "jax.default_device" in jax["steps"][1]["after"]
    assert "eigh" in texts(jax)
    asked = walk(KB.get("op-unavailable"), {})  # nothing says which framework: it is asked
    assert asked.node_id == "framework"


def test_commands_have_framework_variants_too():
    """tpu-connection's restart ends with a device check: the person's stack's one-liner, or all
    three when the stack is unknown."""
    path = answers_to("tpu-connection", "restart")

    def checks(**values: str) -> list[str]:
        steps = fix("tpu-connection", path, **values)["steps"]
        return [s.get("framework") for s in steps if "python3 -c" in s.get("command", "")]

    assert checks(framework="pytorch") == ["pytorch"]
    assert checks() == ["jax", "pytorch", "tensorflow"]


@pytest.mark.parametrize(
    ("node", "jax_code", "tf_code"),
    [
        ("fix-bn-batch", 'axis_name="batch"', "synchronized=True"),
        ("fix-loss-reduction", "jax.lax.pmean", "compute_average_loss"),
    ],
)
def test_accuracy_fixes_speak_jax_to_a_jax_report(node, jax_code, tf_code):
    path = answers_to("accuracy-drop", node)
    after = " ".join(
        s.get("after", "") for s in fix("accuracy-drop", path, framework="jax")["steps"]
    )
    assert jax_code in after and tf_code not in after
    every = " ".join(s.get("after", "") for s in fix("accuracy-drop", path)["steps"])
    assert jax_code in every and tf_code in every


# -- ops: one PyTorch/XLA cannot run at all is not one it runs slowly on the CPU --------------


def test_an_op_with_no_xla_kernel_is_moved_to_the_cpu_for_its_call(engine):
    """PyTorch's dispatcher refusing an op for the XLA backend answers the stop-or-slow question
    by itself, and the fix moves that call to the host (with the op named), not the metrics
    report of ops that fall back on their own."""
    report = (
        "torch_xla 2.5 on a v4-8, Mask R-CNN eval\n"
        "NotImplementedError: Could not run 'torchvision::roi_align' with arguments from the "
        "'XLA' backend."
    )
    a = engine.ask(report)
    assert a.results[0].id == "op-unavailable"
    assert a.values["op_name"] == "torchvision::roi_align" and a.values["no_kernel_for"] == "XLA"
    w = walk(KB.get("op-unavailable"), {}, overrides={**a.values})
    assert w.kind == "fix" and w.node_id == "torch-no-kernel"
    d = w.to_dict("en")
    assert "`torchvision::roi_align`" in texts(d)
    assert any(".cpu()" in s.get("after", "") for s in d["steps"] if s["kind"] == "code")


def test_an_op_that_falls_back_is_still_found_in_the_metrics():
    d = fix("op-unavailable", {"framework": "pytorch", "torch-how": "slow"})
    assert any("aten::" in s.get("after", "") for s in d["steps"] if s["kind"] == "code")


# -- connection: a first step that took minutes and then ran ----------------------------------


@pytest.mark.parametrize(
    ("framework", "shown", "hidden"),
    [
        ("jax", 'jax.config.update("jax_compilation_cache_dir"', "initialize_cache"),
        ("pytorch", 'xr.initialize_cache("/tmp/xla_cache"', "jax_compilation_cache_dir"),
    ],
)
def test_a_slow_first_step_that_then_runs_keeps_the_compile_on_disk(framework, shown, hidden):
    """Minutes in the first step and fast after is the compile, not a connection: the fix is the
    framework's persistent compilation cache, and a compile that comes back later is the
    dynamic-shape entry's."""
    d = fix("tpu-connection", {"waited": "ran-late"}, framework=framework)
    assert d["node"] == "compile-cache"
    code = [s for s in d["steps"] if s["kind"] == "code"]
    assert len(code) == 1 and shown in code[0]["after"] and hidden not in code[0]["after"]
    assert not commands(d)  # nothing to restart or recreate: the TPU works
    assert "dynamic shapes" in d["check"]


def test_still_waiting_for_the_compile_points_at_the_cache_for_later_runs():
    d = fix("tpu-connection", {"waited": "under-5"})
    assert d["node"] == "wait-compile"
    assert "It ran in the end" in d["check"]
    pt = fix("tpu-connection", {"waited": "under-5"}, lang="pt")
    assert "Rodou no fim" in pt["check"]


# -- accuracy: a loss that never moves on PyTorch/XLA ------------------------------------------


def test_a_flat_loss_on_pytorch_xla_moves_the_model_before_the_optimizer():
    d = fix("accuracy-drop", {"single-core": "flat"}, framework="pytorch")
    assert d["node"] == "fix-flat-loss"
    order, step = [s for s in d["steps"] if s["kind"] == "code"]
    assert ".to(device)" in order["after"].splitlines()[0]  # the move comes first
    assert "model.parameters()" in order["after"].splitlines()[1]
    assert "xm.optimizer_step(optimizer)" in step["after"] and "xm.mark_step()" in step["after"]
    assert "TPU703" in order["text"]
    # another framework's person reads the general note first (the code stays, labelled PyTorch)
    jax = fix("accuracy-drop", {"single-core": "flat"}, framework="jax")
    assert jax["steps"][0]["kind"] == "note" and "JAX" in jax["steps"][0]["text"]
    assert {s.get("framework") for s in jax["steps"][1:]} == {"pytorch"}


def test_pytorch_xla_processes_average_their_gradients_with_optimizer_step():
    answers = {"single-core": "same", "same-init": "yes", "batchnorm": "no", "batch-loss": "no"}
    d = fix("accuracy-drop", answers, framework="pytorch")
    assert d["node"] == "fix-loss-reduction"
    (code,) = [s for s in d["steps"] if s["kind"] == "code"]  # the PyTorch/XLA variant alone
    assert "optimizer.step()" in code["before"] and "xm.optimizer_step(optimizer)" in code["after"]
    assert "TPU704" in code["text"]


def test_a_jax_step_compiled_at_every_pass_is_jitted_once_outside_the_loop():
    d = fix("dynamic-shape", {"framework": "jax", "jax-symptom": "rejit"})
    assert d["node"] == "jax-jit-once"
    assert any("JAX_LOG_COMPILES=1" in c for c in commands(d))
    (code,) = [s for s in d["steps"] if s["kind"] == "code"]
    assert "lambda" in code["before"] and "lambda" not in code["after"]
    assert code["after"].index("jax.jit") < code["after"].index("for batch")  # made first
    assert "TPU110" in code["text"]


# -- a batch the devices do not divide --------------------------------------------------------


def test_a_batch_the_devices_do_not_divide_gets_the_nearest_that_they_do():
    """The error's device count (JAX's "should be divisible by 8, but it is equal to 60") routes
    the batch question to the split fix, with the nearest batches the devices divide."""
    d = fix("batch-or-model-too-large", {"generation": "v5e", "batch": "60"}, split_devices="8")
    assert d["node"] == "fix-split"
    (code,) = [s for s in d["steps"] if s["kind"] == "code"]
    assert "GLOBAL_BATCH_SIZE = 60" in code["before"]
    assert "GLOBAL_BATCH_SIZE = 64" in code["after"]
    assert "56 / 64 can" in texts(d) and "drop_remainder=True" in texts(d)
    assert any("56 or 64 does" in a for a in d["advice"])
    # a batch smaller than the devices: one batch divides, said once
    d = fix("batch-or-model-too-large", {"generation": "v3", "batch": "4"}, split_devices="8")
    assert "8 can" in texts(d) and any(a.endswith(": 8 does.") for a in d["advice"])
    # the batch the devices divide, or no device count from an error: the memory path as before
    for answers, values in (({"batch": "64"}, {"split_devices": "8"}), ({"batch": "60"}, {})):
        w = walk(
            KB.get("batch-or-model-too-large"),
            {"generation": "v5e", **answers},
            overrides={**VALUES, **values},
        )
        assert w.node_id != "fix-split", (answers, values)
