"""A message that shows the situation answers the walk's questions about it (`Signature.sets`,
read by a question's `answer_from`): "TPU is already in use by process 4242" is a run that fails
because an old one still holds the TPU, so the walk goes straight to freeing it."""

from __future__ import annotations

import pytest

from assistant.kb import load_knowledge
from assistant.walk import walk

KB = load_knowledge(user_dirs=[])

SITUATIONS = [
    (entry.id, sig.id, sig.example, sig.sets)
    for entry in (KB.get(i) for i in KB.ids())
    for sig in entry.signatures
    if sig.sets and sig.example
]

# messages of signatures that state a situation and have no example of their own
IN_USE = [
    "RuntimeError: TPU initialization failed: open(/dev/accel0): Device or resource busy: Device "
    "or resource busy; Couldn't open device: /dev/accel0",
    "Failed to get lock on /tmp/libtpu_lockfile; the TPU is already in use by another process",
]


def test_situations_are_stated_by_several_entries():
    assert {entry_id for entry_id, *_ in SITUATIONS} >= {
        "hang-on-error",
        "create-403-scopes",
        "steps-per-execution",
        "input-bottleneck",
        "tpu-connection",
        "debug-logs",
        "op-profiling",
        "dynamic-shape",
    }


@pytest.mark.parametrize(("entry_id", "sig_id", "example", "sets"), SITUATIONS)
def test_a_message_stating_the_situation_skips_its_questions(
    engine, entry_id, sig_id, example, sets
):
    answer = engine.ask(example)
    assert answer.results[0].id == entry_id, (sig_id, [r.id for r in answer.results[:3]])
    assert {k: answer.values.get(k) for k in sets} == sets
    w = walk(KB.get(entry_id), values=dict(answer.values))
    # every question the message answers is answered, none by the person
    answered = {node for node, _ in w.path}
    takes = {
        node_id
        for node_id, node in KB.get(entry_id).tree.nodes.items()
        if set(getattr(node, "answered_by", ())) & set(sets)
    }
    assert takes and takes <= answered and takes <= set(w.auto), (sig_id, w.path, w.auto)


@pytest.mark.parametrize("message", IN_USE)
def test_a_tpu_still_held_goes_straight_to_freeing_it(engine, message):
    answer = engine.ask(message)
    assert answer.results[0].id == "hang-on-error"
    w = walk(KB.get("hang-on-error"), values=dict(answer.values))
    assert w.kind == "fix" and w.node_id == "free-tpu"
    assert w.path == [("situation", "new-error"), ("in-use", "yes")]


def test_the_person_can_still_answer_otherwise(engine):
    """A situation the message states is a value like any other: the person's answer wins."""
    answer = engine.ask(IN_USE[0])
    w = walk(KB.get("hang-on-error"), {"situation": "hung"}, values=dict(answer.values))
    assert w.path[0] == ("situation", "hung") and w.node_id == "quit-now"


def test_the_cli_hint_carries_the_situation(run_cli):
    """`ask`'s "Guided fix" hint gives the situation as values: running it reaches the fix."""
    r = run_cli("ask", IN_USE[0])
    hint = next(line for line in r.stdout.decode().splitlines() if "tpu-assist walk" in line)
    args = hint.split("tpu-assist walk", 1)[1].split()
    assert "situation=new-error" in args and "tpu_in_use=yes" in args
    walked = run_cli("walk", *args, "--json")
    assert walked.returncode == 0
    import json

    assert json.loads(walked.stdout)["node"] == "free-tpu"


def test_profile_figures_state_the_analyzers_verdict(engine):
    """The share of the step waiting for input is what the input pipeline analyzer judges by:
    figures that say so answer its question, as its verdict pasted would."""
    answer = engine.ask("v4-8 training is slow; overview page: Input time: 68% of step time")
    assert answer.results[0].id == "input-bottleneck"
    assert answer.values.get("input_analyzer") == "input-bound"
    w = walk(KB.get("input-bottleneck"), values=dict(answer.values))
    assert w.path[0] == ("confirmed", "input-bound") and "confirmed" in w.auto
    # idle time alone is no verdict of the analyzer's: the question stays
    idle = engine.ask("v4-8 training is slow; the TPU sits idle 60% of the step")
    assert "input_analyzer" not in idle.values


def test_every_situation_a_profile_rule_states_is_one_its_entry_takes():
    from assistant.retrieval.profile_rules import RULES
    from assistant.text.profile import ProfileFigures

    samples = [ProfileFigures(input_wait=v) for v in (2.0, 70.0)] + [ProfileFigures(tpu_idle=60.0)]
    stated = 0
    for rule in RULES:
        nodes = KB.get(rule.entry_id).tree.nodes.values()
        takes = {
            name: {o.value for o in n.options}
            for n in nodes
            for name in getattr(n, "answered_by", ())
        }
        for figures in samples:
            if not rule.applies(figures):
                continue
            for name, value in rule.sets(figures).items():
                assert value in takes.get(name, set()), (rule.id, name, value)
                stated += 1
    assert stated >= 2


def test_pytorch_xla_without_the_vms_tpu_metadata_is_a_connection_failure(engine):
    """PyTorch/XLA reads the slice's topology from the VM's metadata; a machine without it finds no
    TPU: a failed start, so the question of how long it waited is not asked."""
    answer = engine.ask(
        "RuntimeError: Failed to get TPU metadata (tpu-env) from instance metadata for variable "
        "CHIPS_PER_HOST_BOUNDS: INTERNAL: Couldn't connect to server"
    )
    assert answer.results[0].id == "tpu-connection" and not answer.abstained
    assert answer.values.get("waited") == "over-5"
    w = walk(KB.get("tpu-connection"), values=dict(answer.values))
    assert w.path[0] == ("waited", "over-5") and w.node_id == "architecture"


# The TPU API's other refusals: the message says which one it is (create-403-scopes' first
# question), and the walk goes to the role or to the API
OTHER_DENIALS = [
    (
        "ERROR: (gcloud.compute.tpus.tpu-vm.create) PERMISSION_DENIED: Permission "
        "'tpu.nodes.create' denied on 'projects/lab-shared-ml/locations/us-central2-b/nodes/x'",
        "iam",
        "grant-role",
    ),
    (
        "googleapiclient.errors.HttpError: <HttpError 403 when requesting https://tpu.googleapis"
        '.com/v2/projects/ws-ml/locations/us-central1-a/nodes?nodeId=v3&alt=json returned "Cloud '
        'TPU API has not been used in project 883104719266 before or it is disabled.". Details: '
        "\"[{'reason': 'SERVICE_DISABLED', 'domain': 'googleapis.com'}]\">",
        "api-disabled",
        "enable-api",
    ),
]


@pytest.mark.parametrize(("message", "denial", "fix"), OTHER_DENIALS)
def test_the_tpu_apis_other_refusals_go_to_their_own_fix(engine, message, denial, fix):
    answer = engine.ask(message)
    assert answer.results[0].id == "create-403-scopes" and not answer.abstained
    assert answer.values.get("denial") == denial
    w = walk(KB.get("create-403-scopes"), values=dict(answer.values))
    assert w.node_id == fix and w.path[0] == ("message", denial) and "message" in w.auto


def test_the_denied_permissions_project_fills_the_role_commands(engine):
    answer = engine.ask(OTHER_DENIALS[0][0])
    assert answer.values.get("project") == "lab-shared-ml"
