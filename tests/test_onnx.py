"""The ONNX query-time embedder (issue 12): same vectors as sentence-transformers, same answers,
and a missing, broken or unmakeable model.onnx is rebuilt or falls back with a note — never a
crash, never a wrong answer.

The reference is `dense.SentenceTransformerEmbedder` (torch); the engine's `dense.Embedder` runs
the index's model.onnx through onnxruntime once the store has bound it to an index.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from assistant import store
from assistant.evaluation import load_fixtures, load_jsonl
from assistant.kb import load_knowledge
from assistant.retrieval import dense, onnx_embed

ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE = ROOT / "knowledge"
# shared/ sits beside the checkout (or beside the worktrees' directory).
DEV = next(
    (
        d / "shared" / "eval" / "dev_queries.jsonl"
        for d in (ROOT.parent, ROOT.parent.parent)
        if (d / "shared" / "eval" / "dev_queries.jsonl").is_file()
    ),
    ROOT.parent / "shared" / "eval" / "dev_queries.jsonl",
)


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


# -- fast tier: the configuration is read from the model's files, pooling is sentence-transformers'


def test_model_config_is_read_from_the_model_files():
    cfg = onnx_embed.read_model_config(dense.model_path())
    sbc = json.loads((dense.model_path() / "sentence_bert_config.json").read_text())
    assert cfg.max_seq_length == sbc["max_seq_length"] == 256
    assert cfg.pooling == "mean" and cfg.normalize and cfg.dim == dense.DIM


def test_model_config_follows_edited_files(tmp_path):
    d = tmp_path / "model"
    (d / "1_Pooling").mkdir(parents=True)
    src = dense.model_path()
    for name in ("modules.json", "config.json", "tokenizer_config.json"):
        shutil.copy(src / name, d / name)
    (d / "sentence_bert_config.json").write_text('{"max_seq_length": 128, "do_lower_case": true}')
    pool = json.loads((src / "1_Pooling" / "config.json").read_text())
    pool.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    (d / "1_Pooling" / "config.json").write_text(json.dumps(pool))
    cfg = onnx_embed.read_model_config(d)
    assert (cfg.max_seq_length, cfg.do_lower_case, cfg.pooling) == (128, True, "cls")
    modules = json.loads((src / "modules.json").read_text())
    (d / "modules.json").write_text(
        json.dumps([m for m in modules if "Normalize" not in m["type"]])
    )
    assert not onnx_embed.read_model_config(d).normalize
    (d / "modules.json").write_text(json.dumps([*modules, {"type": "x.models.Dense", "path": "3"}]))
    with pytest.raises(onnx_embed.OnnxUnavailable, match="unsupported"):
        onnx_embed.read_model_config(d)


def test_pooling_matches_its_definition():
    rng = np.random.default_rng(0)
    hidden = rng.normal(size=(2, 5, 4)).astype(np.float32)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
    mean = onnx_embed.pool(hidden, mask, "mean")
    assert np.allclose(mean[0], hidden[0, :3].mean(axis=0), atol=1e-6)
    assert np.allclose(onnx_embed.pool(hidden, mask, "max")[0], hidden[0, :3].max(axis=0))
    assert np.allclose(onnx_embed.pool(hidden, mask, "cls"), hidden[:, 0])
    assert np.allclose(np.linalg.norm(onnx_embed.l2_normalize(mean), axis=1), 1.0)


def test_manifest_onnx_entry_is_checked_cheaply(tmp_path):
    (tmp_path / "model.onnx").write_bytes(b"x" * 10)
    recipe = onnx_embed.EXPORT_RECIPE
    good = {"file": "model.onnx", "size": 10, "sha256": "0" * 64, "recipe": recipe}
    store._check_onnx(tmp_path, good)
    store._check_onnx(tmp_path, None)
    store._check_onnx(tmp_path, {"error": "export failed: no torch"})
    (tmp_path / onnx_embed.DATA_NAME).write_bytes(b"w" * 20)
    data = {"file": onnx_embed.DATA_NAME, "size": 20, "sha256": "1" * 64}
    store._check_onnx(tmp_path, {**good, "data": data})
    for bad, why in [
        ({**good, "size": 11}, "missing or truncated"),
        ({**good, "recipe": recipe - 1}, "recipe"),
        ({"sha": 1}, "malformed"),
        ("x", "malformed"),
        ({**good, "data": {**data, "size": 19}}, "model.onnx.data is missing or truncated"),
        ({**good, "data": {**data, "file": "gone.data"}}, "gone.data is missing"),
        ({**good, "data": "model.onnx.data"}, "malformed"),
    ]:
        with pytest.raises(store.IndexError_, match=why):
            store._check_onnx(tmp_path, bad)


# -- parity with sentence-transformers (real model) ---------------------------------------------


def _varied_texts(kb) -> list[str]:
    """200 texts: English and Portuguese chunks, real traces (some past the 256-token limit, and
    repeated far past it), dev-set and fixture queries, and empty-ish strings."""
    from assistant.retrieval.chunks import entry_chunks

    chunks = [c for le in kb.entries for c in entry_chunks(le.entry)]
    en = [c.text for c in chunks if c.lang == "en"][::5][:45]
    pt = [c.text for c in chunks if c.lang == "pt"][::5][:45]
    matches, near = load_fixtures(ROOT / "tests" / "fixtures" / "kb")
    fixtures = [q.query for q in matches + near]
    traces = sorted(fixtures, key=len, reverse=True)[:20]
    long = [t * 8 for t in traces[:10]] + [" ".join(fixtures[:40])]
    dev = [q.query for q in load_jsonl(DEV)] if DEV.is_file() else fixtures[-45:]
    empty = ["", " ", "\n", "\t\t", ".", "?", "a", "TPU", "é", "😀", "[PAD]", "[CLS] [SEP]"]
    texts = list(dict.fromkeys(empty + long + traces + dev[:45] + en + pt + fixtures))
    return texts[:200]


@pytest.fixture(scope="module")
def onnx_embedder(engine):
    assert engine.embedder.backend == "onnx", engine.embedder.notes
    return engine.embedder


def test_onnx_and_sentence_transformers_agree_on_200_varied_texts(kb, onnx_embedder):
    texts = _varied_texts(kb)
    assert len(texts) == 200
    ref = onnx_embedder.reference.encode(texts)
    got = onnx_embedder.encode(texts)  # batched: padding must not change a vector
    assert got.shape == ref.shape == (200, dense.DIM) and got.dtype == np.float32
    cos = _cosines(got, ref)
    worst = int(np.argmin(cos))
    assert cos.min() >= 0.999, (cos.min(), texts[worst][:80])
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    one_by_one = np.stack([onnx_embedder.encode([t])[0] for t in texts[::10]])
    assert _cosines(one_by_one, ref[::10]).min() >= 0.999
    # The long traces really are cut at the model's limit (and cut the same way).
    onnx = onnx_embedder._active
    lengths = [len(e.ids) for e in onnx._tokenizer.encode_batch(texts)]
    assert max(lengths) == onnx_embed.read_model_config(dense.model_path()).max_seq_length
    assert sum(n == max(lengths) for n in lengths) >= 10


def test_an_onnx_vector_does_not_depend_on_its_batch(kb, onnx_embedder):
    """The index build batches chunks longest first (store.py) instead of in knowledge order, to
    pad less; that is free only because a vector is the same bits whatever it was batched with."""
    texts = _varied_texts(kb)
    together = onnx_embedder.encode(texts)
    alone = np.stack([onnx_embedder.encode([t])[0] for t in texts])
    assert np.array_equal(together, alone)
    by_length = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    regrouped = np.zeros_like(together)
    for start in range(0, len(texts), 64):
        rows = by_length[start : start + 64]
        regrouped[rows] = onnx_embedder.encode([texts[i] for i in rows])
    assert np.array_equal(together, regrouped)


def test_every_dev_query_has_the_same_top5_with_either_engine(kb, index_root, engine):
    from assistant.engine import Engine

    assert engine.embedder.backend == "onnx"
    reference = Engine(kb=kb, index_root=index_root, embedder=engine.embedder.reference)
    if not DEV.is_file():
        pytest.skip(f"no dev queries at {DEV}")
    queries = [q.query for q in load_jsonl(DEV)]
    assert len(queries) >= 40
    for q in queries:
        a = [r.id for r in engine.ask(q, dense_mode="always").results[:5]]
        b = [r.id for r in reference.ask(q, dense_mode="always").results[:5]]
        assert a == b, q
        # The dense channel alone ranks the entries the same way too.
        da = engine.retrieve(q).evidence
        db = reference.retrieve(q).evidence
        top = sorted(da, key=lambda e: -da[e].dense)[:5]
        assert top == sorted(db, key=lambda e: -db[e].dense)[:5], q
        assert max(abs(da[e].dense - db[e].dense) for e in top) < 2e-3


def test_export_is_deterministic_and_recorded(index_root, engine, tmp_path):
    idx = engine.index()
    meta = idx.onnx
    assert meta and meta["sha256"] == onnx_embed.sha256_file(idx.path / meta["file"])
    assert meta["exporter"].startswith("torch ") and meta["recipe"] == onnx_embed.EXPORT_RECIPE
    assert meta["model"] == dense.model_fingerprint() == idx.manifest["model"]
    assert meta["min_cosine_vs_reference"] >= dense.EXPORT_MIN_COSINE
    data = meta["data"]
    assert data["file"] == onnx_embed.DATA_NAME
    assert data["sha256"] == onnx_embed.sha256_file(idx.path / data["file"])
    assert data["size"] > 80e6 > 1e6 > meta["size"]  # the weights are in the data file
    again = tmp_path / "again.onnx"
    onnx_embed.export(engine.embedder.reference.load(), again)
    assert onnx_embed.sha256_file(again) == meta["sha256"]
    assert onnx_embed.sha256_file(tmp_path / onnx_embed.DATA_NAME) == data["sha256"]


# -- a missing, broken or unmakeable model.onnx ---------------------------------------------------


@pytest.fixture(scope="module")
def small_index(tmp_path_factory, real_embedder):
    """A two-entry index with its model.onnx, built once; tests work on copies."""
    d = tmp_path_factory.mktemp("onnx-kb")
    for name in ("hbm-oom.yaml", "dynamic-shape.yaml"):
        shutil.copy(KNOWLEDGE / name, d / name)
    kb = load_knowledge(builtin=d, user_dirs=[])
    root = tmp_path_factory.mktemp("onnx-index") / "idx"
    store.build(root, kb, _sharing(real_embedder))
    return kb, root


def _sharing(real_embedder) -> dense.Embedder:
    """A fresh engine embedder that shares the loaded reference model (no second torch load)."""
    e = dense.Embedder()
    e.reference = real_embedder.reference
    return e


def _copy(root: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "idx"
    shutil.copytree(root, dst)
    return dst


def _onnx_file(root: Path) -> Path:
    version = store.current_version(root)
    assert version is not None
    return version / store.load(root).onnx["file"]


QUERY = "my TPU runs out of HBM memory when I raise the batch size"


def test_missing_onnx_is_rebuilt(small_index, real_embedder, tmp_path):
    kb, root = small_index
    root = _copy(root, tmp_path)
    sha = store.load(root).onnx["sha256"]
    _onnx_file(root).unlink()
    e = _sharing(real_embedder)
    idx, report, reason = store.ensure(root, kb, e)
    assert report is not None and "model.onnx is missing" in reason
    assert report.embedded == 0  # the vectors were reused: only the model was exported again
    assert idx.onnx["sha256"] == sha  # the same export, bit for bit
    e.load()
    assert e.backend == "onnx" and not e.notes


def test_corrupt_onnx_is_exported_again_when_loaded(small_index, real_embedder, tmp_path):
    kb, root = small_index
    root = _copy(root, tmp_path)
    f = _onnx_file(root)
    data = bytearray(f.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 4096] = b"\x00" * 4096  # same size: passes the stat
    f.write_bytes(bytes(data))
    e = _sharing(real_embedder)
    old, report, _ = store.ensure(root, kb, e)
    assert report is None  # the cheap check at load time cannot see it…
    got = e.encode([QUERY])  # …the sha256 check at first use does, and re-exports
    assert e.backend == "onnx"
    assert any("does not match its sha256" in n for n in e.notes)
    new = store.load(root, kb)
    assert (
        new.path != old.path
        and onnx_embed.sha256_file(new.path / "model.onnx") == (new.onnx["sha256"])
    )
    assert _cosines(got, real_embedder.reference.encode([QUERY]))[0] >= 0.999


def test_corrupt_onnx_weights_are_exported_again_when_loaded(small_index, real_embedder, tmp_path):
    kb, root = small_index
    root = _copy(root, tmp_path)
    f = _onnx_file(root).with_name(onnx_embed.DATA_NAME)
    with open(f, "r+b") as fh:  # same size: passes the stat
        fh.seek(f.stat().st_size // 2)
        fh.write(b"\x00" * 4096)
    e = _sharing(real_embedder)
    old, report, _ = store.ensure(root, kb, e)
    assert report is None
    got = e.encode([QUERY])
    assert e.backend == "onnx"
    assert any("model.onnx.data does not match its sha256" in n for n in e.notes)
    new = store.load(root, kb)
    assert new.path != old.path
    assert onnx_embed.sha256_file(new.path / onnx_embed.DATA_NAME) == new.onnx["data"]["sha256"]
    assert _cosines(got, real_embedder.reference.encode([QUERY]))[0] >= 0.999


def test_missing_onnx_weights_are_rebuilt(small_index, real_embedder, tmp_path):
    kb, root = small_index
    root = _copy(root, tmp_path)
    sha = store.load(root).onnx["data"]["sha256"]
    _onnx_file(root).with_name(onnx_embed.DATA_NAME).unlink()
    e = _sharing(real_embedder)
    idx, report, reason = store.ensure(root, kb, e)
    assert report is not None and "model.onnx.data is missing" in reason
    assert report.embedded == 0 and idx.onnx["data"]["sha256"] == sha
    e.load()
    assert e.backend == "onnx" and not e.notes


def test_broken_onnx_that_cannot_be_remade_falls_back_with_a_note(
    small_index, real_embedder, tmp_path, monkeypatch
):
    from assistant.engine import Engine

    kb, root = small_index
    root = _copy(root, tmp_path)
    f = _onnx_file(root)
    f.write_bytes(b"\x07" * f.stat().st_size)  # garbage of the right size

    def no_export(model, out):
        raise RuntimeError("exporter unavailable")

    monkeypatch.setattr(onnx_embed, "export", no_export)
    eng = Engine(kb=kb, index_root=root, embedder=_sharing(real_embedder))
    answer = eng.ask(QUERY, dense_mode="always")
    assert eng.embedder.backend == "sentence-transformers"
    assert answer.results and answer.results[0].id == "hbm-oom"
    assert any("sentence-transformers instead" in n for n in answer.notes)
    assert all("\n" not in n for n in answer.notes)  # one line each
    want = real_embedder.reference.encode([QUERY])
    assert _cosines(eng.embedder.encode([QUERY]), want)[0] > 0.9999


def test_export_failure_at_build_leaves_a_working_index(
    small_index, real_embedder, tmp_path, monkeypatch
):
    kb, _ = small_index

    def no_export(model, out):
        raise RuntimeError("exporter unavailable")

    monkeypatch.setattr(onnx_embed, "export", no_export)
    root = tmp_path / "idx"
    e = _sharing(real_embedder)
    store.build(root, kb, e)
    idx = store.load(root, kb)
    assert idx.onnx == {"error": "export failed: RuntimeError: exporter unavailable"}
    vec = e.encode([QUERY])
    assert e.backend == "sentence-transformers"
    assert any("no ONNX model in the index" in n for n in e.notes)
    assert _cosines(vec, real_embedder.reference.encode([QUERY]))[0] > 0.9999
    # The next build tries again (here: succeeds) and the queries go back to ONNX.
    monkeypatch.undo()
    e2 = _sharing(real_embedder)
    store.build(root, kb, e2)
    assert "sha256" in store.load(root, kb).onnx
    e2.load()
    assert e2.backend == "onnx"


def test_an_onnx_export_of_another_recipe_is_stale(small_index, real_embedder, tmp_path):
    kb, root = small_index
    root = _copy(root, tmp_path)
    version = store.current_version(root)
    m = json.loads((version / "manifest.json").read_text())
    m["onnx"]["recipe"] = 0
    (version / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(store.IndexError_, match="recipe"):
        store.load(root, kb)


def test_cli_with_a_truncated_onnx_rebuilds_and_answers(small_index, cli_env, tmp_path):
    import subprocess
    import sys

    kb, root = small_index
    root = _copy(root, tmp_path)
    f = _onnx_file(root)
    with open(f, "r+b") as fh:
        fh.truncate(f.stat().st_size // 3)
    env = {
        **cli_env,
        "TPU_ASSIST_INDEX_DIR": str(root),
        "TPU_ASSIST_KNOWLEDGE_DIR": str(kb_dir(kb)),
    }
    r = subprocess.run(
        [sys.executable, "-m", "assistant", "ask", "--json", QUERY],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr.decode()
    assert b"Traceback" not in r.stderr
    assert json.loads(r.stdout)["results"][0]["id"] == "hbm-oom"
    assert "sha256" in store.load(root).onnx
    assert onnx_embed.sha256_file(_onnx_file(root)) == store.load(root).onnx["sha256"]


def kb_dir(kb) -> Path:
    return kb.entries[0].path.parent
