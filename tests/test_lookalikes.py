"""Look-alikes described in words (`lookalikes` in an entry's YAML): embedded beside the entry, never
counted as its evidence, and an input closer to one of them than to the entry lowers confidence."""

from __future__ import annotations

from dataclasses import replace

from assistant.decide import LOOKALIKE_FULL, confidence, features, lookalike_lead
from assistant.retrieval.chunks import LOOKALIKE, entry_chunks, lexical_document
from assistant.retrieval.fusion import Evidence, fuse


def test_lead_is_zero_without_a_described_lookalike_and_saturates():
    assert lookalike_lead(Evidence(dense=0.3, lookalike=0.9)) == 0.0  # no chunk text: none found
    assert lookalike_lead(Evidence(dense=0.6, lookalike=0.5, lookalike_chunk="x")) == 0.0
    half = Evidence(dense=0.5, lookalike=0.5 + LOOKALIKE_FULL / 2, lookalike_chunk="x")
    assert abs(lookalike_lead(half) - 0.5) < 1e-9
    assert lookalike_lead(Evidence(dense=0.2, lookalike=0.9, lookalike_chunk="x")) == 1.0


def test_lookalikes_are_dense_chunks_of_their_own_kind_and_not_lexical_text(kb):
    entry = kb.loaded("input-bottleneck").entry
    assert entry.lookalikes is not None
    chunks = [c for c in entry_chunks(entry) if c.kind == LOOKALIKE]
    assert {c.lang for c in chunks} == {"en", "pt"}
    assert len(chunks) == len(entry.lookalikes.en) + len(entry.lookalikes.pt)
    document = lexical_document(entry)
    assert not any(c.text in document for c in chunks)


def test_an_input_that_reads_like_a_lookalike_is_less_sure_and_says_why(engine):
    # Written for this test: a GPU training job starved by its data loader.
    text = (
        "our detector trains on four NVIDIA cards and nvidia-smi shows them idle most of the time "
        "while the loader pulls images from the bucket"
    )
    r = engine.retrieve(text)
    ev = r.evidence["input-bottleneck"]
    # The look-alike is found and kept apart: it is not the entry's closest passage.
    assert ev.lookalike_chunk is not None and ev.lookalike > ev.dense
    assert ev.dense_chunk not in {ev.lookalike_chunk}
    scored = next(x for x in fuse(r.evidence, engine.params) if x.entry_id == "input-bottleneck")
    plain = replace(scored, evidence=replace(ev, lookalike=0.0, lookalike_chunk=None))
    with_lookalike = features(scored, 0.0, r, engine.params)
    assert with_lookalike["lookalike"] > 0
    assert confidence(with_lookalike, engine.params) < confidence(
        features(plain, 0.0, r, engine.params), engine.params
    )
    answer = engine.ask(text, top_k=19)
    why = {res.id: res.why for res in answer.results}
    assert any("look-alike" in line for line in why["input-bottleneck"])


def test_a_real_report_of_the_entry_is_not_taken_for_its_lookalike(engine):
    text = (
        "TPU v4-8: the profile overview says the step is input-bound, TPU idle 71%, our tf.data "
        "pipeline decodes JPEGs without prefetch or num_parallel_calls"
    )
    a = engine.ask(text)
    assert not a.abstained and a.best.id == "input-bottleneck"
    assert lookalike_lead(engine.retrieve(text).evidence["input-bottleneck"]) == 0.0


def test_a_strong_signature_outweighs_a_described_lookalike_in_the_why(engine):
    # The entry's own message is in the input: a description of a look-alike, however close,
    # is not worth telling the person about.
    text = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    print(jax.devices())\n"
        "RuntimeError: Unable to initialize backend 'tpu': INTERNAL: Failed to get global TPU "
        "topology.\n"
    )
    ev = engine.retrieve(text).evidence["tpu-connection"]
    assert ev.sig >= 0.8 and ev.lookalike_chunk is not None and ev.lookalike > ev.dense
    answer = engine.ask(text)
    assert answer.best.id == "tpu-connection" and not answer.abstained
    assert not any("look-alike" in line for line in answer.best.why)


def test_tensorflows_own_allocator_is_a_lookalike_of_the_hbm_unless_it_names_a_tpu(engine):
    # TensorFlow's allocator words a GPU's or a CPU's failed allocation this way; the pattern
    # (hbm-oom's tf-allocator-oom) leaves the same words placed on a TPU device to the entry
    shape = (
        "ResourceExhaustedError: OOM when allocating tensor with shape[64,1024,1024] and type float"
    )
    for where in ("", " on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc"):
        ev = engine.retrieve(shape + where + "\nduring model.fit").evidence["hbm-oom"]
        assert ev.exclude >= 0.8, where
    on_tpu = shape + " on /job:worker/replica:0/task:0/device:TPU:0 by allocator TPU_0_bfc"
    assert engine.retrieve(on_tpu).evidence["hbm-oom"].exclude == 0
    answer = engine.ask(on_tpu)
    assert not answer.abstained and answer.results[0].id == "hbm-oom"


def test_a_lookalike_with_no_tpu_at_all_is_no_case_for_an_input_on_a_tpu_alone(engine):
    """A look-alike whose case is another device with no TPU ("Missing XLA configuration on a GPU
    machine with no TPU at all") cannot be the report of a person on a TPU VM who names no other
    device; one that only names the device its cause was seen on stays a look-alike."""
    from assistant.text.domain import tpu_host_only, without_tpu

    assert without_tpu("CUDA out of memory on a GPU, fixed by a smaller batch; no TPU involved")
    assert not without_tpu("a PyTorch DataLoader with many workers freezes on a CPU or GPU machine")
    assert tpu_host_only({"tpu": ["v3-8"], "device": []})
    assert not tpu_host_only({"tpu": ["v3-8"], "device": ["a100"]})
    # Written for this test: a fresh TPU VM whose first call to the device never returns.
    text = (
        "xm.xla_device() nunca volta numa v3-8 que acabei de criar\n"
        "torch 2.1 com torch_xla 2.1, primeiro script na máquina; fica parado nessa linha sem erro "
        "e com a CPU em 0%"
    )
    r = engine.retrieve(text)
    chunk = r.evidence["tpu-connection"].lookalike_chunk
    assert chunk is None or not without_tpu(chunk)
    answer = engine.ask(text)
    assert not answer.abstained and answer.results[0].id == "tpu-connection"
