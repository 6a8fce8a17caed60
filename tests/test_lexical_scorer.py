"""The BM25 scorer computes every query's postings in one vectorized pass (issue 12); it must give
exactly what scoring one term after another gives: the same documents, scores, matched terms (the
heaviest first) and scaled scores, to the bit, on random corpora and queries and on the real
knowledge base."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.retrieval.lexical import BM25
from assistant.text.tokens import tokenize


def reference_search(bm: BM25, query: str, top_k: int) -> list[tuple[int, float, list[str], float]]:
    """BM25 as it was written before the vectorized scorer: one term at a time."""
    terms = [t for t in dict.fromkeys(tokenize(query)) if t in bm.vocab]
    if not terms or not bm.n_docs:
        return []
    scores = np.zeros(bm.n_docs, dtype=np.float64)
    norm = bm.k1 * (1 - bm.b + bm.b * bm.doc_len / bm.avgdl)
    spans = []
    for term in terms:
        t = bm.vocab[term]
        lo, hi = bm.indptr[t], bm.indptr[t + 1]
        d, tf = bm.docs[lo:hi], bm.tfs[lo:hi]
        part = bm.idf[t] * tf * (bm.k1 + 1) / (tf + norm[d])
        scores[d] += part
        spans.append((term, dict(zip(d.tolist(), part.tolist(), strict=True))))
    k = min(top_k, bm.n_docs)
    top = np.argpartition(-scores, k - 1)[:k] if k < bm.n_docs else np.arange(bm.n_docs)
    top = top[np.argsort(-scores[top], kind="stable")]
    top = top[scores[top] > 0]
    # each document's terms, the heaviest contribution first, ties in query order
    matched: dict[int, list[str]] = {}
    for i in top.tolist():
        present = [(-part[i], n, term) for n, (term, part) in enumerate(spans) if i in part]
        matched[i] = [term for *_, term in sorted(present)]
    ref = reference_max_score(bm, query)
    return [
        (
            int(i),
            float(scores[i]),
            matched[int(i)],
            1.0 - float(np.exp(-scores[i] / ref)) if ref > 0 else 0.0,
        )
        for i in top
    ]


def reference_max_score(bm: BM25, query: str) -> float:
    unseen = float(np.log(1.0 + (bm.n_docs + 0.5) / 0.5))
    every = list(dict.fromkeys(tokenize(query)))
    return float(sum(bm.idf[bm.vocab[t]] if t in bm.vocab else unseen for t in every))


def _hits(bm: BM25, query: str, top_k: int) -> list[tuple[int, float, list[str], float]]:
    return [(h.doc, h.score, h.terms, h.scaled) for h in bm.search(query, top_k=top_k)]


WORDS = [f"w{i}" for i in range(40)] + ["hbm", "tpu", "XLA_TPU_JIT", "memória", "OutOfRange"]
docs = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=0, max_size=30).map(" ".join),
    min_size=1,
    max_size=25,
)
queries = st.lists(st.sampled_from([*WORDS, "unseen", "zzz"]), min_size=0, max_size=12).map(
    " ".join
)


@settings(max_examples=300, deadline=None)
@given(docs, queries, st.integers(min_value=1, max_value=30))
def test_vectorized_bm25_equals_term_by_term_scoring(texts, query, top_k):
    bm = BM25.build(texts)
    assert _hits(bm, query, top_k) == reference_search(bm, query, top_k)
    assert bm.max_score(query) == reference_max_score(bm, query)


def test_vectorized_bm25_equals_term_by_term_on_the_real_knowledge(kb):
    from assistant.evaluation import load_fixtures
    from assistant.retrieval.chunks import lexical_document
    from conftest import FIXTURES

    bm = BM25.build([lexical_document(le.entry) for le in kb.entries])
    matches, near = load_fixtures(FIXTURES / "kb")
    for q in [q.query for q in matches + near]:
        for top_k in (3, 100):
            assert _hits(bm, q, top_k) == reference_search(bm, q, top_k), q[:80]


def test_matched_terms_come_heaviest_first():
    """A document's matched terms are ordered by their share of its score, so the answer's "shared
    words" lead with what is rare in the knowledge base, not with the words every entry has."""
    bm = BM25.build(["tpu make run", "tpu make run chips busy", "tpu make", "tpu run"])
    (hit,) = [h for h in bm.search("make tpu run chips", top_k=4) if h.doc == 1]
    assert hit.terms[0] == "chip" and hit.terms[-1] == "tpu"


def test_matched_terms_are_shown_as_the_person_wrote_them():
    """The answer's "shared words" are stems inside BM25; a person reads the word they typed."""
    from assistant.text.tokens import surface_forms

    forms = surface_forms("jnp.dot Matches numpy? A memória da TPU, io_callback")
    assert forms[tokenize("matches")[0]] == "matches"  # not the stem "matche"
    assert forms[tokenize("memória")[0]] == "memória"  # accents kept
    assert forms["io_callback"] == "io_callback"
    assert "callback" not in forms  # only a part of an identifier: shown as the term itself


def test_why_lists_surface_words(engine):
    a = engine.ask("jnp.dot on my TPU only matches numpy to 3 decimals, is the TPU wrong?")
    words = next(w for w in a.results[0].why if w.startswith("shared words"))
    assert "matches" in words and "matche," not in words


def test_why_lists_only_words_the_person_wrote(engine):
    """The search reads "OOM" as "OOM (out of memory)"; the answer's shared words are the ones
    typed, so "memory" is not among them."""
    a = engine.ask("train.py OOM on my TPU v4")
    assert a.results[0].id == "hbm-oom"
    words = next(w for w in a.results[0].why if w.startswith("shared words"))
    assert "oom" in words and "memory" not in words


def test_other_parameters_rescore_the_same_postings():
    """`with_params` (calibrate.py --bm25): the postings kept, the new k1 and b used in scoring."""
    bm = BM25.build(["tpu connection refused on the tpu", "ran out of memory in hbm", "slow input"])
    rescored = bm.with_params(2.0, 0.5)
    assert (rescored.k1, rescored.b) == (2.0, 0.5) and rescored.vocab is bm.vocab
    query = "the tpu ran out of hbm memory"
    got = [(h.doc, h.score, h.terms, h.scaled) for h in rescored.search(query, top_k=3)]
    assert got == reference_search(rescored, query, 3)
    assert got != [(h.doc, h.score, h.terms, h.scaled) for h in bm.search(query, top_k=3)]
