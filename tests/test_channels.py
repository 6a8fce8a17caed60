"""Each retrieval channel on its own, then their fusion and the abstention decision."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from assistant.calibration import Calibration, Confidence
from assistant.decide import runner_ups, settled_lead
from assistant.engine import Retrieval
from assistant.retrieval.fusion import Evidence, Scored, dense_scaled, fuse
from assistant.retrieval.lexical import BM25
from assistant.retrieval.signatures import SignatureHit, match_signatures
from assistant.text.parse import Facts
from assistant.text.tokens import tokenize

HBM_TF = (
    "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Ran out of memory in "
    "memory space hbm; used: 9.82G; limit: 7.48G."
)


def entry_hits(kb, line: str, entry_id: str) -> list:
    """The signature hits of one entry on one line, best first."""
    return [h for h in match_signatures(kb.entries, [line]) if h.entry_id == entry_id]


def captures(hits: list) -> dict[str, str]:
    return {k: v for h in hits for k, v in h.captures.items()}


def test_signature_channel_captures_values(kb):
    hits = match_signatures(kb.entries, ["some noise", HBM_TF])
    assert hits and hits[0].entry_id == "hbm-oom"
    assert hits[0].line_no == 1
    caps = {k: v for h in hits for k, v in h.captures.items()}
    assert caps["hbm_used"] == "9.82G" and caps["hbm_limit"] == "7.48G"


@pytest.mark.parametrize(
    "line",
    [
        "RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 3.81G. That was "
        "not possible. There are 1.42G free.; (0x0x0_HBM0)",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Error loading program: "
        "Attempting to allocate 3.81G. That was not possible. There are 1.42G free.; (0x0x0_HBM0)",
    ],
)
def test_the_tpu_runtime_allocation_failure_gives_its_figures(kb, line):
    caps = captures(entry_hits(kb, line, "hbm-oom"))
    assert caps["hbm_alloc"] == "3.81G" and caps["hbm_free"] == "1.42G"


def test_signature_channel_ignores_cuda_oom(kb):
    hits = match_signatures(
        kb.entries,
        [
            "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)"
        ],
    )
    assert not [h for h in hits if h.entry_id == "hbm-oom"]


@pytest.mark.parametrize(
    "line",
    [
        "Compilation failure: Dynamic Spatial Convolution is not supported: %convolution.81 = ...",
        "Compilation failure: Dynamic Spatial reduce window is not supported: %reduce-window.21",
        "Compilation failure: Dynamic concatenation is not supported yet: %reshape.3993 = s32[832]",
    ],
)
def test_xla_dynamic_op_refusals_are_dynamic_shape(kb, line):
    assert {h.entry_id for h in match_signatures(kb.entries, [line])} == {"dynamic-shape"}


def test_onnx_runtime_dynamic_shape_is_not_an_xla_refusal(kb):
    line = "op_support_checker.cc:409 Dynamic shape is not supported for now, for input:x:0"
    assert not [h for h in match_signatures(kb.entries, [line]) if h.entry_id == "dynamic-shape"]


def test_tokenizer_keeps_identifiers_whole_and_folds_accents():
    toks = tokenize("No registered 'StringSplitV2' OpKernel for XLA_TPU_JIT — memória insuficiente")
    assert "xla_tpu_jit" in toks and "xla" in toks and "jit" in toks
    assert "opkernel" in toks and "kernel" in toks
    assert "memoria" in toks
    assert "for" not in toks and "no" not in toks


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("TPUv3-8", ["tpuv3", "tpu", "v3"]),  # was TP + Uv: "TPUv3" shared nothing with "TPU v3"
        ("TPUv5e", ["tpuv5e", "tpu", "v5e"]),
        ("TPUs", ["tpus"]),  # was TP + Us
        ("GPUs", ["gpus"]),
        ("PyTorch", ["pytorch", "py", "torch"]),
        ("ResourceExhaustedError", ["resourceexhaustederror", "resource", "exhausted", "error"]),
        ("Conv2D", ["conv2d", "conv"]),
    ],
)
def test_tokenizer_splits_mixed_case_words_as_people_write_them(word, parts):
    assert tokenize(word) == parts


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("stuck on a v4-32", ["stuck", "v4"]),
        ("TPUv4-32", ["tpuv4", "tpu", "v4"]),
        ("tpu-v3-8", ["tpu", "v3"]),
        ("v6e-256 and v5litepod-16", ["v6e", "v5litepod", "litepod"]),
        # sizes and shapes keep their numbers
        (
            "32 GiB per chip, bf16[32,128]",
            ["32", "gib", "gi", "per", "chip", "bf16", "bf", "16", "32", "128"],
        ),
        ("python3-8", ["python3", "python"]),  # not an accelerator type
    ],
)
def test_accelerator_types_read_as_their_generation(text, tokens):
    """A slice's chip count is not evidence of a problem: as a bare number "v4-32" matched
    "32 GiB per v4 chip" and read "stuck at initialization on a v4-32" as out of memory."""
    assert tokenize(text) == tokens


def test_lexical_channel_ranks_by_shared_rare_terms():
    bm = BM25.build(["tpu memory hbm out of memory", "ssh connection timed out", "pão de queijo"])
    hits = bm.search("ran out of hbm memory")
    assert hits[0].doc == 0 and "hbm" in hits[0].terms
    assert bm.search("xyzzy") == []


def test_lexical_channel_reaches_portuguese(engine):
    idx = engine.index()
    hits = idx.lexical.search("memória da TPU esgotada HBM")
    assert idx.entry_ids[hits[0].doc] == "hbm-oom"


def test_dense_channel_finds_paraphrase(engine):
    from assistant.retrieval import dense
    from assistant.retrieval.chunks import LOOKALIKE

    idx = engine.index()
    q = engine.embedder.encode(
        ["the accelerator has too little high bandwidth memory for my network"]
    )
    scores, ids = dense.search(idx.faiss_index, q, 10)
    # Described look-alikes are chunks too, but never an entry's evidence (engine._dense).
    own = [i for i in ids[0] if idx.chunks[i].kind != LOOKALIKE]
    entries = list(dict.fromkeys(idx.chunks[i].entry_id for i in own))
    assert "hbm-oom" in entries[:3]
    assert 0.3 < scores[0][0] <= 1.0 and list(scores[0]) == sorted(scores[0], reverse=True)


def test_fusion_orders_by_weighted_evidence():
    blank = Confidence(bias=0.0, coef={}, threshold=0.5)
    params = Calibration(
        weights={"sig": 1.0, "dense": 0.5, "lex": 0.5},
        dense_floor=0.2,
        rank_scale=1.0,
        confidence=blank,
        confidence_nodense=blank,
    )
    ev = {
        "a": Evidence(sig=1.0, dense=0.3, lex=0.1),
        "b": Evidence(dense=0.9, lex=0.9),
        "c": Evidence(),
    }
    ranked = fuse(ev, params)
    assert [s.entry_id for s in ranked] == ["a", "b", "c"]
    assert ranked[2].score == 0.0
    assert dense_scaled(0.1, 0.2) == 0.0 and dense_scaled(1.0, 0.2) == 1.0


def _scored(entry_id, score, **ev):
    return Scored(entry_id, score, Evidence(**ev))


def test_a_settled_answer_is_followed_by_its_neighbours_then_the_rest():
    ranked = [
        _scored("hbm-oom", 1.3, sig=1.0),
        _scored("tpu-connection", 0.19, lex=0.4),  # shared words with the report's title
        _scored("small-batch", 0.16, dense=0.4),
        _scored("batch-or-model-too-large", 0.14, dense=0.4),
        _scored("tensor-padding", 0.10, sig=0.5),  # a signature of its own comes first
    ]
    related = ["tensor-padding", "batch-or-model-too-large", "small-batch"]
    order = [s.entry_id for s in runner_ups(ranked, related)]
    assert order == ["tensor-padding", "small-batch", "batch-or-model-too-large", "tpu-connection"]


def test_without_a_settling_signature_the_fused_order_stands():
    related = ["batch-or-model-too-large"]
    weak = [
        _scored("hbm-oom", 0.9, sig=0.6),
        _scored("x", 0.5),
        _scored("batch-or-model-too-large", 0.4),
    ]
    assert [s.entry_id for s in runner_ups(weak, related)] == ["x", "batch-or-model-too-large"]
    excluded = [_scored("hbm-oom", 0.9, sig=1.0, exclude=0.8), *weak[1:]]
    assert [s.entry_id for s in runner_ups(excluded, related)] == ["x", "batch-or-model-too-large"]


def _retrieval(**context_and_gate):
    gate = context_and_gate.pop("gate", None)
    return Retrieval(
        Facts(context={**context_and_gate, "gate": gate}),
        {},
        False,
        other_accel=float(gate == "device"),
        other_service=float(gate == "service"),
    )


def test_a_settled_answer_well_ahead_stands_whatever_the_confidence_model_says(engine):
    tpu = _retrieval(tpu=["v4-8"])
    assert settled_lead(_scored("op-unavailable", 0.98, sig=0.8), 0.7, tpu)
    assert not settled_lead(_scored("op-unavailable", 0.98, sig=0.8), 0.3, tpu)  # a close call
    assert not settled_lead(_scored("op-unavailable", 0.6, sig=0.6), 0.7, tpu)  # not specific
    excluded = _scored("op-unavailable", 0.98, sig=1.0, exclude=0.5)  # a look-alike contests it
    assert not settled_lead(excluded, 0.7, tpu)
    # about a GPU VM, settled by a message any machine prints: it shows no TPU, so no lift
    gpu_vm = _retrieval(device=["t4"], gate="device")
    ssh = SignatureHit("ssh-disconnect", "client-loop-disconnect", 0.8, 5, "", "", {})
    ssh = replace(ssh, tpu_evidence=False)
    dropped = _scored("ssh-disconnect", 1.0, sig=0.8, signature_hits=[(ssh, 5)])
    assert settled_lead(dropped, 0.7, tpu)
    assert not settled_lead(dropped, 0.7, gpu_vm)
    # a job's log around a global batch that does not divide among the devices: the line settles
    # it, the rest of the log wins none of the dense and lexical views (the model alone: 0.15)
    log = "\n".join(
        [
            "==> /var/log/jobs/run-0931/worker-0.log <==",
            "2025-03-09 08:12:40 [launcher] cmd: python3 -m lm.train --config configs/small.y"
            "aml --set data.global_batch=100",
            "I0309 08:12:47.118640 140102277338944 train.py:66] jax.device_count()=8 local_de"
            "vice_count()=8 process_count()=1",
            "I0309 08:12:47.120071 140102277338944 train.py:71] mesh: Mesh('data': 8)",
            "I0309 08:12:47.120522 140102277338944 train.py:80] config: {'global_batch': 100,"
            " 'seq_len': 2048, 'lr': 1e-4, 'dtype': 'bfloat16'}",
            "I0309 08:12:53.002338 140102277338944 data.py:114] opened 214 shards from /mnt/d"
            "isks/data/tok/train-*.arrayrecord",
            "Traceback (most recent call last):",
            '  File "/opt/lm/lm/train.py", line 240, in <module>',
            "    main()",
            '  File "/opt/lm/lm/train.py", line 188, in main',
            "    batch = jax.device_put(next(it), data_sharding)",
            "ValueError: One of device_put args was given the sharding of NamedSharding(mesh="
            "Mesh('data': 8), spec=PartitionSpec('data',)), which implies that the global siz"
            "e of its dimension 0 should be divisible by 8, but it is equal to 100 (full shap"
            "e: (100, 2048))",
            "2025-03-09 08:12:54 [launcher] exit code 1, not retrying (non-retryable)",
        ]
    )
    a = engine.ask(log)
    assert a.best.id == "batch-or-model-too-large" and not a.abstained
    assert a.best.confidence >= 0.5


def test_a_neighbour_runner_up_says_why(engine):
    a = engine.ask(
        "Trax on Colab: training crashed\nRuntimeError: Resource exhausted: Ran out of memory in "
        "memory space hbm. Used 18.74G of 8.00G hbm. Exceeded hbm capacity by 10.74G."
    )
    assert a.best.id == "hbm-oom" and not a.abstained
    neighbours = [r for r in a.results[1:] if r.why and r.why[0].startswith("a neighbour of")]
    assert "batch-or-model-too-large" in [r.id for r in a.results[1:3]]
    assert neighbours and all(a.best.title in r.why[0] for r in neighbours)


def test_ask_matches_and_explains(engine):
    a = engine.ask("2026-03-02 11:04:12.118 W op_kernel.cc:1830] OP_REQUIRES failed\n" + HBM_TF)
    assert not a.abstained
    best = a.best
    assert best.id == "hbm-oom" and 0.0 <= best.confidence <= 1.0
    assert any("hbm-used-limit" in w and "line 2" in w for w in best.why)
    assert a.values["hbm_used"] == "9.82G"
    # best first: the answer has the highest fused score; its runner-ups are in fused order
    # within each group of `decide.runner_ups` (own signatures, the answer's neighbours, the rest)
    assert a.best.score == max(r.score for r in a.results)
    for group in (
        [r for r in a.results[1:] if r.why and r.why[0].startswith("a neighbour of")],
        [r for r in a.results[1:] if not (r.why and r.why[0].startswith("a neighbour of"))],
    ):
        assert [r.score for r in group] == sorted((r.score for r in group), reverse=True)


def test_ask_abstains_on_unrelated_input(engine):
    for text in [
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB "
        "total capacity; 13.1 GiB already allocated)",
        "ModuleNotFoundError: No module named 'pandas'",
        "how do I center a div in CSS?",
    ]:
        a = engine.ask(text)
        assert a.abstained, (text, a.results[0].id, a.results[0].confidence)
        assert a.results  # nearest candidates are still shown


def test_ask_empty_input_abstains(engine):
    a = engine.ask("   \n\t  ")
    assert a.abstained and a.results == []


def test_calibration_rejects_a_stale_file(tmp_path):
    """A coefficient for a feature the code no longer computes is an error, not a silent zero."""
    from assistant import decide
    from assistant.calibration import CALIBRATION_FILE

    good = json.loads(CALIBRATION_FILE.read_text())
    assert (
        decide.load_params(str(CALIBRATION_FILE)).confidence.threshold
        == good["confidence"]["threshold"]
    )
    stale = dict(
        good, confidence=dict(good["confidence"], coef={**good["confidence"]["coef"], "gone": 1.0})
    )
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(stale))
    with pytest.raises(ValueError, match="gone"):
        decide.load_params(str(path))
    path.write_text(json.dumps(dict(good, extra_key=1)))
    with pytest.raises(ValueError):
        decide.load_params(str(path))


@pytest.mark.parametrize(
    "line",
    [
        "NotFoundError: No registered 'RegexFullMatch' OpKernel for XLA_TPU_JIT devices compatible "
        "with node {{node pre/RegexFullMatch}}",
        # retyped by hand, with the device name quoted like the op name
        "NotFoundError: No registered 'RegexFullMatch' OpKernel for 'XLA_TPU_JIT' devices compatible "
        "with node {{node pre/RegexFullMatch}}",
    ],
)
def test_a_missing_tpu_kernel_is_caught_with_or_without_quotes(kb, line):
    hits = entry_hits(kb, line, "op-unavailable")
    assert hits and hits[0].weight == 1.0
    assert captures(hits)["op_name"] == "RegexFullMatch"
