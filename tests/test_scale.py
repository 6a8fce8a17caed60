"""The approximate index used for large knowledge bases agrees with exact search (recall floor).
Not timed: speed is measured by scripts/bench.py."""

from __future__ import annotations

import numpy as np

from assistant.retrieval import dense


def _perturbed(base: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    picks = base[rng.integers(0, len(base), n)]
    vecs = picks + rng.normal(0, 0.35 / np.sqrt(base.shape[1]), picks.shape).astype(np.float32)
    return (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)


def test_hnsw_recall_against_exact_search(engine):
    idx = engine.index()
    vecs = _perturbed(idx.vectors(), 20_000)
    queries = engine.embedder.encode(
        [
            "TPU out of HBM memory",
            "ssh key did not propagate",
            "a operação não existe na TPU",
            "input pipeline is the bottleneck",
            "batch norm accuracy dropped on 8 cores",
        ]
        * 4
    )
    queries = queries + np.random.default_rng(1).normal(0, 0.01, queries.shape).astype(np.float32)
    exact = dense.build_faiss(vecs, "flat")
    approx = dense.build_faiss(vecs, "hnsw")
    _, truth = dense.search(exact, queries, 10)
    _, got = dense.search(approx, queries, 10)
    recall = np.mean([len(set(g) & set(t)) / 10 for g, t in zip(got, truth, strict=True)])
    assert recall >= 0.95


def test_index_kind_follows_the_documented_size():
    small = dense.build_faiss(np.eye(4, dense.DIM, dtype=np.float32))
    assert type(small).__name__ == "IndexFlatIP"
    assert dense.HNSW_THRESHOLD >= 10_000
