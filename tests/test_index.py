"""The index on disk: built with a manifest, verified on load, rebuilt when stale or corrupt, and
replaced atomically."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from assistant import store
from assistant.kb import load_knowledge
from assistant.retrieval import dense

KNOWLEDGE = Path(__file__).resolve().parent.parent / "knowledge"


@pytest.fixture(params=["hashing", pytest.param("model", marks=pytest.mark.slow)])
def embedder(request):
    """The store's behaviour does not depend on what the vectors mean: each test runs with the
    hashing embedder (fast tier) and with the real model (full suite)."""
    if request.param == "hashing":
        from fakes import HashingEmbedder

        return HashingEmbedder()
    return request.getfixturevalue("real_embedder")


@pytest.fixture
def small_kb(tmp_path):
    d = tmp_path / "kb"
    d.mkdir()
    for name in ("hbm-oom.yaml", "dynamic-shape.yaml"):
        shutil.copy(KNOWLEDGE / name, d / name)
    return d


def _kb(d: Path):
    return load_knowledge(builtin=d, user_dirs=[])


def test_build_writes_manifest_and_loads(tmp_path, small_kb, embedder):
    kb = _kb(small_kb)
    report = store.build(tmp_path / "idx", kb, embedder)
    assert report.chunks > 10 and report.embedded == report.chunks
    idx = store.load(tmp_path / "idx", kb)
    m = idx.manifest
    assert m["format_version"] == store.FORMAT_VERSION
    assert m["model_id"] == dense.MODEL_ID and m["dim"] == 384
    assert m["kb_hash"] == kb.content_hash()
    assert m["entry_ids"] == ["dynamic-shape", "hbm-oom"]
    assert set(m["files"]) >= {
        "dense.faiss",
        "chunks.json",
        "lexical.json",
        "lexical.npz",
        "vectors.npy",
    }
    assert idx.faiss_index.ntotal == m["chunk_count"]


def test_stale_after_knowledge_change(tmp_path, small_kb, embedder):
    root = tmp_path / "idx"
    store.build(root, _kb(small_kb), embedder)
    f = small_kb / "hbm-oom.yaml"
    f.write_text(
        f.read_text().replace(
            "my batch does not fit in TPU memory", "my batch is too big for the TPU memory"
        )
    )
    kb2 = _kb(small_kb)
    with pytest.raises(store.IndexError_, match="knowledge files changed"):
        store.load(root, kb2)
    idx, report, reason = store.ensure(root, kb2, embedder)
    assert report is not None and "changed" in reason
    # Incremental: only the edited chunk was embedded again.
    assert report.embedded == 1
    assert idx.kb_hash == kb2.content_hash()


@pytest.mark.parametrize("damage", ["truncate", "garbage", "delete", "manifest"])
def test_corruption_is_detected_and_rebuilt(tmp_path, small_kb, embedder, damage):
    root = tmp_path / "idx"
    kb = _kb(small_kb)
    store.build(root, kb, embedder)
    version = store.current_version(root)
    target = version / "dense.faiss"
    if damage == "truncate":
        data = target.read_bytes()
        target.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        target.write_bytes(np.random.default_rng(0).bytes(target.stat().st_size))
    elif damage == "delete":
        target.unlink()
    else:
        (version / "manifest.json").write_text("{not json")
    with pytest.raises(store.IndexError_):
        store.load(root, kb)
    idx, report, reason = store.ensure(root, kb, embedder)
    assert report is not None and reason
    assert idx.faiss_index.ntotal == len(idx.chunks)
    assert store.load(root, kb).path == idx.path


@pytest.mark.parametrize(
    ("field", "value"),
    [("format_version", 999), ("model_id", "other/model"), ("pipeline", "built-by-older-code")],
)
def test_foreign_manifest_is_rejected(tmp_path, small_kb, embedder, field, value):
    root = tmp_path / "idx"
    kb = _kb(small_kb)
    store.build(root, kb, embedder)
    mf = store.current_version(root) / "manifest.json"
    data = json.loads(mf.read_text())
    data[field] = value
    mf.write_text(json.dumps(data))
    with pytest.raises(store.IndexError_):
        store.load(root, kb)


def test_failed_rebuild_keeps_previous_index(tmp_path, small_kb, embedder, monkeypatch):
    root = tmp_path / "idx"
    kb = _kb(small_kb)
    store.build(root, kb, embedder)
    before = store.current_version(root)

    def boom(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(store.BM25, "build", boom)
    with pytest.raises(RuntimeError):
        store.build(root, kb, embedder)
    assert store.current_version(root) == before
    assert store.load(root, kb).path == before
    assert not list(root.glob(".tmp-*"))


def test_concurrent_builds_do_not_corrupt(tmp_path, small_kb, embedder):
    root = tmp_path / "idx"
    kb = _kb(small_kb)
    errors: list[Exception] = []

    def work():
        try:
            store.ensure(root, kb, embedder)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert store.load(root, kb).faiss_index.ntotal > 0
    assert len([d for d in root.iterdir() if d.name.startswith("v-")]) == 1  # built once


def test_flat_index_agrees_with_exact_search(engine):
    idx = engine.index()
    vecs = idx.vectors()
    q = engine.embedder.encode(["the TPU ran out of HBM memory", "ssh session dropped"])
    exact = np.argsort(-(q @ vecs.T), axis=1)[:, :5]
    _, got = dense.search(idx.faiss_index, q, 5)
    assert (exact == got).all()
