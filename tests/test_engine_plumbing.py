"""The engine's wiring, in the fast tier: the real knowledge base, signatures, BM25 and FAISS, with
hashing vectors in place of the model (tests/fakes.py). What the answers *mean* is tested with the
real model elsewhere (test_channels, test_kb_fixtures, test_quality); here: shapes, plumbing, and
the one-shot path that must not need the embedding model at all."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.retrieval import dense
from fakes import HashingEmbedder

HBM = (
    "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Ran out of memory in "
    "memory space hbm; used: 9.82G; limit: 7.48G."
)


# -- the stand-in itself -----------------------------------------------------------------------


def test_hashing_embedder_has_the_embedder_contract():
    e = HashingEmbedder()
    assert not e.loaded
    assert e.load() is e and e.loaded
    vecs = e.encode(["TPU ran out of HBM memory", "", "a memória HBM da TPU acabou"])
    assert vecs.shape == (3, dense.DIM) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert e.encode([]).shape == (0, dense.DIM)


def test_hashing_embedder_is_deterministic_and_graded():
    a, b = HashingEmbedder(), HashingEmbedder()
    texts = ["the TPU ran out of HBM memory", "TPU out of HBM memory", "ssh key did not propagate"]
    va, vb = a.encode(texts), b.encode(texts)
    assert np.array_equal(va, vb)
    assert va[0] @ va[1] > 0.5 > va[0] @ va[2]


# -- the engine over hashing vectors -----------------------------------------------------------


def test_answer_has_the_documented_shape(fast_engine):
    answer = fast_engine.ask(HBM, top_k=3)
    d = answer.to_dict()
    assert set(d) == {
        "abstained",
        "results",
        "facts",
        "lang",
        "values",
        "notes",
        "set_aside",
        "resembles",
    }
    assert d["set_aside"] is None  # only after a refusal (tests/test_set_aside.py)
    assert 1 <= len(d["results"]) <= 3
    for r in d["results"]:
        assert set(r) == {"id", "title", "score", "confidence", "why", "source"}
        assert 0.0 <= r["confidence"] <= 1.0 and isinstance(r["why"], list)
    best = d["results"][0]
    assert best["id"] == "hbm-oom" and any("signature" in w for w in best["why"])
    assert d["values"].get("hbm_used") == "9.82G"


def test_empty_input_abstains_with_a_note(fast_engine):
    answer = fast_engine.ask("   \n\x1b[31m\n")
    assert answer.abstained and answer.results == [] and answer.notes


def test_portuguese_answer_uses_portuguese_titles(fast_engine):
    answer = fast_engine.ask(HBM, lang="pt")
    entry = fast_engine.kb.get(answer.results[0].id)
    assert answer.lang == "pt" and answer.results[0].title == entry.title.pt


def test_dense_channel_is_searched_when_asked(fast_engine, fake_embedder):
    before = fake_embedder.encoded
    fast_engine.ask("my training job is slow and the TPU looks idle", dense_mode="always")
    assert fake_embedder.encoded == before + 1


def test_decisive_signature_answers_without_the_model(fast_engine, fast_index_root, kb):
    """A one-shot `ask` on an exact error line: the index is loaded, the embedder never used."""
    from assistant.engine import Engine

    fast_engine.index()  # built by the session engine; this one only loads it
    fresh = HashingEmbedder()
    one_shot = Engine(kb=kb, index_root=fast_index_root, embedder=fresh)
    answer = one_shot.ask(HBM, dense_mode="auto")
    assert answer.results[0].id == "hbm-oom"
    assert fresh.encoded == 0 and not fresh.loaded
    assert one_shot.last_build is None  # loaded, not rebuilt


@pytest.mark.parametrize("text", ["\x00\x01binary\xff", "é" * 5000, "a\n" * 30_000])
def test_odd_inputs_never_raise(fast_engine, text):
    d = fast_engine.ask(text).to_dict()
    assert isinstance(d["abstained"], bool) and isinstance(d["results"], list)
